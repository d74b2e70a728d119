// Learning-rate schedules: pure functions of the config and the step (the trainer's, and the training
// form's notes on a schedule that ends early or late).
#pragma once
#include "twb/config.h"

#include <cstdint>

namespace twb {

/// constant: learning_rate. cosine (nanoGPT): linear warmup to learning_rate over warmup_iters, cosine
/// decay to min_lr at lr_decay_iters, min_lr after. inverse_sqrt (Vaswani et al. 2017): d^-0.5 *
/// min(s^-0.5, s * w^-1.5), scaled so that its peak at s = warmup_iters equals learning_rate.
double learning_rate_at(const RunConfig& c, int64_t step);

}  // namespace twb
