// The preparation pipeline and statistics.
#include "twb/dataset.h"

#include "core/data/cleaning.h"
#include "core/data/corpus.h"
#include "core/data/dataset_meta.h"
#include "core/data/document_index.h"
#include "core/data/prepare_output.h"
#include "core/data/token_file.h"
#include "core/tokenizers/tokenizer.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include "twb/errors.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <numeric>
#include <random>
#include <set>

namespace twb {

namespace fs = std::filesystem;

namespace {
constexpr int kMetaFormatVersion = 1;

size_t code_points(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

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

}  // namespace

void check_output_folder(const fs::path& out, const std::vector<std::string>& inputs, bool overwrite) {
    std::error_code ec;
    const fs::path outCanon = fs::weakly_canonical(out, ec);
    for (const auto& in : inputs) {
        const fs::path inCanon = fs::weakly_canonical(fs::absolute(in), ec);
        const auto rel = inCanon.lexically_relative(outCanon);
        if (!rel.empty() && *rel.begin() != "..")
            throw InputError("the output folder " + out.string() + " holds the input " + in +
                             "; choose an --out outside the inputs");
    }
    if (!fs::exists(out, ec))
        return;
    if (!fs::is_directory(out, ec))
        throw IoError(out.string() + " exists and is not a folder; choose another output folder");
    if (fs::is_empty(out, ec))
        return;
    if (!overwrite)
        throw IoError(out.string() + " already exists; choose another output folder or allow overwriting (--force)");
    nlohmann::json meta;
    bool dataset = false;
    try {
        const std::string text = read_file(out / "meta.json");
        parse_prepared_meta(text, out);
        meta = nlohmann::json::parse(text);
        dataset = true;
    } catch (const std::exception&) {
    }
    if (!dataset)
        throw IoError(out.string() +
                      " is not a prepared dataset (no valid meta.json), so --force does not replace it; "
                      "choose another output folder");
    // --force replaces only what prepare wrote: the names its meta.json lists (datasets prepared before
    // that list existed: the names prepare writes). A run trained into the folder, or notes, stay safe.
    std::set<std::string> ours;
    if (meta.contains("files") && meta["files"].is_array()) {
        for (const auto& f : meta["files"])
            if (f.is_string())
                ours.insert(f.get<std::string>());
    } else {
        ours = {"meta.json",       "corpus.txt",      "train.bin",      "val.bin",         "test.bin",
                "train.pairs",     "val.pairs",       "test.pairs",     "train.docs",      "val.docs",
                "vocab.json",      "merges.txt",      "tokenizer.json", "tokenizer.model", "spm_train.model",
                "spm_train.vocab", "source_tokenizer"};
    }
    std::vector<std::string> foreign;
    for (const auto& e : fs::directory_iterator(out, ec))
        if (!ours.count(e.path().filename().string()))
            foreign.push_back(e.path().filename().string());
    if (!foreign.empty()) {
        std::sort(foreign.begin(), foreign.end());
        std::string names;
        for (size_t i = 0; i < foreign.size() && i < 5; ++i)
            names += (i ? ", " : "") + foreign[i];
        if (foreign.size() > 5)
            names += ", ... (" + std::to_string(foreign.size()) + " in all)";
        throw IoError(out.string() + " holds what prepare did not write (" + names +
                      "), so --force does not replace it; move those out or choose another output folder");
    }
}

void remove_stale_prepare_temporaries(const fs::path& out) {
    const std::string prefix = "." + out.filename().string() + ".tmp-";
    std::error_code ec;
    std::vector<fs::path> stale;
    for (auto& e : fs::directory_iterator(out.parent_path(), ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || !e.is_directory(ec))
            continue;
        const std::string rest = name.substr(prefix.size());
        const size_t dash = rest.find('-');
        if (dash != std::string::npos) {
            const long pid = std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
            if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
                stale.push_back(e.path());
        } else {
            const auto age = fs::file_time_type::clock::now() - fs::last_write_time(e.path(), ec);
            if (!ec && age > std::chrono::hours(24))
                stale.push_back(e.path());
        }
    }
    const fs::path old = out.parent_path() / ("." + out.filename().string() + ".old");
    if (fs::exists(out, ec) && fs::exists(old, ec))
        stale.push_back(old);
    for (auto& p : stale)
        fs::remove_all(p, ec);
}

namespace {
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

}  // namespace

TempDir::~TempDir() {
    if (!keep && !path.empty()) {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
}

fs::path begin_output(const fs::path& requested, const std::vector<std::string>& inputs, bool overwrite, TempDir& tmp) {
    if (requested.empty())
        throw ConfigError("no output folder given (--out DIR)");
    fs::path out = fs::absolute(requested).lexically_normal();
    if (out.filename().empty())
        out = out.parent_path();  // "data/" names the folder data
    check_output_folder(out, inputs, overwrite);
    std::error_code ec;
    fs::create_directories(out.parent_path(), ec);
    remove_stale_prepare_temporaries(out);
    tmp.path = out.parent_path() / ("." + out.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                                    std::to_string(std::random_device{}()));
    if (!fs::create_directory(tmp.path, ec) || ec)
        throw IoError(out.parent_path().string() + ": cannot write here (" + ec.message() +
                      "); choose a writable output folder");
    return out;
}

void save_tokenizer_files(const Tokenizer& tok, const TempDir& tmp) {
    tok.save(tmp.path);
    if (fs::exists(tmp.path / "spm_train.model") && fs::exists(tmp.path / "tokenizer.model"))
        fs::remove(tmp.path / "spm_train.model");
}

void finish_output(TempDir& tmp, const fs::path& out, nlohmann::json meta) {
    const std::time_t now = std::time(nullptr);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    meta["created"] = when;
    // What this preparation wrote: all that a later --force may replace (check_output_folder).
    std::vector<std::string> files{"meta.json"};
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(tmp.path, ec))
        if (e.path().filename() != "meta.json")
            files.push_back(e.path().filename().string());
    std::sort(files.begin() + 1, files.end());
    meta["files"] = files;
    write_file_atomic(tmp.path / "meta.json", meta.dump(2));
    move_into_place(tmp, out);
}

void move_into_place(TempDir& tmp, const fs::path& out) {
    std::error_code ec;
    if (fs::exists(out)) {
        const fs::path old = out.parent_path() / ("." + out.filename().string() + ".old");
        fs::remove_all(old, ec);
        fs::rename(out, old, ec);
        if (ec)
            throw IoError(out.string() + ": cannot replace the existing folder (" + ec.message() + ")");
        fs::rename(tmp.path, out, ec);
        if (ec) {
            fs::rename(old, out);
            throw IoError(out.string() + ": cannot move the prepared dataset into place (" + ec.message() + ")");
        }
        fs::remove_all(old, ec);
    } else {
        fs::rename(tmp.path, out, ec);
        if (ec)
            throw IoError(out.string() + ": cannot move the prepared dataset into place (" + ec.message() + ")");
    }
    tmp.keep = true;
}

void to_json(nlohmann::json& j, const DatasetStats& s) {
    j = {{"characters", s.characters},
         {"bytes", s.bytes},
         {"tokens", s.tokens},
         {"documents", s.documents},
         {"lines", s.lines},
         {"chars_per_token", s.chars_per_token},
         {"vocab_size", s.vocab_size},
         {"vocab_used", s.vocab_used},
         {"unk_rate", s.unk_rate},
         {"length_unit", s.length_unit},
         {"length_bin_edges", s.length_bin_edges},
         {"length_counts", s.length_counts},
         {"length_mean", s.length_mean},
         {"length_max", s.length_max},
         {"top_tokens", nlohmann::json::array()}};
    for (auto& t : s.top_tokens)
        j["top_tokens"].push_back({{"id", t.id}, {"text", t.text}, {"count", t.count}});
}

void from_json(const nlohmann::json& j, DatasetStats& s) {
    s.characters = j.value("characters", 0ull);
    s.bytes = j.value("bytes", 0ull);
    s.tokens = j.value("tokens", 0ull);
    s.documents = j.value("documents", 0ull);
    s.lines = j.value("lines", 0ull);
    s.chars_per_token = j.value("chars_per_token", 0.0);
    s.vocab_size = j.value("vocab_size", 0);
    s.vocab_used = j.value("vocab_used", 0);
    s.unk_rate = j.value("unk_rate", 0.0);
    s.length_unit = j.value("length_unit", "");
    s.length_bin_edges = j.value("length_bin_edges", std::vector<double>{});
    s.length_counts = j.value("length_counts", std::vector<uint64_t>{});
    s.length_mean = j.value("length_mean", 0.0);
    s.length_max = j.value("length_max", 0ull);
    s.top_tokens.clear();
    for (auto& t : j.value("top_tokens", nlohmann::json::array()))
        s.top_tokens.push_back({t.value("id", 0), t.value("text", ""), t.value("count", 0ull)});
}

PrepareResult prepare_dataset(const PrepareOptions& opts, const PrepareProgressFn& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!(opts.val_fraction >= 0.0 && opts.val_fraction < 1.0))
        throw ConfigError("val fraction " + std::to_string(opts.val_fraction) + " must be in [0, 1)");
    if (opts.split != "tail" && opts.split != "shuffle")
        throw ConfigError("split '" + opts.split + "' is unknown; choose tail or shuffle");
    if (opts.documents && opts.tokenizer_from.empty() && opts.tokenizer.kind == TokenizerKind::Char)
        throw ConfigError(
            "the char tokenizer has no <bos>/<eos> tokens, which documents need; choose byte, word, "
            "bpe, unigram or bytebpe, or prepare without --documents");
    TempDir tmp;
    std::vector<std::string> inputs = opts.corpus.inputs;  // what must not lie inside --out
    if (!opts.tokenizer_from.empty())
        inputs.push_back(opts.tokenizer_from);
    const fs::path out = begin_output(opts.out, inputs, opts.overwrite, tmp);
    auto stage = [&](const std::string& name) {
        return [&, name](uint64_t done, uint64_t total) { return !progress || progress(name, done, total); };
    };

