// Attention maths. The explicit path batches heads as (B*H) for one baddbmm (scale and mask fused) and
// one bmm; with libtorch >= 2 the fused at::scaled_dot_product_attention serves every call that does not
// ask for the weights.
#include "nn/models/attention.h"

#include "core/decoding/position_values.h"
#include "nn/models/fused_cpu.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <string>
#include <tuple>
#include <utility>

#if TORCH_VERSION_MAJOR >= 2
#define TWB_HAVE_SDPA 1
#else
#define TWB_HAVE_SDPA 0
#endif

namespace twb::nn {

namespace {
// TWB_ATTENTION=explicit in the environment starts with the explicit path (benchmarks compare the two).
bool explicit_from_env() {
    const char* e = std::getenv("TWB_ATTENTION");
    return e && std::string(e) == "explicit";
}
std::atomic<bool> g_explicit{explicit_from_env()};
}  // namespace

bool sdpa_available() {
    return TWB_HAVE_SDPA && !g_explicit.load();
}

bool sdpa_serves(const torch::Tensor& q) {
    return sdpa_available() && !(q.device().is_cpu() && q.scalar_type() == torch::kBFloat16);
}

const char* attention_kernel_name() {
    return sdpa_available() ? "sdpa" : "explicit";
}

void set_explicit_attention(bool on) {
    g_explicit.store(on);
}

torch::Tensor linear(Linear& layer, const torch::Tensor& x) {
    const int64_t in = x.size(-1);
    // Under bf16 autocast x is bf16 and the weights float32: addmv has no autocast rule and refused the
    // mix (a one-position text scored in bf16), so the layer's own forward, which autocast casts, takes it.
    if (x.numel() != in || torch::GradMode::is_enabled() || !x.device().is_cpu() ||
        x.scalar_type() != layer->weight.scalar_type())
        return layer->forward(x);
    auto shape = x.sizes().vec();
    shape.back() = layer->weight.size(0);
    auto y = layer->bias.defined() ? torch::addmv(layer->bias, layer->weight, x.reshape({in}))
                                   : torch::mv(layer->weight, x.reshape({in}));
    return y.view(shape);
}

torch::Tensor apply_rotary(const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin) {
    const int64_t half = x.size(-1) / 2;
    auto x1 = x.narrow(-1, 0, half), x2 = x.narrow(-1, half, half);
    // Tables in the activations' dtype: under bf16 autocast a bf16 x fp32 product would promote to fp32
    // and convert back, doubling the cost of this step.
    const auto c = cos.to(x.scalar_type()), s = sin.to(x.scalar_type());
    return torch::cat({x1 * c - x2 * s, x1 * s + x2 * c}, -1);
}

std::pair<torch::Tensor, torch::Tensor> rotary_tables(int64_t positions, int64_t head_dim) {
    auto [cs, sn] = rotary_values(positions, head_dim);
    const int64_t half = head_dim / 2;
    return {torch::from_blob(cs.data(), {positions, half}, torch::kFloat32).clone(),
            torch::from_blob(sn.data(), {positions, half}, torch::kFloat32).clone()};
}

CausalSelfAttentionImpl::CausalSelfAttentionImpl(int64_t n_embd_, int64_t n_head_, int64_t head_size_, double dropout,
                                                 bool bias, const QkNorm& qk)
    : n_head(n_head_), n_embd(n_embd_), head_size(head_size_) {
    const int64_t A = n_head * head_size;  // attention width (n_embd unless head_size is set)
    c_attn = register_module("c_attn", Linear(n_embd, 3 * A, bias));
    c_proj = register_module("c_proj", Linear(A, n_embd, bias));
    attn_dropout = register_module("attn_dropout", Dropout(dropout));
    resid_dropout = register_module("resid_dropout", Dropout(dropout));
    qk.register_on(*this, head_size, q_norm, k_norm);
}

torch::ScalarType softmax_type(const torch::Tensor& scores) {
    return scores.scalar_type() == torch::kFloat64 ? torch::kFloat64 : torch::kFloat32;
}

namespace {
/// y (B, H, T, D) with each head's output scaled by its gate (head ablation); y itself without gates.
torch::Tensor gate_heads(const torch::Tensor& y, const AttentionContext& ctx) {
    if (!ctx.head_gate.defined())
        return y;
    return y * ctx.head_gate.to(y.scalar_type()).view({1, -1, 1, 1});
}
/// This call's keys and values (B, H, T, D) written into the cache, and the keys and values to attend
/// over: the cache's filled prefix, which grows by T; or, for a fixed-shape step (ctx.cache_position),
/// the whole cache, the position on the device and the mask hiding what follows it.
std::pair<torch::Tensor, torch::Tensor> through_cache(LayerCache& c, const AttentionContext& ctx,
                                                      const torch::Tensor& k, const torch::Tensor& v) {
    const int64_t B = k.size(0), H = k.size(1), T = k.size(2), D = k.size(3);
    if (ctx.cache_position.defined()) {
        TORCH_CHECK(c.k.defined() && T == 1, "a fixed-shape step needs its cache allocated and one token");
        c.k.index_copy_(2, ctx.cache_position, k);
        c.v.index_copy_(2, ctx.cache_position, v);
        return {c.k, c.v};
    }
    if (!c.k.defined() || c.k.size(0) != B) {
        const int64_t cap = std::max<int64_t>(ctx.cache_capacity, T);
        c.k = torch::empty({B, H, cap, D}, k.options());
        c.v = torch::empty({B, H, cap, D}, v.options());
        c.len = 0;
    }
    TORCH_CHECK(c.len + T <= c.k.size(2), "KV cache overflow: ", c.len + T, " > ", c.k.size(2));
    c.k.narrow(2, c.len, T).copy_(k);
    c.v.narrow(2, c.len, T).copy_(v);
    c.len += T;
    return {c.k.narrow(2, 0, c.len), c.v.narrow(2, 0, c.len)};
}
}  // namespace

std::array<torch::Tensor, 3> CausalSelfAttentionImpl::heads(const torch::Tensor& x, const AttentionContext& ctx) {
    const int64_t B = x.size(0), T = x.size(1);
    const auto qkv5 = linear(c_attn, x).view({B, T, 3, n_head, head_size});
    auto qkv = qkv5.permute({2, 0, 3, 1, 4});  // (3, B, H, T, D)
    // unbind, not three selects: its backward stacks the three gradients once, where each select's
    // would zero a tensor of all three and the three would then be added up. Without rotary positions
    // the heads are unbound from (B, T, 3, H, D) and then transposed, the same views: the backward's stack
    // then lays the gradients out as the linear layer's output is, where stacking them as (3, B, H, T, D)
    // left a permuted tensor that the linear layer's backward copied (6% of a GPU step).
    const auto parts = ctx.rope_cos.defined() ? qkv.unbind(0) : qkv5.unbind(2);
    const auto head = [&](int i) { return ctx.rope_cos.defined() ? parts[i] : parts[i].transpose(1, 2); };
    auto q = head(0), k = head(1), v = head(2);
    if (q_norm) {  // qk_norm: each head's queries and keys normalised (the norm computes in float32)
        q = q_norm(q).to(v.scalar_type());
        k = k_norm(k).to(v.scalar_type());
        if (ctx.rope_cos.defined()) {
            q = apply_rotary(q, ctx.rope_cos, ctx.rope_sin);
            k = apply_rotary(k, ctx.rope_cos, ctx.rope_sin);
        }
    } else if (ctx.rope_cos.defined()) {  // queries and keys rotated in one pass: (2, B, H, T, D)
        auto qk = apply_rotary(qkv.narrow(0, 0, 2), ctx.rope_cos, ctx.rope_sin);
        q = qk[0];
        k = qk[1];
    }
    return {q, k, v};
}

torch::Tensor CausalSelfAttentionImpl::forward(const torch::Tensor& x, const AttentionContext& ctx) {
    const int64_t B = x.size(0), T = x.size(1), H = n_head, D = head_size, A = H * D;
    auto [q, k, v] = heads(x, ctx);
    const bool fixed = ctx.cache_position.defined();
    if (ctx.cache)
        std::tie(k, v) = through_cache(*ctx.cache, ctx, k, v);
    const int64_t S = k.size(2);
#if TWB_HAVE_SDPA
    if (!ctx.weights_out && sdpa_serves(q) && !draws_from_lane(attn_dropout)) {
        // ctx.mask is the causal mask of query positions [S-T, S): with no cached prefix (S == T) it is
        // is_causal (which lets CUDA pick the flash kernel); one new token sees every key; a chunk after a
        // cached prefix needs the mask itself (SDPA's is_causal aligns to the top left).
        torch::Tensor mask;
        bool causal = false;
        if (ctx.key_padding.defined())
            mask = (ctx.mask + ctx.key_padding).to(q.scalar_type());
        else if (S == T)
            causal = T > 1;
        else if (T > 1 || fixed)
            mask = ctx.mask.to(q.scalar_type());
        const double p = is_training() ? attn_dropout->p : 0.0;
        // An undefined tensor would count as a mask given: pass none.
        const c10::optional<at::Tensor> m = mask.defined() ? c10::optional<at::Tensor>(mask) : c10::nullopt;
        auto y = gate_heads(at::scaled_dot_product_attention(q, k, v, m, p, causal), ctx);  // (B, H, T, D)
        return resid_dropout(linear(c_proj, y.transpose(1, 2).reshape({B, T, A})));
    }
#endif
    const double scale = 1.0 / std::sqrt(static_cast<double>(D));
    auto q3 = q.reshape({B * H, T, D});
    auto kt = k.reshape({B * H, S, D}).transpose(1, 2);  // (BH, D, S)
    torch::Tensor att;
    if (T == 1 && !torch::GradMode::is_enabled() && !ctx.key_padding.defined() && !ctx.weights_out) {
        // Decoding one token: a gemm per head would cost more in packing and thread wake-ups than the
        // maths; multiply-and-reduce does it in a few vectorised passes. The causal mask allows every key.
        auto k3 = k.reshape({B * H, S, D}), v3 = v.reshape({B * H, S, D});
        auto scores = (k3 * q.reshape({B * H, 1, D})).sum(-1).mul_(scale);  // (BH, S)
        if (fixed)
            scores = scores + ctx.mask;  // (1, S): the positions after this one hidden
        auto w = torch::softmax(scores, -1, softmax_type(scores)).to(v.scalar_type());
        auto y1 = gate_heads((w.unsqueeze(-1) * v3).sum(1).view({B, H, 1, D}), ctx);
        return resid_dropout(linear(c_proj, y1.transpose(1, 2).reshape({B, 1, A})));
    }
    if (ctx.causal && !ctx.key_padding.defined() && S == T && q3.device().is_cpu() &&
        q3.scalar_type() == torch::kBFloat16 && fused_cpu_enabled()) {
        // No cached prefix: the mask is the plain causal one, which the fused softmax applies itself.
        att = causal_softmax(torch::bmm(q3, kt), scale);
    } else {
        if (ctx.key_padding.defined()) {
            att = torch::matmul(q3, kt).view({B, H, T, S}) * scale + ctx.mask + ctx.key_padding;
            att = att.view({B * H, T, S});
        } else {
            // One fused call: mask + scale * q @ k^T. The mask (T, S) broadcasts over B*H.
            att = torch::baddbmm(ctx.mask.to(q3.scalar_type()).expand({B * H, T, S}), q3, kt, 1.0, scale);
        }
        att = torch::softmax(att, -1, softmax_type(att)).to(v.scalar_type());
    }
    if (ctx.weights_out)
        *ctx.weights_out = att.view({B, H, T, S}).detach();
    att = attn_dropout(att);
    auto y = gate_heads(torch::bmm(att, v.reshape({B * H, S, D})).view({B, H, T, D}), ctx);
    y = y.transpose(1, 2).reshape({B, T, A});  // (B, T, A)
    return resid_dropout(linear(c_proj, y));
}

}  // namespace twb::nn
