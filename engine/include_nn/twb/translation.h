// Translating with an encoder-decoder run (model_kind=encoder_decoder): greedy or beam search over many
// source lines, and the figures of a parallel split (loss, token accuracy, BLEU and chrF). What
// `twb translate` and `twb eval` on a translation run call. Public API; no torch.
#pragma once
#include "twb/bleu.h"
#include "twb/inspection.h"
#include "twb/session.h"

#include <atomic>
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

// ---- streamed translation (one source, token by token; the Sampling console's translation mode) ----

/// One of the most probable tokens at a step of a streamed translation.
struct TranslationAlternative {
    int token = 0;
    std::string token_text;  // as the tokenizer shows the piece ("▁Hund")
    double prob = 0;
};

/// One target token of a streamed translation.
struct TranslationToken {
    int64_t index = 0;  // 0-based position in the target
    int token = 0;
    std::string token_text;  // as the tokenizer shows the piece
    std::string text;        // newly complete target text to append (may be empty inside a UTF-8 character)
    /// p(token | source, target so far): the softmax of the model's logits (no temperature), in (0, 1].
    double prob = 0;
    std::vector<TranslationAlternative> alternatives;  // the most probable tokens at this step, best first
};

/// Return false to cancel (the result then says cancelled; nothing is thrown).
using TranslationTokenCallback = std::function<bool(const TranslationToken&)>;

struct StreamedTranslation {
    std::string text;          // the whole translation, detokenized (what translate() returns for the source)
    std::vector<int32_t> ids;  // its target ids, <eos> excluded
    std::vector<int32_t> source_ids;
    int64_t step = 0;  // the checkpoint's
    double seconds = 0;
    bool cancelled = false;
    int64_t length_limit = 0;  // the most target tokens it could have (TranslateOptions' ratio and extra)
    bool at_limit = false;     // it stopped at length_limit, not at <eos>: probably unfinished
};

/// An encoder-decoder run's checkpoint with its tokenizer. Not thread-safe.
class Translator {
public:
    Translator();
    ~Translator();
    /// Opens a run (or checkpoint) folder; which = best | last | step. InputError for a decoder LM run. The
    /// checkpoint open already is kept (heads switched off stay off) unless its weights were replaced.
    void open(const std::string& run, const std::string& which = "best");
    std::string checkpoint() const;
    int64_t step() const;
    /// One translation per source line, in order; a blank line (spaces at most) gives an empty one. A line
    /// longer than the encoder takes is translated from its first max_source_tokens() tokens;
    /// cropped_lines() then names it.
    std::vector<std::string> translate(const std::vector<std::string>& sources, const TranslateOptions& opt = {},
                                       const TranslateProgress& progress = {});
    /// The last translate()'s lines (numbered from 1) that were cut to the encoder's length.
    std::vector<size_t> cropped_lines() const;
    /// The last translate()'s lines (numbered from 1) whose translation stopped at the length limit
    /// (TranslateOptions' max_length_ratio and max_length_extra, at most block_size - 1) before ending.
    std::vector<size_t> limited_lines() const;
    /// The most source tokens the encoder takes (block_size - 1: <eos> follows them).
    int64_t max_source_tokens() const;
    /// Loss and accuracy (teacher-forced) and BLEU/chrF (translated with opt) of a split ("val" or
    /// "test") of the run's parallel dataset, or of data_dir's (same tokenizer). References are the
    /// split's target ids decoded.
    TranslationEval evaluate(const std::string& split, const TranslateOptions& opt = {},
                             const std::string& data_dir = "", const TranslateProgress& progress = {});

    /// One source translated token by token, each target token streamed to on_token with its probability and
    /// the `alternatives` most probable tokens at its step. Greedy (beam_width 1) streams as it decodes and
    /// gives exactly translate()'s tokens; the emitted token is then the first alternative. Beam search
    /// (beam_width > 1) streams nothing while it searches and then the final best hypothesis (translate()'s)
    /// token by token, each token's probability and alternatives from one teacher-forced decoder pass over that
    /// hypothesis (so a beam token need not be the first alternative). Cancel through on_token's return or
    /// `cancel` (checked per decoding step, also during a beam search).
    StreamedTranslation translate_stream(const std::string& source, const TranslateOptions& opt,
                                         const TranslationTokenCallback& on_token, int alternatives = 5,
                                         const std::atomic<bool>* cancel = nullptr);
    /// The piece of a token id as the tokenizer shows it.
    std::string token_text(int id) const;

    // The attention viewer's capture (translation_attention.h; defined in translator_attention.cpp).
    /// Encoder self-, decoder self- and cross-attention of every layer and head for a source sentence
    /// and a target (teacher-forced), or the model's greedy translation when target is empty. InputError
    /// for an empty source, text the vocabulary cannot encode, or a pair longer than block_size.
    TranslationAttention attention(const std::string& source, const std::string& target = "");
    /// The logit lens over the decoder (inspection.h): at every decoder input (<bos>, then the target's
    /// tokens; the target given, or the model's greedy translation when empty), what each decoder stage
    /// already predicts as the next target token.
    LogitLens logit_lens(const std::string& source, const std::string& target = "", int top = 5);
    /// Gradient x input for every target token over the source and the target before it (inspection.h):
    /// the target given, or the model's greedy translation when empty. The same InputErrors as attention().
    TranslationAttribution attribute(const std::string& source, const std::string& target = "");
    /// The same for a translation given as the target side's token ids (as translate_stream streamed them;
    /// a last <eos> is left out). InputError for an id outside the vocabulary.
    TranslationAttribution attribute(const std::string& source, const std::vector<int32_t>& target);

    /// The decoder's position scheme for the Attention panel's Positions tab (session.h's PositionTable;
    /// the encoder's is the same unless learned).
    PositionTable positions(int64_t max_rows = 256) const;

    // Head ablation (inspection.h; translator_ablation.cpp).
    /// The model's heads: the decoder's layers (cross-attention has as many), the encoder's, heads per layer.
    HeadLayout head_layout() const;
    /// Switches these heads off in every later translation, evaluation and view until set again ({}: none).
    /// InputError for a head the model lacks.
    void set_ablated_heads(const std::vector<HeadRef>& heads);
    const std::vector<HeadRef>& ablated_heads() const;
    /// The teacher-forced loss of a split (AblationOptions) with nothing off, with opt.heads off together
    /// and (every_head) with each head of the encoder, the decoder and cross-attention off alone, one
    /// evaluation each; progress can cancel (the rows so far are kept). The heads set with
    /// set_ablated_heads are on during the job and off again after.
    AblationTable ablation_table(const AblationOptions& opt, const InspectionProgress& progress = {});

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

/// True when the run (or checkpoint) folder holds an encoder-decoder model (its config says so).
bool is_encoder_decoder_run(const std::string& run);

}  // namespace twb
