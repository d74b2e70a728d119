// Fused CUDA kernels for bfloat16 training (fused_cuda_kernels.h): the LayerNorm before a linear layer,
// float32 in and bf16 out, as one op forward and one backward, where libtorch's norm, its cast and its
// slow sum of the weight's gradient took 22% of a GPU step. They serve a CUDA build that has twb's
// kernels (nvcc at build time), under bf16 autocast on a GPU; libtorch's ops serve everywhere else.
// TWB_FUSED_CUDA=0 in the environment, or set_fused_cuda(false), turns them off (benchmarks compare).
#pragma once
#include <torch/torch.h>

namespace twb::nn {

/// Whether this build has the kernels and nobody turned them off.
bool fused_cuda_enabled();
void set_fused_cuda(bool on);

/// Whether cuda_layer_norm_to_bf16 serves x: contiguous float32 on a GPU, rows of at most 1024 values,
/// under CUDA's bf16 autocast (where the linear layer after the norm would convert its output), the
/// kernels on.
bool cuda_layer_norm_to_bf16_serves(const torch::Tensor& x);
/// LayerNorm over the last dimension (float32 sums), the result rounded to bf16. bias may be undefined.
/// Differentiable in x, weight and bias (float32 gradients, summed in a fixed order).
torch::Tensor cuda_layer_norm_to_bf16(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                      double eps);

}  // namespace twb::nn
