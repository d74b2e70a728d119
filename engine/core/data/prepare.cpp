// A prepared dataset's output folder (its checks, temporaries and the rename into place), the statistics'
// JSON, and opening and listing prepared datasets. The pipeline itself is prepare_dataset.cpp.
#include "twb/dataset.h"

#include "core/data/cleaning.h"
#include "core/data/corpus.h"
#include "core/data/dataset_meta.h"
#include "core/data/document_index.h"
#include "core/data/prepare_output.h"
#include "core/data/token_file.h"
#include "core/tokenizers/tokenizer.h"
#include "twb/output_paths.h"
#include "twb/run_folder.h"
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
    // A dataset whose meta.json is damaged (reading it says to prepare the data again with --force) is still
    // one when it holds meta.json and train.bin and nothing but the names prepare writes (its damaged list of
    // files is not trusted).
    if (!dataset && fs::is_regular_file(out / "meta.json", ec) && fs::is_regular_file(out / "train.bin", ec)) {
        dataset = true;
        meta = nlohmann::json::object();
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
        ours = {"meta.json",       "corpus.txt",       "train.bin",      "val.bin",         "test.bin",
                "train.pairs",     "val.pairs",        "test.pairs",     "train.docs",      "val.docs",
                "vocab.json",      "merges.txt",       "tokenizer.json", "tokenizer.model", "spm_train.model",
                "spm_train.vocab", "source_tokenizer", "train.loss",     "val.loss"};
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
    require_name_room(out, 1 + 5 + 10 + 1 + 10);  // ".", ".tmp-", the process id, "-" and up to 10 digits
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

PreparedDataset open_prepared(const fs::path& dir) {
    const fs::path metaFile = dir / "meta.json";
    std::error_code ec;
    if (!fs::exists(dir, ec))
        throw InputError(dir.string() +
                         ": does not exist; give a folder written by twb prepare (twb prepare --input "
                         "FILE --out DIR, then DIR)");
    if (!fs::is_directory(dir, ec))
        throw InputError(dir.string() + " is a file, not a prepared dataset; prepare it first (twb prepare --input " +
                         dir.string() + " --out DIR), then give DIR");
    if (!fs::exists(metaFile)) {
        // A run folder given for its dataset: the dataset it names (it said "prepare the data first")
        std::string data;
        if (fs::exists(dir / "config.json") && fs::exists(dir / "checkpoints"))
            try {
                data = read_run_config(dir).data_dir;
            } catch (const Error&) {  // an unreadable config: said as a folder without meta.json
            }
        if (!data.empty())
            throw InputError(dir.string() + " is a run, not a prepared dataset; its dataset is " + data +
                             " (give that)");
        throw InputError(dir.string() +
                         ": no meta.json, so it is not a prepared dataset; prepare the data first (twb "
                         "prepare --input FILE --out DIR, then give DIR)");
    }
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
