// Character tokenizer: one id per Unicode code point seen in the corpus, ids in code-point order
// (as nanoGPT's sorted(set(text))). No special tokens, so tiny shakespeare gives vocab 65.
#include "core/tokenizers/tokenizer.h"
#include "twb/errors.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

namespace twb {

namespace fs = std::filesystem;

namespace {
class CharTokenizer : public Tokenizer {
public:
    explicit CharTokenizer(std::vector<uint32_t> cps) : m_cps(std::move(cps)) {
        std::fill(std::begin(m_ascii), std::end(m_ascii), -1);
        for (size_t i = 0; i < m_cps.size(); ++i) {
            if (m_cps[i] < 128)
                m_ascii[m_cps[i]] = static_cast<int32_t>(i);
            m_index[m_cps[i]] = static_cast<int32_t>(i);
            std::string s;
            utf8_append(s, m_cps[i]);
            m_text.push_back(s);
        }
    }
    TokenizerKind kind() const override { return TokenizerKind::Char; }
    int vocab_size() const override { return static_cast<int>(m_cps.size()); }
    bool lossless() const override { return true; }
    int newline_id() const override { return m_ascii['\n']; }

    void encode(std::string_view text, std::vector<int32_t>& out) const override {
        if (out.capacity() < out.size() + text.size())
            out.reserve(out.size() + std::max(out.size(), text.size()));
        for (size_t i = 0; i < text.size();) {
            const unsigned char c = static_cast<unsigned char>(text[i]);
            if (c < 128 && m_ascii[c] >= 0) {
                out.push_back(m_ascii[c]);
                ++i;
                continue;
            }
            size_t n = 0;
            const uint32_t cp = utf8_decode_at(text, i, &n);
            auto it = m_index.find(cp);
            if (it == m_index.end())
                throw_unknown(text);
            out.push_back(it->second);
            i += n;
        }
    }
    std::string decode(const std::vector<int32_t>& ids) const override {
        std::string s;
        for (int32_t id : ids) {
            if (id < 0 || id >= vocab_size())
                throw InputError("token id " + std::to_string(id) + " is outside the vocabulary (0.." +
                                 std::to_string(vocab_size() - 1) + ")");
            s += m_text[static_cast<size_t>(id)];
        }
        return s;
    }
    std::string token_text(int id) const override {
        return id >= 0 && id < vocab_size() ? m_text[static_cast<size_t>(id)] : "?";
    }
    std::vector<std::string> unknown_chars(std::string_view text) const override {
        std::vector<std::string> out;
        std::map<uint32_t, bool> seen;
        for (size_t i = 0; i < text.size();) {
            size_t n = 0;
            const uint32_t cp = utf8_decode_at(text, i, &n);
            if (!m_index.count(cp) && !seen[cp]) {
                seen[cp] = true;
                std::string s;
                utf8_append(s, cp);
                out.push_back(s);
            }
            i += n;
        }
        return out;
    }
    void save(const fs::path& dir) const override {
        nlohmann::json j{{"kind", "char"}, {"vocab", m_text}};
        write_file_atomic(dir / "tokenizer.json", j.dump(1));
    }

private:
    [[noreturn]] void throw_unknown(std::string_view text) const {
        std::string list;
        for (auto& c : unknown_chars(text)) {
            if (!list.empty())
                list += ", ";
            const std::string shown = visible_whitespace(c);
            list += "'" + shown + "'";
            if (shown != c) {  // '→' is a tab's picture: the character itself is named too
                size_t len = 0;
                char code[16];
                std::snprintf(code, sizeof code, " (U+%04X)", static_cast<unsigned>(utf8_decode_at(c, 0, &len)));
                list += code;
            }
            if (list.size() > 200) {
                list += ", ...";
                break;
            }
        }
        throw InputError("the text has characters the character vocabulary lacks: " + list +
                         " (a char tokenizer knows only the characters of the text it was built from: take these "
                         "out of the text (a corpus: clean it with strip or ascii), or use a byte or bpe tokenizer)");
    }
    std::vector<uint32_t> m_cps;
    std::vector<std::string> m_text;
    int32_t m_ascii[128];  // fast path for ASCII code points; -1 = not in vocabulary
    std::unordered_map<uint32_t, int32_t> m_index;
};

std::unique_ptr<Tokenizer> make_char(std::vector<uint32_t> cps) {
    std::sort(cps.begin(), cps.end());
    cps.erase(std::unique(cps.begin(), cps.end()), cps.end());
    return std::make_unique<CharTokenizer>(std::move(cps));
}
}  // namespace

std::unique_ptr<Tokenizer> train_char_tokenizer(const fs::path& corpus, const ProgressFn& progress) {
    std::vector<bool> ascii(128, false);
    std::map<uint32_t, bool> other;
    for_each_block(
        corpus, false,
        [&](std::string_view block) {
            for (size_t i = 0; i < block.size();) {
                const unsigned char c = static_cast<unsigned char>(block[i]);
                if (c < 128) {
                    ascii[c] = true;
                    ++i;
                    continue;
                }
                size_t n = 0;
                other[utf8_decode_at(block, i, &n)] = true;
                i += n;
            }
        },
        progress);
    std::vector<uint32_t> cps;
    for (uint32_t c = 0; c < 128; ++c)
        if (ascii[c])
            cps.push_back(c);
    for (auto& [cp, _] : other)
        cps.push_back(cp);
    if (cps.empty())
        throw InputError(corpus.string() + ": the corpus is empty; nothing to build a vocabulary from");
    return make_char(std::move(cps));
}

std::unique_ptr<Tokenizer> load_char_tokenizer(const fs::path& dir, const nlohmann::json& j) {
    const std::string file = (dir / "tokenizer.json").string();
    if (!j.contains("vocab") || !j["vocab"].is_array() || j["vocab"].empty())
        throw FormatError(file + ": the char tokenizer has no vocab list; prepare the data again");
    std::vector<uint32_t> cps;
    std::set<uint32_t> seen;
    for (auto& s : j["vocab"]) {
        if (!s.is_string())
            throw FormatError(file + ": a vocabulary entry is not a string; prepare the data again");
        const std::string t = s.get<std::string>();
        // Exactly one valid UTF-8 character per entry, each once.
        if (t.empty() || utf8_sequence_length(t, 0) != t.size())
            throw FormatError(file + ": vocabulary entry " +
                              nlohmann::json(t).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace) +
                              " is not one character; prepare the data again");
        const uint32_t cp = utf8_decode_at(t, 0, nullptr);
        if (!seen.insert(cp).second)
            throw FormatError(file + ": vocabulary entry " +
                              nlohmann::json(t).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace) +
                              " appears twice; prepare the data again");
        cps.push_back(cp);
    }
    return make_char(std::move(cps));
}

}  // namespace twb
