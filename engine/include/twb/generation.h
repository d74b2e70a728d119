// Generation's options and results as plain data: what a ModelSession (session.h) takes and streams
// back. Public API; no torch.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace twb {

/// Weights single-sequence CPU decoding streams per token: auto = bfloat16 (the fast decoder) when the
/// CPU has AVX2+FMA, else float32 (libtorch); float32 = always libtorch; bfloat16 = the fast decoder even
/// without AVX2 (portable loops). Batches, beams and CUDA devices always decode with libtorch.
enum class DecodeWeights { Auto, Float32, BFloat16 };
const char* to_string(DecodeWeights w);
/// "auto" | "float32" | "bfloat16"; throws ConfigError otherwise.
DecodeWeights parse_decode_weights(const std::string& s);

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
    DecodeWeights decode_weights = DecodeWeights::Auto;
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

}  // namespace twb
