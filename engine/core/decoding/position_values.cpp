// The fixed position tables as plain numbers (position_values.h).
#include "core/decoding/position_values.h"

#include <cmath>

namespace twb {

std::vector<float> sinusoid_values(int64_t positions, int64_t dim, bool halves) {
    std::vector<float> pe(static_cast<size_t>(positions * dim), 0.0f);
    const int64_t freqs = (dim + 1) / 2, first = (dim + 1) / 2;
    for (int64_t p = 0; p < positions; ++p) {
        float* row = pe.data() + p * dim;
        for (int64_t i = 0; i < freqs; ++i) {
            const double angle = static_cast<double>(p) *
                                 std::exp(static_cast<double>(2 * i) * (-std::log(10000.0) / static_cast<double>(dim)));
            if (halves) {  // [sin of every frequency | cos of every frequency]
                row[i] = static_cast<float>(std::sin(angle));
                if (first + i < dim)
                    row[first + i] = static_cast<float>(std::cos(angle));
            } else {
                row[2 * i] = static_cast<float>(std::sin(angle));
                if (2 * i + 1 < dim)
                    row[2 * i + 1] = static_cast<float>(std::cos(angle));
            }
        }
    }
    return pe;
}

std::pair<std::vector<float>, std::vector<float>> rotary_values(int64_t positions, int64_t head_dim) {
    const int64_t half = head_dim / 2;
    std::vector<float> cs(static_cast<size_t>(positions * half)), sn(cs.size());
    for (int64_t p = 0; p < positions; ++p)
        for (int64_t i = 0; i < half; ++i) {
            const double angle = static_cast<double>(p) *
                                 std::pow(10000.0, -static_cast<double>(i) * 2.0 / static_cast<double>(head_dim));
            cs[static_cast<size_t>(p * half + i)] = static_cast<float>(std::cos(angle));
            sn[static_cast<size_t>(p * half + i)] = static_cast<float>(std::sin(angle));
        }
    return {std::move(cs), std::move(sn)};
}

}  // namespace twb
