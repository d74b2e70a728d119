// CUDA kernels for bfloat16 training (fused_cuda_kernels.cu), behind a plain C++ interface so that nvcc
// compiles them without libtorch: the LayerNorm before a linear layer, float32 in and bf16 out, forward
// and backward. libtorch's layer norm wrote a float32 result that the linear layer converted, and its
// backward summed the weight's gradient over the rows in a kernel that took 75 us of a 7.8 ms step on an
// H200, thirteen times a step (bench/gpu_check.sh's trace). Each launcher queues its kernels on `stream`
// (a cudaStream_t). bf16 values travel as their 16 bits.
#pragma once
#include <cstdint>

namespace twb::nn::cuda_kernels {

/// The widest row the layer norm kernels take (a row's values live in one warp's registers).
constexpr int kMaxLayerNormWidth = 1024;

/// y = (x - mean) * rstd * w (+ b) rounded to bf16, per row of C values; mean and rstd per row kept for
/// the backward. b may be null.
void layer_norm_bf16_forward(const float* x, const float* w, const float* b, uint16_t* y, float* mean, float* rstd,
                             int64_t rows, int C, float eps, void* stream);

/// How many floats of scratch layer_norm_bf16_backward needs for `rows` rows of C values.
int64_t layer_norm_backward_scratch(int64_t rows, int C);

/// dx = rstd (g - mean(g) - xhat mean(g xhat)) with g = dy w, per row; dw = sum over rows of dy xhat and
/// db (when not null) = sum of dy, summed in a fixed order (the same result every run). scratch holds
/// layer_norm_backward_scratch(rows, C) floats.
void layer_norm_bf16_backward(const uint16_t* dy, const float* x, const float* w, const float* mean, const float* rstd,
                              float* dx, float* dw, float* db, float* scratch, int64_t rows, int C, void* stream);

}  // namespace twb::nn::cuda_kernels
