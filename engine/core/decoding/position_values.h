// The fixed position tables of both model families as plain numbers, computed in double and rounded to
// float once: the sinusoids of Vaswani et al. and the rotary angles' cosines and sines. libtorch's side
// makes its buffers from these (nn/models/position_tables.h), so the CPU decoder without libtorch adds
// the very same values.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace twb {

/// (positions, dim) row-major: PE[p, 2i] = sin(p / 10000^(2i/dim)), PE[p, 2i+1] = cos(...); with halves
/// (fairseq, Marian) PE[p, i] = sin(...) and PE[p, ceil(dim/2) + i] = cos(...) for the same frequencies.
std::vector<float> sinusoid_values(int64_t positions, int64_t dim, bool halves);

/// Rotary (GPT-NeoX) tables, each (positions, head_dim/2) row-major: cos and sin of p * 10000^(-2i/head_dim).
std::pair<std::vector<float>, std::vector<float>> rotary_values(int64_t positions, int64_t head_dim);

}  // namespace twb
