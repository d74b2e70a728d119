// The files of a run folder, without torch: listing and finding checkpoints, reading config.json.
// The UI uses these; loading tensors is checkpoint.h's job.
#pragma once
#include "engine/run_config.h"

#include <filesystem>
#include <string>
#include <vector>

namespace twb {

/// Steps of the complete checkpoints in a run, ascending.
std::vector<int64_t> list_checkpoints(const std::filesystem::path& run_dir);

/// "last", "best" or a step number -> the checkpoint folder (or the folder itself when it is a
/// checkpoint). Throws InputError listing what exists.
std::filesystem::path find_checkpoint(const std::filesystem::path& run_or_checkpoint, const std::string& which = "last");

/// Folder name of the checkpoint for a step ("step_00000500").
std::string checkpoint_dir_name(int64_t step);

/// The run's config.json. Throws InputError / FormatError.
RunConfig read_run_config(const std::filesystem::path& run_dir);

} // namespace twb
