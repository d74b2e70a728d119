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

}  // namespace twb
