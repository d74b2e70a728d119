// The engine's side of catalogue downloads (the transfer itself is the GUI's, over Qt's network
// stack): where a catalogue entry's files are cached, whether a cached file is complete and intact,
// and unpacking gzip files.
#pragma once
#include "engine/data/catalogue.h"

#include <string>

namespace twb {

/// Decompresses a gzip file into dst (through dst + ".tmp", renamed at the end). Throws FormatError
/// naming the file when it is not gzip or is truncated.
void gunzip_file(const fs::path& src, const fs::path& dst);
/// True when dir/file.path exists with the catalogue's sha256 (or size, when no sha256 is recorded).
/// Never throws: a file that cannot be read counts as missing.
bool cached_file_ok(const fs::path& dir, const CatalogueFile& file);
/// True when every file of the entry is cached and intact in dir.
bool entry_cached(const fs::path& dir, const CatalogueEntry& entry);

}  // namespace twb
