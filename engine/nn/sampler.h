// Text generation over a trained decoder: greedy, temperature, top-k, top-p, repetition penalty,
// no-repeat-ngram, beam search with a length penalty, several samples at once, stop at <eos> or stop
// strings, streaming per token with probabilities and alternatives, and a cancel flag checked per token.
// Plus attention capture for the viewer. The decoding strategies run over a LogitsSource so they can be
// tested on constructed distributions; GptSource adds the KV cache and the context window policy:
// when the context fills block_size, the oldest half is dropped (with or without the cache, so both
// give the same text) and the cache is refilled once per block_size/2 tokens.
#pragma once
#include "engine/data/tokenizer.h"
#include "engine/nn/generation_types.h"
#include "engine/nn/model.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
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
};

/// A trained GPT as a LogitsSource, with or without the KV cache.
class GptSource : public LogitsSource {
public:
    GptSource(GPT model, torch::Device device, bool use_cache);
    torch::Tensor next_logits(const std::vector<std::vector<int32_t>>& seqs) override;
    void reorder(const std::vector<int64_t>& parents) override;
    void reset() override;
    /// Window start for a sequence of length n: 0 until n > block_size, then moves in steps of block/2.
    int64_t window_start(int64_t n) const;

private:
    GPT m_model;
    torch::Device m_device;
    bool m_useCache;
    std::vector<LayerCache> m_cache;
    int64_t m_cacheStart = -1;  // window start the cache was filled for
    int64_t m_cacheLen = 0;     // tokens of the window in the cache
};

// Pure pieces, exposed for tests.
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

/// A run's model and tokenizer, ready to sample from.
struct LoadedModel {
    GPT model{nullptr};
    std::unique_ptr<Tokenizer> tokenizer;
    RunConfig config;
    torch::Device device{torch::kCPU};
    std::string checkpoint;
    int64_t step = 0;
};

/// Loads a run's checkpoint ("best", "last" or a step) and the tokenizer of its dataset.
LoadedModel load_model(const std::string& run_or_checkpoint, const std::string& which = "best");

/// Encodes a prompt for the model: clear InputError for characters the vocabulary lacks; an empty
/// prompt becomes <bos>, or a newline, or token 0.
std::vector<int32_t> encode_prompt(const LoadedModel& m, const std::string& prompt);

/// Text generation from a prompt with streaming.
SampleResult generate_text(LoadedModel& m, const std::string& prompt, const SamplingOptions& opt,
                           const TokenCallback& on_token = {}, const std::atomic<bool>* cancel = nullptr);

/// Runs one forward pass over text (cropped to the last block_size tokens) and returns the weights.
AttentionCapture capture_attention(LoadedModel& m, const std::string& text, int top = 5);
/// Same, from token ids, for a bare model (tests, the training probe).
AttentionCapture capture_attention_ids(GPT& model, const std::vector<int32_t>& ids, const torch::Device& device,
                                       int top = 5);

}  // namespace twb::nn
