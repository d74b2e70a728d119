// Greedy choice and sampling over plain rows of next-token logits, without libtorch: the logit filters
// (repetition penalty, no-repeat-ngram, top-k, top-p), temperature, the draw from the project's own
// generator (std::mt19937_64, so a seed gives the same text with every libtorch build and device), stop at
// <eos> or a stop string, streaming per token with probabilities and alternatives, a cancel flag checked
// per token. Every single-sequence and several-sample generation goes through sample_streams(): libtorch's
// side wraps its models as a RowSource (nn/decoding/decoding.h); `twb sample` without libtorch feeds it
// the CPU decoder. Beam search (nn/decoding/decoding.cpp) uses the filters and the streaming pieces.
#pragma once
#include "twb/generation.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace twb {

/// Where next-token logits come from, as plain floats. Each call passes the sequences so far; between
/// calls each sequence grows by one token, so implementations may cache.
class RowSource {
public:
    virtual ~RowSource() = default;
    /// The next-token logits of every sequence: seqs.size() rows of V floats, row-major, into out; returns V.
    virtual int64_t next_rows(const std::vector<std::vector<int32_t>>& seqs, std::vector<float>& out) = 0;
    virtual void reset() {}
    /// The caller picks each next token as the first argmax of the logits it gets, unchanged (greedy, one
    /// sequence, no filters). A source may then compute the step after on that guess before it is asked;
    /// it must check the guess against the token it is then fed, so that the logits never depend on this.
    virtual void expect_greedy(bool greedy) { (void)greedy; }
};

// ------------------------------------------------ the filters, each on one row of V logits
/// CTRL's rule: positive logits of seen tokens divided by r, negative ones multiplied.
void penalise_repeats(float* row, const std::vector<int32_t>& seq, double r);
/// Sets to -inf every token that would repeat an n-gram already in seq.
void ban_repeated_ngrams(float* row, const std::vector<int32_t>& seq, int n);
/// Keeps the k largest (and any equal to the k-th), the others -inf.
void keep_top_k(float* row, int64_t V, int k);
/// Keeps the smallest set of most probable tokens whose probabilities sum to at least p.
void keep_top_p(float* row, int64_t V, double p);

/// FormatError when the row holds a NaN (broken weights, a diverged run): never sampled from.
void check_logits(const float* row, int64_t V);
/// True when the filters banned every token.
bool nothing_allowed(const float* row, int64_t V);
/// The warning of a no-repeat-ngram rule that left no token after `at` generated tokens.
std::string exhausted_warning(const SamplingOptions& opt, int64_t at);

/// Cuts text at the first stop string it holds; true when it did.
bool cut_at_stop_strings(std::string& text, const std::vector<std::string>& stops);

/// The text of a stream as it grows: what is new and complete (an unfinished UTF-8 sequence held back).
struct Streamer {
    std::string emitted;
    std::string advance(const std::string& full);
};

/// Decodes ids into text (for streaming and stop strings).
using Decode = std::function<std::string(const std::vector<int32_t>&)>;

/// Greedy choice at temperature 0, else sampling after temperature, top-k and top-p, for opt.num_samples
/// streams in one batch from the prompt; a stream that ends (at <eos>, a stop string, or when the filters
/// leave no token) is fed a filler so the batch stays rectangular. Times itself (seconds, tokens_per_s).
SampleResult sample_streams(RowSource& src, const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos,
                            const Decode& decode, const TokenCallback& on_token = {},
                            const std::atomic<bool>* cancel = nullptr);

}  // namespace twb
