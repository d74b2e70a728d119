// The preparation pipeline (twb::prepare_dataset): read and clean a corpus into a working copy, train or
// load the tokenizer, encode document by document into token files with their statistics, split into
// train and validation, write meta.json, all in a temporary folder renamed into place at the end
// (core/data/prepare_output.h). prepare_parallel.cpp does the same for translation pairs.
#include "twb/dataset.h"

#include "core/data/cleaning.h"
#include "core/data/corpus.h"
#include "core/data/document_index.h"
#include "core/data/prepare_output.h"
#include "core/data/token_file.h"
#include "core/tokenizers/tokenizer.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <numeric>
#include <random>

namespace twb {

namespace fs = std::filesystem;

namespace {
constexpr int kMetaFormatVersion = 1;

/// Lengths seen in a stream: exact count, mean and max, plus a bounded uniform sample (reservoir) for
/// the histogram, so a corpus of any size costs at most a few MB here.
struct LengthSample {
    static constexpr size_t kCap = 1 << 20;
    std::vector<uint32_t> sample;
    uint64_t n = 0, sum = 0;
    uint32_t max = 0;
    std::mt19937_64 rng{12345};
    void add(uint32_t v) {
        ++n;
        sum += v;
        max = std::max(max, v);
        if (sample.size() < kCap)
            sample.push_back(v);
        else if (const uint64_t j = rng() % n; j < kCap)
            sample[j] = v;
    }
};

/// Collects counts and lengths while encoding.
struct StatsBuilder {
    explicit StatsBuilder(const Tokenizer& t) : tok(t), counts(static_cast<size_t>(t.vocab_size()), 0) {}
    const Tokenizer& tok;
    std::vector<uint64_t> counts;
    LengthSample lineLengths, docLengths;
    uint64_t chars = 0, bytes = 0, tokens = 0, docs = 0;

    void add_tokens(const int32_t* ids, size_t n) {
        for (size_t i = 0; i < n; ++i)
            ++counts[static_cast<size_t>(ids[i])];
        tokens += n;
    }
    int64_t max_id() const {
        for (size_t i = counts.size(); i-- > 0;)
            if (counts[i] > 0)
                return static_cast<int64_t>(i);
        return -1;
    }
    DatasetStats finish() const {
        DatasetStats s;
        s.characters = chars;
        s.bytes = bytes;
        s.tokens = tokens;
        s.documents = docs;
        s.lines = lineLengths.n;
        s.vocab_size = tok.vocab_size();
        s.chars_per_token = tokens ? static_cast<double>(chars) / static_cast<double>(tokens) : 0;
        s.vocab_used = static_cast<int>(std::count_if(counts.begin(), counts.end(), [](uint64_t c) { return c > 0; }));
        if (tok.unk_id() >= 0 && tokens)
            s.unk_rate = static_cast<double>(counts[static_cast<size_t>(tok.unk_id())]) / static_cast<double>(tokens);
        // Histogram of documents when there are many, else of lines.
        const bool byDoc = docLengths.n >= 100;
        const auto& L = byDoc ? docLengths : lineLengths;
        s.length_unit = byDoc ? "documents" : "lines";
        if (L.n > 0) {
            std::vector<uint32_t> sorted(L.sample);
            std::sort(sorted.begin(), sorted.end());
            s.length_max = L.max;
            s.length_mean = static_cast<double>(L.sum) / static_cast<double>(L.n);
            const double hi = std::max<double>(1.0, sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)]);
            const int bins = 20;
            const double w = std::max(1.0, std::ceil(hi / bins));
            for (int b = 0; b <= bins; ++b)
                s.length_bin_edges.push_back(b * w);
            s.length_counts.assign(bins, 0);
            // Exact up to a million lines/documents; beyond, the sample scaled to the true count.
            const double scale = static_cast<double>(L.n) / static_cast<double>(L.sample.size());
            std::vector<double> c(bins, 0.0);
            for (uint32_t v : L.sample)
                c[std::min<size_t>(bins - 1, static_cast<size_t>(v / w))] += scale;
            for (int b = 0; b < bins; ++b)
                s.length_counts[static_cast<size_t>(b)] =
                    static_cast<uint64_t>(std::llround(c[static_cast<size_t>(b)]));
        }
        std::vector<int> order(counts.size());
        std::iota(order.begin(), order.end(), 0);
        const size_t top = std::min<size_t>(50, order.size());
        std::partial_sort(order.begin(), order.begin() + static_cast<long>(top), order.end(), [&](int a, int b) {
            return counts[static_cast<size_t>(a)] > counts[static_cast<size_t>(b)];
        });
        for (size_t i = 0; i < top && counts[static_cast<size_t>(order[i])] > 0; ++i)
            s.top_tokens.push_back({order[i], tok.token_text(order[i]), counts[static_cast<size_t>(order[i])]});
        return s;
    }
};

