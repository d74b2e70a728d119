// A trained GPT as a LogitsSource, with or without the KV cache, and the context window policy: when
// the context fills block_size, the oldest half is dropped (with or without the cache, so both give
// the same text) and the cache is refilled once per block_size/2 tokens.
#pragma once
#include "nn/decoding/cuda_decoder.h"
#include "nn/decoding/decoding.h"
#include "nn/decoding/fast_decode.h"
#include "nn/decoding/fixed_step.h"
#include "nn/models/model.h"
#include "nn/step_trace.h"

#include <memory>
#include <vector>

namespace twb::nn {

/// A trained GPT as a LogitsSource, with or without the KV cache. Given converted weights (fast), a single
/// sequence is decoded by the FastDecoder (bf16 weights, fused CPU step); on a GPU a single sequence is
/// decoded by twb's CUDA kernels (CudaDecoder) or, for the models and builds those do not serve, by a
/// FixedStep (libtorch's ops as a CUDA graph per token; TWB_FIXED_STEP=0 turns it off, =1 uses it on the
/// CPU too, for the tests); batches and beams of more than one sequence take the libtorch path.
class GptSource : public LogitsSource {
public:
    GptSource(GPT model, torch::Device device, bool use_cache, std::shared_ptr<const FastWeights> fast = nullptr);
    torch::Tensor next_logits(const std::vector<std::vector<int32_t>>& seqs) override;
    void reorder(const std::vector<int64_t>& parents) override;
    void reset() override;
    void expect_greedy(bool greedy) override;
    /// Window start for a sequence of length n: 0 until n > block_size, then moves in steps of block/2.
    int64_t window_start(int64_t n) const;

private:
    torch::Tensor fast_logits(const std::vector<int32_t>& seq);
    torch::Tensor cuda_logits(const std::vector<int32_t>& seq);
    torch::Tensor fixed_logits(const std::vector<std::vector<int32_t>>& seqs);  // a batch of one
    /// Token ids [from, to) of every sequence as a (B, to - from) tensor on the model's device.
    torch::Tensor ids(const std::vector<std::vector<int32_t>>& seqs, int64_t from, int64_t to) const;
    GPT m_model;
    torch::Device m_device;
    bool m_useCache;
    std::vector<LayerCache> m_cache;
    int64_t m_cacheStart = -1;  // window start the cache was filled for
    int64_t m_cacheLen = 0;     // tokens of the window in the cache
    std::unique_ptr<FastDecoder> m_fast;
    int64_t m_fastStart = -1;             // window start the fast decoder's cache holds (-1: nothing valid)
    std::unique_ptr<CudaDecoder> m_cuda;  // made at the first single sequence
    int64_t m_cudaStart = -1;             // window start its cache holds (-1: nothing valid)
    bool m_useCuda = false;
    bool m_greedy = false;  // passed on to m_cuda
    bool m_useFixed = false;
    std::unique_ptr<FixedStep> m_fixed;                         // made at the first single sequence
    int64_t m_fixedStart = -1;                                  // window start its cache holds (-1: nothing valid)
    StepTrace m_trace{"TWB_TRACE_DECODE", "TWB_TRACE_TOKENS"};  // a profile of a few tokens, when asked for
    int64_t m_calls = 0;                                        // next_logits calls so far
};

}  // namespace twb::nn