    // 1. Read and clean into corpus.txt, remembering where each document ends.
    PrepareResult result;
    const fs::path corpusFile = tmp.path / "corpus.txt";
    std::vector<std::pair<uint64_t, uint64_t>> docs;  // [start, end) byte ranges in corpus.txt
    uint64_t chars = 0, bytes = 0;
    Cleaner cleaner(opts.cleaning);
    CorpusReadResult readResult;
    {
        std::ofstream cf(corpusFile, std::ios::binary);
        if (!cf)
            throw IoError(corpusFile.string() + ": cannot write the working copy");
        std::string cleaned;
        uint64_t docStart = 0;
        char lastByte = '\n';
        auto write = [&](const std::string& s) {
            cf.write(s.data(), static_cast<std::streamsize>(s.size()));
            lastByte = s.back();
            chars += code_points(s);
            bytes += s.size();
        };
        readResult = read_corpus(
            opts.corpus,
            [&](std::string_view piece, bool end) {
                cleaned.clear();
                cleaner.feed(piece, cleaned);
                if (end)
                    cleaner.end_document(cleaned);
                if (!cleaned.empty()) {
                    if (bytes == docStart && !docs.empty() && lastByte != '\n') {
                        // Documents are separated by a newline in the working copy (outside both documents).
                        write("\n");
                        docStart = bytes;
                    }
                    write(cleaned);
                }
                if (end) {
                    if (bytes > docStart) {
                        docs.emplace_back(docStart, bytes);
                    }
                    docStart = bytes;
                }
            },
            stage("reading"));
        if (!cf)
            throw IoError(corpusFile.string() + ": write failed (disk full?)");
    }
    result.cleaning = cleaner.report();
    result.warnings = readResult.warnings;
    if (readResult.invalid_bytes_replaced)
        result.warnings.push_back(std::to_string(readResult.invalid_bytes_replaced) +
                                  " invalid UTF-8 bytes were replaced with U+FFFD");
    if (bytes == 0)
        throw InputError("the corpus is empty after cleaning; check the inputs and cleaning options");
    if (opts.documents && opts.corpus.format == InputFormat::Text) {
        std::ifstream cf(corpusFile, std::ios::binary);
        std::vector<std::pair<uint64_t, uint64_t>> paragraphs;
        for (auto [s, e] : docs)
            for (auto p : split_paragraphs(cf, s, e))
                paragraphs.push_back(p);
        docs.swap(paragraphs);
    }

