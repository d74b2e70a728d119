// SpinPool: persistent helpers that spin briefly between jobs and sleep when idle (see spin_pool.h).
#include "core/decoding/spin_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace twb {

namespace {
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}
// How long an idle helper spins before it sleeps: longer than the gaps between one token's products
// (norms, attention, sampling), far shorter than anything a person would notice as load.
constexpr auto kSpinFor = std::chrono::microseconds(500);
// A job stalled when the caller, out of chunks, waited for a helper's longer than twice its own work
// plus this: a helper the OS took off its core (another process wants it) holds a chunk for a time
// slice, milliseconds, where a running one finishes within a chunk's time, microseconds.
constexpr auto kStallSlack = std::chrono::microseconds(50);
// Judged over windows of this many jobs: this many stalls in one sends the pool solo.
constexpr int kWindow = 64, kStallsForSolo = 4;
// Solo for this many jobs (about 130 tokens of the bench model), doubled after each probe that stalled
// again, up to the last; a probe that passes starts over at the first.
constexpr int64_t kSoloFirst = 4096, kSoloMost = 65536;
}  // namespace

struct SpinPool::State {
    int threads = 1;
    std::vector<std::thread> helpers;
    // The job's chunks are claimed through `next`: generation (32 bits) | chunk count (16) | next index (16).
    std::atomic<uint64_t> next{0};
    std::atomic<int64_t> remaining{0};                 // chunks not yet finished
    const std::function<void(int64_t)>* fn = nullptr;  // written before `next` is published
    uint32_t generation = 0;                           // the caller's side only (under runMutex)
    std::mutex runMutex;                               // one job at a time
    std::mutex sleepMutex;
    std::condition_variable wake;
    std::atomic<int> sleepers{0};
    std::atomic<bool> quit{false};
    // The caller's side only (under runMutex): stalls in the current window, and solo jobs left.
    int windowJobs = 0, windowStalls = 0;
    int64_t soloLeft = 0, soloNext = kSoloFirst;

    static uint32_t generation_of(uint64_t v) { return static_cast<uint32_t>(v >> 32); }

