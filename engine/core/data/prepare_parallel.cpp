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
    const std::string text = read_file(path);
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
                throw InputError(tsv + ":" + std::to_string(i + 1) + ": has " + std::to_string(cols.size()) +
                                 " tab-separated columns but column " + std::to_string(need - 1) +
                                 " is asked for; check --source-column/--target-column");
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

ParallelPrepareResult prepare_parallel(const ParallelPrepareOptions& opts, const PrepareProgressFn& progress) {
    const auto t0 = std::chrono::steady_clock::now();
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
    auto givenPair = [](const std::string& a, const std::string& b, const std::string& what) {
        if (a.empty() != b.empty())
            throw ConfigError("give both " + what + " files (source and target), or neither");
        return !a.empty();
    };
    const bool valFiles = givenPair(opts.val_source, opts.val_target, "validation");
    const bool testFiles = givenPair(opts.test_source, opts.test_target, "test");
    std::vector<std::string> inputs;
    for (const auto* f : {&opts.source, &opts.target, &opts.pairs, &opts.val_source, &opts.val_target,
                          &opts.test_source, &opts.test_target, &opts.val_pairs, &opts.test_pairs})
        if (!f->empty())
            inputs.push_back(*f);
    TempDir tmp;
    const fs::path out = begin_output(opts.out, inputs, opts.overwrite, tmp);
    auto report = [&](const std::string& stage, uint64_t done, uint64_t total) {
        if (progress && !progress(stage, done, total))
            throw Cancelled();
    };

    // 1. The pairs of every split.
    report("reading", 0, 1);
    std::vector<TextPair> train =
        read_pairs_text(opts.source, opts.target, opts.pairs, opts.source_column, opts.target_column);
    std::vector<TextPair> val, test;
    if (valFiles || !opts.val_pairs.empty())
        val = read_pairs_text(opts.val_source, opts.val_target, opts.val_pairs, opts.source_column, opts.target_column);
    if (testFiles || !opts.test_pairs.empty())
        test = read_pairs_text(opts.test_source, opts.test_target, opts.test_pairs, opts.source_column,
                               opts.target_column);
    const bool holdVal = val.empty() && opts.val_fraction > 0, holdTest = test.empty() && opts.test_fraction > 0;
    if (holdVal || holdTest) {
        std::vector<size_t> order(train.size());
        std::iota(order.begin(), order.end(), 0);
        std::mt19937_64 rng(opts.seed);
        std::shuffle(order.begin(), order.end(), rng);
        const auto n = static_cast<double>(train.size());
        const auto nVal = holdVal ? static_cast<size_t>(std::llround(opts.val_fraction * n)) : 0;
        const auto nTest = holdTest ? static_cast<size_t>(std::llround(opts.test_fraction * n)) : 0;
        std::vector<int> where(train.size(), 0);  // 0 train, 1 val, 2 test
        for (size_t i = 0; i < nVal + nTest && i < order.size(); ++i)
            where[order[i]] = i < nVal ? 1 : 2;
        std::vector<TextPair> kept;
        for (size_t i = 0; i < train.size(); ++i)
            (where[i] == 0 ? kept : where[i] == 1 ? val : test).push_back(std::move(train[i]));
        train.swap(kept);
    }
    if (train.empty())
        throw InputError("no training pairs are left; lower the validation and test fractions or add pairs");
    report("reading", 1, 1);

    // 2. One vocabulary over both sides of the training pairs, or one per side.
    auto trainOn = [&](const fs::path& corpus, bool sources, bool targets) {
        {
            std::ofstream cf(corpus, std::ios::binary);
            for (const auto& p : train) {
                if (sources)
                    cf << p.source << '\n';
                if (targets)
                    cf << p.target << '\n';
            }
            if (!cf)
                throw IoError(corpus.string() + ": write failed (disk full?)");
        }
        auto tok = train_tokenizer(opts.tokenizer, corpus,
                                   [&](uint64_t d, uint64_t t) { return !progress || progress("tokenizer", d, t); });
        fs::remove(corpus);
        if (tok->bos_id() < 0 || tok->eos_id() < 0)
            throw ConfigError("the " + to_string(tok->kind()) + " tokenizer has no <bos>/<eos> tokens; choose bpe");
        return tok;
    };
    std::unique_ptr<Tokenizer> tok, srcTok;
    std::string srcFingerprint;
    if (!opts.tokenizer_from.empty()) {
        tok = load_tokenizer_from(opts.tokenizer_from, srcTok);
        if (srcTok) {
            TempDir srcDir;
            srcDir.path = tmp.path / "source_tokenizer";
            srcDir.keep = true;
            fs::create_directories(srcDir.path);
            srcFingerprint = srcTok->fingerprint();
            save_tokenizer_files(*srcTok, srcDir);
        }
    } else {
        tok = trainOn(tmp.path / "corpus.txt", !opts.separate_vocab, true);
    }
    if (opts.separate_vocab) {
        // The source side's tokenizer is trained in a folder of its own, so its files never meet the
        // target's (sentencepiece writes its model beside the corpus).
        TempDir srcDir;
        srcDir.path = tmp.path / "source_tokenizer";
        srcDir.keep = true;
        fs::create_directories(srcDir.path);
        srcTok = trainOn(srcDir.path / "corpus.txt", true, false);
        srcFingerprint = srcTok->fingerprint();  // before saving: it hashes the trained model file
        save_tokenizer_files(*srcTok, srcDir);
    }
    const Tokenizer& sourceTok = srcTok ? *srcTok : *tok;
    const std::string fingerprint = tok->fingerprint();
    const TokenDtype dtype = dtype_for_vocab(std::max(tok->vocab_size(), sourceTok.vocab_size()));
    const int32_t eos = tok->eos_id();
    if (sourceTok.eos_id() != eos)
        throw ConfigError("the source and target tokenizers number <eos> differently; use one shared vocabulary");

    // 3. Encode the splits.
    ParallelPrepareResult result;
    nlohmann::json splitsMeta = nlohmann::json::object();
    int64_t maxId = -1, maxSourceId = -1;
    uint64_t trainTokens = 0, valTokens = 0;
    const uint64_t total = train.size() + val.size() + test.size();
    uint64_t done = 0;
    for (auto [name, pairs] :
         {std::pair<const char*, std::vector<TextPair>*>{"train", &train}, {"val", &val}, {"test", &test}}) {
        TokenWriter w(tmp.path / (std::string(name) + ".bin"), dtype);
        DocumentIndex index;
        std::vector<uint64_t> srcLen, tgtLen;
        uint64_t dropped = 0, droppedRatio = 0;
        std::vector<int32_t> s, t;
        for (const auto& p : *pairs) {
            s.clear();
            t.clear();
            sourceTok.encode(p.source, s);
            tok->encode_target(p.target, t);  // Marian's vocabulary cuts the target side with its own model
            if (++done % 1000 == 0)
                report("encoding", done, total);
            const bool isTrain = std::string(name) == "train";
            if (isTrain && opts.max_tokens > 0 &&
                (s.size() > static_cast<size_t>(opts.max_tokens) || t.size() > static_cast<size_t>(opts.max_tokens))) {
                ++dropped;
                continue;
            }
            if (isTrain && opts.max_length_ratio > 0) {
                const double a = static_cast<double>(std::max<size_t>(s.size(), 1)),
                             b = static_cast<double>(std::max<size_t>(t.size(), 1));
                if (std::max(a, b) > opts.max_length_ratio * std::min(a, b)) {
                    ++droppedRatio;
                    continue;
                }
            }
            for (int32_t id : s)
                (srcTok ? maxSourceId : maxId) = std::max<int64_t>(srcTok ? maxSourceId : maxId, id);
            for (int32_t id : t)
                maxId = std::max<int64_t>(maxId, id);
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
        index.write(tmp.path / (std::string(name) + ".pairs"));
        const SideLengths sl = side_lengths(srcLen), tl = side_lengths(tgtLen);
        splitsMeta[name] = {{"pairs", srcLen.size()},
                            {"tokens", w.count()},
                            {"source_lengths", to_json_lengths(sl)},
                            {"target_lengths", to_json_lengths(tl)}};
        const std::string n(name);
        if (n == "train") {
            result.train_pairs = srcLen.size();
            result.dropped_long = dropped;
            result.dropped_ratio = droppedRatio;
            result.source_lengths = sl;
            result.target_lengths = tl;
            trainTokens = w.count();
            splitsMeta[name]["dropped_longer_than_max_tokens"] = dropped;
            splitsMeta[name]["dropped_over_max_length_ratio"] = droppedRatio;
        } else if (n == "val") {
            result.val_pairs = srcLen.size();
            valTokens = w.count();
        } else {
            result.test_pairs = srcLen.size();
        }
    }
    if (result.train_pairs == 0)
        throw InputError("every training pair is dropped by the length filters (max tokens " +
                         std::to_string(opts.max_tokens) + ", max length ratio " +
                         [&] {
                             std::ostringstream r;
                             r << opts.max_length_ratio;
                             return r.str();
                         }() +
                         "); raise --max-tokens or --max-length-ratio");

    // 4. Tokenizer and meta.json, then into place.
    save_tokenizer_files(*tok, tmp);
    nlohmann::json meta;
    meta["format_version"] = 1;
    meta["tokenizer"] = tok->kind();
    meta["vocab_size"] = tok->vocab_size();
    meta["tokenizer_fingerprint"] = fingerprint;
    meta["max_token_id"] = maxId;
    meta["dtype"] = to_string(dtype);
    meta["train_tokens"] = trainTokens;
    meta["val_tokens"] = valTokens;
    meta["special_tokens"] = {
        {"pad", tok->pad_id()}, {"unk", tok->unk_id()}, {"bos", tok->bos_id()}, {"eos", tok->eos_id()}};
    if (opts.tokenizer_from.empty())
        meta["tokenizer_spec"] = {{"kind", opts.tokenizer.kind}, {"vocab_size", opts.tokenizer.vocab_size}};
    else
        meta["tokenizer_from"] = fs::absolute(opts.tokenizer_from).string();
    meta["parallel"] = {{"format_version", kParallelFormatVersion},
                        {"source_lang", opts.source_lang},
                        {"target_lang", opts.target_lang},
                        {"shared_vocab", !srcTok},
                        {"max_tokens", opts.max_tokens},
                        {"max_length_ratio", opts.max_length_ratio},
                        {"train_pairs", result.train_pairs},
                        {"val_pairs", result.val_pairs},
                        {"test_pairs", result.test_pairs},
                        {"record_format",
                         "{split}.pairs: u64 [start, end) of source then target per pair, "
                         "<eos> after each range in {split}.bin"},
                        {"splits", splitsMeta}};
    if (srcTok) {
        meta["parallel"]["source_vocab_size"] = srcTok->vocab_size();
        meta["parallel"]["source_tokenizer_fingerprint"] = srcFingerprint;
        meta["parallel"]["source_max_token_id"] = maxSourceId;
    }
    nlohmann::json sources = nlohmann::json::array();
    for (const auto& f : inputs)
        sources.push_back({{"path", fs::absolute(f).string()}, {"bytes", fs::file_size(f)}});
    meta["sources"] = sources;
    meta["split"] = {{"val", valFiles || !opts.val_pairs.empty() ? "files" : "held out"},
                     {"test", testFiles || !opts.test_pairs.empty() ? "files" : "held out"},
                     {"val_fraction", opts.val_fraction},
                     {"test_fraction", opts.test_fraction},
                     {"seed", opts.seed}};
    finish_output(tmp, out, std::move(meta));
    result.dir = out;
    result.vocab_size = tok->vocab_size();
    result.source_vocab_size = srcTok ? srcTok->vocab_size() : 0;
    report("writing", 1, 1);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
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
