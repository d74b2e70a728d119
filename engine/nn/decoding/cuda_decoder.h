// The GPU decoder for one sequence: a GPT's float32 weights on the device, read by twb's own kernels
// (cuda_decode_kernels.h), five a layer where libtorch's ops take about eighteen, the whole step for one
// token recorded once as a CUDA graph and replayed. Decoding one token on a GPU is bound by how many kernels
// run one after the other, not by the arithmetic, so this is what takes greedy decoding of the bench model
// from ~0.5 ms a token (FixedStep: libtorch's ops in a CUDA graph) toward 0.1-0.2. It computes what the
// FastDecoder computes on the CPU (the same models: fast_decode_unsupported), in float32 as the model.
// Builds whose libtorch has no CUDA, or without nvcc, have no kernels: unavailable() says so and GptSource
// keeps FixedStep; TWB_CUDA_DECODER=0 does the same. The decoder works on a stream of its own, writes each
// step's logits straight into pinned host memory, and for greedy decoding keeps the GPU a step ahead of
// the host (expect_greedy).
#pragma once
#include "nn/models/model.h"

#include <torch/torch.h>

#include <memory>
#include <string>

namespace twb::nn {

class CudaDecoder {
public:
    /// Why `model` on `device` is not decoded by the kernels (not a GPU, a build without them,
    /// TWB_CUDA_DECODER=0, a model they do not compute); empty when it is.
    static std::string unavailable(const GPT& model, const torch::Device& device);

    /// model: in eval mode on `device`; unavailable() must be empty. Its weights are shared, not copied,
    /// where they are float32 already.
    CudaDecoder(const GPT& model, torch::Device device);
    ~CudaDecoder();
    CudaDecoder(const CudaDecoder&) = delete;
    CudaDecoder& operator=(const CudaDecoder&) = delete;

    void reset();
    int64_t length() const { return m_len; }
    /// Feeds n tokens at the next positions (0-based in the window) and returns the logits after the last,
    /// (1, vocab) float32 on the CPU. Only the wait for that step's result waits for the GPU.
    torch::Tensor feed(const int32_t* tokens, int64_t n);
    /// With greedy on, every feed also launches the step after, for the argmax of the logits it returns
    /// (the device picks it), before it waits for those: the GPU computes the next token's step while the
    /// host still handles this one's. The next feed takes that step when it feeds that token, and computes
    /// its own when not, so the logits are the same either way.
    /// TWB_CUDA_AHEAD=0 turns this off.
    void expect_greedy(bool greedy);
    /// How many feeds the step launched ahead served.
    int64_t lookahead_hits() const { return m_hits; }
    /// Whether steps replay a CUDA graph (after the first; false where graphs are off: TWB_CUDA_GRAPHS=0).
    bool replaying() const;
    /// Whether each kernel is launched as a programmatic dependent of the one before (Hopper GPUs;
    /// TWB_CUDA_PDL=0 turns it off).
    bool dependent_launch() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
    int64_t m_len = 0;
    bool m_greedy = false;
    int64_t m_hits = 0;
};

}  // namespace twb::nn
