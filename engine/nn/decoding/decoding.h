// Decoding strategies over any source of next-token logits: greedy, temperature, top-k, top-p,
// repetition penalty, no-repeat-ngram, beam search with a length penalty, several samples at once,
// stop at <eos> or stop strings, streaming per token with probabilities and alternatives, and a cancel
// flag checked per token. The strategies run over a LogitsSource so they can be tested on constructed
// distributions and serve every model family; gpt_source.h is the GPT's source. Greedy choice and
// sampling are the torch-free stream sampler's (core/decoding/stream_sampler.h); beam search is here.
#pragma once
#include "core/decoding/stream_sampler.h"
#include "twb/generation.h"

#include <torch/torch.h>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace twb::nn {

/// Where next-token logits come from. Each call passes the sequences so far; between calls each
/// sequence grows by one token (after reorder, for beams), so implementations may cache.
class LogitsSource {
public:
    virtual ~LogitsSource() = default;
    /// (B, V) float logits for the next token of each sequence.
    virtual torch::Tensor next_logits(const std::vector<std::vector<int32_t>>& seqs) = 0;
    /// Beam search reshuffle: row i of the next call continues row parents[i].
    virtual void reorder(const std::vector<int64_t>& parents) { (void)parents; }
    virtual void reset() {}
    /// The caller picks each next token as the first argmax of the logits it gets, unchanged (greedy, one
    /// sequence, no filters). A source may then compute the step after on that guess before it is asked;
    /// it must check the guess against the token it is then fed, so that the logits never depend on this.
    virtual void expect_greedy(bool greedy) { (void)greedy; }
};

// The stream sampler's filters on a (V) float row (core/decoding/stream_sampler.h), for tests.
/// CTRL rule on a (V) row: positive logits of seen tokens divided by r, negative ones multiplied.
void apply_repetition_penalty(torch::Tensor& logits, const std::vector<int32_t>& seq, double r);
/// Sets to -inf every token that would repeat an n-gram already in seq.
void apply_no_repeat_ngram(torch::Tensor& logits, const std::vector<int32_t>& seq, int n);
/// Keeps the k largest of a (V) row, others -inf.
void apply_top_k(torch::Tensor& logits, int k);
/// Keeps the smallest set of most probable tokens whose probabilities sum to at least p.
void apply_top_p(torch::Tensor& logits, double p);

/// Runs generation from prompt ids. decode turns ids into text (for streaming and stop strings).
SampleResult generate_ids(LogitsSource& src, const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos_id,
                          const std::function<std::string(const std::vector<int32_t>&)>& decode,
                          const TokenCallback& on_token = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace twb::nn
