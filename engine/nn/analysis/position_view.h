// The Attention panel's Positions tab: a model's position scheme as a table of positions x dimensions
// (rotary: cos(position * theta_i) and the frequencies; sinusoidal: the table the model adds; learned:
// the trained rows), the same for both model families.
#pragma once
#include "twb/config.h"
#include "twb/session.h"

#include <torch/torch.h>

namespace twb::nn {

/// The first min(max_rows, block_size) positions of c's scheme; learned_wpe is the position embedding
/// table when c.position is learned (a translation model: its decoder's).
PositionTable viewer_position_table(const RunConfig& c, const torch::Tensor& learned_wpe, int64_t max_rows);

}  // namespace twb::nn
