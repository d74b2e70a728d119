// Batch evaluation of generations: every prompt of a file generated with every decoding setting, and a
// table per setting of speed, the generated text's log-probability and perplexity under the model
// itself, distinct-n and repetition, and BLEU against references when given (seed report 004's
// comparison of sampling and beam search). Public API; no torch.
#pragma once
#include "twb/generation.h"

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace twb {

class ModelSession;

/// A named set of decoding options.
struct DecodingSetting {
    std::string label;  // as given, e.g. "temperature=0.8,top_k=40"
    SamplingOptions options;
};

/// "greedy", or comma-separated key=value with keys temperature, top_k, top_p, beam (width),
/// length_penalty, repetition_penalty, no_repeat_ngram, max_new_tokens, seed. Unset keys keep base's
/// values. Throws ConfigError naming an unknown key or a bad value (max_new_tokens 0 among them).
DecodingSetting parse_decoding_setting(const std::string& text, const SamplingOptions& base = {});

struct GenerationEvalRow {
    std::string setting;
    std::vector<std::string> outputs;  // one per prompt
    int64_t tokens = 0;                // generated over all prompts
    double seconds = 0;
    double tokens_per_s = 0;
    // The per-token figures are NaN when nothing was generated (every prompt ended at once).
    double mean_logprob = 0;  // per generated token, under the model without temperature or penalties
    double perplexity = 0;    // exp(-mean_logprob)
    double distinct_1 = 0;    // unique generated tokens / generated tokens, over all outputs
    double distinct_2 = 0;    // unique bigrams / bigrams; NaN when there is none
    double repetition = 0;    // share of generated tokens that complete a 4-gram already in their output
    double bleu = NAN;        // corpus BLEU against the references, when given
};

/// Generates every prompt with every setting (samples one at a time, seeds as set) and scores them.
/// references: empty, or one per prompt. on_progress(done, total) returning false stops early: the rows
/// of the settings finished so far are returned (a setting stopped halfway has none).
std::vector<GenerationEvalRow> evaluate_generations(
    ModelSession& session, const std::vector<std::string>& prompts, const std::vector<std::string>& references,
    const std::vector<DecodingSetting>& settings,
    const std::function<bool(size_t done, size_t total)>& on_progress = {});

/// The rows as a Markdown table (and as CSV).
std::string generation_eval_markdown(const std::vector<GenerationEvalRow>& rows);
std::string generation_eval_csv(const std::vector<GenerationEvalRow>& rows);

}  // namespace twb
