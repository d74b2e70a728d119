// A run folder's layout, without torch: RUN/config.json, RUN/checkpoints/step_NNNNNNNN/, and finding
// a checkpoint by "last", "best" or step. Each other file of a run has its own owner: metrics.h
// (metrics.csv), probe.h (probe/), samples_history.h (samples.jsonl). Public API.
#pragma once
#include "twb/config.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace twb {

/// Steps of the complete checkpoints in a run, ascending.
std::vector<int64_t> list_checkpoints(const std::filesystem::path& run_dir);

/// "last", "best" or a step number -> the checkpoint folder (or the folder itself when it is a
/// checkpoint). Throws InputError listing what exists.
std::filesystem::path find_checkpoint(const std::filesystem::path& run_or_checkpoint,
                                      const std::string& which = "last");

/// What tells one version of a checkpoint folder's weights from another: model.safetensors' size and
/// modification time ("" when it cannot be read). A viewer holding a checkpoint reloads it when this
/// changes (the file was replaced in place).
std::string checkpoint_stamp(const std::filesystem::path& checkpoint);

/// The run a path names: RUN itself, or RUN for one of its checkpoint folders (RUN/checkpoints/step_N).
/// A run's own files (samples.jsonl, chat.jsonl) belong there, never in a checkpoint the trainer prunes.
std::filesystem::path run_folder_of(const std::filesystem::path& run_or_checkpoint);

/// Folder name of the checkpoint for a step ("step_00000500").
std::string checkpoint_dir_name(int64_t step);

/// The run's config.json. Throws InputError / FormatError.
RunConfig read_run_config(const std::filesystem::path& run_dir);

}  // namespace twb
