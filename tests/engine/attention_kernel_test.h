// Shared by tst_attention_kernels and tst_attention_sdpa: one attention layer, its definition written
// out with einsum (sharing no code with either kernel), and a forward pass through a chosen kernel.
#pragma once
#include "nn/models/attention.h"
#include "test_util.h"

#include <cmath>
#include <limits>

using namespace twb;
using namespace twb::nn;

namespace attention_test {

constexpr int64_t kB = 2, kT = 7, kH = 3, kD = 8, kC = 16;

/// The additive causal mask of query positions [S - T, S) over keys [0, S).
inline torch::Tensor causal_mask(int64_t T, int64_t S) {
    return torch::full({S, S}, -std::numeric_limits<float>::infinity()).triu(1).narrow(0, S - T, T);
}

/// softmax(q k^T / sqrt(D) + mask) v, head by head, from the layer's own weights: the definition.
inline torch::Tensor reference(CausalSelfAttention& m, const torch::Tensor& x, const torch::Tensor& pad = {}) {
    const int64_t B = x.size(0), T = x.size(1);
    auto qkv = torch::matmul(x, m->c_attn->weight.t()) + m->c_attn->bias;  // (B, T, 3HD)
    auto split = qkv.view({B, T, 3, kH, kD});
    // Written with einsum so it shares no code with either kernel.
    auto q = split.select(2, 0), k = split.select(2, 1), v = split.select(2, 2);  // (B, T, H, D)
    auto s = torch::einsum("bthd,bshd->bhts", {q, k}) / std::sqrt(static_cast<double>(kD)) + causal_mask(T, T);
    if (pad.defined())
        s = s + pad;
    auto w = torch::softmax(s, -1);
    auto out = torch::einsum("bhts,bshd->bthd", {w, v}).reshape({B, T, kH * kD});
    return torch::matmul(out, m->c_proj->weight.t()) + m->c_proj->bias;
}

inline CausalSelfAttention layer() {
    torch::manual_seed(5);
    CausalSelfAttention m(kC, kH, kD, 0.0, true);
    m->eval();
    return m;
}

/// A forward pass through one of the two kernels: asking for the weights selects the explicit one.
inline torch::Tensor run(CausalSelfAttention& m, const torch::Tensor& x, bool explicit_path,
                         LayerCache* cache = nullptr, int64_t prefix = 0, const torch::Tensor& pad = {}) {
    const int64_t T = x.size(1), S = prefix + T;
    AttentionContext ctx;
    ctx.mask = causal_mask(T, S);
    ctx.cache = cache;
    ctx.cache_capacity = 16;
    ctx.key_padding = pad;
    torch::Tensor w;
    if (explicit_path)
        ctx.weights_out = &w;
    return m->forward(x, ctx);
}

inline void close(const torch::Tensor& a, const torch::Tensor& b, double tol = 1e-5) {
    QCOMPARE(a.sizes().vec(), b.sizes().vec());
    const double d = (a - b).abs().max().item<double>();
    QVERIFY2(d < tol, qPrintable(QString("max difference %1 >= %2").arg(d).arg(tol)));
}

}  // namespace attention_test