/// Encodes text made of whole lines, recording tokens per line; returns its token count. With a
/// newline token the whole text goes to the tokenizer at once (far fewer calls), else line by line.
size_t encode_document(const Tokenizer& tok, std::string_view doc, std::vector<int32_t>& ids, StatsBuilder& st) {
    const size_t before = ids.size();
    const int nl = tok.newline_id();
    if (nl >= 0) {
        tok.encode(doc, ids);
        uint32_t run = 0;
        for (size_t i = before; i < ids.size(); ++i) {
            ++run;
            if (ids[i] == nl) {
                st.lineLengths.add(run);
                run = 0;
            }
        }
        if (run)
            st.lineLengths.add(run);
        return ids.size() - before;
    }
    size_t pos = 0;
    while (pos < doc.size()) {
        size_t nl = doc.find('\n', pos);
        nl = nl == std::string_view::npos ? doc.size() : nl + 1;
        const size_t lb = ids.size();
        tok.encode(doc.substr(pos, nl - pos), ids);
        st.lineLengths.add(static_cast<uint32_t>(ids.size() - lb));
        pos = nl;
    }
    return ids.size() - before;
}

/// Plain text in documents mode: the paragraphs (runs of non-blank lines) of the byte range [s, e) of
/// the working copy, or each non-blank line when the range has no blank line. Ranges exclude the line
/// breaks that end them.
std::vector<std::pair<uint64_t, uint64_t>> split_paragraphs(std::ifstream& in, uint64_t s, uint64_t e) {
    auto isBlank = [](const std::string& l) { return l.find_first_not_of(" \t\r") == std::string::npos; };
    auto forLines = [&](const std::function<void(uint64_t, uint64_t, bool)>& fn) {
        in.clear();
        in.seekg(static_cast<std::streamoff>(s));
        std::string line;
        uint64_t pos = s;
        while (pos < e && std::getline(in, line)) {
            const uint64_t start = pos;
            pos += line.size() + 1;
            if (start + line.size() > e)
                line.resize(static_cast<size_t>(e - start));
            uint64_t end = start + line.size();
            if (!line.empty() && line.back() == '\r')
                --end;
            fn(start, end, isBlank(line));
        }
        in.clear();
    };
    bool anyBlank = false;
    forLines([&](uint64_t, uint64_t, bool blank) { anyBlank = anyBlank || blank; });
    std::vector<std::pair<uint64_t, uint64_t>> out;
    bool open = false;
    forLines([&](uint64_t a, uint64_t b, bool blank) {
        if (blank) {
            open = false;
        } else if (anyBlank && open) {
            out.back().second = b;
        } else {
            out.emplace_back(a, b);
            open = anyBlank;
        }
    });
    return out;
}

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

void check_options(const PrepareOptions& opts) {
    if (!(opts.val_fraction >= 0.0 && opts.val_fraction < 1.0))
        throw ConfigError("val fraction " + std::to_string(opts.val_fraction) + " must be in [0, 1)");
    if (opts.split != "tail" && opts.split != "shuffle")
        throw ConfigError("split '" + opts.split + "' is unknown; choose tail or shuffle");
    if (opts.tokenizer.vocab_size < 0)
        throw ConfigError("vocab size " + std::to_string(opts.tokenizer.vocab_size) +
                          " is negative; give a number of tokens such as 2000 (--vocab-size 2000)");
    if (opts.documents && opts.tokenizer_from.empty() && opts.tokenizer.kind == TokenizerKind::Char)
        throw ConfigError(
            "the char tokenizer has no <bos>/<eos> tokens, which documents need; choose byte, word, "
            "bpe, unigram or bytebpe, or prepare without --documents");
}

