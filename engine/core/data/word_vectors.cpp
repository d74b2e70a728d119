// Word vectors in text format onto a tokenizer's vocabulary (see word_vectors.h).
#include "core/data/word_vectors.h"

#include "twb/errors.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <string_view>
#include <unordered_map>

namespace twb {

namespace {
/// A token's text without one leading space marker: what a vectors file calls the word.
std::string_view bare(std::string_view t) {
    for (std::string_view mark :
         {std::string_view(" "), std::string_view("\xE2\x96\x81"), std::string_view("\xC4\xA0")})
        if (t.size() > mark.size() && t.substr(0, mark.size()) == mark)
            return t.substr(mark.size());
    return t;
}

std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r')
            ++j;
        if (j > i)
            out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

bool whole_number(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Parses line lineNo's dim values (fields 1..dim) into vec; ConfigError for another width, FormatError
/// for a field that is not a number.
void parse_vector(const std::vector<std::string_view>& f, int dim, const std::string& where, int64_t lineNo,
                  std::vector<float>& vec) {
    const auto values = static_cast<int64_t>(f.size()) - 1;
    if (values != dim)
        throw ConfigError(where + " line " + std::to_string(lineNo) + " holds a vector of " + std::to_string(values) +
                          " values but the model is n_embd = " + std::to_string(dim) + " wide; " +
                          (values >= 1 && values <= 65536 ? "set n_embd=" + std::to_string(values) + " or " : "") +
                          "use vectors of that width");
    for (int k = 0; k < dim; ++k) {
        const auto s = f[static_cast<size_t>(k) + 1];
        const auto r = std::from_chars(s.data(), s.data() + s.size(), vec[static_cast<size_t>(k)]);
        if (r.ec != std::errc() || r.ptr != s.data() + s.size())
            throw FormatError(where + " line " + std::to_string(lineNo) + ": \"" + std::string(s) +
                              "\" is not a number");
        if (!std::isfinite(vec[static_cast<size_t>(k)]))  // from_chars takes "nan" and "inf"; training then diverged
            throw FormatError(where + " line " + std::to_string(lineNo) + ": \"" + std::string(s) +
                              "\" is not a finite number");
    }
}

/// The vectors given to token ids: a word's vector goes to every token spelling it; an exact match wins
/// over a lowercased one, and the first exact match over later ones.
class VectorMatcher {
public:
    explicit VectorMatcher(const Tokenizer& tok) {
        for (int id = 0; id < tok.vocab_size(); ++id)
            m_byWord[std::string(bare(tok.token_text(id)))].push_back(id);
    }

    /// Gives vec to the tokens of word (exactly, then lowercased); false when no token took it.
    bool add(const std::string& word, const std::vector<float>& vec) {
        bool used = false;
        if (auto it = m_byWord.find(word); it != m_byWord.end())
            used |= give(it->second, true, vec);
        std::string lower = word;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
        if (lower != word)
            if (auto it = m_byWord.find(lower); it != m_byWord.end())
                used |= give(it->second, false, vec);
        return used;
    }

    bool empty() const { return m_taken.empty(); }

    /// The ids in order and their rows, flat.
    void write(WordVectorRows& out, int dim) const {
        out.ids.reserve(m_taken.size());
        out.values.reserve(m_taken.size() * static_cast<size_t>(dim));
        for (const auto& [id, row] : m_taken) {
            out.ids.push_back(id);
            out.values.insert(out.values.end(), m_rows[row.first].begin(), m_rows[row.first].end());
        }
    }

private:
    bool give(const std::vector<int32_t>& ids, bool exact, const std::vector<float>& vec) {
        bool used = false;
        for (int32_t id : ids) {
            auto it = m_taken.find(id);
            if (it != m_taken.end() && (it->second.second || !exact))
                continue;  // the first exact match wins; a lowercased one only fills a gap
            if (it == m_taken.end()) {
                m_taken[id] = {m_rows.size(), exact};
                m_rows.push_back(vec);
            } else {
                m_rows[it->second.first] = vec;
                it->second.second = true;
            }
            used = true;
        }
        return used;
    }

    std::unordered_map<std::string, std::vector<int32_t>> m_byWord;  // bare token text -> ids
    std::map<int32_t, std::pair<size_t, bool>> m_taken;              // id -> (row in m_rows, matched exactly)
    std::vector<std::vector<float>> m_rows;
};
}  // namespace

WordVectorRows read_word_vectors(const std::filesystem::path& file, const Tokenizer& tok, int dim) {
    const std::string where = "embeddings_from " + file.string();
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw InputError(where + " is a folder but holds no run; give a word-vectors text file or a run folder");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw InputError("cannot read " + where + "; give a word-vectors text file (word v1 ... vN per line) or a run");
    VectorMatcher matcher(tok);
    WordVectorRows out;
    out.dim = dim;
    std::string line;
    int64_t lineNo = 0;
    std::vector<float> vec(static_cast<size_t>(dim));
    while (std::getline(in, line)) {
        ++lineNo;
        const auto f = fields(line);
        if (f.empty())
            continue;
        if (out.vectors == 0 && lineNo == 1 && f.size() == 2 && whole_number(f[0]) && whole_number(f[1])) {
            const int headerDim = std::stoi(std::string(f[1]));
            if (headerDim != dim)
                throw ConfigError(where + " holds vectors of " + std::to_string(headerDim) +
                                  " values but the model is n_embd = " + std::to_string(dim) +
                                  " wide; set n_embd=" + std::to_string(headerDim) + " or use vectors of that width");
            continue;
        }
        parse_vector(f, dim, where, lineNo, vec);
        ++out.vectors;
        if (!matcher.add(std::string(f[0]), vec))
            ++out.unused;
    }
    if (in.bad())
        throw InputError("cannot read " + where);
    if (matcher.empty())
        throw ConfigError(where + ": none of its " + std::to_string(out.vectors) + " words is a token of the " +
                          std::to_string(tok.vocab_size()) +
                          "-token vocabulary; check that it is a word-vectors file for this language and tokenizer "
                          "(a word tokenizer matches best)");
    matcher.write(out, dim);
    return out;
}

}  // namespace twb
