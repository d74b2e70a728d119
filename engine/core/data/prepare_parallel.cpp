// Parallel datasets for the encoder-decoder model: reading aligned pairs, holding out validation and
// test pairs, one shared vocabulary, and the split files (token file + pair index). See dataset.h.
#include "core/data/document_index.h"
#include "core/data/prepare_output.h"
#include "core/data/token_file.h"
#include "core/tokenizers/tokenizer.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

namespace twb {

namespace fs = std::filesystem;

namespace {
constexpr int kParallelFormatVersion = 1;
constexpr uint64_t kLengthBin = 8;

struct TextPair {
    std::string source, target;
};

/// The lines of a file, without line breaks (a final newline ends the last line; a '\r' before a
/// newline is dropped). InputError naming the file when it is missing or empty.
std::vector<std::string> read_lines(const std::string& path) {
    if (!fs::exists(path))
        throw InputError(path + ": no such file");
    // UTF-8 text, as the corpus reader takes: NUL bytes and invalid UTF-8 were read as sentences and
    // trained a tokenizer on them
    const std::string text = read_text_file(path);
    if (looks_binary(std::string_view(text).substr(0, 8192)))
        throw InputError(path +
                         ": looks like a binary file, not text (NUL or control bytes near the start); give "
                         "a UTF-8 text file, one sentence per line");
    std::vector<std::string> lines;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string::npos)
            nl = text.size();
        std::string line = text.substr(pos, nl - pos);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
        pos = nl + 1;
    }
    if (lines.empty())
        throw InputError(path + ": the file is empty; a parallel corpus needs one sentence a line");
    return lines;
}

/// Pairs of two line-aligned files, or of two columns of a TSV file. Every side must hold text.
std::vector<TextPair> read_pairs_text(const std::string& source, const std::string& target, const std::string& tsv,
                                      int sourceColumn, int targetColumn) {
    std::vector<TextPair> pairs;
    if (!tsv.empty()) {
        if (sourceColumn < 0 || targetColumn < 0 || sourceColumn == targetColumn)
            throw ConfigError("the source and target columns must be two different 0-based columns (got " +
                              std::to_string(sourceColumn) + " and " + std::to_string(targetColumn) + ")");
        const auto lines = read_lines(tsv);
        const size_t need = static_cast<size_t>(std::max(sourceColumn, targetColumn)) + 1;
        for (size_t i = 0; i < lines.size(); ++i) {
            std::vector<std::string> cols;
            size_t pos = 0;
            while (true) {
                const size_t tab = lines[i].find('\t', pos);
                cols.push_back(lines[i].substr(pos, tab == std::string::npos ? std::string::npos : tab - pos));
                if (tab == std::string::npos)
                    break;
                pos = tab + 1;
            }
            if (cols.size() < need)
                throw InputError(
                    tsv + ":" + std::to_string(i + 1) + ": has " + std::to_string(cols.size()) +
                    " tab-separated columns but column " + std::to_string(need - 1) +
                    " is asked for; check the source and target columns (--source-column/--target-column)");
            pairs.push_back({cols[static_cast<size_t>(sourceColumn)], cols[static_cast<size_t>(targetColumn)]});
        }
    } else {
        if (source.empty() || target.empty())
            throw ConfigError("give both a source and a target file (--source FILE --target FILE), or --pairs TSV");
        const auto src = read_lines(source), tgt = read_lines(target);
        if (src.size() != tgt.size())
            throw InputError(source + " has " + std::to_string(src.size()) + " lines but " + target + " has " +
                             std::to_string(tgt.size()) + "; parallel files must be line-aligned");
        for (size_t i = 0; i < src.size(); ++i)
            pairs.push_back({src[i], tgt[i]});
    }
    for (size_t i = 0; i < pairs.size(); ++i) {
        const bool srcEmpty = pairs[i].source.find_first_not_of(" \t") == std::string::npos;
        const bool tgtEmpty = pairs[i].target.find_first_not_of(" \t") == std::string::npos;
        if (srcEmpty || tgtEmpty)
            throw InputError((tsv.empty() ? (srcEmpty ? source : target) : tsv) + ":" + std::to_string(i + 1) +
                             ": the " + (srcEmpty ? "source" : "target") +
                             " side of this pair is empty; remove the pair or fill it in");
    }
    return pairs;
}