/// The pipeline, stage by stage, in a temporary folder renamed into place at the end: read and clean
/// into a working copy, train (or load) the tokenizer, encode document by document, split, write.
class DatasetPreparation {
public:
    DatasetPreparation(const PrepareOptions& opts, const PrepareProgressFn& progress)
        : m_opts(opts), m_progress(progress) {}

    PrepareResult run() {
        std::vector<std::string> inputs = m_opts.corpus.inputs;  // what must not lie inside --out
        if (!m_opts.tokenizer_from.empty())
            inputs.push_back(m_opts.tokenizer_from);
        const fs::path out = begin_output(m_opts.out, inputs, m_opts.overwrite, m_tmp);
        m_corpusFile = m_tmp.path / "corpus.txt";
        read_and_clean();
        make_tokenizer();
        const std::string fingerprint = m_tok->fingerprint();  // before save() moves a sentencepiece model
        encode();
        split();
        if (m_result.train_tokens == 0)
            throw InputError("the training split is empty; lower the val fraction or add text");
        fs::remove(m_corpusFile);
        save_tokenizer_files(*m_tok, m_tmp);
        finish_output(m_tmp, out, meta(fingerprint));
        m_result.dir = out;
        if (m_progress)
            m_progress("writing", 1, 1);
        return std::move(m_result);
    }

private:
    std::function<bool(uint64_t, uint64_t)> stage(const std::string& name) const {
        return [this, name](uint64_t done, uint64_t total) { return !m_progress || m_progress(name, done, total); };
    }

    /// 1. Reads and cleans into corpus.txt, remembering where each document ends.
    void read_and_clean() {
        Cleaner cleaner(m_opts.cleaning);
        std::ofstream cf(m_corpusFile, std::ios::binary);
        if (!cf)
            throw IoError(m_corpusFile.string() + ": cannot write the working copy");
        std::string cleaned;
        uint64_t docStart = 0;
        char lastByte = '\n';
        auto write = [&](const std::string& s) {
            cf.write(s.data(), static_cast<std::streamsize>(s.size()));
            lastByte = s.back();
            m_chars += code_points(s);
            m_bytes += s.size();
        };
        auto sink = [&](std::string_view piece, bool end) {
            cleaned.clear();
            cleaner.feed(piece, cleaned);
            if (end)
                cleaner.end_document(cleaned);
            if (!cleaned.empty()) {
                if (m_bytes == docStart && !m_docs.empty() && lastByte != '\n') {
                    write("\n");  // documents are separated by a newline in the working copy (outside both)
                    docStart = m_bytes;
                }
                write(cleaned);
            }
            if (end) {
                if (m_bytes > docStart)
                    m_docs.emplace_back(docStart, m_bytes);
                docStart = m_bytes;
            }
        };
        m_read = read_corpus(m_opts.corpus, sink, stage("reading"));
        if (!cf.flush())
            throw IoError(m_corpusFile.string() + ": write failed (disk full?)");
        cf.close();
        m_result.cleaning = cleaner.report();
        m_result.warnings = m_read.warnings;
        if (m_read.invalid_bytes_replaced)
            m_result.warnings.push_back(
                std::to_string(m_read.invalid_bytes_replaced) +
                (m_read.invalid_bytes_replaced == 1 ? " invalid UTF-8 byte was" : " invalid UTF-8 bytes were") +
                " replaced with U+FFFD");
        if (m_bytes == 0)
            throw InputError("the corpus is empty after cleaning; check the inputs and cleaning options");
        if (m_opts.documents && m_opts.corpus.format == InputFormat::Text) {
            std::ifstream in(m_corpusFile, std::ios::binary);
            Ranges paragraphs;
            for (auto [s, e] : m_docs)
                for (auto p : split_paragraphs(in, s, e))
                    paragraphs.push_back(p);
            m_docs.swap(paragraphs);
        }
    }