    // 2. Train the tokenizer on the cleaned text.
    const auto tok = opts.tokenizer_from.empty() ? train_tokenizer(opts.tokenizer, corpusFile, stage("tokenizer"))
                                                 : load_tokenizer(find_tokenizer_dir(opts.tokenizer_from));
    if (opts.documents && (tok->bos_id() < 0 || tok->eos_id() < 0))
        throw ConfigError("the " + to_string(tok->kind()) +
                          " tokenizer has no <bos>/<eos> tokens, which documents need; choose byte, word, bpe, "
                          "unigram or bytebpe, or prepare without --documents");
    // A learned vocabulary stops where the text has nothing more to give: said, never silent.
    if (opts.tokenizer_from.empty() && opts.tokenizer.vocab_size > tok->vocab_size() &&
        (tok->kind() == TokenizerKind::ByteBpe || tok->kind() == TokenizerKind::Word))
        result.warnings.push_back(
            "the " + to_string(tok->kind()) + " vocabulary has " + std::to_string(tok->vocab_size()) +
            " tokens, not the " + std::to_string(opts.tokenizer.vocab_size) + " asked: " +
            (tok->kind() == TokenizerKind::ByteBpe
                 ? "no pair of tokens occurs twice in the text after the merges learned, so no more can be learned"
                 : "the text holds fewer distinct words (at --min-frequency)") +
            "; a larger text gives a larger vocabulary");
    const std::string fingerprint = tok->fingerprint();  // before save() moves a sentencepiece model
    const TokenDtype dtype = dtype_for_vocab(tok->vocab_size());

