// Causal multi-head self-attention. Two kernels compute the same function: the explicit one (matmul +
// masked softmax: libtorch 1.13 has no SDPA, and the attention viewer and the probe need the weights) and,
// with libtorch >= 2, at::scaled_dot_product_attention (fused flash / memory-efficient kernels) whenever
// the weights are not asked for: training and plain generation, the KV-cached decoder included.
// One module serves training (full sequence), the KV-cached decoder (prefill then one token at a time)
// and attention capture. A key-padding mask is part of the interface so the encoder-decoder model can
// reuse it.
#pragma once
#include "nn/models/dropout.h"
#include "nn/models/linear.h"
#include "nn/models/norm.h"

#include <torch/torch.h>

#include <array>

namespace twb::nn {

/// Per-layer key/value cache for incremental decoding. k, v are preallocated (B, H, capacity, D) and
/// filled in place, so a decoding step copies one position instead of re-concatenating the cache.
struct LayerCache {
    torch::Tensor k, v;
    int64_t len = 0;
    int64_t length() const { return len; }
    void clear() {
        k = torch::Tensor();
        v = torch::Tensor();
        len = 0;
    }
    /// Beam search: row i continues row parents[i].
    void reorder(const torch::Tensor& parents) {
        if (!k.defined())
            return;
        k = k.index_select(0, parents);
        v = v.index_select(0, parents);
    }
};

/// What one attention call needs besides its input.
struct AttentionContext {
    torch::Tensor mask;      // additive (T, S) causal mask: 0 where allowed, -inf above the diagonal
    bool causal = false;     // mask is the model's causal table (not an encoder's open one): fused kernels
    torch::Tensor rope_cos;  // (T, D/2) for the query positions, or undefined when not rotary
    torch::Tensor rope_sin;
    torch::Tensor key_padding;    // optional additive (B, 1, 1, S) mask for padded keys
    LayerCache* cache = nullptr;  // when set: append this call's k, v and attend over the whole cache
    int64_t cache_capacity = 0;   // positions to allocate for a new cache (block_size)
    // A step whose shapes never change (CUDA graphs): one token written at cache_position (a (1) int64
    // tensor on the device, not read by the host) into a cache allocated at its capacity, attending over
    // all of it under `mask` (1, capacity): 0 up to the position, -inf after. Unset: the cache grows.
    torch::Tensor cache_position;
    torch::Tensor* weights_out = nullptr;  // when set: receives the softmax weights (B, H, T, S)
    torch::Tensor head_gate;               // optional (H): each head's output times its gate (0 = ablated)
};

/// A Linear layer's output, computed as a matrix-vector product when the input is a single row and no
/// gradient is needed (decoding one token): BLAS gemm would repack the whole weight matrix each call.
torch::Tensor linear(Linear& layer, const torch::Tensor& x);

/// Rotates (B, H, T, D) by position: the two halves of D form the complex pairs (GPT-NeoX layout).
torch::Tensor apply_rotary(const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin);

/// (positions, D/2) cos and sin tables for rotary embeddings with base 10000.
std::pair<torch::Tensor, torch::Tensor> rotary_tables(int64_t positions, int64_t head_dim);

/// True when this libtorch has scaled_dot_product_attention (>= 2.0) and it has not been switched off.
bool sdpa_available();
/// Whether scaled_dot_product_attention serves queries like q: not for bf16 on the CPU, where libtorch
/// 2.11's fused kernel ran 2.8x slower than the explicit path forward and backward
/// (docs/benchmarks/cpu-speed-sessions.md, session 19).
bool sdpa_serves(const torch::Tensor& q);
/// "sdpa" or "explicit": the kernel used when the attention weights are not needed (`twb doctor`).
const char* attention_kernel_name();
/// The type attention's softmax runs in: float32 at least (bf16 scores are widened), float64 for a float64
/// model (tests).
torch::ScalarType softmax_type(const torch::Tensor& scores);

/// Forces the explicit softmax path everywhere (tests compare the two; benchmarks). Process-wide.
void set_explicit_attention(bool on);

class CausalSelfAttentionImpl : public torch::nn::Module {
public:
    /// Projects n_embd to n_head heads of head_size channels each (q, k and v) and back; qk.on normalises
    /// each head's queries and keys (q_norm, k_norm) before rotary positions and the dot product.
    CausalSelfAttentionImpl(int64_t n_embd, int64_t n_head, int64_t head_size, double dropout, bool bias,
                            const QkNorm& qk = {});
    /// x: (B, T, C) -> (B, T, C).
    torch::Tensor forward(const torch::Tensor& x, const AttentionContext& ctx);

    Linear c_attn{nullptr}, c_proj{nullptr};
    Dropout attn_dropout{nullptr}, resid_dropout{nullptr};
    Norm q_norm{nullptr}, k_norm{nullptr};  // qk_norm only
    int64_t n_head, n_embd, head_size;

private:
    /// x's queries, keys and values as (B, H, T, D) views, normalised (qk_norm) and rotated (rotary).
    std::array<torch::Tensor, 3> heads(const torch::Tensor& x, const AttentionContext& ctx);
};
TORCH_MODULE(CausalSelfAttention);

}  // namespace twb::nn