    /// 2. Trains the tokenizer on the cleaned text, or loads --tokenizer-from's.
    void make_tokenizer() {
        const auto& spec = m_opts.tokenizer;
        m_tok = m_opts.tokenizer_from.empty() ? train_tokenizer(spec, m_corpusFile, stage("tokenizer"))
                                              : load_tokenizer(find_tokenizer_dir(m_opts.tokenizer_from));
        if (m_opts.documents && (m_tok->bos_id() < 0 || m_tok->eos_id() < 0))
            throw ConfigError("the " + to_string(m_tok->kind()) +
                              " tokenizer has no <bos>/<eos> tokens, which documents need; choose byte, word, bpe, "
                              "unigram or bytebpe, or prepare without --documents");
        // A learned vocabulary stops where the text has nothing more to give: said, never silent.
        const bool learned = m_tok->kind() == TokenizerKind::ByteBpe || m_tok->kind() == TokenizerKind::Word;
        if (m_opts.tokenizer_from.empty() && spec.vocab_size > m_tok->vocab_size() && learned)
            m_result.warnings.push_back(
                "the " + to_string(m_tok->kind()) + " vocabulary has " + std::to_string(m_tok->vocab_size()) +
                " tokens, not the " + std::to_string(spec.vocab_size) + " asked: " +
                (m_tok->kind() == TokenizerKind::ByteBpe
                     ? "no pair of tokens occurs twice in the text after the merges learned, so no more can be learned"
                     : "the text holds fewer distinct words (at --min-frequency)") +
                "; a larger text gives a larger vocabulary");
        m_dtype = dtype_for_vocab(m_tok->vocab_size());
    }

    /// split=shuffle: which documents go to validation (a seeded shuffle, val_fraction of them).
    std::vector<bool> validation_documents() {
        std::vector<bool> isVal(m_docs.size(), false);
        if (m_opts.split != "shuffle")
            return isVal;
        std::vector<size_t> order(m_docs.size());
        std::iota(order.begin(), order.end(), 0);
        std::mt19937_64 rng(m_opts.seed);
        std::shuffle(order.begin(), order.end(), rng);
        auto nVal = static_cast<size_t>(std::llround(m_opts.val_fraction * static_cast<double>(m_docs.size())));
        if (m_opts.val_fraction > 0 && nVal == 0) {
            // A validation share that holds out nothing would leave "validation" figures that are the
            // training split's: one document cannot be split this way, several give up one at least.
            if (m_docs.size() < 2)
                throw InputError(
                    "a shuffled split holds out whole documents, and this corpus is one document; split off its "
                    "end instead (split tail), keep its documents apart (--documents: paragraphs of a text, "
                    "records of JSONL or CSV), or set the validation share to 0");
            nVal = 1;
            m_result.warnings.push_back("a validation share of " + std::to_string(m_opts.val_fraction) + " of " +
                                        std::to_string(m_docs.size()) +
                                        " documents rounds to none; one document is held out for validation");
        }
        for (size_t i = 0; i < nVal && i < order.size(); ++i)
            isVal[order[i]] = true;
        return isVal;
    }

    /// 3. Encodes document by document, line by line, into train.bin (and val.bin for split=shuffle).
    void encode() {
        const std::vector<bool> isVal = validation_documents();
        m_stats = std::make_unique<StatsBuilder>(*m_tok);
        m_stats->chars = m_chars;
        m_stats->bytes = m_bytes;
        m_stats->docs = m_docs.size();
        m_trainW = std::make_unique<TokenWriter>(m_tmp.path / "train.bin", m_dtype);
        if (m_opts.split == "shuffle")
            m_valW = std::make_unique<TokenWriter>(m_tmp.path / "val.bin", m_dtype);
        std::ifstream cf(m_corpusFile, std::ios::binary);
        uint64_t prevEnd = 0;
        for (size_t d = 0; d < m_docs.size(); ++d) {
            encode_document_at(cf, d, prevEnd, isVal[d] ? *m_valW : *m_trainW, isVal[d] ? m_valDocs : m_trainDocs);
            prevEnd = m_docs[d].second;
        }
        m_trainW->close();
        if (m_valW)
            m_valW->close();
        m_result.stats = m_stats->finish();
    }

