// A small pool of persistent helper threads for work split a couple of dozen times per generated token
// (the fast decoder's matrix-vector products, ~50-200 us each): OpenMP's passive threads take longer to
// wake than such a product takes, so the helpers spin for a moment between jobs instead, and sleep when
// no job has come for half a millisecond (an idle decoder costs nothing). The caller works too and claims
// chunks like the helpers do, so a helper that the OS does not schedule (a busy machine) delays a job by
// at most the chunk it holds, and a second caller while a job runs simply works alone. When helpers keep
// stalling jobs that way (another process has their cores), the caller works alone for a few thousand
// jobs, its helpers asleep, then tries them again (spin_pool.cpp has the thresholds).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

namespace twb {

/// The thread count a run's `threads` setting asks for: itself when positive, else the cores the OS offers.
int resolve_threads(int threads);
/// The threads the CPU decoder splits its products over (the pool's size): what set_decode_threads set
/// last, else resolve_threads(0). libtorch's side sets it with its own intra-op count (nn::apply_threads).
int decode_threads();
void set_decode_threads(int threads);

class SpinPool {
public:
    /// threads in all, the caller included (1: no helper, run() calls fn on the caller's thread).
    explicit SpinPool(int threads);
    ~SpinPool();
    SpinPool(const SpinPool&) = delete;
    SpinPool& operator=(const SpinPool&) = delete;

    int threads() const;
    /// Calls fn(i) for every chunk i in [0, chunks) across the caller and the helpers; returns when all
    /// are done. fn must not throw.
    void run(int64_t chunks, const std::function<void(int64_t)>& fn);

    /// The process's pool for `threads` threads, shared by every fast decoder; a new one when the count
    /// changes (after set_decode_threads), the old one ending with its last holder.
    static std::shared_ptr<SpinPool> shared(int threads);

private:
    struct State;
    std::unique_ptr<State> d;
};

}  // namespace twb