    // 3. Encode document by document, line by line.
    std::vector<bool> isVal(docs.size(), false);
    if (opts.split == "shuffle") {
        std::vector<size_t> order(docs.size());
        std::iota(order.begin(), order.end(), 0);
        std::mt19937_64 rng(opts.seed);
        std::shuffle(order.begin(), order.end(), rng);
        const auto nVal = static_cast<size_t>(std::llround(opts.val_fraction * static_cast<double>(docs.size())));
        if (opts.val_fraction > 0 && nVal == 0 && docs.size() > 1)
            result.warnings.push_back("too few documents for a shuffled validation split; val is empty");
        for (size_t i = 0; i < nVal && i < order.size(); ++i)
            isVal[order[i]] = true;
    }
    DocumentIndex trainDocs, valDocs;
    StatsBuilder st(*tok);
    st.chars = chars;
    st.bytes = bytes;
    st.docs = docs.size();
    const fs::path allFile = tmp.path / "train.bin";
    TokenWriter trainW(allFile, dtype);
    std::unique_ptr<TokenWriter> valW;
    if (opts.split == "shuffle")
        valW = std::make_unique<TokenWriter>(tmp.path / "val.bin", dtype);
    {
        std::ifstream cf(corpusFile, std::ios::binary);
        std::vector<int32_t> ids;
        std::string buf;
        const int eos = tok->eos_id();
        uint64_t prevEnd = 0;
        for (size_t d = 0; d < docs.size(); ++d) {
            auto [s, e] = docs[d];
            ids.clear();
            // Documents mode has an <eos>, so no separator is encoded and the document starts here.
            const uint64_t docStart = (isVal[d] ? *valW : trainW).count();
            if (eos < 0 && s > prevEnd) {  // separator newline between documents
                buf.assign(static_cast<size_t>(s - prevEnd), '\0');
                cf.seekg(static_cast<std::streamoff>(prevEnd));
                cf.read(buf.data(), static_cast<std::streamsize>(buf.size()));
                tok->encode(buf, ids);
            }
            // Read the document in pieces that end on line boundaries so huge documents stream.
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
                docTokens += encode_document(*tok, std::string_view(buf).substr(0, use), ids, st);
                pos += use;
                if (ids.size() > (1u << 20)) {
                    st.add_tokens(ids.data(), ids.size());
                    (isVal[d] ? *valW : trainW).write(ids.data(), ids.size());
                    ids.clear();
                }
                if (progress && !progress("encoding", pos, bytes))
                    throw Cancelled();
            }
            if (eos >= 0)
                ids.push_back(eos);
            st.docLengths.add(static_cast<uint32_t>(docTokens));
            if (opts.documents && docTokens > 0)
                (isVal[d] ? valDocs : trainDocs).docs.emplace_back(docStart, docStart + docTokens);
            st.add_tokens(ids.data(), ids.size());
            (isVal[d] ? *valW : trainW).write(ids.data(), ids.size());
            prevEnd = e;
        }
        trainW.close();
        if (valW)
            valW->close();
    }
    result.stats = st.finish();

