// Cross-attention maths: the explicit softmax path (and libtorch >= 2's fused kernel when the weights
// are not asked for).
#include "nn/models/cross_attention.h"

#include "nn/models/attention.h"

#include <cmath>

namespace twb::nn {

CrossAttentionImpl::CrossAttentionImpl(int64_t n_embd, int64_t n_head_, int64_t head_size_, double dropout, bool bias,
                                       const QkNorm& qk)
    : n_head(n_head_), head_size(head_size_) {
    const int64_t A = n_head * head_size;
    c_q = register_module("c_q", Linear(n_embd, A, bias));
    c_kv = register_module("c_kv", Linear(n_embd, 2 * A, bias));
    c_proj = register_module("c_proj", Linear(A, n_embd, bias));
    attn_dropout = register_module("attn_dropout", Dropout(dropout));
    resid_dropout = register_module("resid_dropout", Dropout(dropout));
    qk.register_on(*this, head_size, q_norm, k_norm);
}

MemoryKV CrossAttentionImpl::project_memory(const torch::Tensor& memory) {
    const int64_t B = memory.size(0), S = memory.size(1);
    auto kv = c_kv(memory).view({B, S, 2, n_head, head_size}).permute({2, 0, 3, 1, 4});  // (2, B, H, S, D)
    const auto parts = kv.unbind(0);  // one stack in backward, not two zeroed tensors added up (attention.cpp)
    if (k_norm)
        return {k_norm(parts[0]).to(kv.scalar_type()), parts[1]};
    return {parts[0], parts[1]};
}

torch::Tensor CrossAttentionImpl::forward(const torch::Tensor& x, const MemoryKV& kv, const torch::Tensor& key_padding,
                                          torch::Tensor* weights_out) {
    const int64_t B = x.size(0), T = x.size(1), H = n_head, D = head_size, S = kv.k.size(2);
    auto gated = [this](const torch::Tensor& y) {  // head ablation: y (B, H, T, D)
        return head_gate.defined() ? y * head_gate.to(y.scalar_type()).view({1, -1, 1, 1}) : y;
    };
    auto q = linear(c_q, x).view({B, T, H, D}).transpose(1, 2);  // (B, H, T, D)
    if (q_norm)
        q = q_norm(q).to(kv.v.scalar_type());
#if TORCH_VERSION_MAJOR >= 2
    if (!weights_out && sdpa_serves(q) && !draws_from_lane(attn_dropout)) {
        const double p = is_training() ? attn_dropout->p : 0.0;
        const c10::optional<at::Tensor> m =
            key_padding.defined() ? c10::optional<at::Tensor>(key_padding.to(q.scalar_type())) : c10::nullopt;
        auto y = gated(at::scaled_dot_product_attention(q, kv.k, kv.v, m, p, false));
        return resid_dropout(linear(c_proj, y.transpose(1, 2).reshape({B, T, H * D})));
    }
#endif
    auto att = torch::matmul(q, kv.k.transpose(-2, -1)) * (1.0 / std::sqrt(static_cast<double>(D)));  // (B,H,T,S)
    if (key_padding.defined())
        att = att + key_padding;
    att = torch::softmax(att, -1, softmax_type(att)).to(kv.v.scalar_type());
    if (weights_out)
        *weights_out = att.detach();
    att = attn_dropout(att);
    auto y = gated(torch::matmul(att, kv.v));  // (B, H, T, D)
    (void)S;
    return resid_dropout(linear(c_proj, y.transpose(1, 2).reshape({B, T, H * D})));
}

}  // namespace twb::nn