SideLengths side_lengths(const std::vector<uint64_t>& lengths) {
    SideLengths s;
    if (lengths.empty())
        return s;
    s.max = *std::max_element(lengths.begin(), lengths.end());
    s.mean = static_cast<double>(std::accumulate(lengths.begin(), lengths.end(), uint64_t{0})) /
             static_cast<double>(lengths.size());
    s.histogram.assign(static_cast<size_t>(std::min<uint64_t>(s.max / kLengthBin + 1, 32)), 0);
    for (uint64_t n : lengths)
        ++s.histogram[std::min<size_t>(s.histogram.size() - 1, static_cast<size_t>(n / kLengthBin))];
    return s;
}

nlohmann::json to_json_lengths(const SideLengths& s) {
    return {{"mean", s.mean}, {"max", s.max}, {"bin_tokens", kLengthBin}, {"histogram", s.histogram}};
}
}  // namespace

/// The tokenizer of a prepared dataset or run (--tokenizer-from), and its source side's when it has one.
static std::unique_ptr<Tokenizer> load_tokenizer_from(const fs::path& from, std::unique_ptr<Tokenizer>& source) {
    const fs::path dir = find_tokenizer_dir(from);
    auto tok = load_tokenizer(dir);
    for (const fs::path& s : {dir / "source_tokenizer", dir.parent_path() / "source_tokenizer"})
        if ((s.parent_path() == dir || dir.filename() == "tokenizer") && fs::exists(s / "tokenizer.json")) {
            source = load_tokenizer(s);
            break;
        }
    if (tok->bos_id() < 0 || tok->eos_id() < 0)
        throw ConfigError(dir.string() + ": the " + to_string(tok->kind()) +
                          " tokenizer has no <bos>/<eos> tokens, which translation pairs need");
    return tok;
}

namespace {

/// The options' own checks, before any file is read.
void check_options(const ParallelPrepareOptions& opts) {
    if (!(opts.val_fraction >= 0 && opts.test_fraction >= 0 && opts.val_fraction + opts.test_fraction < 1))
        throw ConfigError("the validation and test fractions must be at least 0 and sum to less than 1");
    if (opts.max_tokens < 0)
        throw ConfigError("max tokens must be 0 (no limit) or a positive number of tokens per side");
    if (!(opts.max_length_ratio == 0 || opts.max_length_ratio >= 1))
        throw ConfigError("max length ratio must be 0 (no limit) or at least 1 (longer side / shorter side)");
    if (!opts.tokenizer_from.empty() && opts.separate_vocab)
        throw ConfigError("--separate-vocab trains tokenizers; with --tokenizer-from the vocabularies are the run's");
    if (opts.tokenizer_from.empty() && opts.tokenizer.kind == TokenizerKind::Char)
        throw ConfigError(
            "the char tokenizer has no <bos>/<eos> tokens, which translation pairs need; choose bpe, unigram, "
            "word, byte or bytebpe");
}

/// Whether a split's two files are given (both or neither).
bool given_pair(const std::string& a, const std::string& b, const std::string& what) {
    if (a.empty() != b.empty())
        throw ConfigError("give both " + what + " files (source and target), or neither");
    return !a.empty();
}

/// One split's encoded pairs: what meta.json and the result say of it.
struct EncodedSplit {
    uint64_t pairs = 0, tokens = 0, dropped = 0, dropped_ratio = 0;
    SideLengths source, target;
};

/// prepare_parallel in its stages: read the splits, hold out validation and test pairs, train or load
/// the tokenizer(s), encode each split, write meta.json and move the folder into place.
class ParallelPreparation {
public:
    ParallelPreparation(const ParallelPrepareOptions& opts, const PrepareProgressFn& progress)
        : m_opts(opts), m_progress(progress) {}

