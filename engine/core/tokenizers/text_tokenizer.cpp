// TextTokenizer: the public handle over an engine Tokenizer.
#include "twb/tokenizer.h"

#include "core/tokenizers/tokenizer.h"
#include "twb/errors.h"

namespace twb {

TextTokenizer::TextTokenizer(std::shared_ptr<const Tokenizer> impl) : m_impl(std::move(impl)) {}

TextTokenizer TextTokenizer::load(const std::filesystem::path& dir) {
    return TextTokenizer(std::shared_ptr<const Tokenizer>(load_tokenizer(dir)));
}

TokenizerKind TextTokenizer::kind() const {
    return m_impl->kind();
}
int TextTokenizer::vocab_size() const {
    return m_impl->vocab_size();
}
std::vector<int32_t> TextTokenizer::encode(std::string_view text) const {
    return m_impl->encode(text);
}
std::string TextTokenizer::decode(const std::vector<int32_t>& ids) const {
    for (int32_t id : ids)
        if (id < 0 || id >= m_impl->vocab_size())
            throw InputError("token id " + std::to_string(id) + " is outside the vocabulary (0.." +
                             std::to_string(m_impl->vocab_size() - 1) + ")");
    return m_impl->decode(ids);
}
std::string TextTokenizer::token_text(int id) const {
    return m_impl->token_text(id);
}
int TextTokenizer::eos_id() const {
    return m_impl->eos_id();
}
std::string TextTokenizer::fingerprint() const {
    return m_impl->fingerprint();
}

std::filesystem::path find_tokenizer_dir(const std::filesystem::path& p) {
    namespace fs = std::filesystem;
    for (const fs::path& d : {p, p / "tokenizer", p.parent_path().parent_path() / "tokenizer"})
        if (!d.empty() && fs::exists(d / "tokenizer.json"))
            return d;
    std::error_code ec;
    if (!fs::exists(p, ec))  // a mistyped path is said as such, not as a folder without a tokenizer
        throw InputError(p.string() + ": no such folder; give a prepared dataset, a run or a checkpoint folder");
    throw InputError(p.string() + ": no tokenizer here (a prepared dataset, a run or a checkpoint folder has one)");
}

void require_same_tokenizer(const std::filesystem::path& model, const std::filesystem::path& data,
                            const std::string& what) {
    const auto a = TextTokenizer::load(find_tokenizer_dir(model));
    const auto b = TextTokenizer::load(find_tokenizer_dir(data));
    if (a.fingerprint() == b.fingerprint())
        return;
    auto describe = [](const TextTokenizer& t) {
        return to_string(t.kind()) + ", " + std::to_string(t.vocab_size()) + " tokens, fingerprint " +
               t.fingerprint().substr(0, 12);
    };
    throw ConfigError("cannot " + what + ": " + model.string() + " uses one tokenizer (" + describe(a) + ") and " +
                      data.string() + " another (" + describe(b) + "); the same id means different text in each. " +
                      "Prepare the data with the model's tokenizer: twb prepare --tokenizer-from " + model.string() +
                      " ...");
}

}  // namespace twb
