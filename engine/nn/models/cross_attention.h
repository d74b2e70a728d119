// Multi-head cross-attention of the encoder-decoder: queries from the decoder, keys and values from the
// encoder's output (the memory). The memory's keys and values are projected once per source
// (project_memory) and reused at every decoding step; padded source positions are masked by an
// additive key-padding mask. Returns its softmax weights (B, H, T, S) when asked, as the
// self-attention does, for the attention viewer.
#pragma once
#include "nn/models/dropout.h"
#include "nn/models/linear.h"
#include "nn/models/norm.h"

#include <torch/torch.h>

namespace twb::nn {

/// The memory's keys and values, (B, H, S, D) each.
struct MemoryKV {
    torch::Tensor k, v;
    void reorder(const torch::Tensor& rows) {
        k = k.index_select(0, rows);
        v = v.index_select(0, rows);
    }
};

class CrossAttentionImpl : public torch::nn::Module {
public:
    /// qk.on: each head's queries and the memory's keys normalised (q_norm, k_norm), as the self-attention's.
    CrossAttentionImpl(int64_t n_embd, int64_t n_head, int64_t head_size, double dropout, bool bias,
                       const QkNorm& qk = {});
    /// Projects the memory (B, S, C) to keys and values.
    MemoryKV project_memory(const torch::Tensor& memory);
    /// x (B, T, C) attends over kv; key_padding is an additive (B, 1, 1, S) mask (0 or -inf), or undefined.
    torch::Tensor forward(const torch::Tensor& x, const MemoryKV& kv, const torch::Tensor& key_padding,
                          torch::Tensor* weights_out = nullptr);

    Linear c_q{nullptr}, c_kv{nullptr}, c_proj{nullptr};
    Dropout attn_dropout{nullptr}, resid_dropout{nullptr};
    Norm q_norm{nullptr}, k_norm{nullptr};  // qk_norm only
    int64_t n_head, head_size;
    torch::Tensor head_gate;  // optional (H): each head's output times its gate (0 = ablated)
};
TORCH_MODULE(CrossAttention);

}  // namespace twb::nn