    ParallelPrepareResult run() {
        const auto t0 = std::chrono::steady_clock::now();
        check_options(m_opts);
        m_valFiles = given_pair(m_opts.val_source, m_opts.val_target, "validation");
        m_testFiles = given_pair(m_opts.test_source, m_opts.test_target, "test");
        for (const auto* f : {&m_opts.source, &m_opts.target, &m_opts.pairs, &m_opts.val_source, &m_opts.val_target,
                              &m_opts.test_source, &m_opts.test_target, &m_opts.val_pairs, &m_opts.test_pairs})
            if (!f->empty())
                m_inputs.push_back(*f);
        const fs::path out = begin_output(m_opts.out, m_inputs, m_opts.overwrite, m_tmp);
        read_splits();
        make_tokenizers();
        encode_splits();
        save_tokenizer_files(*m_tok, m_tmp);
        finish_output(m_tmp, out, meta());
        m_result.dir = out;
        m_result.vocab_size = m_tok->vocab_size();
        m_result.source_vocab_size = m_srcTok ? m_srcTok->vocab_size() : 0;
        report("writing", 1, 1);
        m_result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return m_result;
    }

private:
    void report(const std::string& stage, uint64_t done, uint64_t total) const {
        if (m_progress && !m_progress(stage, done, total))
            throw Cancelled();
    }

    /// 1. The pairs of every split; validation and test pairs held out of the training pairs when no
    /// files are given for them.
    void read_splits() {
        const auto& o = m_opts;
        report("reading", 0, 1);
        m_train = read_pairs_text(o.source, o.target, o.pairs, o.source_column, o.target_column);
        if (m_valFiles || !o.val_pairs.empty())
            m_val = read_pairs_text(o.val_source, o.val_target, o.val_pairs, o.source_column, o.target_column);
        if (m_testFiles || !o.test_pairs.empty())
            m_test = read_pairs_text(o.test_source, o.test_target, o.test_pairs, o.source_column, o.target_column);
        hold_out(m_val.empty() && o.val_fraction > 0, m_test.empty() && o.test_fraction > 0);
        if (m_train.empty())
            throw InputError("no training pairs are left; lower the validation and test fractions or add pairs");
        report("reading", 1, 1);
    }

    void hold_out(bool holdVal, bool holdTest) {
        if (!holdVal && !holdTest)
            return;
        std::vector<size_t> order(m_train.size());
        std::iota(order.begin(), order.end(), 0);
        std::mt19937_64 rng(m_opts.seed);
        std::shuffle(order.begin(), order.end(), rng);
        const auto n = static_cast<double>(m_train.size());
        const auto nVal = holdVal ? static_cast<size_t>(std::llround(m_opts.val_fraction * n)) : 0;
        const auto nTest = holdTest ? static_cast<size_t>(std::llround(m_opts.test_fraction * n)) : 0;
        std::vector<int> where(m_train.size(), 0);  // 0 train, 1 val, 2 test
        for (size_t i = 0; i < nVal + nTest && i < order.size(); ++i)
            where[order[i]] = i < nVal ? 1 : 2;
        std::vector<TextPair> kept;
        for (size_t i = 0; i < m_train.size(); ++i)
            (where[i] == 0 ? kept : where[i] == 1 ? m_val : m_test).push_back(std::move(m_train[i]));
        m_train.swap(kept);
    }

