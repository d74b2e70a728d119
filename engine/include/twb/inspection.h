// What the views inside a language model compute (issue 39), as plain data: the logit lens (each
// layer's next-token prediction at every position), token attribution (how much each earlier token
// contributed to one token, by gradient x input and by attention rollout) and head ablation (the
// validation loss with heads switched off). ModelSession computes them (session.h); this header also
// holds their CSV and JSON forms and the parsing of head lists. Public API; no torch.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace twb {

/// One token and its probability.
struct TokenProb {
    int id = -1;
    std::string text;
    double prob = 0;
};

/// The logit lens over a text: the final norm and the LM head applied to the residual stream after the
/// embedding (stage 0) and after each block (stage l + 1), at every position.
struct LogitLens {
    std::vector<int32_t> ids;         // the input's tokens (cropped to the last block_size)
    std::vector<std::string> tokens;  // their texts
    int64_t stages = 0;               // n_layer + 1: "embedding", "block 0", ...
    int64_t positions = 0;
    int top = 5;
    /// [stage][position]: the top tokens of that stage's next-token distribution, most probable first.
    std::vector<std::vector<TokenProb>> cells;
    /// [stage][position]: the rank (0 = top) and probability of the model's final choice at that position.
    std::vector<int> final_rank;
    std::vector<double> final_prob;
    std::vector<int> final_ids;  // [position]: the model's own most probable next token
    const std::vector<TokenProb>& at(int64_t stage, int64_t pos) const {
        return cells[static_cast<size_t>(stage * positions + pos)];
    }
    /// "embedding" for stage 0, "block L" (0-based, as in the weight names) after.
    static std::string stage_name(int64_t stage);
};

/// How much each context token contributed to one target token.
struct TokenAttribution {
    std::vector<int32_t> ids;         // the context: the tokens before the target
    std::vector<std::string> tokens;  // their texts
    int target_id = -1;
    std::string target_text;
    double target_prob = 0;  // P(target | context)
    /// Gradient x input: for each context token, d z / d e_t . (e_t - mean row), z the target's logit and
    /// e_t the token's embedding row: the first-order change of z were the token replaced by the average
    /// token. Signed: negative pushes the target down. The logit rather than log P, whose gradient
    /// vanishes where the model is sure; the average row rather than zero as the baseline because a norm
    /// is blind to scale, so a pre-norm model without added positions would score every earlier token 0.
    std::vector<double> gradient_x_input;
    /// Attention rollout (Abnar & Zuidema 2020) of the last position over the context, through every
    /// layer: non-negative, sums to 1.
    std::vector<double> rollout;
};

/// Gradient x input for a translation (an encoder-decoder run): for each target token the model emits
/// (the target teacher-forced, then <eos>), how much each source token and each decoder input before it
/// contributed to that token's logit. The same measure as TokenAttribution's, taken once per target token:
/// a source-target matrix that reads like an alignment, signed.
struct TranslationAttribution {
    std::vector<int32_t> source_ids;         // the source's tokens, then <eos>
    std::vector<std::string> source_tokens;  // their texts
    std::vector<int32_t> input_ids;          // the decoder's inputs: <bos>, then the target's tokens
    std::vector<std::string> input_tokens;   // their texts
    std::vector<int32_t> output_ids;         // what each input position predicts: the target, then <eos>
    std::vector<std::string> output_tokens;  // their texts
    std::vector<double> output_prob;         // [t]: P(output t | source, inputs 0..t)
    /// [t * source size + s]: d z_t / d e_s . (e_s - mean row), z_t output t's logit.
    std::vector<double> source_attribution;
    /// [t * input size + u]: the same for decoder input u; 0 for u > t (not visible to output t).
    std::vector<double> input_attribution;
    bool target_from_model = false;  // the target was the model's greedy translation
    double source(size_t t, size_t s) const { return source_attribution[t * source_ids.size() + s]; }
    double input(size_t t, size_t u) const { return input_attribution[t * input_ids.size() + u]; }
};

/// Which attention a head is in: a language model's blocks (a translation model's decoder
/// self-attention), a translation model's encoder, or its decoder's cross-attention over the source.
enum class HeadStack { Decoder, Encoder, Cross };