    // 4. Split (tail: the last val_fraction of tokens, as nanoGPT does with characters).
    if (progress && !progress("writing", 0, 1))
        throw Cancelled();
    if (opts.split == "tail") {
        const uint64_t n = trainW.count();
        auto nTrain = static_cast<uint64_t>(std::floor(static_cast<double>(n) * (1.0 - opts.val_fraction)));
        if (opts.documents) {
            // Cut at the first document that starts at or after the cut, so no document is split.
            auto it = std::find_if(trainDocs.docs.begin(), trainDocs.docs.end(),
                                   [&](const auto& r) { return r.first >= nTrain; });
            nTrain = it == trainDocs.docs.end() ? n : it->first;
            for (auto v = it; v != trainDocs.docs.end(); ++v)
                valDocs.docs.emplace_back(v->first - nTrain, v->second - nTrain);
            trainDocs.docs.erase(it, trainDocs.docs.end());
            if (opts.val_fraction > 0 && nTrain == n)
                result.warnings.push_back(
                    "too few documents for a validation split at a document boundary; val "
                    "is empty");
        }
        const size_t w = dtype_size(dtype);
        {
            std::ifstream in(allFile, std::ios::binary);
            std::ofstream vo(tmp.path / "val.bin", std::ios::binary);
            in.seekg(static_cast<std::streamoff>(nTrain * w));
            if (n > nTrain)
                vo << in.rdbuf();  // streaming an empty buffer would set failbit
            if (!vo)
                throw IoError((tmp.path / "val.bin").string() + ": write failed (disk full?)");
        }
        fs::resize_file(allFile, nTrain * w);
        result.train_tokens = nTrain;
        result.val_tokens = n - nTrain;
    } else {
        result.train_tokens = trainW.count();
        result.val_tokens = valW->count();
    }
    if (result.train_tokens == 0)
        throw InputError("the training split is empty; lower the val fraction or add text");

