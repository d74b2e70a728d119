// Word tokenizer: GPT-2-like pre-tokenization (a space joins the word after it: " the"), runs of
// letters or digits, single punctuation marks, and each newline/tab on its own. The most frequent
// pieces (at least min_frequency times) form the vocabulary after <pad> <unk> <bos> <eos>; the rest
// becomes <unk>. Lossless except for <unk> and the lowercase option.
#include "core/tokenizers/tokenizer.h"
#include "twb/errors.h"

#include <unicode/uchar.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace twb {

namespace fs = std::filesystem;

namespace {
enum class Cls { Letter, Digit, Space, OtherWs, Punct };

Cls classify(uint32_t cp) {
    if (cp == ' ')
        return Cls::Space;
    if (cp == '\n' || cp == '\t' || cp == '\r' || cp == '\f' || cp == '\v')
        return Cls::OtherWs;
    if (u_isdigit(static_cast<UChar32>(cp)))
        return Cls::Digit;
    if (u_isalpha(static_cast<UChar32>(cp)) || u_hasBinaryProperty(static_cast<UChar32>(cp), UCHAR_DIACRITIC) ||
        cp == '\'')
        return Cls::Letter;
    if (u_isUWhiteSpace(static_cast<UChar32>(cp)))
        return Cls::OtherWs;
    return Cls::Punct;
}

/// Splits text into word pieces; calls fn(piece) for each.
template <typename Fn>
void pretokenize(std::string_view text, bool lowercase, Fn&& fn) {
    std::string cur;
    Cls curCls = Cls::Punct;
    bool inWord = false;
    auto flush = [&] {
        if (!cur.empty())
            fn(cur);
        cur.clear();
        inWord = false;
    };
    for (size_t i = 0; i < text.size();) {
        size_t n = 0;
        uint32_t cp = utf8_decode_at(text, i, &n);
        i += n;
        const Cls c = classify(cp);
        if (lowercase)
            cp = static_cast<uint32_t>(u_tolower(static_cast<UChar32>(cp)));
        if (c == Cls::Letter || c == Cls::Digit) {
            if (inWord && curCls == c) {
                utf8_append(cur, cp);
                continue;
            }
            // A pending lone space becomes this word's prefix.
            if (!(cur == " " && !inWord))
                flush();
            utf8_append(cur, cp);
            inWord = true;
            curCls = c;
        } else if (c == Cls::Space) {
            flush();
            cur = " ";
        } else if (c == Cls::Punct) {
            if (!(cur == " " && !inWord))
                flush();
            utf8_append(cur, cp);
            flush();
        } else {
            flush();
            utf8_append(cur, cp);
            flush();
        }
    }
    flush();
}

class WordTokenizer : public Tokenizer {
public:
    WordTokenizer(std::vector<std::string> vocab, bool lowercase) : m_vocab(std::move(vocab)), m_lower(lowercase) {
        for (size_t i = 0; i < m_vocab.size(); ++i)
            m_index.emplace(m_vocab[i], static_cast<int32_t>(i));
    }
    TokenizerKind kind() const override { return TokenizerKind::Word; }
    int vocab_size() const override { return static_cast<int>(m_vocab.size()); }
    bool lossless() const override { return false; }
    int newline_id() const override {
        auto it = m_index.find("\n");
        return it == m_index.end() ? -1 : it->second;
    }
    int pad_id() const override { return 0; }
    int unk_id() const override { return 1; }
    int bos_id() const override { return 2; }
    int eos_id() const override { return 3; }
    void encode(std::string_view text, std::vector<int32_t>& out) const override {
        pretokenize(text, m_lower, [&](const std::string& piece) {
            auto it = m_index.find(piece);
            out.push_back(it == m_index.end() ? 1 : it->second);
        });
    }
    std::string decode(const std::vector<int32_t>& ids) const override {
        std::string s;
        for (int32_t id : ids) {
            if (id < 0 || id >= vocab_size())
                throw InputError("token id " + std::to_string(id) + " is outside the vocabulary");
            if (id == 1)
                s += "<unk>";
            else if (id > 3)
                s += m_vocab[static_cast<size_t>(id)];
        }
        return s;
    }
    std::string token_text(int id) const override {
        return id >= 0 && id < vocab_size() ? m_vocab[static_cast<size_t>(id)] : "?";
    }
    void save(const fs::path& dir) const override {
        nlohmann::json j{{"kind", "word"}, {"lowercase", m_lower}, {"vocab", m_vocab}};
        write_file_atomic(dir / "tokenizer.json", j.dump(1));
    }

private:
    std::vector<std::string> m_vocab;
    bool m_lower;
    std::unordered_map<std::string, int32_t> m_index;
};
}  // namespace

std::unique_ptr<Tokenizer> train_word_tokenizer(const TokenizerSpec& spec, const fs::path& corpus,
                                                const ProgressFn& progress) {
    if (spec.vocab_size != 0 && spec.vocab_size < 5)
        throw ConfigError("word vocab size " + std::to_string(spec.vocab_size) +
                          " is too small: it needs at least 5 (4 special tokens + 1 word)");
    std::unordered_map<std::string, uint64_t> counts;
    for_each_block(
        corpus, true,
        [&](std::string_view block) { pretokenize(block, spec.lowercase, [&](const std::string& p) { ++counts[p]; }); },
        progress);
    if (counts.empty())
        throw InputError(corpus.string() + ": the corpus is empty; nothing to build a vocabulary from");
    std::vector<std::pair<std::string, uint64_t>> sorted(counts.begin(), counts.end());
    std::sort(sorted.begin(), sorted.end(),
              [](auto& a, auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    std::vector<std::string> vocab(std::begin(kSpecialTokens), std::end(kSpecialTokens));
    for (auto& [w, c] : sorted) {
        if (c < static_cast<uint64_t>(std::max(1, spec.min_frequency)))
            break;
        if (spec.vocab_size > 0 && static_cast<int>(vocab.size()) >= spec.vocab_size)
            break;
        vocab.push_back(w);
    }
    return std::make_unique<WordTokenizer>(std::move(vocab), spec.lowercase);
}

std::unique_ptr<Tokenizer> load_word_tokenizer(const fs::path& dir, const nlohmann::json& j) {
    const std::string file = (dir / "tokenizer.json").string();
    if (!j.contains("vocab") || !j["vocab"].is_array() || j["vocab"].size() < std::size(kSpecialTokens))
        throw FormatError(file + ": the word tokenizer needs a vocab list starting with its " +
                          std::to_string(std::size(kSpecialTokens)) + " special tokens; prepare the data again");
    if (j.contains("lowercase") && !j["lowercase"].is_boolean())
        throw FormatError(file + ": lowercase must be true or false; prepare the data again");
    return std::make_unique<WordTokenizer>(j["vocab"].get<std::vector<std::string>>(), j.value("lowercase", false));
}

}  // namespace twb
