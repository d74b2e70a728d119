// Byte-level BPE of our own (GPT-2's scheme): text is split into pieces by a pattern (GPT-2's or
// GPT-4's), each piece is its UTF-8 bytes, and merges learned from the corpus join the most frequent
// adjacent pair again and again up to the vocabulary size. Lossless on any bytes by construction.
// Ids: 0..255 the bytes, then one per merge in the order learned, then <pad> <bos> <eos>. The pattern
// runs on ICU's regex engine over the UTF-8 text directly (UText), so \p{L} and \p{N} are Unicode's.
#include "core/tokenizers/bytebpe.h"

#include "core/tokenizers/gpt2_vocab.h"
#include "core/tokenizers/tokenizer.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <unicode/regex.h>
#include <unicode/utext.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <mutex>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace twb {

namespace fs = std::filesystem;

namespace {

// The split patterns as published: GPT-2 (openai/gpt-2 encoder.py) and GPT-4 (tiktoken's cl100k_base).
const char* kGpt2Pattern = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
const char* kGpt4Pattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

uint64_t pair_key(int32_t a, int32_t b) {
    return static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32 | static_cast<uint32_t>(b);
}

/// The compiled pattern, shared; each call makes its own matcher (ICU matchers are not thread-safe).
class Splitter {
public:
    explicit Splitter(const std::string& regex) {
        UErrorCode err = U_ZERO_ERROR;
        UParseError pe;
        m_pattern.reset(icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(regex), 0, pe, err));
        if (U_FAILURE(err))
            throw Error(std::string("byte-level BPE: the split pattern does not compile: ") + u_errorName(err));
    }
    /// Calls fn(piece) for each piece of text, in order; the pieces cover the text exactly.
    template <class Fn>
    void split(std::string_view text, Fn&& fn) const {
        UErrorCode err = U_ZERO_ERROR;
        UText* ut = utext_openUTF8(nullptr, text.data(), static_cast<int64_t>(text.size()), &err);
        std::unique_ptr<icu::RegexMatcher> m(m_pattern->matcher(err));
        if (U_FAILURE(err)) {
            utext_close(ut);
            throw Error(std::string("byte-level BPE: ") + u_errorName(err));
        }
        m->reset(ut);
        int64_t last = 0;
        while (m->find(err) && U_SUCCESS(err)) {
            const int64_t s = m->start64(err), e = m->end64(err);
            if (s > last)
                fn(text.substr(static_cast<size_t>(last), static_cast<size_t>(s - last)));  // unmatched bytes
            if (e > s)
                fn(text.substr(static_cast<size_t>(s), static_cast<size_t>(e - s)));
            last = e;
        }
        if (static_cast<size_t>(last) < text.size())
            fn(text.substr(static_cast<size_t>(last)));
        utext_close(ut);
    }

private:
    std::unique_ptr<icu::RegexPattern> m_pattern;
};

}  // namespace

std::string bytebpe_pattern(const std::string& name) {
    if (name == "gpt2")
        return kGpt2Pattern;
    if (name == "gpt4")
        return kGpt4Pattern;
    throw ConfigError("the byte-level BPE split pattern must be gpt2 or gpt4 (got '" + name + "')");
}

struct ByteBpeModel::Impl {
    std::string patternName;
    std::unique_ptr<Splitter> splitter;
    std::vector<std::string> tokens;  // id -> bytes (specials hold their names)
    std::vector<bool> special;
    std::unordered_map<uint64_t, std::pair<int, int32_t>> merges;  // (a, b) -> (rank, merged id)
    std::vector<std::pair<int32_t, int32_t>> mergeList;            // in rank order
    int32_t byteId[256] = {};
    std::unordered_map<std::string, int32_t> specialIds;
    mutable std::mutex cacheMutex;
    mutable std::unordered_map<std::string, std::vector<int32_t>> cache;  // piece -> ids

