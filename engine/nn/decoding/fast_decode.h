// The CPU decoder (core/decoding/cpu_decoder.h: bf16 weights, AVX2+FMA gemv, one token's step in plain
// C++) fed from a loaded libtorch model: its weights converted once per model.
#pragma once
#include "core/decoding/cpu_decoder.h"
#include "nn/models/model.h"

#include <memory>

namespace twb::nn {

/// A (rows, cols) weight of any float dtype and an optional (rows) bias as the decoder's bf16 matrix.
Bf16Matrix bf16_matrix(const torch::Tensor& weight, const torch::Tensor& bias = {});

/// Converts a CPU model's weights; avx2 picks the kernels (false = the portable loops).
std::shared_ptr<const FastWeights> make_fast_weights(const GPT& model, bool avx2);

}  // namespace twb::nn
