// Catalogue loading and presets.
#include "twb/catalogue.h"

#include "twb/errors.h"
#include "twb/program_files.h"
#include "twb/text.h"

#include <algorithm>
#include <cstdlib>

#ifndef TWB_SOURCE_DATASETS_DIR
#define TWB_SOURCE_DATASETS_DIR ""
#endif
#ifndef TWB_MODULE_DATASETS_RELATIVE_DIR  // from the module folder, where twb-torch is installed
#define TWB_MODULE_DATASETS_RELATIVE_DIR "../../share/transformer-workbench/datasets"
#endif

namespace twb {

namespace fs = std::filesystem;

namespace {
const char* kFortunesDir = "/usr/share/games/fortunes";
}

uint64_t CatalogueEntry::total_bytes() const {
    uint64_t n = 0;
    for (auto& f : files)
        n += f.bytes;
    return n;
}

fs::path catalogue_path() {
    std::vector<fs::path> c;
    if (const char* env = std::getenv("TWB_DATASETS_DIR"))
        c.emplace_back(env);
    const fs::path exe = executable_dir();
    c.push_back(exe / ".." / "share" / "transformer-workbench" / "datasets");  // bin/
    c.push_back(exe / TWB_MODULE_DATASETS_RELATIVE_DIR);                       // lib/<multiarch>/transformer-workbench/
    c.emplace_back(TWB_SOURCE_DATASETS_DIR);
    for (auto& d : c)
        if (!d.empty() && fs::exists(d / "catalogue.json"))
            return (d / "catalogue.json").lexically_normal();
    return fs::path(TWB_SOURCE_DATASETS_DIR) / "catalogue.json";
}

namespace {
/// An entry's "pairs": line-aligned files (source, target, val_source, ...) or a TSV (pairs, columns),
/// each one of the entry's files.
ParallelPrepareOptions parse_pairs(const nlohmann::json& j, const CatalogueEntry& e, const fs::path& file) {
    ParallelPrepareOptions p;
    try {
        for (auto [key, field] : {std::pair{"source", &p.source},
                                  {"target", &p.target},
                                  {"pairs", &p.pairs},
                                  {"val_source", &p.val_source},
                                  {"val_target", &p.val_target},
                                  {"test_source", &p.test_source},
                                  {"test_target", &p.test_target}}) {
            *field = j.value(key, "");
            const std::string& name = *field;  // (clang 14 cannot capture a structured binding)
            const bool listed =
                std::any_of(e.files.begin(), e.files.end(), [&name](const CatalogueFile& f) { return f.path == name; });
            if (!field->empty() && !listed)
                throw FormatError(file.string() + ": " + e.name + ": pairs." + key + " '" + *field +
                                  "' is not one of the entry's files");
        }
        p.source_column = j.value("source_column", 0);
        p.target_column = j.value("target_column", 1);
        p.source_lang = j.value("source_lang", "");
        p.target_lang = j.value("target_lang", "");
        p.val_fraction = j.value("val_fraction", 0.05);
        p.test_fraction = j.value("test_fraction", 0.0);
    } catch (const nlohmann::json::exception& ex) {
        throw FormatError(file.string() + ": " + e.name + ": pairs: " + ex.what());
    }
    if (p.pairs.empty() == (p.source.empty() || p.target.empty()))
        throw FormatError(file.string() + ": " + e.name + ": pairs needs source and target, or pairs (a TSV)");
    return p;
}
}  // namespace

std::vector<CatalogueEntry> load_catalogue(const fs::path& file) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(file));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(file.string() + ": not valid JSON (" + e.what() + ")");
    }
    std::vector<CatalogueEntry> out;
    for (auto& d : j.value("datasets", nlohmann::json::array())) {
        CatalogueEntry e;
        e.name = d.value("name", "");
        e.title = d.value("title", e.name);
        e.description = d.value("description", "");
        e.format = d.value("format", "text");
        e.licence = d.value("licence", "");
        e.tokenizer = d.value("tokenizer", "char");
        e.model_preset = d.value("model_preset", "tiny");
        e.local_path = d.value("local_path", "");
        e.record_separator = d.value("record_separator", "%");
        e.vocab_size = d.value("vocab_size", 0);
        for (auto& f : d.value("files", nlohmann::json::array()))
            e.files.push_back({f.value("path", ""), f.value("url", ""), f.value("sha256", ""), f.value("bytes", 0ull),
                               f.value("gzip", false)});
        if (d.contains("pairs"))
            e.pairs = parse_pairs(d.at("pairs"), e, file);
        out.push_back(std::move(e));
    }
    return out;
}