    std::vector<int32_t> encode_piece(std::string_view piece) const {
        std::vector<int32_t> ids;
        ids.reserve(piece.size());
        for (unsigned char c : piece)
            ids.push_back(byteId[c]);
        while (ids.size() > 1) {
            int bestRank = INT32_MAX;
            size_t at = 0;
            int32_t merged = -1;
            for (size_t i = 0; i + 1 < ids.size(); ++i) {
                const auto it = merges.find(pair_key(ids[i], ids[i + 1]));
                if (it != merges.end() && it->second.first < bestRank) {
                    bestRank = it->second.first;
                    at = i;
                    merged = it->second.second;
                }
            }
            if (merged < 0)
                break;
            // Merge every occurrence of that pair, left to right.
            const int32_t a = ids[at], b = ids[at + 1];
            std::vector<int32_t> next;
            next.reserve(ids.size());
            for (size_t i = 0; i < ids.size();) {
                if (i + 1 < ids.size() && ids[i] == a && ids[i + 1] == b) {
                    next.push_back(merged);
                    i += 2;
                } else {
                    next.push_back(ids[i++]);
                }
            }
            ids.swap(next);
        }
        return ids;
    }
};

ByteBpeModel::ByteBpeModel() : d(std::make_unique<Impl>()) {}
ByteBpeModel::~ByteBpeModel() = default;
ByteBpeModel::ByteBpeModel(ByteBpeModel&&) noexcept = default;
ByteBpeModel& ByteBpeModel::operator=(ByteBpeModel&&) noexcept = default;

ByteBpeModel ByteBpeModel::from_parts(const std::string& pattern_name, std::vector<std::string> tokens,
                                      const std::vector<std::pair<int32_t, int32_t>>& merges,
                                      const std::vector<int32_t>& merged_ids, const std::vector<int32_t>& special_ids) {
    ByteBpeModel m;
    auto& d = *m.d;
    d.patternName = pattern_name;
    d.splitter = std::make_unique<Splitter>(
        pattern_name == "gpt2" || pattern_name == "gpt4" ? bytebpe_pattern(pattern_name) : pattern_name);
    d.tokens = std::move(tokens);
    d.special.assign(d.tokens.size(), false);
    for (int32_t s : special_ids) {
        if (s < 0 || static_cast<size_t>(s) >= d.tokens.size())
            throw FormatError("byte-level BPE: special token id " + std::to_string(s) + " is out of range");
        d.special[static_cast<size_t>(s)] = true;
        d.specialIds[d.tokens[static_cast<size_t>(s)]] = s;
    }
    std::fill(std::begin(d.byteId), std::end(d.byteId), -1);
    for (size_t i = 0; i < d.tokens.size(); ++i)
        if (!d.special[i] && d.tokens[i].size() == 1)
            d.byteId[static_cast<unsigned char>(d.tokens[i][0])] = static_cast<int32_t>(i);
    for (int b = 0; b < 256; ++b)
        if (d.byteId[b] < 0)
            throw FormatError("byte-level BPE: the vocabulary has no token for byte " + std::to_string(b) +
                              ", so it is not lossless");
    if (merges.size() != merged_ids.size())
        throw FormatError("byte-level BPE: merges and merged ids differ in number");
    for (size_t r = 0; r < merges.size(); ++r) {
        const auto [a, b] = merges[r];
        const int32_t c = merged_ids[r];
        const auto n = static_cast<int32_t>(d.tokens.size());
        if (a < 0 || b < 0 || c < 0 || a >= n || b >= n || c >= n)
            throw FormatError("byte-level BPE: merge " + std::to_string(r) + " names an id outside the vocabulary");
        if (d.tokens[static_cast<size_t>(a)] + d.tokens[static_cast<size_t>(b)] != d.tokens[static_cast<size_t>(c)])
            throw FormatError("byte-level BPE: merge " + std::to_string(r) + " does not give the token it names");
        d.merges.emplace(pair_key(a, b), std::make_pair(static_cast<int>(r), c));
        d.mergeList.emplace_back(a, b);
    }
    return m;
}