    /// The next chunk of job `gen`, if any is left unclaimed.
    bool claim(uint32_t gen, int64_t& index) {
        uint64_t cur = next.load(std::memory_order_acquire);
        for (;;) {
            const uint64_t count = (cur >> 16) & 0xffff, i = cur & 0xffff;
            if (generation_of(cur) != gen || i >= count)
                return false;
            if (next.compare_exchange_weak(cur, cur + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
                index = static_cast<int64_t>(i);
                return true;
            }
        }
    }

    /// Claims and runs chunks of job `gen` until none is left. A claimed chunk keeps the job (and `fn`)
    /// alive: the caller waits for `remaining` to reach zero.
    void work(uint32_t gen) {
        int64_t i = 0;
        while (claim(gen, i)) {
            (*fn)(i);
            remaining.fetch_sub(1, std::memory_order_acq_rel);
        }
    }

    void helper() {
        uint32_t seen = generation_of(next.load(std::memory_order_acquire));
        for (;;) {
            auto since = std::chrono::steady_clock::now();
            int spins = 0;
            uint32_t gen;
            while ((gen = generation_of(next.load(std::memory_order_acquire))) == seen) {
                if (quit.load(std::memory_order_acquire))
                    return;
                if (++spins % 256 != 0 || std::chrono::steady_clock::now() - since < kSpinFor) {
                    cpu_relax();
                    continue;
                }
                std::unique_lock<std::mutex> lk(sleepMutex);
                sleepers.fetch_add(1);  // seq_cst, paired with run_job()'s store of `next` and load of sleepers
                wake.wait(lk, [&] { return quit.load() || generation_of(next.load()) != seen; });
                sleepers.fetch_sub(1);
                since = std::chrono::steady_clock::now();
            }
            seen = gen;
            work(gen);
        }
    }

    /// One job of at most 0xffff chunks, run by the caller and the helpers (the caller holds runMutex).
    void run_job(int64_t chunks, const std::function<void(int64_t)>& f) {
        fn = &f;
        remaining.store(chunks, std::memory_order_relaxed);
        const uint32_t gen = ++generation;  // differs from the last job's, which is what helpers compare
        next.store((static_cast<uint64_t>(gen) << 32) | (static_cast<uint64_t>(chunks) << 16));  // seq_cst
        if (sleepers.load() > 0) {
            std::lock_guard<std::mutex> g(sleepMutex);
            wake.notify_all();
        }
        const auto t0 = std::chrono::steady_clock::now();
        work(gen);
        const auto t1 = std::chrono::steady_clock::now();
        // Chunks the helpers hold: spin, then yield (a helper that shares the caller's core needs it).
        for (int spins = 0; remaining.load(std::memory_order_acquire) > 0; ++spins) {
            if (spins < 2000)
                cpu_relax();
            else
                std::this_thread::yield();
        }
        judge(std::chrono::steady_clock::now() - t1 > 2 * (t1 - t0) + kStallSlack);
    }

    /// After each job with helpers: too many stalls in a window and the caller works alone for a while
    /// (its helpers then sleep and leave their cores to whoever took them), then tries them again.
    void judge(bool stalled) {
        windowStalls += stalled ? 1 : 0;
        if (windowStalls >= kStallsForSolo) {
            soloLeft = soloNext;
            soloNext = std::min(kSoloMost, 2 * soloNext);
        } else if (++windowJobs < kWindow) {
            return;
        } else {
            soloNext = kSoloFirst;  // a whole window without the stalls
        }
        windowJobs = windowStalls = 0;
    }
};

SpinPool::SpinPool(int threads) : d(std::make_unique<State>()) {
    d->threads = std::max(1, threads);
    for (int i = 1; i < d->threads; ++i)
        d->helpers.emplace_back([s = d.get()] { s->helper(); });
}

SpinPool::~SpinPool() {
    {
        std::lock_guard<std::mutex> g(d->sleepMutex);
        d->quit.store(true);
    }
    d->wake.notify_all();
    for (auto& t : d->helpers)
        t.join();
}

int SpinPool::threads() const {
    return d->threads;
}

void SpinPool::run(int64_t chunks, const std::function<void(int64_t)>& fn) {
    std::unique_lock<std::mutex> lk(d->runMutex, std::try_to_lock);
    // Alone: a job of one chunk, no helpers, another caller's job running, or solo after stalls.
    bool solo = false;
    if (lk.owns_lock() && d->soloLeft > 0) {
        --d->soloLeft;
        solo = true;
    }
    if (chunks <= 1 || d->helpers.empty() || !lk.owns_lock() || solo) {
        for (int64_t i = 0; i < chunks; ++i)
            fn(i);
        return;
    }
    constexpr int64_t kMaxChunks = 0xffff;  // what `next` has room for: a larger job goes in slices
    for (int64_t base = kMaxChunks; base < chunks; base += kMaxChunks) {
        const std::function<void(int64_t)> slice = [&fn, base](int64_t i) { fn(base + i); };
        d->run_job(std::min(kMaxChunks, chunks - base), slice);
    }
    d->run_job(std::min(kMaxChunks, chunks), fn);
}
namespace {
std::atomic<int> g_decodeThreads{0};  // 0: not set
}  // namespace

int resolve_threads(int threads) {
    return threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int decode_threads() {
    const int n = g_decodeThreads.load(std::memory_order_relaxed);
    return n > 0 ? n : resolve_threads(0);
}

void set_decode_threads(int threads) {
    g_decodeThreads.store(std::max(1, threads), std::memory_order_relaxed);
}

std::shared_ptr<SpinPool> SpinPool::shared(int threads) {
    static std::mutex mu;
    static std::shared_ptr<SpinPool> pool;
    std::lock_guard<std::mutex> g(mu);
    threads = std::max(1, threads);
    if (!pool || pool->threads() != threads)
        pool = std::make_shared<SpinPool>(threads);
    return pool;
}

}  // namespace twb
