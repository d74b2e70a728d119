// Checkpoints of a run: RUN/checkpoints/step_00000500/{model.safetensors, optimizer.safetensors,
// state.json}. Each is written into a temporary folder and renamed, so a crash never leaves a half
// checkpoint; the last N and the best by val loss are kept. Loading checks names, dtypes and shapes
// against the config and says which tensor does not fit.
#pragma once
#include "core/run/checkpoint_state.h"
#include "nn/interchange/safetensors.h"
#include "nn/models/model.h"
#include "nn/training/optimizer.h"
#include "twb/config.h"
#include "twb/run_folder.h"

#include <filesystem>
#include <optional>

namespace twb::nn {

namespace fs = std::filesystem;
using twb::find_checkpoint;
using twb::list_checkpoints;
using twb::read_run_config;

struct LoadedCheckpoint {
    fs::path dir;
    CheckpointState state;
    SafetensorsData weights;
    SafetensorsData optimizer;  // empty when the checkpoint holds weights only, or they alone were read
};

/// Writes a checkpoint for state.step; returns its folder. torch's CPU RNG state goes in too.
fs::path save_checkpoint(const fs::path& run_dir, GPT& model, const FlatAdamW* opt, const CheckpointState& st);
/// The same for any model family, given its named weights.
fs::path save_checkpoint(const fs::path& run_dir, const std::vector<std::pair<std::string, torch::Tensor>>& weights,
                         const FlatAdamW* opt, const CheckpointState& st);

/// What read_checkpoint reads: the weights alone (sampling, exports, --init-from), or the optimizer's
/// state too (a resume). The optimizer file is twice the weights' size, so reading it for a model that is
/// only run cost a `twb sample` of the bench model a fifth of its start.
enum class CheckpointParts { Weights, WithOptimizer };

/// Reads a checkpoint folder; FormatError when its state.json names another step than the folder's name
/// (a copied or edited checkpoint would otherwise be trusted and later overwrite newer ones).
LoadedCheckpoint read_checkpoint(const fs::path& checkpoint_dir, CheckpointParts parts = CheckpointParts::Weights);

/// The checkpoint --resume continues from: the run's last. InputError saying what to do when the run was
/// stopped before its first checkpoint (there is nothing to resume; start it again without --resume).
fs::path find_resume_checkpoint(const fs::path& run_dir);

/// Refuses a resume whose config changes what shapes the model or its data (n_layer, block_size,
/// position, vocab_size, ...): ConfigError naming the key, the checkpoint's value and the asked one.
/// Checked before anything of the run is written.
void check_resume_config(const RunConfig& checkpoint, const RunConfig& asked, const std::string& where);

/// Copies weights into the model; FormatError naming the first missing or mismatched tensor.
void load_weights(GPT& model, const SafetensorsData& weights, const std::string& where);
/// The same for any model family, given its named weights.
void load_weights(const std::vector<std::pair<std::string, torch::Tensor>>& params, const SafetensorsData& weights,
                  const std::string& where);

/// Checks a checkpoint's weights against its own config as loading would (every tensor present with its
/// shape and finite, none beyond the config's), for the readers that copy them without building the model
/// (the exports). FormatError naming the checkpoint and the tensor.
void check_checkpoint_weights(const LoadedCheckpoint& checkpoint);

/// Restores torch's CPU generator from a checkpoint's optimizer file, and a GPU device's generator (its
/// dropout's draws) when the file holds one. FormatError naming `where` when the CPU's state is missing, or
/// a state is not one this libtorch's generator takes (a resume would not be exact).
void restore_rng(const SafetensorsData& optimizer, const std::string& where,
                 const torch::Device& device = torch::Device(torch::kCPU));

/// Deletes all but the newest keep_last checkpoints and the best one.
void prune_checkpoints(const fs::path& run_dir, int keep_last, int64_t best_step);

}  // namespace twb::nn