namespace {
/// The merges of byte-level BPE training over the corpus's pieces (words): pair counts, where each
/// pair occurs, and a max-heap with lazy deletion that picks the most frequent pair next (equal counts:
/// the smaller pair).
class MergeLearner {
public:
    /// Counts the pieces of the corpus (the first half of the progress).
    MergeLearner(const fs::path& corpus, const Splitter& splitter, const ProgressFn& progress) {
        std::unordered_map<std::string, uint64_t> pieceCounts;
        for_each_block(
            corpus, true,
            [&](std::string_view block) {
                splitter.split(block, [&](std::string_view p) { ++pieceCounts[std::string(p)]; });
            },
            [&](uint64_t done, uint64_t total) { return !progress || progress(done / 2, total); });
        m_words.reserve(pieceCounts.size());
        for (auto& [p, c] : pieceCounts) {
            Word w{{}, c};
            for (unsigned char ch : p)
                w.ids.push_back(ch);
            m_words.push_back(std::move(w));
        }
        for (uint32_t w = 0; w < m_words.size(); ++w)
            for (size_t i = 0; i + 1 < m_words[w].ids.size(); ++i) {
                const auto k = pair_key(m_words[w].ids[i], m_words[w].ids[i + 1]);
                m_pairCount[k] += m_words[w].count;
                m_where[k].insert(w);
            }
        for (auto& [k, c] : m_pairCount)
            m_heap.emplace(c, ~k);
    }

    /// The most frequent pair that still repeats (count >= 2), as its key; false when none is left.
    bool next(uint64_t& key) {
        while (!m_heap.empty()) {
            const auto [count, notKey] = m_heap.top();
            m_heap.pop();
            const auto pc = m_pairCount.find(~notKey);
            if (pc == m_pairCount.end() || pc->second != count)
                continue;  // stale
            key = ~notKey;
            return count >= 2;  // nothing repeats any more: a smaller vocabulary than asked
        }
        return false;
    }

    /// Replaces the pair key = (a, b) by token c in every word that has it, and updates the counts.
    void merge(uint64_t key, int32_t c) {
        const auto a = static_cast<int32_t>(key >> 32), b = static_cast<int32_t>(key & 0xFFFFFFFFu);
        const auto affected = std::move(m_where[key]);
        m_where.erase(key);
        std::unordered_map<uint64_t, int64_t> delta;
        for (uint32_t w : affected) {
            auto& ids = m_words[w].ids;
            const auto n = static_cast<int64_t>(m_words[w].count);
            for (size_t i = 0; i + 1 < ids.size(); ++i)
                delta[pair_key(ids[i], ids[i + 1])] -= n;
            std::vector<int32_t> next;
            next.reserve(ids.size());
            for (size_t i = 0; i < ids.size();) {
                if (i + 1 < ids.size() && ids[i] == a && ids[i + 1] == b) {
                    next.push_back(c);
                    i += 2;
                } else {
                    next.push_back(ids[i++]);
                }
            }
            ids.swap(next);
            for (size_t i = 0; i + 1 < ids.size(); ++i) {
                const auto k = pair_key(ids[i], ids[i + 1]);
                delta[k] += n;
                m_where[k].insert(w);
            }
        }
        for (auto& [k, dlt] : delta) {
            if (dlt == 0)
                continue;
            auto& v = m_pairCount[k];
            v = static_cast<uint64_t>(static_cast<int64_t>(v) + dlt);
            if (v == 0)
                m_pairCount.erase(k);
            else
                m_heap.emplace(v, ~k);  // an older entry of k is stale now; this one carries the new count
        }
        m_pairCount.erase(key);
    }

private:
    struct Word {
        std::vector<int32_t> ids;
        uint64_t count;
    };
    using Entry = std::pair<uint64_t, uint64_t>;  // (count, ~key): equal counts pick the smaller pair
    std::vector<Word> m_words;
    std::unordered_map<uint64_t, uint64_t> m_pairCount;
    std::unordered_map<uint64_t, std::unordered_set<uint32_t>> m_where;
    std::priority_queue<Entry> m_heap;
};
}  // namespace