/// A head: layer and head, both from 0 (as in transformer.h.L and the Attention panel), and its stack.
struct HeadRef {
    int layer = 0;
    int head = 0;
    HeadStack stack = HeadStack::Decoder;
    bool operator==(const HeadRef& o) const { return layer == o.layer && head == o.head && stack == o.stack; }
};
/// "L.H" for a head of a language model or a translation decoder's self-attention, "enc.L.H" for an
/// encoder's, "cross.L.H" for a cross-attention head; "1.0,1.3" for a list.
std::string to_string(const HeadRef& h);

/// The heads a model has: `layers` blocks (a translation model's decoder; its cross-attention has as
/// many) of `heads` heads, and for a translation model its encoder's blocks (0 for a language model).
struct HeadLayout {
    int layers = 0;
    int heads = 0;
    int encoder_layers = 0;
    bool translation() const { return encoder_layers > 0; }
    /// Every head, encoder first, then the decoder's self-attention, then cross-attention.
    std::vector<HeadRef> all() const;
};
/// Parses "L.H,L.H,..." (commas or spaces between them; "L.*" for every head of layer L; "enc.L.H", "cross.L.H" and
/// "dec.L.H" for a translation model); ConfigError naming the bad item, or a head the model lacks.
std::vector<HeadRef> parse_heads(const std::string& text, const HeadLayout& layout);
std::vector<HeadRef> parse_heads(const std::string& text, int layers, int heads);

/// What a head ablation job evaluates on: a split of the run's dataset (or another prepared with its
/// tokenizer), at most max_tokens of it, in float32.
struct AblationOptions {
    std::string data_dir;  // empty = the run's own dataset
    std::string split = "val";
    int64_t max_tokens = 16384;  // 0 = the whole split
    int batch_size = 16;
    std::vector<HeadRef> heads;  // the set switched off together (set_loss)
    bool every_head = false;     // also one row per head, each switched off alone
};

struct HeadCost {
    HeadRef head;
    double loss = 0;  // validation loss with this head off
    double cost = 0;  // loss - base loss: what the head is worth, in nats per token
};

struct AblationTable {
    std::string split;
    int64_t tokens = 0;  // tokens scored per evaluation
    int layers = 0, heads = 0;
    int encoder_layers = 0;            // a translation model's encoder blocks; 0 for a language model
    double base_loss = 0;              // nothing switched off
    std::vector<HeadRef> set;          // AblationOptions::heads
    double set_loss = 0;               // with the whole set off (= base_loss when the set is empty)
    std::vector<HeadCost> every_head;  // every_head: one per head in HeadLayout::all()'s order
    bool cancelled = false;            // the rows so far are valid; the rest was not computed
    double seconds = 0;
    /// every_head's cost of head (l, h) of `stack`; NaN when not computed.
    double cost(int l, int h, HeadStack stack = HeadStack::Decoder) const;
    HeadLayout layout() const { return {layers, heads, encoder_layers}; }
};

/// Progress of a long job: done of total evaluations; return false to cancel.
using InspectionProgress = std::function<bool(int done, int total)>;

/// The loss of the evaluation split with the heads `off` switched off; sets `tokens` to the tokens scored.
using AblationLoss = std::function<double(const std::vector<HeadRef>& off, int64_t& tokens)>;
/// A head ablation job over a model's heads (layout), its evaluations done by loss_with: nothing off, the
/// set, then (every_head) each head alone in layout.all()'s order; progress after each, and a cancel keeps
/// the rows so far. What ModelSession::ablation_table and Translator::ablation_table run.
AblationTable run_ablation_table(const HeadLayout& layout, const AblationOptions& opt, const AblationLoss& loss_with,
                                 const InspectionProgress& progress = {});

/// CSV and JSON forms, for `twb lens/attribute/ablate` and the GUI's exports.
std::string lens_to_csv(const LogitLens& lens);
std::string lens_to_json(const LogitLens& lens);
std::string attribution_to_csv(const TokenAttribution& a);
std::string attribution_to_json(const TokenAttribution& a);
/// One row per (output, source or input token) pair: side, output position, token position, tokens, value.
std::string attribution_to_csv(const TranslationAttribution& a);
std::string attribution_to_json(const TranslationAttribution& a);
std::string ablation_to_csv(const AblationTable& t);
std::string ablation_to_json(const AblationTable& t);

}  // namespace twb
