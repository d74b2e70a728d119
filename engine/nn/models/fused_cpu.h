// Fused CPU kernels for bfloat16 training, each one pass over its tensor in place of libtorch's chain of
// ops and casts:
// - exact GELU, forward and backward. libtorch 1.13 runs a bf16 GELU forward in oneDNN and its backward
//   in ATen, each converting to float and calling an erf or exp exact to the last float bit. Here the
//   forward also keeps the derivative, so that the backward is one multiplication;
// - the causal attention softmax: scale, mask, softmax and back. libtorch's ran in float32 on a
//   converted copy of the scores, written over a copy of the mask, and its output was converted back.
//   Here only the lower triangle is read;
// - the LayerNorm before a linear layer, float32 in and bf16 out: libtorch's wrote a float32 result that
//   the linear layer converted to bf16, and the backward converted the gradient back.
// The sums are float32 and each result is rounded to bf16 once. AVX-512 code (simd16.h).
//
// They serve bfloat16 on a CPU with AVX-512 BF16, where dtype=auto trains in bf16. Elsewhere, and for
// float32 and float64, libtorch's kernels serve; tests compare those against float64 definitions.
// TWB_FUSED_CPU=0 in the environment, or set_fused_cpu(false), turns them off (benchmarks compare).
#pragma once
#include <torch/torch.h>

namespace twb::nn {

/// Whether this CPU can run the fused kernels (AVX-512 F, BW, VL and BF16).
bool fused_cpu_supported();
/// Whether the fused kernels are on (the CPU has AVX-512 BF16, and nobody turned them off).
bool fused_cpu_enabled();
void set_fused_cpu(bool on);

/// Whether fused_gelu serves x: a contiguous bf16 tensor on the CPU, the kernels on.
bool fused_gelu_serves(const torch::Tensor& x);
/// x * Phi(x), exact GELU (erf to 2.5e-5, inside bf16's rounding); differentiable. The forward keeps
/// GELU's derivative at x (bf16) for the backward.
torch::Tensor fused_gelu(const torch::Tensor& x);

/// Whether causal_softmax serves scores: bf16 (N, T, T) on the CPU, the kernels on.
bool causal_softmax_serves(const torch::Tensor& scores);
/// softmax(scale * scores + causal mask) over the last dimension of (N, T, T) scores: row i keeps
/// columns 0..i, the rest are exactly 0. Differentiable; the backward uses the bf16 output.
torch::Tensor causal_softmax(const torch::Tensor& scores, double scale);

/// Whether layer_norm_to_bf16 serves x: contiguous float32 on the CPU under the CPU's bf16 autocast
/// (where the linear layer after the norm would convert the norm's output to bf16), the kernels on.
bool layer_norm_to_bf16_serves(const torch::Tensor& x);
/// LayerNorm over the last dimension (float32 sums), the result rounded to bf16. bias may be undefined.
/// Differentiable in x, weight and bias (float32 gradients).
torch::Tensor layer_norm_to_bf16(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                 double eps);

}  // namespace twb::nn
