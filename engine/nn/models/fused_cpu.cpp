// The fused kernels' switch, and GELU (fused_cpu.h).
#include "nn/models/fused_cpu.h"

#include "nn/models/simd16.h"

#include <ATen/Parallel.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace twb::nn {

namespace {
bool on_from_env() {
    const char* e = std::getenv("TWB_FUSED_CPU");
    return !(e && std::strcmp(e, "0") == 0);
}
std::atomic<bool> g_on{on_from_env()};

using simd16::load;
using simd16::store;
using BF16 = c10::BFloat16;

/// Phi(x) = (1 + erf(x / sqrt 2)) / 2 by Abramowitz and Stegun's 7.1.25 (erf to 2.5e-5, with a 2^-14
/// reciprocal: far inside bf16's rounding of 2^-9) on |x|, which also gives e^(-x^2/2): GELU x Phi(x)
/// and its derivative Phi(x) + x phi(x) from one exp.
TWB_SIMD16 void gelu16(__m512 x, __m512& y, __m512& d) {
    const __m512 one = _mm512_set1_ps(1.0f);
    const __m512 z = _mm512_mul_ps(_mm512_abs_ps(x), _mm512_set1_ps(0.70710678118654752f));
    const __m512 t = _mm512_rcp14_ps(_mm512_fmadd_ps(_mm512_set1_ps(0.47047f), z, one));
    __m512 poly = _mm512_set1_ps(0.7478556f);
    poly = _mm512_fmadd_ps(poly, t, _mm512_set1_ps(-0.0958798f));
    poly = _mm512_fmadd_ps(poly, t, _mm512_set1_ps(0.3480242f));
    poly = _mm512_mul_ps(poly, t);
    const __m512 e = simd16::exp(_mm512_mul_ps(_mm512_mul_ps(x, x), _mm512_set1_ps(-0.5f)));
    const __m512 tail = _mm512_mul_ps(_mm512_mul_ps(poly, e), _mm512_set1_ps(0.5f));  // erfc(z) / 2
    const __mmask16 nonneg = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GE_OQ);
    const __m512 Phi = _mm512_mask_sub_ps(tail, nonneg, one, tail);
    y = _mm512_mul_ps(x, Phi);
    d = _mm512_fmadd_ps(_mm512_mul_ps(x, e), _mm512_set1_ps(0.39894228040143268f), Phi);
}

/// y = GELU(x) and, where d is given, d = GELU'(x), for n elements.
TWB_SIMD16 void gelu_forward(const BF16* x, BF16* y, BF16* d, int64_t n) {
    __m512 vy, vd;
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 m = simd16::first(n - i);
        gelu16(load(x + i, m), vy, vd);
        store(y + i, vy, m);
        if (d)
            store(d + i, vd, m);
    }
}

/// gx = gy * d for n elements.
TWB_SIMD16 void gelu_backward(const BF16* gy, const BF16* d, BF16* gx, int64_t n) {
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 m = simd16::first(n - i);
        store(gx + i, _mm512_mul_ps(load(gy + i, m), load(d + i, m)), m);
    }
}

constexpr int64_t kGrain = 32768;  // elements a thread takes at least

void run_forward(const torch::Tensor& x, torch::Tensor& y, torch::Tensor* d) {
    const BF16* px = x.data_ptr<BF16>();
    BF16* py = y.data_ptr<BF16>();
    BF16* pd = d ? d->data_ptr<BF16>() : nullptr;
    at::parallel_for(0, x.numel(), kGrain,
                     [&](int64_t b, int64_t e) { gelu_forward(px + b, py + b, pd ? pd + b : nullptr, e - b); });
}

struct GeluFunction : torch::autograd::Function<GeluFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x) {
        auto y = torch::empty(x.sizes(), x.options());
        auto d = torch::empty(x.sizes(), x.options());
        run_forward(x, y, &d);
        ctx->save_for_backward({d});
        return y;
    }
    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grads) {
        const auto d = ctx->get_saved_variables()[0];
        const auto gy = grads[0].to(d.scalar_type()).contiguous();
        auto gx = torch::empty(d.sizes(), d.options());
        const BF16 *pg = gy.data_ptr<BF16>(), *pd = d.data_ptr<BF16>();
        BF16* px = gx.data_ptr<BF16>();
        at::parallel_for(0, d.numel(), kGrain,
                         [&](int64_t b, int64_t e) { gelu_backward(pg + b, pd + b, px + b, e - b); });
        return {gx};
    }
};
}  // namespace

bool fused_cpu_supported() {
    return simd16::cpu_has_avx512_bf16();
}

bool fused_cpu_enabled() {
    return fused_cpu_supported() && g_on.load();
}

void set_fused_cpu(bool on) {
    g_on.store(on);
}

bool fused_gelu_serves(const torch::Tensor& x) {
    return x.device().is_cpu() && x.scalar_type() == torch::kBFloat16 && x.is_contiguous() && fused_cpu_enabled();
}

torch::Tensor fused_gelu(const torch::Tensor& x) {
    if (x.requires_grad() && torch::GradMode::is_enabled())
        return GeluFunction::apply(x);
    auto y = torch::empty(x.sizes(), x.options());
    run_forward(x, y, nullptr);
    return y;
}

}  // namespace twb::nn
