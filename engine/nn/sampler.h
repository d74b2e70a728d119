// Text generation over a trained decoder: greedy, temperature, top-k, top-p, repetition penalty,
// no-repeat-ngram, beam search with a length penalty, several samples at once, stop at <eos> or stop
// strings, streaming per token with probabilities and alternatives, and a cancel flag checked per token.
// Plus attention capture for the viewer. The decoding strategies run over a LogitsSource so they can be
// tested on constructed distributions; GptSource adds the KV cache and the context window policy:
// when the context fills block_size, the oldest half is dropped (with or without the cache, so both
// give the same text) and the cache is refilled once per block_size/2 tokens.
#pragma once
#include "engine/data/tokenizer.h"
#include "engine/nn/model.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace twb::nn {

struct SamplingOptions {
    int max_new_tokens = 200;
    double temperature = 0.8;         // 0 = greedy
    int top_k = 0;                    // keep the k most probable tokens; 0 = off
    double top_p = 1.0;               // keep the smallest set reaching this probability; 1 = off
    double repetition_penalty = 1.0;  // > 1 discourages tokens already in the text (CTRL's rule)
    int no_repeat_ngram = 0;          // forbid repeating any n-gram of this size; 0 = off
    int beam_width = 1;               // > 1 = beam search (deterministic)
    double length_penalty = 1.0;      // beam score = log-prob / length^length_penalty
    int num_samples = 1;              // independent samples generated as one batch
    int64_t seed = -1;                // -1 = random
    bool use_kv_cache = true;
    bool stop_at_eos = true;
    std::vector<std::string> stop_strings;
    int alternatives = 5;             // top alternatives reported per token
    /// Throws ConfigError naming the bad value.
    void validate() const;
};

/// One generated token, streamed as it is produced.
struct TokenEvent {
    int sample = 0;                   // which of num_samples
    int64_t index = 0;                // 0-based position among the generated tokens
    int token = 0;
    std::string token_text;           // the token as the tokenizer shows it
    std::string text;                 // newly complete text to append (may be empty mid-UTF-8)
    double prob = 0;                  // its probability under temperature and penalties
    std::vector<std::pair<int, double>> alternatives;  // most probable tokens at this step
};

struct SampleResult {
    std::vector<std::string> texts;                 // generated continuation per sample (prompt excluded)
    std::vector<std::vector<int32_t>> tokens;       // generated ids per sample
    std::vector<double> logprob;                    // total log-probability per sample
    int64_t generated = 0;                          // tokens generated over all samples
    double seconds = 0;
    double tokens_per_s = 0;
    bool cancelled = false;
    std::vector<std::string> warnings;              // e.g. the prompt was cropped to block_size
};

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

using TokenCallback = std::function<void(const TokenEvent&)>;

/// Runs generation from prompt ids. decode turns ids into text (for streaming and stop strings).
SampleResult generate_ids(LogitsSource& src, const std::vector<int32_t>& prompt, const SamplingOptions& opt,
                          int eos_id, const std::function<std::string(const std::vector<int32_t>&)>& decode,
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

/// Attention of every layer and head over a text, plus the next-token distribution at each position.
struct AttentionCapture {
    std::vector<std::string> tokens;      // token strings of the (cropped) input
    int64_t layers = 0, heads = 0, length = 0;
    std::vector<float> weights;           // [layer][head][query][key], row-major; zero above the diagonal
    std::vector<std::vector<std::pair<int, float>>> next_top;  // per position: top tokens and probabilities
    std::vector<std::string> warnings;
    float at(int64_t l, int64_t h, int64_t q, int64_t k) const {
        return weights[static_cast<size_t>(((l * heads + h) * length + q) * length + k)];
    }
};

/// Runs one forward pass over text (cropped to the last block_size tokens) and returns the weights.
AttentionCapture capture_attention(LoadedModel& m, const std::string& text, int top = 5);
/// Same, from token ids, for a bare model (tests, the training probe).
AttentionCapture capture_attention_ids(GPT& model, const std::vector<int32_t>& ids, const torch::Device& device,
                                       int top = 5);

} // namespace twb::nn
