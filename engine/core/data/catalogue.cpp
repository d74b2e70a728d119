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

PrepareOptions preset_options(const std::string& name, const fs::path& out, const fs::path& local_dir) {
    if (name == "fortunes")
        return fortunes_preset(out);
    for (auto& e : load_catalogue()) {
        if (e.name != name)
            continue;
        PrepareOptions o;
        o.out = out;
        o.corpus.format = parse_input_format(e.format);
        o.corpus.record_separator = e.record_separator;
        o.tokenizer.kind = parse_choice<TokenizerKind>(e.tokenizer, e.name + ": tokenizer");
        o.tokenizer.vocab_size = e.vocab_size;
        // The folder given, else the GUI's downloads in the default workspace, else the entry's own path.
        const fs::path downloads = default_downloads_dir() / e.name;
        const fs::path dir = !local_dir.empty()           ? local_dir
                             : entry_cached(downloads, e) ? downloads
                                                          : fs::path(e.local_path);
        for (auto& f : e.files) {
            if (o.corpus.format == InputFormat::Parallel && f.path.rfind("train.", 0) != 0)
                continue;
            o.corpus.inputs.push_back((dir / f.path).string());
        }
        for (auto& in : o.corpus.inputs)
            if (!fs::exists(in))
                throw InputError(in + " is missing; download the '" + name +
                                 "' dataset first: the Datasets panel's Catalogue tab puts it into " +
                                 downloads.string() + " (or give its files yourself: --input)");
        return o;
    }
    throw ConfigError("unknown preset '" + name +
                      "'; known presets: fortunes and the catalogue entries (twb datasets)");
}

}  // namespace twb