PrepareOptions fortunes_preset(const fs::path& out) {
    PrepareOptions o;
    std::error_code ec;
    if (!fs::is_directory(kFortunesDir, ec))
        throw InputError(std::string(kFortunesDir) +
                         " is missing; install Debian's fortunes package (sudo apt-get install fortunes)");
    std::vector<std::string> files;
    for (auto& e : fs::directory_iterator(kFortunesDir, ec)) {
        const auto name = e.path().filename().string();
        // The text files have no extension; .dat are indexes, .u8 links to the same text.
        if (e.is_regular_file() && name.find('.') == std::string::npos)
            files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    if (files.empty())
        throw InputError(std::string(kFortunesDir) + " holds no fortune files; reinstall fortunes");
    o.corpus.inputs = files;
    o.corpus.format = InputFormat::Records;
    o.corpus.record_separator = "%";
    o.corpus.replace_invalid_utf8 = true;  // a few fortunes carry stray Latin-1 bytes
    o.tokenizer.kind = TokenizerKind::Char;
    o.val_fraction = 0.1;
    o.split = "shuffle";
    o.out = out;
    return o;
}

fs::path default_downloads_dir() {
    const char* data = std::getenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    const fs::path base = data && *data ? fs::path(data) : fs::path(home ? home : ".") / ".local/share";
    return base / "transformer-workbench" / "downloads";
}

namespace {
/// The folder that holds an entry's files: the one given, else the GUI's downloads in the default
/// workspace (when every file there passes its check), else the entry's own path (an installed package's
/// folder). An entry with neither is looked for in the downloads, never in the current directory: a stray
/// input.txt there was prepared as tiny shakespeare. Files in the downloads that fail their check are
/// refused, not read.
fs::path entry_dir(const CatalogueEntry& e, const fs::path& local_dir) {
    const fs::path downloads = default_downloads_dir() / e.name;
    if (!local_dir.empty())
        return local_dir;
    if (entry_cached(downloads, e))
        return downloads;
    if (!e.local_path.empty())
        return e.local_path;
    for (const auto& f : e.files)
        if (fs::exists(downloads / f.path))
            throw InputError((downloads / f.path).string() + " does not match the catalogue's size or checksum for '" +
                             e.name + "'; download it again (the Datasets panel's Catalogue tab)");
    return downloads;  // require_files names what is missing and how to get it
}

void require_files(const std::string& name, const std::vector<std::string>& files, const std::string& yourself) {
    for (auto& in : files)
        if (!in.empty() && !fs::exists(in))
            throw InputError(in + " is missing; download the '" + name +
                             "' dataset first: the Datasets panel's Catalogue tab puts it into " +
                             (default_downloads_dir() / name).string() + " (or give its files yourself: " + yourself +
                             ")");
}

const CatalogueEntry& find_entry(const std::vector<CatalogueEntry>& catalogue, const std::string& name) {
    for (auto& e : catalogue)
        if (e.name == name)
            return e;
    throw ConfigError("unknown preset '" + name +
                      "'; known presets: fortunes and the catalogue entries (twb datasets)");
}
}  // namespace

PrepareOptions preset_options(const std::string& name, const fs::path& out, const fs::path& local_dir) {
    if (name == "fortunes")
        return fortunes_preset(out);
    const auto catalogue = load_catalogue();
    const CatalogueEntry& e = find_entry(catalogue, name);
    PrepareOptions o;
    o.out = out;
    o.corpus.format = parse_input_format(e.format);
    o.corpus.record_separator = e.record_separator;
    o.tokenizer.kind = parse_choice<TokenizerKind>(e.tokenizer, e.name + ": tokenizer");
    o.tokenizer.vocab_size = e.vocab_size;
    const fs::path dir = entry_dir(e, local_dir);
    for (auto& f : e.files) {
        if (o.corpus.format == InputFormat::Parallel && f.path.rfind("train.", 0) != 0)
            continue;
        o.corpus.inputs.push_back((dir / f.path).string());
    }
    require_files(name, o.corpus.inputs, "--input");
    return o;
}

std::optional<ParallelPrepareOptions> pairs_preset_options(const std::string& name, const fs::path& out,
                                                           const fs::path& local_dir) {
    if (name == "fortunes")
        return std::nullopt;
    const auto catalogue = load_catalogue();
    const CatalogueEntry& e = find_entry(catalogue, name);
    if (!e.pairs)
        return std::nullopt;
    ParallelPrepareOptions o = *e.pairs;
    const fs::path dir = entry_dir(e, local_dir);
    for (auto* f : {&o.source, &o.target, &o.pairs, &o.val_source, &o.val_target, &o.test_source, &o.test_target})
        if (!f->empty())
            *f = (dir / *f).string();
    require_files(name, {o.source, o.target, o.pairs, o.val_source, o.val_target, o.test_source, o.test_target},
                  o.pairs.empty() ? "--source and --target" : "--pairs");
    o.tokenizer.kind = parse_choice<TokenizerKind>(e.tokenizer, e.name + ": tokenizer");
    o.tokenizer.vocab_size = e.vocab_size;
    o.out = out;
    return o;
}

}  // namespace twb
