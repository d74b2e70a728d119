// LayerNorm from float32 to bf16 as one op on the CPU (fused_cpu.h): a row at a time, in the row's order
// (the gradients of the weight and bias summed over the rows in order, on one thread).
#include "nn/models/fused_cpu.h"
#include "nn/models/layer_norm_to_bf16.h"
#include "nn/models/simd16.h"

#include <ATen/autocast_mode.h>

#include <cmath>
#include <vector>

namespace twb::nn {

namespace {
using simd16::load;
using simd16::store;

bool cpu_autocast_bf16() {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    return at::autocast::is_autocast_enabled(at::kCPU) && at::autocast::get_autocast_dtype(at::kCPU) == at::kBFloat16;
#else
    return at::autocast::is_cpu_enabled() && at::autocast::get_autocast_cpu_dtype() == at::kBFloat16;
#endif
}

struct Rows {
    int64_t rows, C;
};

/// y = (x - mean) * rstd * w + b row by row; mean and rstd kept for the backward.
TWB_SIMD16 void forward_rows(const float* x, const float* w, const float* b, c10::BFloat16* y, float* mean, float* rstd,
                             Rows s, float eps) {
    const float invC = 1.0f / static_cast<float>(s.C);
    for (int64_t r = 0; r < s.rows; ++r) {
        const float* xr = x + r * s.C;
        __m512 acc = _mm512_setzero_ps();
        for (int64_t j = 0; j < s.C; j += 16)
            acc = _mm512_add_ps(acc, load(xr + j, simd16::first(s.C - j)));
        const float mu = simd16::hsum(acc) * invC;
        const __m512 vmu = _mm512_set1_ps(mu);
        acc = _mm512_setzero_ps();
        for (int64_t j = 0; j < s.C; j += 16) {
            const __mmask16 k = simd16::first(s.C - j);
            const __m512 d = _mm512_maskz_sub_ps(k, load(xr + j, k), vmu);
            acc = _mm512_fmadd_ps(d, d, acc);
        }
        const float rs = 1.0f / std::sqrt(simd16::hsum(acc) * invC + eps);
        mean[r] = mu;
        rstd[r] = rs;
        const __m512 vrs = _mm512_set1_ps(rs);
        c10::BFloat16* yr = y + r * s.C;
        for (int64_t j = 0; j < s.C; j += 16) {
            const __mmask16 k = simd16::first(s.C - j);
            const __m512 h = _mm512_mul_ps(_mm512_sub_ps(load(xr + j, k), vmu), vrs);
            store(yr + j, b ? _mm512_fmadd_ps(h, load(w + j, k), load(b + j, k)) : _mm512_mul_ps(h, load(w + j, k)), k);
        }
    }
}

/// dx = rstd (g - mean(g) - xhat mean(g xhat)) with g = dy w; dw += dy xhat, db += dy (db may be null).
TWB_SIMD16 void backward_rows(const float* x, const float* w, const c10::BFloat16* dy, const float* mean,
                              const float* rstd, float* dx, float* dw, float* db, Rows s) {
    const float invC = 1.0f / static_cast<float>(s.C);
    for (int64_t r = 0; r < s.rows; ++r) {
        const float* xr = x + r * s.C;
        const c10::BFloat16* gr = dy + r * s.C;
        const __m512 vmu = _mm512_set1_ps(mean[r]), vrs = _mm512_set1_ps(rstd[r]);
        __m512 sg = _mm512_setzero_ps(), sgx = _mm512_setzero_ps();
        for (int64_t j = 0; j < s.C; j += 16) {
            const __mmask16 k = simd16::first(s.C - j);
            const __m512 h = _mm512_maskz_mul_ps(k, _mm512_sub_ps(load(xr + j, k), vmu), vrs);
            const __m512 d = load(gr + j, k);
            const __m512 g = _mm512_mul_ps(d, load(w + j, k));
            sg = _mm512_add_ps(sg, g);
            sgx = _mm512_fmadd_ps(g, h, sgx);
            store(dw + j, _mm512_fmadd_ps(d, h, load(dw + j, k)), k);
            if (db)
                store(db + j, _mm512_add_ps(d, load(db + j, k)), k);
        }
        const __m512 mg = _mm512_set1_ps(simd16::hsum(sg) * invC), mgx = _mm512_set1_ps(simd16::hsum(sgx) * invC);
        float* dr = dx + r * s.C;
        for (int64_t j = 0; j < s.C; j += 16) {
            const __mmask16 k = simd16::first(s.C - j);
            const __m512 h = _mm512_mul_ps(_mm512_sub_ps(load(xr + j, k), vmu), vrs);
            const __m512 g = _mm512_mul_ps(load(gr + j, k), load(w + j, k));
            store(dr + j, _mm512_mul_ps(vrs, _mm512_sub_ps(_mm512_sub_ps(g, mg), _mm512_mul_ps(h, mgx))), k);
        }
    }
}

/// The rows on the CPU for LayerNormToBf16.
struct CpuRows {
    static void forward(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, torch::Tensor& y,
                        torch::Tensor& stats, double eps) {
        const int64_t C = x.size(-1);
        forward_rows(x.data_ptr<float>(), w.data_ptr<float>(), b.defined() ? b.data_ptr<float>() : nullptr,
                     y.data_ptr<c10::BFloat16>(), stats[0].data_ptr<float>(), stats[1].data_ptr<float>(),
                     Rows{x.numel() / C, C}, static_cast<float>(eps));
    }
    static void backward(const torch::Tensor& dy, const torch::Tensor& x, const torch::Tensor& w,
                         const torch::Tensor& stats, torch::Tensor& dx, torch::Tensor& dw, torch::Tensor& db) {
        const int64_t C = x.size(-1);
        dw.zero_();  // backward_rows adds each row's share
        if (db.defined())
            db.zero_();
        backward_rows(x.data_ptr<float>(), w.data_ptr<float>(), dy.data_ptr<c10::BFloat16>(),
                      stats[0].data_ptr<float>(), stats[1].data_ptr<float>(), dx.data_ptr<float>(),
                      dw.data_ptr<float>(), db.defined() ? db.data_ptr<float>() : nullptr, Rows{x.numel() / C, C});
    }
};
}  // namespace

bool layer_norm_to_bf16_serves(const torch::Tensor& x) {
    return x.device().is_cpu() && x.scalar_type() == torch::kFloat32 && x.dim() >= 1 && x.size(-1) > 0 &&
           x.is_contiguous() && cpu_autocast_bf16() && fused_cpu_enabled();
}

torch::Tensor layer_norm_to_bf16(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                 double eps) {
    return LayerNormToBf16<CpuRows>::run(x, weight, bias, eps);
}

}  // namespace twb::nn