    /// One document (and the separator before it, for a tokenizer without <eos>), streamed in pieces that
    /// end on line boundaries so huge documents never sit in memory whole.
    void encode_document_at(std::ifstream& cf, size_t d, uint64_t prevEnd, TokenWriter& w, DocumentIndex& index) {
        const auto [s, e] = m_docs[d];
        const int eos = m_tok->eos_id();
        std::vector<int32_t> ids;
        std::string buf;
        const uint64_t docStart = w.count();  // documents mode has an <eos>: no separator, it starts here
        if (eos < 0 && s > prevEnd) {         // the separator newline between documents
            buf.assign(static_cast<size_t>(s - prevEnd), '\0');
            cf.seekg(static_cast<std::streamoff>(prevEnd));
            cf.read(buf.data(), static_cast<std::streamsize>(buf.size()));
            m_tok->encode(buf, ids);
        }
        cf.seekg(static_cast<std::streamoff>(s));
        uint64_t pos = s;
        size_t docTokens = 0;
        while (pos < e) {
            const uint64_t n = std::min<uint64_t>(e - pos, 1 << 20);  // 1 MB of text at a time
            buf.resize(static_cast<size_t>(n));
            cf.read(buf.data(), static_cast<std::streamsize>(n));
            size_t use = buf.size();
            if (pos + n < e) {
                const size_t nl = buf.rfind('\n');
                use = nl == std::string::npos ? buf.size() - utf8_incomplete_tail(buf) : nl + 1;
                cf.seekg(static_cast<std::streamoff>(pos + use));
            }
            docTokens += encode_document(*m_tok, std::string_view(buf).substr(0, use), ids, *m_stats);
            pos += use;
            if (ids.size() > (1u << 20)) {
                m_stats->add_tokens(ids.data(), ids.size());
                w.write(ids.data(), ids.size());
                ids.clear();
            }
            if (m_progress && !m_progress("encoding", pos, m_bytes))
                throw Cancelled();
        }
        if (eos >= 0)
            ids.push_back(eos);
        m_stats->docLengths.add(static_cast<uint32_t>(docTokens));
        if (m_opts.documents && docTokens > 0)
            index.docs.emplace_back(docStart, docStart + docTokens);
        m_stats->add_tokens(ids.data(), ids.size());
        w.write(ids.data(), ids.size());
    }

    /// 4. The split: tail takes the last val_fraction of tokens (as nanoGPT does with characters), at a
    /// document boundary in documents mode; shuffle has split already.
    void split() {
        if (m_progress && !m_progress("writing", 0, 1))
            throw Cancelled();
        if (m_opts.split != "tail") {
            m_result.train_tokens = m_trainW->count();
            m_result.val_tokens = m_valW->count();
            warnIfNoValidation();
            return;
        }
        const uint64_t n = m_trainW->count();
        auto nTrain = static_cast<uint64_t>(std::floor(static_cast<double>(n) * (1.0 - m_opts.val_fraction)));
        if (m_opts.documents) {
            // Cut at the first document that starts at or after the cut, so no document is split.
            auto& train = m_trainDocs.docs;
            auto it = std::find_if(train.begin(), train.end(), [&](const auto& r) { return r.first >= nTrain; });
            nTrain = it == train.end() ? n : it->first;
            for (auto v = it; v != train.end(); ++v)
                m_valDocs.docs.emplace_back(v->first - nTrain, v->second - nTrain);
            train.erase(it, train.end());
            if (m_opts.val_fraction > 0 && nTrain == n)
                m_result.warnings.push_back(
                    "too few documents for a validation split at a document boundary; val is empty");
        }
        const size_t w = dtype_size(m_dtype);
        const fs::path allFile = m_tmp.path / "train.bin", valFile = m_tmp.path / "val.bin";
        {
            std::ifstream in(allFile, std::ios::binary);
            std::ofstream vo(valFile, std::ios::binary);
            in.seekg(static_cast<std::streamoff>(nTrain * w));
            if (n > nTrain)
                vo << in.rdbuf();  // streaming an empty buffer would set failbit
            if (!vo)
                throw IoError(valFile.string() + ": write failed (disk full?)");
        }
        fs::resize_file(allFile, nTrain * w);
        m_result.train_tokens = nTrain;
        m_result.val_tokens = n - nTrain;
        warnIfNoValidation();
    }

