// Training lanes: one micro-batch's rows cut into lanes that the intra-op threads take forward and
// backward on their own, each with single-threaded kernels. The small matrices of a small model
// (768 x 128 x 384 in nanoGPT's CPU recipe) gain little from splitting each product over two threads:
// OpenBLAS reaches ~75 GFLOP/s on one core and ~80 on two for them, and every split op is a wake-up and
// a barrier (with OpenMP's passive threads, slower still). Lanes need one fork and one join a
// micro-batch, on a pool whose threads claim lanes as they come (spin_pool.h): a thread the OS does not
// run (a busy machine) delays at most the lane it holds, never each op.
//
// A bf16 micro-batch of a shape not seen before runs its lanes on the caller alone: oneDNN generates its
// bf16 kernels at the first use of a shape, and Debian's libtorch 1.13 does not survive two threads doing
// that at once (an encoder-decoder's batches, each of its own length, failed half of their runs with
// std::bad_alloc inside brgemm_kernel_create or a broken promise from its primitive cache, and the runs
// that finished gave different losses). Later micro-batches of that shape run in parallel on the kernels
// already made, which the cache, raised to 65536 primitives, keeps; past capacity / 64 shapes every
// micro-batch runs alone. Either way the lanes and their order are the same, and so are the numbers.
//
// The lanes' gradients are added into the parameters' gradients in lane order, and a lane's dropout
// draws from a generator seeded by (seed, step, micro-batch, lane): a run is as reproducible with lanes
// as without, for a given number of them (the count follows the threads, like the BLAS's own splits).
#pragma once
#include "core/decoding/spin_pool.h"
#include "nn/training/lane_load.h"
#include "nn/training/model_family.h"

#include <torch/torch.h>

#include <set>
#include <vector>

namespace twb::nn {

/// A micro-batch's training loss: the masked cross-entropy of its logits in float32 (kIgnoreIndex
/// targets left out), with label smoothing; kMean over its kept targets or kSum.
torch::Tensor training_loss(const MicroBatch& b, torch::nn::functional::CrossEntropyFuncOptions::reduction_t reduction,
                            double label_smoothing);

/// How many lanes a micro-batch of `rows` rows runs in: the intra-op threads, at most the rows; one on a
/// GPU (its kernels are already wide). TWB_TRAIN_LANES=N overrides it (1 = the whole batch in one pass,
/// its ops split over the threads: for comparing the two).
int lane_count(int threads, int64_t rows, const torch::Device& device);

struct LaneSettings {
    torch::Device device{torch::kCPU};
    bool bf16 = false;
    double label_smoothing = 0;
    double scale = 1;   // the loss's weight (1 / gradient_accumulation_steps)
    uint64_t seed = 0;  // the lanes' dropout generators derive from it (with the lane's index)
};

struct LanePass {
    double loss = 0;  // the micro-batch's mean loss over its kept targets, times scale
    int64_t tokens = 0;
};

class Lanes {
public:
    /// A pool of `threads` threads (the caller's included) that run lanes.
    explicit Lanes(int threads);
    int threads() const { return m_pool.threads(); }
    /// batch's forward and backward in `lanes` lanes: adds the gradient of (summed loss / the batch's
    /// kept targets) x scale to every parameter's .grad (params: those that train), lane by lane in
    /// order. An error in any lane is rethrown after all have ended. While the lanes' threads do not have
    /// their cores (lane_load.h), the caller runs every lane itself, the same lanes in the same order.
    LanePass run(ModelFamily& family, const TrainBatch& batch, int lanes, const LaneSettings& settings,
                 const std::vector<torch::Tensor>& params);

    /// Whether the lanes' threads have their cores, judged after each run (tests drive it by hand).
    LaneLoad& load() { return m_load; }

private:
    /// Whether the batch's shapes are new to these lanes (bf16 on the CPU only): then its lanes run on
    /// the caller alone, which makes oneDNN's kernels for them one thread at a time. Records them.
    bool first_of_its_shape(const TrainBatch& batch, const LaneSettings& s);

    SpinPool m_pool;
    LaneLoad m_load;
    std::set<std::vector<int64_t>> m_seenShapes;
};

}  // namespace twb::nn
