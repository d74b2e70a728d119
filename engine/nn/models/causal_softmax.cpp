// The causal attention softmax as one op on the CPU (fused_cpu.h): one row of scores at a time, only its
// first i + 1 columns read, the rest written as 0.
#include "nn/models/fused_cpu.h"
#include "nn/models/simd16.h"

#include <ATen/Parallel.h>

#include <cstring>
#include <limits>
#include <vector>

namespace twb::nn {

namespace {
using simd16::load;
using simd16::store;
using T = c10::BFloat16;

/// y[0..n) = softmax(scale * s[0..n)), y[n..S) = 0. buf holds at least n rounded up to 16 floats; the
/// lanes past n go through the sums as -inf, whose exp is 0.
TWB_SIMD16 void softmax_row(const T* s, T* y, int64_t n, int64_t S, float scale, float* buf) {
    const __m512 vs = _mm512_set1_ps(scale), ninf = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
    __m512 m = ninf;
    for (int64_t j = 0; j < n; j += 16) {
        const __mmask16 k = simd16::first(n - j);
        const __m512 v = _mm512_mask_mul_ps(ninf, k, load(s + j, k), vs);
        _mm512_storeu_ps(buf + j, v);
        m = _mm512_max_ps(m, v);
    }
    const __m512 vm = _mm512_set1_ps(simd16::hmax(m));
    __m512 sum = _mm512_setzero_ps();
    for (int64_t j = 0; j < n; j += 16) {
        const __m512 e = simd16::exp(_mm512_sub_ps(_mm512_loadu_ps(buf + j), vm));
        _mm512_storeu_ps(buf + j, e);
        sum = _mm512_add_ps(sum, e);
    }
    const __m512 inv = _mm512_set1_ps(1.0f / simd16::hsum(sum));
    for (int64_t j = 0; j < S; j += 16) {  // the zeros past n with the same stores
        const __mmask16 k = simd16::first(S - j);
        store(y + j, j < n ? _mm512_mul_ps(_mm512_loadu_ps(buf + j), inv) : _mm512_setzero_ps(), k);
    }
}

/// gx[0..n) = scale * y (gy - sum(gy * y)), gx[n..S) = 0.
TWB_SIMD16 void softmax_row_backward(const T* y, const T* gy, T* gx, int64_t n, int64_t S, float scale) {
    __m512 dot = _mm512_setzero_ps();
    for (int64_t j = 0; j < n; j += 16) {
        const __mmask16 k = simd16::first(n - j);
        dot = _mm512_fmadd_ps(load(y + j, k), load(gy + j, k), dot);
    }
    const __m512 vd = _mm512_set1_ps(simd16::hsum(dot)), vs = _mm512_set1_ps(scale);
    for (int64_t j = 0; j < S; j += 16) {
        const __mmask16 k = simd16::first(S - j), kn = j < n ? simd16::first(n - j) : 0;
        const __m512 g = _mm512_mul_ps(_mm512_mul_ps(load(y + j, kn), vs), _mm512_sub_ps(load(gy + j, kn), vd));
        store(gx + j, _mm512_maskz_mov_ps(kn, g), k);
    }
}

constexpr int64_t kRowGrain = 256;  // rows a thread takes at least

torch::Tensor forward_rows(const torch::Tensor& scores, float scale) {
    const int64_t S = scores.size(-1), rows = scores.numel() / S;
    auto y = torch::empty(scores.sizes(), scores.options());
    const T* ps = scores.data_ptr<T>();
    T* py = y.data_ptr<T>();
    at::parallel_for(0, rows, kRowGrain, [&](int64_t b, int64_t e) {
        thread_local std::vector<float> buf;
        buf.resize(static_cast<size_t>(S + 16));
        for (int64_t r = b; r < e; ++r)
            softmax_row(ps + r * S, py + r * S, r % S + 1, S, scale, buf.data());
    });
    return y;
}

struct CausalSoftmaxFunction : torch::autograd::Function<CausalSoftmaxFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& scores, double scale) {
        auto y = forward_rows(scores, static_cast<float>(scale));
        ctx->save_for_backward({y});
        ctx->saved_data["scale"] = scale;
        return y;
    }
    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grads) {
        const auto y = ctx->get_saved_variables()[0];
        const auto scale = static_cast<float>(ctx->saved_data["scale"].toDouble());
        auto gy = grads[0].to(y.scalar_type()).contiguous();
        const int64_t S = y.size(-1), rows = y.numel() / S;
        auto gx = torch::empty(y.sizes(), y.options());
        const T *py = y.data_ptr<T>(), *pg = gy.data_ptr<T>();
        T* px = gx.data_ptr<T>();
        at::parallel_for(0, rows, kRowGrain, [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r)
                softmax_row_backward(py + r * S, pg + r * S, px + r * S, r % S + 1, S, scale);
        });
        return {gx, torch::Tensor()};
    }
};
}  // namespace

bool causal_softmax_serves(const torch::Tensor& scores) {
    return scores.device().is_cpu() && scores.scalar_type() == torch::kBFloat16 && scores.dim() == 3 &&
           scores.size(1) == scores.size(2) && scores.is_contiguous() && fused_cpu_enabled();
}

torch::Tensor causal_softmax(const torch::Tensor& scores, double scale) {
    TORCH_CHECK(scale > 0, "causal_softmax: the scale must be positive");
    if (scores.requires_grad() && torch::GradMode::is_enabled())
        return CausalSoftmaxFunction::apply(scores, scale);
    return forward_rows(scores, static_cast<float>(scale));
}

}  // namespace twb::nn
