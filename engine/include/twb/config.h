// RunConfig: the one configuration of a training run (model + data + optimisation + evaluation), with
// nanoGPT's key names. JSON in and out with a format_version; missing keys take the base's values;
// unknown keys, wrong types, fractions for whole numbers and out-of-range numbers are refused on every
// path (config files, checkpoints, `--set`) so typos are caught. validate() lists every problem in
// readable words. Each field's type and default are written here once; its range, help text, form label
// and model families are its row in the option table (config_options.h), which the JSON reader and
// writer, validate(), the CLI, the man page, the completion and the GUI's form read.
// Plain data, part of the public API: no torch here.
#pragma once
#include "twb/choices.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace twb {

struct RunConfig {
    // --- data ---
    std::string data_dir;                     // prepared dataset folder (twb prepare --out), e.g. "data/shakespeare"
    int vocab_size = 0;                       // filled from the dataset's meta.json when 0
    int source_vocab_size = 0;                // encoder-decoder with separate vocabularies: the source side's
                                              // (its own embedding); 0 = shared. Filled from the dataset.
    Sequences sequences = Sequences::Stream;  // stream (continuous, as nanoGPT) | documents (<bos> doc <eos> per row)
    // --- model ---
    ModelKind model_kind = ModelKind::Decoder;  // decoder (GPT LM) | encoder_decoder (translation; parallel data)
    int n_layer = 4;                            // transformer blocks
    int n_head = 4;                        // attention heads per block; n_embd divides by it unless head_size is set
    int n_embd = 128;                      // model width (channels)
    int block_size = 64;                   // context length in tokens
    double dropout = 0.0;                  // embedding, attention and residual dropout, e.g. 0.1
    bool bias = true;                      // biases in Linear layers and LayerNorms
    Position position = Position::Rotary;  // learned | sinusoidal | rotary (rotary: lowest val loss in bench/)
    bool tie_embeddings = true;            // LM head shares the token embedding matrix
    int ffn_hidden = 0;                    // feed-forward hidden width; 0 = 4 * n_embd
    Activation activation = Activation::Gelu;  // feed-forward activation (gelu_tanh = GPT-2's gelu_new)
    int head_size = 0;  // channels per attention head; 0 = n_embd / n_head (attention is n_head * head_size wide)
    NormKind norm = NormKind::LayerNorm;             // layernorm | rmsnorm (no bias: x / sqrt(mean(x^2) + eps) * w)
    NormPosition norm_position = NormPosition::Pre;  // post = original transformer, x = norm(x + f(x)); no final norm
    double norm_eps = 1e-5;                          // epsilon added to the variance in every norm
    bool qk_norm = false;  // a norm (the kind of `norm`) over each head's queries and keys before the dot product
    bool sinusoid_halves = false;    // position=sinusoidal: sin in the first half of the channels, cos in the second
                                     // (fairseq, Marian) instead of interleaved
    bool scale_embeddings = true;    // encoder_decoder: token embeddings times sqrt(n_embd) (Vaswani et al., Marian)
    bool logits_bias = false;        // encoder_decoder: a learned bias added to the output logits (Marian's
                                     // final_logits_bias)
    bool freeze_embeddings = false;  // token embedding not trained (with tie_embeddings, the LM head neither)
    // Token embedding rows taken from a word-vectors text file (word2vec/GloVe/fastText .vec: "word v1 ... vN"
    // per line, n_embd values) matched by token text, or from a run/checkpoint with the same tokenizer and
    // width; tokens the file lacks keep their random start. "" = none. E.g. "vectors/wiki.simple.vec"
    std::string embeddings_from;
    int n_encoder_layer = 0;  // encoder_decoder: encoder blocks; 0 = n_layer
    int n_decoder_layer = 0;  // encoder_decoder: decoder blocks; 0 = n_layer (block_size = max tokens per side)
    // --- optimisation ---
    int batch_size = 12;  // sequences per micro-batch
    int gradient_accumulation_steps = 1;
    double learning_rate = 3e-3;  // peak learning rate (3e-3 beat 1e-3, 2e-3 and 5e-3 for 4x4x128 in bench/)
    int max_iters = 2000;         // optimiser steps
    double max_epochs = 0;        // encoder_decoder: passes over the training pairs; when > 0 training stops at
                                  // max_iters or after max_epochs, whichever comes first
    int batch_tokens =
        0;  // encoder_decoder: tokens per micro-batch (source + target, padding included); 0 = batch_size * block_size
    // constant | cosine (warmup + cosine to min_lr) | inverse_sqrt (peak learning_rate) | noam (Vaswani et al.
    // exactly: learning_rate is the scale, lr = learning_rate * n_embd^-0.5 * min(s^-0.5, s * warmup_iters^-1.5))
    Schedule schedule = Schedule::Cosine;
    int warmup_iters = 100;        // linear warmup steps
    int lr_decay_iters = 2000;     // cosine reaches min_lr here
    double min_lr = 3e-4;          // floor of the cosine schedule (learning_rate / 10)
    double weight_decay = 0.1;     // AdamW decay on weight matrices only
    bool decay_embeddings = true;  // also decay the embedding matrices
    double beta1 = 0.9;
    double beta2 = 0.99;
    double grad_clip = 1.0;        // max global gradient norm; 0 = off
    double label_smoothing = 0.0;  // e.g. 0.1
    // --- evaluation and checkpoints ---
    int eval_interval = 250;   // steps between evaluations (and checkpoints)
    int eval_iters = 20;       // batches per evaluation split
    int log_interval = 10;     // steps between progress reports
    int keep_checkpoints = 3;  // most recent checkpoints kept (the best is always kept)
    bool tensorboard = true;   // also write the curves as TensorBoard event files in RUN/tb/, live
    std::string probe_prompt;  // text whose attention is captured at each evaluation; "" = from val
    int bleu_pairs =
        200;  // encoder_decoder: validation BLEU at each evaluation over the first N pairs (greedy); 0 = off
    BestBy best_by = BestBy::Loss;  // encoder_decoder: the best checkpoint by val loss or by val BLEU (bleu)
    // --- runtime ---
    uint64_t seed = 1337;
    int threads = 0;              // intra-op threads; 0 = all cores
    std::string device = "auto";  // auto | cpu | cuda | cuda:N (parse_device in choices.h)
    DType dtype = DType::Auto;    // auto (bf16 where the hardware does it natively) | float32 | bfloat16

