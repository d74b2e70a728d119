// Whether the training lanes' threads have their cores. With another process busy on one of two cores,
// the scheduler often puts both of the lanes' threads on the other: each lane then runs at half speed and
// a micro-batch takes longer than one thread doing every lane (48.7 against 39.1 ms a step in
// docs/benchmarks/cpu-speed-sessions.md, session 18). Each micro-batch reports how much of a core its lanes
// got (their threads' CPU time over their wall time); after a few in a row under kLowShare the caller runs
// the lanes alone for a while, its helper asleep, then tries the helper again, for twice as long after each
// try that fails.
// The lanes and their order are the same either way, so a run's numbers do not depend on it.
// The back-off is SpinPool's (spin_pool.cpp) but the signal differs: SpinPool counts the caller's waits
// for a helper's chunk, which stay short when both threads share one core and each runs at half speed.
#pragma once

#include <cstdint>

namespace twb::nn {

class LaneLoad {
public:
    // A lane that got under this much of a core (its CPU time over its wall time) was kept waiting.
    static constexpr double kLowShare = 0.75;
    // This many such micro-batches in a row send the lanes to the caller alone...
    static constexpr int kLowInARow = 3;
    // ...for this many micro-batches, doubled after each try with the helpers that was still low, up to
    // the last; a try that is not low starts over at the first.
    static constexpr int64_t kSoloFirst = 32, kSoloMost = 1024;

    /// Whether the next micro-batch's lanes run on the caller alone.
    bool solo() const { return m_soloLeft > 0; }
    /// After a micro-batch: its lanes' CPU time over their wall time, summed over the lanes (1: each had
    /// a core), and whether they ran alone on the caller (solo()) or on the pool.
    void report(double share, bool alone);

private:
    int m_low = 0;
    int64_t m_soloLeft = 0, m_soloNext = kSoloFirst;
};

}  // namespace twb::nn