    // 5. Tokenizer files and meta.json, then move into place.
    fs::remove(corpusFile);
    save_tokenizer_files(*tok, tmp);
    nlohmann::json meta;
    meta["format_version"] = kMetaFormatVersion;
    meta["tokenizer"] = tok->kind();
    meta["vocab_size"] = tok->vocab_size();
    meta["tokenizer_fingerprint"] = fingerprint;
    if (!opts.tokenizer_from.empty())
        meta["tokenizer_from"] = fs::absolute(opts.tokenizer_from).string();
    meta["max_token_id"] = st.max_id();
    meta["dtype"] = to_string(dtype);
    meta["train_tokens"] = result.train_tokens;
    meta["val_tokens"] = result.val_tokens;
    meta["characters"] = chars;
    meta["chars_per_token"] = result.stats.chars_per_token;
    meta["special_tokens"] = {
        {"pad", tok->pad_id()}, {"unk", tok->unk_id()}, {"bos", tok->bos_id()}, {"eos", tok->eos_id()}};
    meta["tokenizer_spec"] = {{"kind", opts.tokenizer.kind},
                              {"vocab_size", opts.tokenizer.vocab_size},
                              {"lowercase", opts.tokenizer.lowercase},
                              {"min_frequency", opts.tokenizer.min_frequency}};
    if (opts.documents) {
        trainDocs.write(tmp.path / "train.docs");
        valDocs.write(tmp.path / "val.docs");
        meta["documents"] = {{"train", trainDocs.docs.size()}, {"val", valDocs.docs.size()}, {"format", "u64 pairs"}};
    }
    meta["split"] = {{"mode", opts.split}, {"val_fraction", opts.val_fraction}, {"seed", opts.seed}};
    meta["corpus"] = opts.corpus;
    meta["sources"] = nlohmann::json::array();
    for (auto& f : readResult.files)
        meta["sources"].push_back({{"path", f.path}, {"bytes", f.bytes}, {"sha256", f.sha256}});
    meta["cleaning"] = opts.cleaning;
    meta["cleaning_report"] = result.cleaning;
    meta["stats"] = result.stats;
    meta["warnings"] = result.warnings;
    finish_output(tmp, out, std::move(meta));
    result.dir = out;
    if (progress)
        progress("writing", 1, 1);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

PreparedDataset open_prepared(const fs::path& dir) {
    const fs::path metaFile = dir / "meta.json";
    if (!fs::exists(metaFile))
        throw InputError(dir.string() + ": no meta.json; prepare the data first (twb prepare ... --out " +
                         dir.string() + ")");
    PreparedDataset d = parse_prepared_meta(read_file(metaFile), dir);
    if (d.meta.contains("documents")) {
        try {
            d.has_documents = true;
            d.train_documents = d.meta.at("documents").at("train").get<uint64_t>();
            d.val_documents = d.meta.at("documents").at("val").get<uint64_t>();
        } catch (const nlohmann::json::exception& e) {
            throw FormatError(metaFile.string() + ": its documents entry is unreadable (" + e.what() +
                              "); prepare the data again");
        }
    }
    if (d.meta.contains("parallel")) {
        try {
            const auto& p = d.meta.at("parallel");
            d.parallel = true;
            d.train_pairs = p.at("train_pairs").get<uint64_t>();
            d.val_pairs = p.at("val_pairs").get<uint64_t>();
            d.test_pairs = p.at("test_pairs").get<uint64_t>();
            d.source_lang = p.value("source_lang", "");
            d.target_lang = p.value("target_lang", "");
            d.source_vocab_size = p.value("source_vocab_size", 0);
        } catch (const nlohmann::json::exception& e) {
            throw FormatError(metaFile.string() + ": its parallel entry is unreadable (" + e.what() +
                              "); prepare the data again");
        }
        for (auto [name, n] : {std::pair<const char*, uint64_t>{"train.pairs", d.train_pairs},
                               {"val.pairs", d.val_pairs},
                               {"test.pairs", d.test_pairs}}) {
            const fs::path f = dir / name;
            if (!fs::exists(f) || fs::file_size(f) != n * 32)
                throw FormatError(f.string() + (fs::exists(f) ? ": does not hold " : ": missing; it should hold ") +
                                  std::to_string(n) + " pairs as meta.json says; prepare the data again");
        }
        if (d.source_vocab_size < 0 ||
            (d.source_vocab_size > 0 && !fs::exists(dir / "source_tokenizer" / "tokenizer.json")))
            throw FormatError((dir / "source_tokenizer").string() +
                              ": the source side's tokenizer is missing though meta.json says the sides have separate "
                              "vocabularies; prepare the data again");
    }
    for (auto [name, n] : {std::pair<const char*, uint64_t>{"train.bin", d.train_tokens}, {"val.bin", d.val_tokens}}) {
        const fs::path f = dir / name;
        if (!fs::exists(f))
            throw FormatError(f.string() + ": missing; prepare the data again");
        if (fs::file_size(f) % dtype_size(d.dtype) != 0)
            throw FormatError(f.string() + ": is " + std::to_string(fs::file_size(f)) +
                              " bytes, not a whole number of " + to_string(d.dtype) + " tokens (" +
                              std::to_string(dtype_size(d.dtype)) +
                              " bytes each); the file is truncated or damaged: prepare the data again");
        if (fs::file_size(f) != n * dtype_size(d.dtype))
            throw FormatError(f.string() + ": holds " + std::to_string(fs::file_size(f) / dtype_size(d.dtype)) +
                              " tokens but meta.json says " + std::to_string(n) + "; prepare the data again");
    }
    // Ids beyond the vocabulary would index past the embedding table: refused here, by meta.json's
    // max_token_id (written by prepare) or, for datasets older than that field, by one scan.
    if (!d.meta.contains("max_token_id")) {
        for (const char* name : {"train.bin", "val.bin"}) {
            const int64_t mx = scan_max_token_id(dir / name, d.dtype);
            if (mx >= d.vocab_size)
                throw FormatError((dir / name).string() + ": holds token id " + std::to_string(mx) +
                                  " but the vocabulary has " + std::to_string(d.vocab_size) +
                                  " ids; the files do not belong together: prepare the data again");
        }
    }
    if (d.has_documents)
        for (auto [name, n] :
             {std::pair<const char*, uint64_t>{"train.docs", d.train_documents}, {"val.docs", d.val_documents}}) {
            const fs::path f = dir / name;
            if (!fs::exists(f) || fs::file_size(f) != n * 16)
                throw FormatError(f.string() + (fs::exists(f) ? ": does not hold " : ": missing; it should hold ") +
                                  std::to_string(n) + " documents as meta.json says; prepare the data again");
        }
    return d;
}

std::vector<PreparedDataset> list_prepared(const fs::path& parent) {
    std::vector<PreparedDataset> out;
    std::error_code ec;
    if (!fs::is_directory(parent, ec))
        return out;
    for (auto& e : fs::directory_iterator(parent, ec)) {
        if (!e.is_directory() || !fs::exists(e.path() / "meta.json"))
            continue;
        try {
            out.push_back(open_prepared(e.path()));
        } catch (const Error&) {
        }
    }
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.dir < b.dir; });
    return out;
}

}  // namespace twb