    /// --val-fraction 0 (the other ways to an empty split are said where they happen).
    void warnIfNoValidation() {
        if (m_result.val_tokens == 0 && m_opts.val_fraction == 0)
            m_result.warnings.push_back(
                "the validation split is empty (val fraction 0): training then scores the "
                "training split in its place; give a --val-fraction above 0 (e.g. 0.1) for "
                "a validation loss");
    }

    /// 5. meta.json (and the document indexes beside it).
    nlohmann::json meta(const std::string& fingerprint) {
        const Tokenizer& tok = *m_tok;
        nlohmann::json meta;
        meta["format_version"] = kMetaFormatVersion;
        meta["tokenizer"] = tok.kind();
        meta["vocab_size"] = tok.vocab_size();
        meta["tokenizer_fingerprint"] = fingerprint;
        if (!m_opts.tokenizer_from.empty())
            meta["tokenizer_from"] = fs::absolute(m_opts.tokenizer_from).string();
        meta["max_token_id"] = m_stats->max_id();
        meta["dtype"] = to_string(m_dtype);
        meta["train_tokens"] = m_result.train_tokens;
        meta["val_tokens"] = m_result.val_tokens;
        meta["characters"] = m_chars;
        meta["chars_per_token"] = m_result.stats.chars_per_token;
        meta["special_tokens"] = {
            {"pad", tok.pad_id()}, {"unk", tok.unk_id()}, {"bos", tok.bos_id()}, {"eos", tok.eos_id()}};
        meta["tokenizer_spec"] = {{"kind", m_opts.tokenizer.kind},
                                  {"vocab_size", m_opts.tokenizer.vocab_size},
                                  {"lowercase", m_opts.tokenizer.lowercase},
                                  {"min_frequency", m_opts.tokenizer.min_frequency}};
        if (m_opts.documents) {
            m_trainDocs.write(m_tmp.path / "train.docs");
            m_valDocs.write(m_tmp.path / "val.docs");
            meta["documents"] = {
                {"train", m_trainDocs.docs.size()}, {"val", m_valDocs.docs.size()}, {"format", "u64 pairs"}};
        }
        meta["split"] = {{"mode", m_opts.split}, {"val_fraction", m_opts.val_fraction}, {"seed", m_opts.seed}};
        meta["corpus"] = m_opts.corpus;
        meta["sources"] = nlohmann::json::array();
        for (auto& f : m_read.files)
            meta["sources"].push_back({{"path", f.path}, {"bytes", f.bytes}, {"sha256", f.sha256}});
        meta["cleaning"] = m_opts.cleaning;
        meta["cleaning_report"] = m_result.cleaning;
        meta["stats"] = m_result.stats;
        meta["warnings"] = m_result.warnings;
        return meta;
    }

    const PrepareOptions& m_opts;
    const PrepareProgressFn& m_progress;
    TempDir m_tmp;
    fs::path m_corpusFile;
    PrepareResult m_result;
    CorpusReadResult m_read;
    Ranges m_docs;  // [start, end) byte ranges in corpus.txt
    uint64_t m_chars = 0, m_bytes = 0;
    std::unique_ptr<Tokenizer> m_tok;
    TokenDtype m_dtype = TokenDtype::U16;
    std::unique_ptr<StatsBuilder> m_stats;
    std::unique_ptr<TokenWriter> m_trainW, m_valW;
    DocumentIndex m_trainDocs, m_valDocs;
};
}  // namespace

PrepareResult prepare_dataset(const PrepareOptions& opts, const PrepareProgressFn& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    check_options(opts);
    PrepareResult result = DatasetPreparation(opts, progress).run();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace twb
