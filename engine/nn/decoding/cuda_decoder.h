// The GPU decoder for one sequence: a GPT's float32 weights on the device, read by twb's own kernels
// (cuda_decode_kernels.h), five a layer where libtorch's ops take about eighteen, the whole step for one
// token recorded once as a CUDA graph and replayed. Decoding one token on a GPU is bound by how many kernels
// run one after the other, not by the arithmetic, so this is what takes greedy decoding of the bench model
// from ~0.5 ms a token (FixedStep: libtorch's ops in a CUDA graph) toward 0.1-0.2. It computes what the
// FastDecoder computes on the CPU (the same models: fast_decode_unsupported), in float32 as the model.
// Builds whose libtorch has no CUDA, or without nvcc, have no kernels: unavailable() says so and GptSource
// keeps FixedStep; TWB_CUDA_DECODER=0 does the same.
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

    void reset() { m_len = 0; }
    int64_t length() const { return m_len; }
    /// Feeds n tokens at the next positions (0-based in the window) and returns the logits after the last,
    /// (1, vocab) float32 on the CPU. Only that copy waits for the GPU.
    torch::Tensor feed(const int32_t* tokens, int64_t n);
    /// Whether steps replay a CUDA graph (after the first; false where graphs are off: TWB_CUDA_GRAPHS=0).
    bool replaying() const;

private:
    struct Impl;
    void step(int32_t token);  // one token at m_len through the layers
    std::unique_ptr<Impl> d;
    int64_t m_len = 0;
};

}  // namespace twb::nn