    /// A tokenizer trained on one or both sides of the training pairs (a corpus file written for it).
    std::unique_ptr<Tokenizer> train_on(const fs::path& corpus, bool sources, bool targets) const {
        {
            std::ofstream cf(corpus, std::ios::binary);
            for (const auto& p : m_train) {
                if (sources)
                    cf << p.source << '\n';
                if (targets)
                    cf << p.target << '\n';
            }
            if (!cf)
                throw IoError(corpus.string() + ": write failed (disk full?)");
        }
        auto tok = train_tokenizer(m_opts.tokenizer, corpus, [&](uint64_t d, uint64_t t) {
            return !m_progress || m_progress("tokenizer", d, t);
        });
        fs::remove(corpus);
        if (tok->bos_id() < 0 || tok->eos_id() < 0)
            throw ConfigError("the " + to_string(tok->kind()) + " tokenizer has no <bos>/<eos> tokens; choose bpe");
        return tok;
    }

    /// The source side's tokenizer folder (kept when the output moves into place).
    TempDir source_tokenizer_dir() const {
        TempDir dir;
        dir.path = m_tmp.path / "source_tokenizer";
        dir.keep = true;
        fs::create_directories(dir.path);
        return dir;
    }

    /// 2. One vocabulary over both sides of the training pairs, or one per side, or the given run's.
    void make_tokenizers() {
        if (!m_opts.tokenizer_from.empty()) {
            m_tok = load_tokenizer_from(m_opts.tokenizer_from, m_srcTok);
            if (m_srcTok) {
                const TempDir srcDir = source_tokenizer_dir();
                m_srcFingerprint = m_srcTok->fingerprint();
                save_tokenizer_files(*m_srcTok, srcDir);
            }
        } else {
            m_tok = train_on(m_tmp.path / "corpus.txt", !m_opts.separate_vocab, true);
        }
        if (m_opts.separate_vocab) {
            // The source side's tokenizer is trained in a folder of its own, so its files never meet the
            // target's (sentencepiece writes its model beside the corpus).
            const TempDir srcDir = source_tokenizer_dir();
            m_srcTok = train_on(srcDir.path / "corpus.txt", true, false);
            m_srcFingerprint = m_srcTok->fingerprint();  // before saving: it hashes the trained model file
            save_tokenizer_files(*m_srcTok, srcDir);
        }
        m_fingerprint = m_tok->fingerprint();
        m_dtype = dtype_for_vocab(std::max(m_tok->vocab_size(), source_tok().vocab_size()));
        if (source_tok().eos_id() != m_tok->eos_id())
            throw ConfigError("the source and target tokenizers number <eos> differently; use one shared vocabulary");
    }

    const Tokenizer& source_tok() const { return m_srcTok ? *m_srcTok : *m_tok; }

    /// Whether the length filters drop a training pair (counted in split).
    bool dropped(const std::vector<int32_t>& s, const std::vector<int32_t>& t, EncodedSplit& split) const {
        const auto max = static_cast<size_t>(m_opts.max_tokens);
        if (m_opts.max_tokens > 0 && (s.size() > max || t.size() > max)) {
            ++split.dropped;
            return true;
        }
        if (m_opts.max_length_ratio > 0) {
            const double a = static_cast<double>(std::max<size_t>(s.size(), 1)),
                         b = static_cast<double>(std::max<size_t>(t.size(), 1));
            if (std::max(a, b) > m_opts.max_length_ratio * std::min(a, b)) {
                ++split.dropped_ratio;
                return true;
            }
        }
        return false;
    }

