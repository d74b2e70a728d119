// The GPT-style decoder: token (+ learned or sinusoidal) embeddings, blocks of causal self-attention and a
// feed-forward MLP, each around a residual with a norm, a final norm and an LM head tied to the token
// embedding. The defaults are GPT-2's: pre-norm LayerNorm, exact GELU, MLP 4x wide, n_embd / n_head
// channels per head. RunConfig chooses the norm (LayerNorm | RMSNorm, its epsilon), its position (pre |
// post, where post-norm blocks end normalised and have no final norm), the activation, the MLP width and
// the head size, and qk_norm a norm of each head's queries and keys. Parameter names follow nanoGPT / GPT-2
// (transformer.wte.weight, transformer.h.0.attn.c_attn.weight, ...) whatever the options. Not thread-safe: one thread
// drives a model at a time.
#pragma once
#include "nn/models/attention.h"
#include "nn/models/dropout.h"
#include "nn/models/linear.h"
#include "nn/models/norm.h"
#include "nn/models/position_tables.h"
#include "twb/config.h"

#include <torch/torch.h>

namespace twb::nn {

/// Applies a feed-forward activation: exact GELU, GELU's tanh approximation or ReLU.
torch::Tensor activate(const torch::Tensor& x, Activation a);

class MLPImpl : public torch::nn::Module {
public:
    MLPImpl(int64_t n_embd, int64_t hidden, Activation activation, double dropout, bool bias);
    torch::Tensor forward(const torch::Tensor& x);
    Linear c_fc{nullptr}, c_proj{nullptr};
    Dropout dropout{nullptr};
    Activation activation;
};
TORCH_MODULE(MLP);

class BlockImpl : public torch::nn::Module {
public:
    explicit BlockImpl(const RunConfig& c);
    torch::Tensor forward(const torch::Tensor& x, const AttentionContext& ctx);
    Norm ln_1{nullptr}, ln_2{nullptr};
    CausalSelfAttention attn{nullptr};
    MLP mlp{nullptr};
    bool post_norm = false;
};
TORCH_MODULE(Block);

/// Holds what nanoGPT keeps in its `transformer` ModuleDict, so the names match.
class TransformerImpl : public torch::nn::Module {
public:
    explicit TransformerImpl(const RunConfig& c);
    torch::nn::Embedding wte{nullptr}, wpe{nullptr};
    Dropout drop{nullptr};
    torch::nn::ModuleList h{nullptr};
    Norm ln_f{nullptr};  // pre-norm only
};
TORCH_MODULE(Transformer);

/// Options of one forward pass.
struct ForwardOptions {
    int64_t pos_offset = 0;                           // absolute position of the first input token
    std::vector<LayerCache>* cache = nullptr;         // KV cache, one entry per layer (grown in place)
    std::vector<torch::Tensor>* attention = nullptr;  // receives (B, H, T, S) weights per layer
    bool last_only = false;                           // logits for the last position only
    std::vector<torch::Tensor>* residuals = nullptr;  // receives the residual stream (B, T, C): after the
                                                      // embedding, then after each block (n_layer + 1)
    const torch::Tensor* token_embeddings = nullptr;  // (B, T, C) used in place of wte(idx) (attribution)
    // One token (T = 1) at this position, a (1) int64 tensor on the model's device: a step of fixed shapes
    // (a CUDA graph replays it) over `cache`, allocated at block_size (AttentionContext::cache_position).
    const torch::Tensor* position = nullptr;
};

class GPTImpl : public torch::nn::Module {
public:
    /// How the weights start: GPT-2's initialisation (training), or none at all for the linear layers and
    /// GPT-2's skipped too (None: a model whose weights are loaded next, which spares drawing two random
    /// numbers a parameter).
    enum class Init { Gpt2, None };
    explicit GPTImpl(const RunConfig& c, Init init = Init::Gpt2);
    /// idx: (B, T) int64 token ids -> logits (B, T, V) (or (B, 1, V) with last_only).
    torch::Tensor forward(const torch::Tensor& idx, const ForwardOptions& opt = {});
    /// Parameters in a stable order with their nanoGPT names (the tied lm_head is not repeated).
    std::vector<std::pair<std::string, torch::Tensor>> named_weights() const;
    int64_t num_parameters() const;
    const RunConfig& config() const { return m_cfg; }
    /// The final norm and the LM head over a residual stream x (B, T, C): what forward does after the
    /// last block, and the logit lens after any block.
    torch::Tensor unembed(const torch::Tensor& x);
    /// Head ablation: gates[l] is an (n_head) multiplier of layer l's heads' outputs (0 switches a head
    /// off), undefined for a layer left whole; every later forward pass uses them. Empty: every head on.
    void set_head_gates(std::vector<torch::Tensor> gates);
    bool has_head_gates() const { return !m_headGates.empty(); }

    Transformer transformer{nullptr};
    Linear lm_head{nullptr};  // only when embeddings are untied

private:
    torch::Tensor step_at(const torch::Tensor& idx, const torch::Tensor& position, const ForwardOptions& opt);

    RunConfig m_cfg;
    PositionTables m_tables;                 // the causal mask and the position scheme's tables
    std::vector<torch::Tensor> m_headGates;  // head ablation, per layer (set_head_gates)
};
TORCH_MODULE(GPT);

}  // namespace twb::nn
