// One GPT decoding step whose shapes never change, for a single sequence on a GPU: the token and its
// position live in device tensors the host fills, the KV cache is allocated at block_size once, and
// attention covers all of it under a mask (ForwardOptions::position). Such a step is recorded once as a
// CUDA graph and replayed for every token: a few launches instead of one per operation, which is what
// bounds a small model's decoding on a GPU. Without CUDA graphs (a CPU build, TWB_CUDA_GRAPHS=0, or a
// capture that failed) the same step runs eagerly; its numbers are the graph's.
#pragma once
#include "nn/cuda_graph.h"
#include "nn/models/model.h"

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

namespace twb::nn {

class FixedStep {
public:
    /// model: in eval mode on its device, batch 1. The cache starts empty (length 0). TWB_CUDA_GRAPHS=0
    /// in the environment then: eager steps.
    FixedStep(GPT model, torch::Device device);
    ~FixedStep();
    FixedStep(const FixedStep&) = delete;
    FixedStep& operator=(const FixedStep&) = delete;

    /// The KV cache, one entry per layer, allocated at block_size: a prefill writes it with the model's
    /// ordinary cached forward (ForwardOptions::cache), setting each length; step() continues from there.
    std::vector<LayerCache>& cache() { return m_cache; }
    /// Empties the cache (lengths 0; the tensors and the recorded graph stay).
    void reset();
    /// The logits (1, V) on the device for `token` at the cache's length, which then grows by one.
    torch::Tensor step(int64_t token);
    /// Whether steps replay a CUDA graph (false before the first step, and on the CPU).
    bool replaying() const { return m_replaying; }
    /// Why steps run eagerly (CudaGraph::unavailable, or the recording's error); empty otherwise.
    const std::string& eager_reason() const { return m_eagerReason; }

private:
    torch::Tensor run();  // the step over m_token and m_position, eagerly
    void record();        // records run() as a CUDA graph (eager steps if it fails)

    GPT m_model;
    torch::Device m_device;
    torch::Tensor m_token, m_position, m_logits;  // (1, 1), (1) int64 on the device; the graph's output
    std::vector<LayerCache> m_cache;
    bool m_replaying = false, m_tried = false;
    std::string m_eagerReason;
    CudaGraph m_graph;
};

}  // namespace twb::nn
