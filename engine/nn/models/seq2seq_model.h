// The encoder-decoder transformer of Vaswani et al. ("Attention is all you need"), the second model
// family beside the decoder LM (model.h): a shared token embedding scaled by sqrt(n_embd) plus
// sinusoidal (default), learned or rotary positions; an encoder of n_encoder_layer blocks (the LM's Block
// with a non-causal mask and a key-padding mask); a decoder of n_decoder_layer blocks of causal
// self-attention, cross-attention over the encoder's output and a feed-forward MLP, each around a
// residual with a norm (pre-norm by default, post-norm as the paper); a final norm per stack (pre-norm);
// the output projection tied to the token embedding (one vocabulary for source and target; with separate
// vocabularies, source_vocab_size > 0, the encoder reads its own src_wte and wte is the target's).
// Parameter names: wte.weight, src_wte.weight (separate vocabularies), encoder.wpe.weight (learned),
// encoder.h.N.{ln_1,attn,ln_2,mlp}.*, encoder.ln_f.*, decoder.h.N.{ln_1,self_attn,ln_2,cross_attn,ln_3,mlp}.*,
// decoder.ln_f.*, lm_head.weight (untied only), final_logits_bias (logits_bias only). Options for imported
// models (Marian): scale_embeddings (the sqrt(n_embd) factor, on by default), sinusoid_halves, logits_bias. block_size
// bounds each stack's input: source + <eos>, and <bos> + target. Not thread-safe: one thread drives a model at a time.
#pragma once
#include "nn/models/attention.h"
#include "nn/models/cross_attention.h"
#include "nn/models/dropout.h"
#include "nn/models/model.h"
#include "twb/config.h"

#include <torch/torch.h>

namespace twb::nn {

class DecoderBlockImpl : public torch::nn::Module {
public:
    explicit DecoderBlockImpl(const RunConfig& c);
    /// self_ctx: the causal self-attention's context (cache, rotary, weights); kv: this block's memory keys
    /// and values; memory_padding: additive (B, 1, 1, S).
    torch::Tensor forward(const torch::Tensor& x, const AttentionContext& self_ctx, const MemoryKV& kv,
                          const torch::Tensor& memory_padding, torch::Tensor* cross_weights);
    Norm ln_1{nullptr}, ln_2{nullptr}, ln_3{nullptr};
    CausalSelfAttention self_attn{nullptr};
    CrossAttention cross_attn{nullptr};
    MLP mlp{nullptr};
    bool post_norm = false;
};
TORCH_MODULE(DecoderBlock);

/// One stack (encoder or decoder): its learned positions (when learned), its blocks, its final norm.
class StackImpl : public torch::nn::Module {
public:
    StackImpl(const RunConfig& c, int layers, bool decoder);
    torch::nn::Embedding wpe{nullptr};
    torch::nn::ModuleList h{nullptr};
    Norm ln_f{nullptr};  // pre-norm only
};
TORCH_MODULE(Stack);

/// Options of one decoder pass.
struct DecodeOptions {
    int64_t pos_offset = 0;                                 // absolute position of the first target input
    std::vector<LayerCache>* cache = nullptr;               // self-attention KV cache, one per decoder block
    torch::Tensor target_padding;                           // (B, T) bool, true at padding; or undefined
    std::vector<torch::Tensor>* self_attention = nullptr;   // receives (B, H, T, T') per block
    std::vector<torch::Tensor>* cross_attention = nullptr;  // receives (B, H, T, S) per block
    bool last_only = false;                                 // logits for the last position only
    std::vector<torch::Tensor>* residuals = nullptr;        // receives the decoder's residual stream (B, T, C):
                                                            // after the embedding, then after each block
    const torch::Tensor* token_embeddings = nullptr;        // (B, T, C) in place of wte(tgt) (attribution)
};

/// Head ablation: one (n_head) gate per layer of each attention (0 switches a head off, an undefined
/// tensor leaves the layer alone); empty vectors for none.
struct Seq2SeqHeadGates {
    std::vector<torch::Tensor> encoder, decoder, cross;
    bool empty() const { return encoder.empty() && decoder.empty() && cross.empty(); }
};

class Seq2SeqImpl : public torch::nn::Module {
public:
    explicit Seq2SeqImpl(const RunConfig& c);
    /// Additive key-padding mask (B, 1, 1, S) from a (B, S) bool mask that is true at padding.
    static torch::Tensor padding_mask(const torch::Tensor& pad);
    /// src (B, S) int64 ids, src_pad (B, S) bool (true at padding) -> memory (B, S, C). token_embeddings:
    /// (B, S, C) used in place of the source's embedding rows (attribution).
    torch::Tensor encode(const torch::Tensor& src, const torch::Tensor& src_pad,
                         std::vector<torch::Tensor>* attention = nullptr,
                         const torch::Tensor* token_embeddings = nullptr);
    /// Every decoder block's keys and values of the memory (computed once per source).
    std::vector<MemoryKV> project_memory(const torch::Tensor& memory);
    /// tgt (B, T) decoder inputs (<bos> first) -> logits (B, T, V).
    torch::Tensor decode(const torch::Tensor& tgt, const std::vector<MemoryKV>& kv, const torch::Tensor& src_pad,
                         const DecodeOptions& opt = {});
    /// The decoder's final norm and the output projection over a residual stream (B, T, C): what decode
    /// does after the last block, and the logit lens after any block.
    torch::Tensor unembed(const torch::Tensor& x);
    /// The whole pass: logits (B, T, V) of the next target token at every decoder input position.
    torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& src_pad, const torch::Tensor& tgt,
                          const torch::Tensor& tgt_pad = {});
    std::vector<std::pair<std::string, torch::Tensor>> named_weights() const;
    int64_t num_parameters() const;
    const RunConfig& config() const { return m_cfg; }
    /// Head ablation in every pass after it (Seq2SeqHeadGates); {} switches every head on again.
    void set_head_gates(Seq2SeqHeadGates gates);

    torch::nn::Embedding wte{nullptr};
    torch::nn::Embedding src_wte{nullptr};  // separate vocabularies: the source side's (else wte serves both)
    Dropout drop{nullptr};
    Stack encoder{nullptr}, decoder{nullptr};
    Linear lm_head{nullptr};          // only when untied
    torch::Tensor final_logits_bias;  // (V) logits_bias only: added to every position's logits

private:
    /// The embedding rows of ids (or `rows` in their place), scaled, positions added.
    torch::Tensor embed(const torch::Tensor& ids, int64_t pos_offset, Stack& stack, const torch::Tensor* rows);
    AttentionContext self_context(int64_t pos_offset, int64_t T, bool causal);
    RunConfig m_cfg;
    PositionTables m_tables;   // the causal mask and the position scheme's tables (position_tables.h)
    torch::Tensor m_open;      // (block, block) zeros: the encoder's open mask
    Seq2SeqHeadGates m_gates;  // head ablation (the cross-attention's are held by its modules)
};
TORCH_MODULE(Seq2Seq);

}  // namespace twb::nn
