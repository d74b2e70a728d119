// The lanes' load judge (lane_load.h).
#include "nn/training/lane_load.h"

#include <algorithm>

namespace twb::nn {

void LaneLoad::report(double share, bool alone) {
    if (alone) {
        m_soloLeft = std::max<int64_t>(0, m_soloLeft - 1);
        return;
    }
    if (share >= kLowShare) {
        m_low = 0;
        m_soloNext = kSoloFirst;
        return;
    }
    if (++m_low < kLowInARow)
        return;
    m_low = 0;
    m_soloLeft = m_soloNext;
    m_soloNext = std::min(kSoloMost, 2 * m_soloNext);
}

}  // namespace twb::nn
