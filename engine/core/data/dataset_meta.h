// meta.json of a prepared dataset, read strictly: the facts a trainer relies on (dtype, vocab size,
// token counts, the largest token id) must be present with their types and consistent, or the
// dataset is refused with the file named. Torch-free, so the parser can be fuzzed alone.
#pragma once
#include "twb/dataset.h"

#include <filesystem>
#include <string>

namespace twb {

/// Parses meta.json's text for the dataset in dir; FormatError naming the file and the field.
PreparedDataset parse_prepared_meta(const std::string& text, const std::filesystem::path& dir);

/// The largest id in a token file (-1 when empty): the check for datasets written before meta.json
/// recorded max_token_id.
int64_t scan_max_token_id(const std::filesystem::path& file, TokenDtype dtype);

}  // namespace twb