ByteBpeModel ByteBpeModel::train(const fs::path& corpus, int vocab_size, const std::string& pattern_name,
                                 const ProgressFn& progress, int* merges_learned) {
    constexpr int kSpecials = 3;  // <pad> <bos> <eos>
    if (vocab_size < 256 + kSpecials)
        throw ConfigError("byte-level BPE needs a vocab size of at least " + std::to_string(256 + kSpecials) +
                          " (256 bytes and 3 special tokens); got " + std::to_string(vocab_size));
    if (vocab_size > 1 << 20)
        throw ConfigError("byte-level BPE vocab size " + std::to_string(vocab_size) +
                          " is too large (at most 1,048,576)");
    const Splitter splitter(bytebpe_pattern(pattern_name));
    MergeLearner learner(corpus, splitter, progress);
    std::vector<std::string> tokens(256);
    for (int b = 0; b < 256; ++b)
        tokens[static_cast<size_t>(b)] = std::string(1, static_cast<char>(b));
    std::vector<std::pair<int32_t, int32_t>> merges;
    std::vector<int32_t> mergedIds;
    const int wanted = vocab_size - 256 - kSpecials;
    uint64_t key = 0;
    while (static_cast<int>(merges.size()) < wanted && learner.next(key)) {
        const auto a = static_cast<int32_t>(key >> 32), b = static_cast<int32_t>(key & 0xFFFFFFFFu);
        const auto c = static_cast<int32_t>(tokens.size());
        tokens.push_back(tokens[static_cast<size_t>(a)] + tokens[static_cast<size_t>(b)]);
        merges.emplace_back(a, b);
        mergedIds.push_back(c);
        learner.merge(key, c);
        // After each merge (the UI takes the newest figure when it gets there): one of the first merges can
        // take seconds on a large corpus, and every 64 left the bar at 50% that long.
        if (progress && !progress(50 + 50 * merges.size() / static_cast<size_t>(std::max(1, wanted)), 100))
            throw Cancelled();
    }
    if (merges_learned)
        *merges_learned = static_cast<int>(merges.size());
    std::vector<int32_t> specials;
    for (const char* s : {"<pad>", "<bos>", "<eos>"}) {
        specials.push_back(static_cast<int32_t>(tokens.size()));
        tokens.emplace_back(s);
    }
    return from_parts(pattern_name, std::move(tokens), merges, mergedIds, specials);
}

void ByteBpeModel::encode(std::string_view text, std::vector<int32_t>& out) const {
    d->splitter->split(text, [&](std::string_view piece) {
        {
            std::lock_guard<std::mutex> lock(d->cacheMutex);
            const auto it = d->cache.find(std::string(piece));
            if (it != d->cache.end()) {
                out.insert(out.end(), it->second.begin(), it->second.end());
                return;
            }
        }
        auto ids = d->encode_piece(piece);
        out.insert(out.end(), ids.begin(), ids.end());
        std::lock_guard<std::mutex> lock(d->cacheMutex);
        if (d->cache.size() > 200000)
            d->cache.clear();
        d->cache.emplace(std::string(piece), std::move(ids));
    });
}

std::string ByteBpeModel::decode(const std::vector<int32_t>& ids) const {
    std::string s;
    for (int32_t id : ids) {
        if (id < 0 || static_cast<size_t>(id) >= d->tokens.size())
            throw InputError("token id " + std::to_string(id) + " is outside the vocabulary (0.." +
                             std::to_string(d->tokens.size() - 1) + ")");
        if (!d->special[static_cast<size_t>(id)])
            s += d->tokens[static_cast<size_t>(id)];
    }
    return s;
}

int ByteBpeModel::vocab_size() const {
    return static_cast<int>(d->tokens.size());
}
const std::string& ByteBpeModel::token_bytes(int id) const {
    return d->tokens.at(static_cast<size_t>(id));
}
bool ByteBpeModel::is_special(int id) const {
    return id >= 0 && static_cast<size_t>(id) < d->special.size() && d->special[static_cast<size_t>(id)];
}
int ByteBpeModel::special_id(const std::string& name) const {
    const auto it = d->specialIds.find(name);
    return it == d->specialIds.end() ? -1 : it->second;
}
const std::vector<std::pair<int32_t, int32_t>>& ByteBpeModel::merges() const {
    return d->mergeList;
}
const std::string& ByteBpeModel::pattern_name() const {
    return d->patternName;
}
int32_t ByteBpeModel::merged_id(int rank) const {
    const auto [a, b] = d->mergeList.at(static_cast<size_t>(rank));
    return d->merges.at(pair_key(a, b)).second;
}

