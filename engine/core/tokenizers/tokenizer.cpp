// Tokenizer factory: dispatches on kind for training and on tokenizer.json for loading.
#include "core/tokenizers/tokenizer.h"

#include "twb/errors.h"

#include <fstream>
#include <nlohmann/json.hpp>

namespace twb {

namespace fs = std::filesystem;

std::unique_ptr<Tokenizer> train_tokenizer(const TokenizerSpec& spec, const fs::path& corpus_file,
                                           const ProgressFn& progress) {
    switch (spec.kind) {
        case TokenizerKind::Char:
            return train_char_tokenizer(corpus_file, progress);
        case TokenizerKind::Byte:
            return make_byte_tokenizer();
        case TokenizerKind::Word:
            return train_word_tokenizer(spec, corpus_file, progress);
        case TokenizerKind::Bpe:
        case TokenizerKind::Unigram:
            return train_spm_tokenizer(spec, corpus_file, progress);
        case TokenizerKind::ByteBpe:
            return train_bytebpe_tokenizer(spec, corpus_file, progress);
    }
    throw ConfigError("unknown tokenizer kind");
}

std::string Tokenizer::fingerprint() const {
    std::string all = to_string(kind());
    for (int i = 0; i < vocab_size(); ++i) {
        all += '\x1f';
        all += token_text(i);
    }
    return sha256_hex(all);
}

fs::path run_tokenizer_dir(const fs::path& run_dir, const fs::path& data_dir) {
    const fs::path own = run_dir / "tokenizer";
    require_kept_tokenizer(own, data_dir);
    return own;
}

void require_kept_tokenizer(const fs::path& own, const fs::path& data_dir) {
    // Never the dataset's in its place: a dataset prepared again holds another tokenizer, maybe of the same
    // size, and the run's ids would be read as other text without a word.
    if (fs::exists(own / "tokenizer.json"))
        return;
    throw InputError((own / "tokenizer.json").string() +
                     ": missing; a run keeps the tokenizer its ids mean. Copy it back from the dataset the run "
                     "was trained on" +
                     (data_dir.empty() ? std::string() : " (" + data_dir.string() + ", if it was not prepared again)") +
                     ": cp DATASET/tokenizer.json " + own.string() + "/");
}

std::unique_ptr<Tokenizer> load_tokenizer(const fs::path& dir) {
    const fs::path file = dir / "tokenizer.json";
    if (!fs::exists(file))
        throw InputError(dir.string() + ": no tokenizer.json here; is this a folder written by 'twb prepare'?");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(file));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(file.string() + ": not valid JSON (" + e.what() + ")");
    }
    if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
        throw FormatError(file.string() +
                          ": not a tokenizer file (a JSON object with a \"kind\"); prepare the data again");
    const std::string kind = j["kind"].get<std::string>();
    // In a prepared dataset meta.json names the tokenizer too; files that disagree do not belong together
    // (meta.json's own problems are open_prepared's to report).
    if (const fs::path meta = dir / "meta.json"; fs::is_regular_file(meta)) {
        const auto m = nlohmann::json::parse(read_file(meta), nullptr, false);
        if (m.is_object() && m.contains("tokenizer") && m["tokenizer"].is_string() && m["tokenizer"] != kind)
            throw FormatError(meta.string() + " says the tokenizer is " + m["tokenizer"].get<std::string>() + " but " +
                              file.string() + " holds a " + kind +
                              " tokenizer; the files do not belong together: prepare the data again");
    }
    try {
        if (kind == "char")
            return load_char_tokenizer(dir, j);
        if (kind == "byte")
            return make_byte_tokenizer();
        if (kind == "word")
            return load_word_tokenizer(dir, j);
        if (kind == "bpe" || kind == "unigram")
            return load_spm_tokenizer(dir, j);
        if (kind == "bytebpe")
            return load_bytebpe_tokenizer(dir, j);
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(file.string() + ": malformed " + kind + " tokenizer (" + e.what() +
                          "); prepare the data again");
    }
    throw FormatError(file.string() + ": unknown tokenizer kind '" + kind + "'");
}

void for_each_block(const fs::path& file, bool by_line, const std::function<void(std::string_view)>& fn,
                    const ProgressFn& progress) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw InputError(file.string() + ": cannot open the file");
    const uint64_t total = fs::file_size(file);
    uint64_t done = 0;
    std::string carry;
    std::vector<char> buf(4 << 20);
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        const size_t got = static_cast<size_t>(in.gcount());
        if (got == 0)
            break;
        done += got;
        carry.append(buf.data(), got);
        size_t cut;
        if (by_line) {
            const size_t nl = carry.rfind('\n');
            cut = nl == std::string::npos ? 0 : nl + 1;
        } else {
            cut = carry.size() - utf8_incomplete_tail(carry);
        }
        if (cut > 0) {
            fn(std::string_view(carry).substr(0, cut));
            carry.erase(0, cut);
        }
        if (progress && !progress(done, total))
            throw Cancelled();
    }
    if (!carry.empty())
        fn(carry);
}

}  // namespace twb
