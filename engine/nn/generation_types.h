// The plain results and options of generation and attention capture, without torch, so the UI and
// the CLI can hold them. sampler.h computes them; model_session.h serves them to the UI.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
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
    int alternatives = 5;  // top alternatives reported per token
    /// Throws ConfigError naming the bad value.
    void validate() const;
};

/// One generated token, streamed as it is produced.
struct TokenEvent {
    int sample = 0;     // which of num_samples
    int64_t index = 0;  // 0-based position among the generated tokens
    int token = 0;
    std::string token_text;                            // the token as the tokenizer shows it
    std::string text;                                  // newly complete text to append (may be empty mid-UTF-8)
    double prob = 0;                                   // its probability under temperature and penalties
    std::vector<std::pair<int, double>> alternatives;  // most probable tokens at this step
};

struct SampleResult {
    std::vector<std::string> texts;            // generated continuation per sample (prompt excluded)
    std::vector<std::vector<int32_t>> tokens;  // generated ids per sample
    std::vector<double> logprob;               // total log-probability per sample
    int64_t generated = 0;                     // tokens generated over all samples
    double seconds = 0;
    double tokens_per_s = 0;
    bool cancelled = false;
    std::vector<std::string> warnings;  // e.g. the prompt was cropped to block_size
};

using TokenCallback = std::function<void(const TokenEvent&)>;

/// Attention of every layer and head over a text, plus the next-token distribution at each position.
struct AttentionCapture {
    std::vector<std::string> tokens;  // token strings of the (cropped) input
    int64_t layers = 0, heads = 0, length = 0;
    std::vector<float> weights;  // [layer][head][query][key], row-major; zero above the diagonal
    std::vector<std::vector<std::pair<int, float>>> next_top;  // per position: top tokens and probabilities
    std::vector<std::string> warnings;
    float at(int64_t l, int64_t h, int64_t q, int64_t k) const {
        return weights[static_cast<size_t>(((l * heads + h) * length + q) * length + k)];
    }
};

/// Scores that tell heads apart, per layer and head (computed from a capture).
struct HeadScores {
    std::vector<float> entropy;   // mean over queries of the row entropy, in nats, normalised by log(keys seen)
    std::vector<float> previous;  // mean weight on the previous token (query t -> key t-1)
    std::vector<float> first;     // mean weight on the first token
    std::vector<float> diagonal;  // mean weight on the token itself
};
/// Scores for every head of a capture, indexed [layer * heads + head]. Queries 1.. only (query 0 sees one key).
HeadScores head_scores(const AttentionCapture& cap);
/// Mean over heads of one layer: (T, T) row-major.
std::vector<float> mean_over_heads(const AttentionCapture& cap, int64_t layer);
/// Attention rollout (Abnar & Zuidema 2020) up to and including a layer: product over layers of
/// (0.5 * mean-over-heads + 0.5 * I), rows renormalised. (T, T) row-major.
std::vector<float> attention_rollout(const AttentionCapture& cap, int64_t upto_layer);

}  // namespace twb::nn
