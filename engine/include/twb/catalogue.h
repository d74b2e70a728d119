// The dataset catalogue (datasets/catalogue.json) and the built-in presets, above all the offline
// default: Debian's fortunes; and the engine's side of downloads (the transfer itself is the GUI's,
// over Qt's network stack): whether a cached file is complete and intact, and unpacking gzip files.
// Public API; no torch.
#pragma once
#include "twb/dataset.h"

#include <filesystem>

#include <nlohmann/json.hpp>
#include <optional>
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
    /// Translation pairs (Multi30k, Tatoeba): how the files make a parallel dataset for an encoder-decoder,
    /// file names relative to the entry's folder; the official splits where the entry has them.
    std::optional<ParallelPrepareOptions> pairs;
    uint64_t total_bytes() const;
};

/// Where the catalogue file is: $TWB_DATASETS_DIR, the installed share folder, or the source tree.
std::filesystem::path catalogue_path();
/// Parses the catalogue; throws FormatError with the file name when it is broken.
std::vector<CatalogueEntry> load_catalogue(const std::filesystem::path& file = catalogue_path());

/// The fortunes preset: every fortune file of Debian's fortunes package as records separated by "%".
/// Throws InputError telling how to install the package when it is missing.
PrepareOptions fortunes_preset(const std::filesystem::path& out);

/// Where the GUI downloads a catalogue entry in the default workspace: $XDG_DATA_HOME (or
/// ~/.local/share)/transformer-workbench/downloads, one folder per entry.
std::filesystem::path default_downloads_dir();
/// Options for a preset (fortunes, or a catalogue entry whose files lie in local_dir; without one, in
/// default_downloads_dir()/NAME when they are all there and intact, else at the entry's local_path).
PrepareOptions preset_options(const std::string& name, const std::filesystem::path& out,
                              const std::filesystem::path& local_dir = {});
/// A catalogue entry's translation pairs as prepare_parallel takes them (files found as preset_options
/// finds them; languages, official splits, held-out shares and the suggested tokenizer from the entry);
/// nullopt for an entry without pairs. Throws as preset_options does for an unknown name or a missing file.
std::optional<ParallelPrepareOptions> pairs_preset_options(const std::string& name, const std::filesystem::path& out,
                                                           const std::filesystem::path& local_dir = {});

// ---------------------------------------------------------------- downloads
/// Decompresses a gzip file into dst (through dst + ".tmp", renamed at the end). Throws FormatError
/// naming the file when it is not gzip or is truncated.
void gunzip_file(const std::filesystem::path& src, const std::filesystem::path& dst);
/// True when dir/file.path exists with the catalogue's sha256 (or size, when no sha256 is recorded).
/// Never throws: a file that cannot be read counts as missing.
bool cached_file_ok(const std::filesystem::path& dir, const CatalogueFile& file);
/// True when every file of the entry is cached and intact in dir.
bool entry_cached(const std::filesystem::path& dir, const CatalogueEntry& entry);

}  // namespace twb