    /// One split into {name}.bin and {name}.pairs: source then target per pair, each ended by <eos>.
    EncodedSplit encode_split(const std::string& name, const std::vector<TextPair>& pairs) {
        const int32_t eos = m_tok->eos_id();
        TokenWriter w(m_tmp.path / (name + ".bin"), m_dtype);
        DocumentIndex index;
        std::vector<uint64_t> srcLen, tgtLen;
        EncodedSplit split;
        std::vector<int32_t> s, t;
        for (const auto& p : pairs) {
            s.clear();
            t.clear();
            source_tok().encode(p.source, s);
            m_tok->encode_target(p.target, t);  // Marian's vocabulary cuts the target side with its own model
            if (++m_encoded % 1000 == 0)
                report("encoding", m_encoded, m_total);
            if (name == "train" && dropped(s, t, split))
                continue;
            for (int32_t id : s)
                (m_srcTok ? m_maxSourceId : m_maxId) = std::max<int64_t>(m_srcTok ? m_maxSourceId : m_maxId, id);
            for (int32_t id : t)
                m_maxId = std::max<int64_t>(m_maxId, id);
            const uint64_t at = w.count();
            index.docs.emplace_back(at, at + s.size());
            index.docs.emplace_back(at + s.size() + 1, at + s.size() + 1 + t.size());
            s.push_back(eos);
            t.push_back(eos);
            w.write(s.data(), s.size());
            w.write(t.data(), t.size());
            srcLen.push_back(s.size() - 1);
            tgtLen.push_back(t.size() - 1);
        }
        w.close();
        index.write(m_tmp.path / (name + ".pairs"));
        split.pairs = srcLen.size();
        split.tokens = w.count();
        split.source = side_lengths(srcLen);
        split.target = side_lengths(tgtLen);
        return split;
    }

    /// 3. Encode the splits.
    void encode_splits() {
        m_total = m_train.size() + m_val.size() + m_test.size();
        for (auto [name, pairs] : {std::pair<std::string, const std::vector<TextPair>*>{"train", &m_train},
                                   {"val", &m_val},
                                   {"test", &m_test}}) {
            const EncodedSplit e = encode_split(name, *pairs);
            m_splitsMeta[name] = {{"pairs", e.pairs},
                                  {"tokens", e.tokens},
                                  {"source_lengths", to_json_lengths(e.source)},
                                  {"target_lengths", to_json_lengths(e.target)}};
            if (name == "train") {
                m_result.train_pairs = e.pairs;
                m_result.dropped_long = e.dropped;
                m_result.dropped_ratio = e.dropped_ratio;
                m_result.source_lengths = e.source;
                m_result.target_lengths = e.target;
                m_trainTokens = e.tokens;
                m_splitsMeta[name]["dropped_longer_than_max_tokens"] = e.dropped;
                m_splitsMeta[name]["dropped_over_max_length_ratio"] = e.dropped_ratio;
            } else if (name == "val") {
                m_result.val_pairs = e.pairs;
                m_valTokens = e.tokens;
            } else {
                m_result.test_pairs = e.pairs;
            }
        }
        if (m_result.train_pairs == 0) {
            std::ostringstream ratio;
            ratio << m_opts.max_length_ratio;
            throw InputError("every training pair is dropped by the length filters (max tokens " +
                             std::to_string(m_opts.max_tokens) + ", max length ratio " + ratio.str() +
                             "); raise --max-tokens or --max-length-ratio");
        }
    }