    /// Every problem, one readable sentence each; empty when the config is usable.
    std::vector<std::string> validate() const;
    /// Throws ConfigError listing the problems.
    void check() const;
    /// Sets one key from text ("n_layer=6", "dropout=0.1"); throws ConfigError for unknown keys or bad values.
    void set(const std::string& key_equals_value);
    /// Channels per attention head: head_size, or n_embd / n_head when head_size is 0.
    int head_dim() const { return head_size > 0 ? head_size : (n_head > 0 ? n_embd / n_head : 0); }
    int encoder_layers() const { return n_encoder_layer > 0 ? n_encoder_layer : n_layer; }
    int decoder_layers() const { return n_decoder_layer > 0 ? n_decoder_layer : n_layer; }
    /// Feed-forward hidden width: ffn_hidden, or 4 * n_embd when ffn_hidden is 0.
    int ffn_dim() const { return ffn_hidden > 0 ? ffn_hidden : 4 * n_embd; }
    /// Model parameter count for this config (vocab_size must be known).
    int64_t parameter_count() const;
    /// The same count by part, over all layers (what the config form shows).
    struct ParameterParts {
        int64_t embeddings = 0;    // token (and learned position) embeddings
        int64_t attention = 0;     // c_attn and c_proj of every block
        int64_t feed_forward = 0;  // c_fc and c_proj of every block
        int64_t norms = 0;         // ln_1, ln_2 of every block, ln_f and the q/k norms (qk_norm)
        int64_t lm_head = 0;       // 0 when tied to the token embedding
        int64_t total() const { return embeddings + attention + feed_forward + norms + lm_head; }
    };
    ParameterParts parameter_parts() const;
    /// Rough training memory in bytes (weights, grads, Adam state, activations).
    int64_t estimated_memory_bytes() const;
    /// All key names, in the option table's order, for help texts and error messages.
    static std::vector<std::string> keys();
};

inline constexpr int kConfigFormatVersion = 1;
void to_json(nlohmann::json& j, const RunConfig& c);
/// Strict: config_from_json over the struct's defaults (ConfigError for unknown keys or bad values).
void from_json(const nlohmann::json& j, RunConfig& c);

/// Reads a config from JSON over base: keys present replace base's values, missing keys keep them.
/// Throws ConfigError, naming `where` and the key, for a non-object, an unknown key, a value of the
/// wrong type, a fraction for a whole-number key or a number the field cannot hold. Does not validate().
RunConfig config_from_json(const nlohmann::json& j, const RunConfig& base = {}, const std::string& where = "config");

/// Reads a config file (JSON) over base, as config_from_json; InputError/ConfigError naming the file.
/// `given`, when not null, receives the config keys the file sets.
RunConfig read_config_file(const std::string& path, const RunConfig& base, std::vector<std::string>* given = nullptr);

/// Named presets: "default" (4x4x128, block 64, rotary, lr 3e-3: the tuned defaults), "nanogpt-cpu"
/// (nanoGPT's CPU recipe exactly: learned positions, lr 1e-3), "baby-gpt" (6x6x384, block 256), "tiny"
/// (trains in well under a minute: the first-run default).
RunConfig preset_config(const std::string& name);
std::vector<std::string> preset_config_names();

}  // namespace twb
