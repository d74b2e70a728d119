// Sixteen floats at a time with AVX-512, for the fused CPU training kernels (fused_cpu.h): loads and
// stores of float32 and bfloat16 (the CPU's own conversion, rounding to nearest even as c10::BFloat16
// does), masked for a row's tail, and exp. Every function is compiled for AVX-512 F, BW, VL and BF16
// whatever the build's flags: callers check cpu_has_avx512_bf16() first and carry the same target
// attribute, TWB_SIMD16. (Eight-wide AVX2 code with a software bf16 rounding took 1.5x as long.)
#pragma once
#include <c10/util/BFloat16.h>
#include <immintrin.h>

#include <cstdint>

#define TWB_SIMD16 __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512bf16"))) inline

namespace twb::nn::simd16 {

/// Whether this CPU runs the kernels below.
inline bool cpu_has_avx512_bf16() {
    static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bf16");
    return yes;
}

/// The lanes below n (n may be 16 or more: all of them).
TWB_SIMD16 __mmask16 first(int64_t n) {
    return n >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << n) - 1);
}

TWB_SIMD16 __m512 load(const float* p, __mmask16 m = 0xffff) {
    return _mm512_maskz_loadu_ps(m, p);
}

TWB_SIMD16 __m512 load(const c10::BFloat16* p, __mmask16 m = 0xffff) {
    // The maskz forms: GCC 12 warns that the plain ones' undefined pass-through "may be used uninitialized".
    const __m256i h = _mm256_maskz_loadu_epi16(m, p);
    const __mmask16 all = 0xffff;
    return _mm512_castsi512_ps(_mm512_maskz_slli_epi32(all, _mm512_maskz_cvtepu16_epi32(all, h), 16));
}

TWB_SIMD16 void store(float* p, __m512 v, __mmask16 m = 0xffff) {
    _mm512_mask_storeu_ps(p, m, v);
}

TWB_SIMD16 void store(c10::BFloat16* p, __m512 v, __mmask16 m = 0xffff) {
    _mm256_mask_storeu_epi16(p, m, reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(v)));
}

/// e^x to about 2 ulp; 0 below -87.3 (where float's e^x leaves the normal range) and for -inf; NaN for
/// NaN (a diverged step must show).
TWB_SIMD16 __m512 exp(__m512 x0) {
    const __m512 lo = _mm512_set1_ps(-87.3f), hi = _mm512_set1_ps(88.0f);
    const __mmask16 normal = _mm512_cmp_ps_mask(x0, lo, _CMP_GE_OQ), nan = _mm512_cmp_ps_mask(x0, x0, _CMP_UNORD_Q);
    const __m512 x = _mm512_min_ps(_mm512_max_ps(x0, lo), hi);
    // x = n ln2 + r, |r| <= ln2 / 2, ln2 split in two so that n ln2 is exact enough.
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    // e^r by its Taylor series to r^6 (Horner), then times 2^n.
    __m512 p = _mm512_set1_ps(1.0f / 720);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    return _mm512_mask_mov_ps(_mm512_maskz_scalef_ps(normal, p, n), nan, x0);
}

/// The upper eight lanes (the maskz form, as above).
TWB_SIMD16 __m256 upper(__m512 v) {
    return _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xff, _mm512_castps_pd(v), 1));
}

TWB_SIMD16 float hsum(__m512 v) {
    const __m256 a = _mm256_add_ps(_mm512_castps512_ps256(v), upper(v));
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

TWB_SIMD16 float hmax(__m512 v) {
    const __m256 a = _mm256_max_ps(_mm512_castps512_ps256(v), upper(v));
    __m128 s = _mm_max_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    s = _mm_max_ps(s, _mm_movehl_ps(s, s));
    s = _mm_max_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

}  // namespace twb::nn::simd16
