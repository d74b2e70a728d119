// What a model family plugs into the training spine (training_run.h): it checks and opens its data,
// builds its model, runs a micro-batch forward and evaluates. Everything every run
// does besides (the run folder and its lock, state, metrics, checkpoints and pruning, timing, pause and
// stop, the optimiser, data-parallel averaging, callbacks, the start and finish reports) is the spine's.
// Two families: the decoder LM (decoder_family.h) and the encoder-decoder (seq2seq_family.h).
#pragma once
#include "twb/dataset.h"
#include "twb/training.h"

#include <torch/torch.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace twb::nn {

using NamedWeights = std::vector<std::pair<std::string, torch::Tensor>>;
using MessageFn = std::function<void(const std::string&)>;

/// What the spine has settled when a family opens its data: read-only for the family.
struct FamilyContext {
    const PreparedDataset* data = nullptr;
    torch::Device device{torch::kCPU};
    bool bf16 = false;
    int rank = 0, world = 1;  // a multi-process run: this process and the number of processes
    MessageFn message;        // never null: says something to the user (on_message, or nothing)
};

/// One training micro-batch's inputs as the family drew them. Every tensor holds the batch's rows in
/// dimension 0, so the spine can give each training lane (lanes.h) some of the rows; tensors[target] are
/// the targets (kIgnoreIndex where nothing is learnt).
struct TrainBatch {
    std::vector<torch::Tensor> tensors;
    size_t target = 0;
    int64_t target_tokens = -1;  // the target's real tokens when counted on the host (-1: not counted)
    int64_t rows() const { return tensors.at(target).size(0); }
    /// Rows [start, start + n) of every tensor (views).
    TrainBatch slice(int64_t start, int64_t n) const {
        TrainBatch b{{}, target};
        for (const auto& t : tensors)
            b.tensors.push_back(t.narrow(0, start, n));
        return b;
    }
};

/// One micro-batch's forward pass: the logits (N, V) or (B, T, V), their targets (padding = kIgnoreIndex)
/// and the number of target tokens it trains on.
struct MicroBatch {
    torch::Tensor logits, targets;
    int64_t tokens = 0;
};

/// An evaluation's figures, and the score the best checkpoint is chosen by (lower is better; NaN = none).
struct FamilyEval {
    EvalReport report;
    double score = NAN;
};

/// Completes cfg.vocab_size from the dataset's (0 = the dataset's) and refuses another size: a run
/// trains on one tokenizer. ConfigError naming both sizes.
void adopt_vocab_size(const PreparedDataset& data, RunConfig& cfg);

class ModelFamily {
public:
    virtual ~ModelFamily() = default;
    /// Checks that the dataset is one this family trains and completes the config from it (vocabulary
    /// sizes, defaults that depend on it). Called before RunConfig::check; ConfigError says what to do.
    virtual void adopt_dataset(const PreparedDataset& data, RunConfig& cfg, const TrainJob& job) const = 0;
    /// The model in words, for the memory check: "training this encoder-decoder".
    virtual std::string subject(const RunConfig& cfg) const = 0;
    /// Opens the data and builds the model on ctx.device, after the seed is set. cfg outlives the family
    /// and may still be changed here (max_epochs lowers max_iters).
    virtual void open(const FamilyContext& ctx, RunConfig& cfg) = 0;
    /// A fresh run's weights from elsewhere (init_from, embeddings_from). Nothing by default.
    virtual void initialise(const TrainJob&) {}

    virtual NamedWeights named_weights() const = 0;
    virtual torch::nn::Module& module() = 0;
    virtual uint64_t batcher_state() const = 0;
    virtual void set_batcher_state(uint64_t state) = 0;

    /// The tokenizer folders the run carries, as (dataset side, run side): each is copied.
    virtual std::vector<std::pair<std::filesystem::path, std::filesystem::path>> tokenizer_folders(
        const std::filesystem::path& run_dir) const = 0;
    /// Starts the run's probe (or reopens a resumed run's); reports and skips one that cannot be made.
    virtual void start_probe(const std::filesystem::path& run_dir, bool resume) = 0;
    /// The data's side of the start report: token counts and the global batch.
    virtual void describe(TrainStartInfo& info) const = 0;

    /// Draws the next training micro-batch (on the device).
    virtual TrainBatch next_batch() = 0;
    /// Rows of a drawn batch through the model (the spine wraps it in autocast, takes the loss and runs
    /// the backward pass). Called from several threads at once when training runs in lanes: it must not
    /// change the family's state.
    virtual MicroBatch forward(const TrainBatch& rows) = 0;
    /// Evaluates at `step`, records the probe, and leaves the model in training mode.
    virtual FamilyEval evaluate(int64_t step) = 0;
    /// Whether every training batch has the same shapes (the step can then be recorded as a CUDA graph).
    virtual bool fixed_shapes() const { return false; }
    /// Passes over the training data so far; NaN where the family does not count them.
    virtual double epoch() const { return NAN; }
};

}  // namespace twb::nn