    /// 4. meta.json.
    nlohmann::json meta() const {
        const auto& o = m_opts;
        nlohmann::json meta;
        meta["format_version"] = 1;
        meta["tokenizer"] = m_tok->kind();
        meta["vocab_size"] = m_tok->vocab_size();
        meta["tokenizer_fingerprint"] = m_fingerprint;
        meta["max_token_id"] = m_maxId;
        meta["dtype"] = to_string(m_dtype);
        meta["train_tokens"] = m_trainTokens;
        meta["val_tokens"] = m_valTokens;
        meta["special_tokens"] = {
            {"pad", m_tok->pad_id()}, {"unk", m_tok->unk_id()}, {"bos", m_tok->bos_id()}, {"eos", m_tok->eos_id()}};
        if (o.tokenizer_from.empty())
            meta["tokenizer_spec"] = {{"kind", o.tokenizer.kind}, {"vocab_size", o.tokenizer.vocab_size}};
        else
            meta["tokenizer_from"] = fs::absolute(o.tokenizer_from).string();
        meta["parallel"] = {{"format_version", kParallelFormatVersion},
                            {"source_lang", o.source_lang},
                            {"target_lang", o.target_lang},
                            {"shared_vocab", !m_srcTok},
                            {"max_tokens", o.max_tokens},
                            {"max_length_ratio", o.max_length_ratio},
                            {"train_pairs", m_result.train_pairs},
                            {"val_pairs", m_result.val_pairs},
                            {"test_pairs", m_result.test_pairs},
                            {"record_format",
                             "{split}.pairs: u64 [start, end) of source then target per pair, "
                             "<eos> after each range in {split}.bin"},
                            {"splits", m_splitsMeta}};
        if (m_srcTok) {
            meta["parallel"]["source_vocab_size"] = m_srcTok->vocab_size();
            meta["parallel"]["source_tokenizer_fingerprint"] = m_srcFingerprint;
            meta["parallel"]["source_max_token_id"] = m_maxSourceId;
        }
        nlohmann::json sources = nlohmann::json::array();
        for (const auto& f : m_inputs)
            sources.push_back({{"path", fs::absolute(f).string()}, {"bytes", fs::file_size(f)}});
        meta["sources"] = sources;
        meta["split"] = {{"val", m_valFiles || !o.val_pairs.empty() ? "files" : "held out"},
                         {"test", m_testFiles || !o.test_pairs.empty() ? "files" : "held out"},
                         {"val_fraction", o.val_fraction},
                         {"test_fraction", o.test_fraction},
                         {"seed", o.seed}};
        return meta;
    }

    const ParallelPrepareOptions& m_opts;
    const PrepareProgressFn& m_progress;
    bool m_valFiles = false, m_testFiles = false;
    std::vector<std::string> m_inputs;
    TempDir m_tmp;
    std::vector<TextPair> m_train, m_val, m_test;
    std::unique_ptr<Tokenizer> m_tok, m_srcTok;
    std::string m_fingerprint, m_srcFingerprint;
    TokenDtype m_dtype{};
    ParallelPrepareResult m_result;
    nlohmann::json m_splitsMeta = nlohmann::json::object();
    int64_t m_maxId = -1, m_maxSourceId = -1;
    uint64_t m_trainTokens = 0, m_valTokens = 0, m_total = 0, m_encoded = 0;
};

}  // namespace

ParallelPrepareResult prepare_parallel(const ParallelPrepareOptions& opts, const PrepareProgressFn& progress) {
    return ParallelPreparation(opts, progress).run();
}

std::vector<TokenPair> read_pairs(const PreparedDataset& data, const std::string& split) {
    if (!data.parallel)
        throw InputError(data.dir.string() +
                         " is not a parallel dataset; prepare one with twb prepare --source/--target");
    uint64_t n = 0;
    if (split == "train")
        n = data.train_pairs;
    else if (split == "val")
        n = data.val_pairs;
    else if (split == "test")
        n = data.test_pairs;
    else
        throw ConfigError("split must be train, val or test (got '" + split + "')");
    const TokenFile file = open_split(data, split);
    const DocumentIndex index = DocumentIndex::read(data.dir / (split + ".pairs"), file.size(), 2 * n);
    std::vector<TokenPair> out(static_cast<size_t>(n));
    for (size_t i = 0; i < out.size(); ++i)
        for (int side = 0; side < 2; ++side) {
            const auto [a, b] = index.docs[2 * i + static_cast<size_t>(side)];
            auto& v = side == 0 ? out[i].source : out[i].target;
            for (uint64_t k = a; k < b; ++k) {
                const int32_t id = file.at(k);
                if (id < 0 ||
                    id >= (side == 0 && data.source_vocab_size > 0 ? data.source_vocab_size : data.vocab_size))
                    throw FormatError((data.dir / (split + ".bin")).string() + ": holds token id " +
                                      std::to_string(id) + " outside the vocabulary; prepare the data again");
                v.push_back(id);
            }
        }
    return out;
}

}  // namespace twb