std::vector<std::pair<int, std::vector<int32_t>>> ByteBpeModel::merge_trace(std::string_view text, int max_steps,
                                                                            std::vector<int32_t>& start) const {
    std::vector<std::vector<int32_t>> pieces;
    d->splitter->split(text, [&](std::string_view piece) {
        std::vector<int32_t> ids;
        for (unsigned char c : piece)
            ids.push_back(d->byteId[c]);
        pieces.push_back(std::move(ids));
    });
    auto flat = [&] {
        std::vector<int32_t> all;
        for (const auto& p : pieces)
            all.insert(all.end(), p.begin(), p.end());
        return all;
    };
    start = flat();
    std::vector<std::pair<int, std::vector<int32_t>>> steps;
    while (static_cast<int>(steps.size()) < max_steps) {
        int best = INT32_MAX;
        for (const auto& p : pieces)
            for (size_t i = 0; i + 1 < p.size(); ++i)
                if (const auto it = d->merges.find(pair_key(p[i], p[i + 1])); it != d->merges.end())
                    best = std::min(best, it->second.first);
        if (best == INT32_MAX)
            break;
        const auto [a, b] = d->mergeList[static_cast<size_t>(best)];
        const int32_t merged = d->merges.at(pair_key(a, b)).second;
        for (auto& p : pieces) {
            std::vector<int32_t> next;
            for (size_t i = 0; i < p.size();) {
                if (i + 1 < p.size() && p[i] == a && p[i + 1] == b) {
                    next.push_back(merged);
                    i += 2;
                } else {
                    next.push_back(p[i++]);
                }
            }
            p.swap(next);
        }
        steps.emplace_back(best, flat());
    }
    return steps;
}

// ---------------------------------------------------------------- the Tokenizer

namespace {

class ByteBpeTokenizer : public Tokenizer {
public:
    explicit ByteBpeTokenizer(ByteBpeModel m) : m_model(std::move(m)) {}
    /// A vocabulary from elsewhere (GPT-2's): saved spelled out, with its own <bos>/<eos> ids.
    ByteBpeTokenizer(ByteBpeModel m, int32_t bos, int32_t eos)
        : m_model(std::move(m)), m_explicit(true), m_bos(bos), m_eos(eos) {}
    TokenizerKind kind() const override { return TokenizerKind::ByteBpe; }
    int vocab_size() const override { return m_model.vocab_size(); }
    bool lossless() const override { return true; }
    int pad_id() const override { return m_explicit ? -1 : m_model.special_id("<pad>"); }
    int bos_id() const override { return m_explicit ? m_bos : m_model.special_id("<bos>"); }
    int eos_id() const override { return m_explicit ? m_eos : m_model.special_id("<eos>"); }
    void encode(std::string_view text, std::vector<int32_t>& out) const override { m_model.encode(text, out); }
    std::string decode(const std::vector<int32_t>& ids) const override { return m_model.decode(ids); }
    std::string token_text(int id) const override {
        if (id < 0 || id >= vocab_size())
            return "?";
        const std::string& b = m_model.token_bytes(id);
        if (m_model.is_special(id) || find_invalid_utf8(b) == std::string::npos)
            return b;
        // Part of a multi-byte character: show the bytes.
        std::string s;
        char buf[8];
        for (unsigned char c : b) {
            std::snprintf(buf, sizeof buf, "<0x%02X>", c);
            s += buf;
        }
        return s;
    }
    void save(const fs::path& dir) const override {
        nlohmann::json merges = nlohmann::json::array();
        for (const auto& [a, b] : m_model.merges())
            merges.push_back({a, b});
        if (m_explicit) {  // the token table in GPT-2's byte-to-unicode spelling, specials by name
            nlohmann::json vocab = nlohmann::json::array(), specials = nlohmann::json::array();
            for (int i = 0; i < vocab_size(); ++i) {
                vocab.push_back(m_model.is_special(i) ? m_model.token_bytes(i)
                                                      : gpt2_unicode_from_bytes(m_model.token_bytes(i)));
                if (m_model.is_special(i))
                    specials.push_back(i);
            }
            write_file_atomic(dir / "tokenizer.json", nlohmann::json{{"kind", "bytebpe"},
                                                                     {"pattern", m_model.pattern_name()},
                                                                     {"vocab", vocab},
                                                                     {"specials", specials},
                                                                     {"merges", merges},
                                                                     {"bos", m_bos},
                                                                     {"eos", m_eos}}
                                                          .dump());
            return;
        }
        write_file_atomic(
            dir / "tokenizer.json",
            nlohmann::json{{"kind", "bytebpe"}, {"pattern", m_model.pattern_name()}, {"merges", merges}}.dump());
    }
    const ByteBpeModel& model() const { return m_model; }

private:
    ByteBpeModel m_model;
    bool m_explicit = false;
    int32_t m_bos = -1, m_eos = -1;
};

/// A tokenizer.json written by an explicit-vocabulary ByteBpeTokenizer (an imported GPT-2 one).
std::unique_ptr<Tokenizer> load_explicit_bytebpe(const nlohmann::json& j, const std::string& where) {
    const std::string pattern = j.value("pattern", "gpt2");
    bytebpe_pattern(pattern);  // a known name
    const auto& vocab = j.at("vocab");
    std::vector<bool> special(vocab.size(), false);
    for (const auto& s : j.at("specials")) {
        const auto id = s.get<int64_t>();
        if (id < 0 || id >= static_cast<int64_t>(vocab.size()))
            throw FormatError(where + ": special token id " + std::to_string(id) + " is out of range");
        special[static_cast<size_t>(id)] = true;
    }
    std::vector<std::string> tokens;
    std::vector<int32_t> specials;
    for (size_t i = 0; i < vocab.size(); ++i) {
        const std::string t = vocab[i].get<std::string>();
        if (special[i]) {
            tokens.push_back(t);
            specials.push_back(static_cast<int32_t>(i));
            continue;
        }
        std::string bytes;
        if (!gpt2_bytes_from_unicode(t, bytes))
            throw FormatError(where + ": token " + std::to_string(i) + " is not in GPT-2's byte spelling");
        tokens.push_back(std::move(bytes));
    }
    std::unordered_map<std::string, int32_t> byBytes;
    for (size_t i = 0; i < tokens.size(); ++i)
        if (!special[i])
            byBytes.emplace(tokens[i], static_cast<int32_t>(i));
    std::vector<std::pair<int32_t, int32_t>> merges;
    std::vector<int32_t> mergedIds;
    for (const auto& m : j.at("merges")) {
        const auto a = m.at(0).get<int32_t>(), b = m.at(1).get<int32_t>();
        const auto n = static_cast<int32_t>(tokens.size());
        if (a < 0 || b < 0 || a >= n || b >= n)
            throw FormatError(where + ": merge " + std::to_string(merges.size()) + " names an unknown token");
        const auto it = byBytes.find(tokens[static_cast<size_t>(a)] + tokens[static_cast<size_t>(b)]);
        if (it == byBytes.end())
            throw FormatError(where + ": merge " + std::to_string(merges.size()) +
                              " gives a token not in the vocabulary");
        merges.emplace_back(a, b);
        mergedIds.push_back(it->second);
    }
    return std::make_unique<ByteBpeTokenizer>(
        ByteBpeModel::from_parts(pattern, std::move(tokens), merges, mergedIds, specials), j.at("bos").get<int32_t>(),
        j.at("eos").get<int32_t>());
}

}  // namespace

