// The dataset catalogue (datasets/catalogue.json) and the built-in presets, above all the offline
// default: Debian's fortunes. Lists and resolves entries; downloading is not done here.
#pragma once
#include "engine/data/prepare.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace twb {

struct CatalogueFile {
    std::string path, url, sha256;
    uint64_t bytes = 0;
    bool gzip = false;
};

struct CatalogueEntry {
    std::string name, title, description, format, licence, tokenizer, model_preset, local_path;
    std::string record_separator;
    int vocab_size = 0;
    std::vector<CatalogueFile> files;
    uint64_t total_bytes() const;
};

/// Where the catalogue file is: $TWB_DATASETS_DIR, the installed share folder, or the source tree.
fs::path catalogue_path();
/// Parses the catalogue; throws FormatError with the file name when it is broken.
std::vector<CatalogueEntry> load_catalogue(const fs::path& file = catalogue_path());

/// The fortunes preset: every fortune file of Debian's fortunes package as records separated by "%".
/// Throws InputError telling how to install the package when it is missing.
PrepareOptions fortunes_preset(const fs::path& out);

/// Options for a preset (fortunes, or a catalogue entry whose files lie in local_dir).
PrepareOptions preset_options(const std::string& name, const fs::path& out, const fs::path& local_dir = {});

} // namespace twb
