// Translating with an encoder-decoder run (model_kind=encoder_decoder): greedy or beam search over many
// source lines, and the figures of a parallel split (loss, token accuracy, BLEU and chrF). What
// `twb translate` and `twb eval` on a translation run call. Public API; no torch.
#pragma once
#include "twb/bleu.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace twb {

struct TranslationAttention;  // translation_attention.h

struct TranslateOptions {
    int beam_width = 1;             // 1 = greedy (batched over sources); > 1 = beam search per source
    double length_penalty = 1.0;    // beam score = log-prob / length^length_penalty
    double max_length_ratio = 1.5;  // a translation stops after ratio * source tokens + max_length_extra
    int max_length_extra = 10;
    int batch_size = 32;  // sources per encoder pass (greedy)
    bool use_kv_cache = true;
    /// Throws ConfigError naming the bad value.
    void validate() const;
};

/// What evaluating a parallel split prints.
struct TranslationEval {
    std::string split;
    int64_t pairs = 0;          // pairs scored
    int64_t skipped = 0;        // pairs longer than the model's block_size (not scored)
    int64_t target_tokens = 0;  // real target tokens (<eos> included) the loss averages over
    double loss = 0, accuracy = 0;
    BleuScore bleu;
    ChrfScore chrf;
    std::vector<std::string> hypotheses, references;  // detokenized, in the split's order
};

/// (done, total) sources; return false to cancel (Cancelled is thrown).
using TranslateProgress = std::function<bool(size_t done, size_t total)>;

/// An encoder-decoder run's checkpoint with its tokenizer. Not thread-safe.
class Translator {
public:
    Translator();
    ~Translator();
    /// Opens a run (or checkpoint) folder; which = best | last | step. InputError for a decoder LM run.
    void open(const std::string& run, const std::string& which = "best");
    std::string checkpoint() const;
    int64_t step() const;
    /// One translation per source line, in order.
    std::vector<std::string> translate(const std::vector<std::string>& sources, const TranslateOptions& opt = {},
                                       const TranslateProgress& progress = {});
    /// Loss and accuracy (teacher-forced) and BLEU/chrF (translated with opt) of a split ("val" or
    /// "test") of the run's parallel dataset, or of data_dir's (same tokenizer). References are the
    /// split's target ids decoded.
    TranslationEval evaluate(const std::string& split, const TranslateOptions& opt = {},
                             const std::string& data_dir = "", const TranslateProgress& progress = {});

    // The attention viewer's capture (translation_attention.h; defined in translator_attention.cpp).
    /// Encoder self-, decoder self- and cross-attention of every layer and head for a source sentence
    /// and a target (teacher-forced), or the model's greedy translation when target is empty. InputError
    /// for an empty source, text the vocabulary cannot encode, or a pair longer than block_size.
    TranslationAttention attention(const std::string& source, const std::string& target = "");

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

/// True when the run (or checkpoint) folder holds an encoder-decoder model (its config says so).
bool is_encoder_decoder_run(const std::string& run);

}  // namespace twb