const ByteBpeModel* bytebpe_model(const Tokenizer& tokenizer) {
    const auto* bpe = dynamic_cast<const ByteBpeTokenizer*>(&tokenizer);
    return bpe ? &bpe->model() : nullptr;
}

BpeMergeInspection inspect_merges(const fs::path& dataset_or_run, const std::string& sample, int count, int max_steps) {
    const fs::path dir = find_tokenizer_dir(dataset_or_run);
    const auto tok = load_tokenizer(dir);
    const auto* bpe = dynamic_cast<const ByteBpeTokenizer*>(tok.get());
    if (!bpe)
        throw InputError(dir.string() + ": its tokenizer is " + to_string(tok->kind()) +
                         ", not bytebpe; only byte-level BPE has a merge list to show");
    if (find_invalid_utf8(sample) != std::string::npos)
        throw InputError("the sample text is not valid UTF-8");
    const auto& m = bpe->model();
    BpeMergeInspection r;
    r.merges = static_cast<int>(m.merges().size());
    auto merge = [&](int rank) {
        const auto [a, b] = m.merges()[static_cast<size_t>(rank)];
        const int32_t id = m.merged_id(rank);
        return BpeMerge{rank, id, bpe->token_text(a), bpe->token_text(b), bpe->token_text(id)};
    };
    count = std::max(0, count);
    for (int i = 0; i < std::min(count, r.merges); ++i)
        r.first.push_back(merge(i));
    for (int i = std::max(std::min(count, r.merges), r.merges - count); i < r.merges; ++i)
        r.last.push_back(merge(i));
    auto texts = [&](const std::vector<int32_t>& ids) {
        std::vector<std::string> t;
        for (int32_t id : ids)
            t.push_back(bpe->token_text(id));
        return t;
    };
    std::vector<int32_t> start;
    const auto trace = m.merge_trace(sample, std::max(0, max_steps), start);
    r.start = texts(start);
    for (const auto& [rank, ids] : trace)
        r.steps.push_back({merge(rank), texts(ids)});
    return r;
}

