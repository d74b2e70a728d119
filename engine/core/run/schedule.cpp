// Learning-rate schedules.
#include "twb/schedule.h"

#include <algorithm>
#include <cmath>

namespace twb {

double learning_rate_at(const RunConfig& c, int64_t it) {
    if (c.schedule == Schedule::Constant)
        return c.learning_rate;
    if (c.schedule == Schedule::InverseSqrt) {
        const double s = static_cast<double>(it + 1), w = std::max(1, c.warmup_iters);
        // Peak-normalised Vaswani schedule: rises linearly to 1 at s = w, then falls as sqrt(w / s).
        return c.learning_rate * std::min(s / w, std::sqrt(w / s));
    }
    if (c.schedule == Schedule::Noam) {
        // Vaswani et al. (eq. 3), step numbers from 1: d^-0.5 * min(s^-0.5, s * warmup^-1.5), scaled.
        const double s = static_cast<double>(it + 1), w = std::max(1, c.warmup_iters);
        return c.learning_rate * std::pow(static_cast<double>(c.n_embd), -0.5) *
               std::min(std::pow(s, -0.5), s * std::pow(w, -1.5));
    }
    // cosine with warmup, as nanoGPT's get_lr
    if (it < c.warmup_iters)
        return c.learning_rate * static_cast<double>(it + 1) / (c.warmup_iters + 1);
    if (it > c.lr_decay_iters)
        return c.min_lr;
    const double ratio = static_cast<double>(it - c.warmup_iters) / (c.lr_decay_iters - c.warmup_iters);
    const double coeff = 0.5 * (1.0 + std::cos(M_PI * ratio));
    return c.min_lr + coeff * (c.learning_rate - c.min_lr);
}

}  // namespace twb