std::unique_ptr<Tokenizer> train_bytebpe_tokenizer(const TokenizerSpec& spec, const fs::path& corpus,
                                                   const ProgressFn& progress) {
    return std::make_unique<ByteBpeTokenizer>(ByteBpeModel::train(
        corpus, spec.vocab_size, spec.split_pattern.empty() ? "gpt2" : spec.split_pattern, progress));
}

std::unique_ptr<Tokenizer> load_bytebpe_tokenizer(const fs::path& dir, const nlohmann::json& j) {
    const std::string where = (dir / "tokenizer.json").string();
    try {
        if (j.contains("vocab"))
            return load_explicit_bytebpe(j, where);
        const std::string pattern = j.value("pattern", "gpt2");
        bytebpe_pattern(pattern);  // a known name
        std::vector<std::string> tokens(256);
        for (int b = 0; b < 256; ++b)
            tokens[static_cast<size_t>(b)] = std::string(1, static_cast<char>(b));
        std::vector<std::pair<int32_t, int32_t>> merges;
        std::vector<int32_t> mergedIds;
        for (const auto& m : j.at("merges")) {
            const auto a = m.at(0).get<int32_t>(), b = m.at(1).get<int32_t>();
            const auto n = static_cast<int32_t>(tokens.size());
            if (a < 0 || b < 0 || a >= n || b >= n)
                throw FormatError(where + ": merge " + std::to_string(merges.size()) + " names an unknown token");
            mergedIds.push_back(n);
            tokens.push_back(tokens[static_cast<size_t>(a)] + tokens[static_cast<size_t>(b)]);
            merges.emplace_back(a, b);
        }
        std::vector<int32_t> specials;
        for (const char* s : {"<pad>", "<bos>", "<eos>"}) {
            specials.push_back(static_cast<int32_t>(tokens.size()));
            tokens.emplace_back(s);
        }
        return std::make_unique<ByteBpeTokenizer>(
            ByteBpeModel::from_parts(pattern, std::move(tokens), merges, mergedIds, specials));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(where + ": not a byte-level BPE tokenizer (" + e.what() + ")");
    } catch (const ConfigError& e) {
        throw FormatError(where + ": " + e.what());
    }
}

std::unique_ptr<Tokenizer> make_gpt2_tokenizer(Gpt2Vocab v) {
    const int32_t bos = v.bos, eos = v.eos;
    return std::make_unique<ByteBpeTokenizer>(
        ByteBpeModel::from_parts("gpt2", std::move(v.tokens), v.merges, v.merged, v.specials), bos, eos);
}

void write_gpt2_vocab(const Tokenizer& tok, const fs::path& dir) {
    const auto* bpe = dynamic_cast<const ByteBpeTokenizer*>(&tok);
    if (!bpe)
        throw InputError("the tokenizer is " + to_string(tok.kind()) +
                         ", not byte-level BPE; GPT-2's vocab.json and merges.txt cannot hold it");
    const auto& m = bpe->model();
    auto spelled = [&](int id) {
        return m.is_special(id) ? m.token_bytes(id) : gpt2_unicode_from_bytes(m.token_bytes(id));
    };
    nlohmann::ordered_json vocab = nlohmann::ordered_json::object();
    for (int i = 0; i < m.vocab_size(); ++i)
        vocab[spelled(i)] = i;
    std::string merges = "#version: 0.2\n";
    for (const auto& [a, b] : m.merges())
        merges += spelled(a) + " " + spelled(b) + "\n";
    write_file_atomic(dir / "vocab.json", vocab.dump());
    write_file_atomic(dir / "merges.txt", merges);
}

}  // namespace twb
