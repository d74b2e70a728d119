// Training lanes (lanes.h).
#include "nn/training/lanes.h"

#include "nn/models/dropout.h"
#include "nn/training/batcher.h"
#include "nn/training/evaluator.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <functional>

namespace twb::nn {

namespace {
uint64_t splitmix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// The OpenMP runtime's omp_set_num_threads, found in the process (the system's libgomp with Debian's
// libtorch, the wheel's own copy with PyTorch's): it sets the calling thread's count only, where
// at::set_num_threads would also rebuild libtorch's pthreadpool at every call. Null without OpenMP.
using SetThreads = void (*)(int);
SetThreads omp_set_threads() {
    static const auto fn = reinterpret_cast<SetThreads>(::dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
    return fn;
}

/// Makes the calling thread's libtorch ops and BLAS single-threaded for good (a pool thread's first lane).
void single_threaded_here() {
    thread_local bool done = false;
    if (done)
        return;
    at::get_num_threads();  // libtorch sets a thread's count once, lazily: let it, then override it
    omp_set_threads()(1);
    done = true;
}

int64_t thread_cpu_ns() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

int64_t wall_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// The CPU time and the wall time the lanes took, summed over the lanes (any thread's).
struct LaneClock {
    std::atomic<int64_t> cpu{0}, wall{0};
    template <class F>
    void time(F&& f) {
        const int64_t c0 = thread_cpu_ns(), w0 = wall_ns();
        f();
        cpu += thread_cpu_ns() - c0;
        wall += wall_ns() - w0;
    }
    double share() const { return wall > 0 ? static_cast<double>(cpu) / static_cast<double>(wall) : 1.0; }
};
}  // namespace

torch::Tensor training_loss(const MicroBatch& b, torch::nn::functional::CrossEntropyFuncOptions::reduction_t reduction,
                            double label_smoothing) {
    const int64_t V = b.logits.size(-1);
    return masked_cross_entropy(b.logits.view({-1, V}).to(torch::kFloat32), b.targets.reshape({-1}), reduction,
                                label_smoothing);
}

int lane_count(int threads, int64_t rows, const torch::Device& device) {
    if (!device.is_cpu() || !omp_set_threads())
        return 1;
    const char* env = std::getenv("TWB_TRAIN_LANES");
    const int n = env && std::atoi(env) > 0 ? std::atoi(env) : threads;
    return static_cast<int>(std::clamp<int64_t>(n, 1, std::max<int64_t>(rows, 1)));
}

namespace {
/// oneDNN's primitive cache holds the bf16 kernels of every shape used (about 30 per micro-batch shape of
/// an encoder-decoder). Its default of 1024 evicts them; a kernel made again while two lanes run is what
/// fails (lanes.h), so it is raised to 65536 here unless the environment sets it. Returns the capacity,
/// or 1024 where the library's C API is not in the process (a libtorch with oneDNN linked in privately).
int64_t onednn_cache_capacity() {
    static const int64_t capacity = [] {
        using Get = int (*)(int*);
        using Set = int (*)(int);
        const auto get = reinterpret_cast<Get>(::dlsym(RTLD_DEFAULT, "dnnl_get_primitive_cache_capacity"));
        const auto set = reinterpret_cast<Set>(::dlsym(RTLD_DEFAULT, "dnnl_set_primitive_cache_capacity"));
        if (!get || !set)
            return int64_t{1024};
        if (!std::getenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY") && !std::getenv("DNNL_PRIMITIVE_CACHE_CAPACITY"))
            set(65536);
        int c = 1024;
        return get(&c) == 0 ? int64_t{c} : int64_t{1024};
    }();
    return capacity;
}
}  // namespace

Lanes::Lanes(int threads) : m_pool(threads) {
    onednn_cache_capacity();  // raised before the first kernel is made
}

bool Lanes::first_of_its_shape(const TrainBatch& batch, const LaneSettings& s) {
    if (!s.bf16 || !s.device.is_cpu())
        return false;
    // Past this many shapes the cache may be full and evict: every micro-batch then runs alone.
    if (static_cast<int64_t>(m_seenShapes.size()) >= onednn_cache_capacity() / 64)
        return true;
    std::vector<int64_t> key;
    for (const auto& t : batch.tensors) {
        key.push_back(t.dim());
        key.insert(key.end(), t.sizes().begin(), t.sizes().end());
    }
    return m_seenShapes.insert(std::move(key)).second;
}

LanePass Lanes::run(ModelFamily& family, const TrainBatch& batch, int lanes, const LaneSettings& s,
                    const std::vector<torch::Tensor>& params) {
    const int64_t kept = batch.tensors[batch.target].ne(kIgnoreIndex).sum().item<int64_t>();
    const double weight = s.scale / static_cast<double>(std::max<int64_t>(kept, 1));
    const int64_t rows = batch.rows();
    std::vector<std::vector<torch::Tensor>> grads(lanes);
    std::vector<double> losses(lanes, 0.0);
    std::vector<int64_t> tokens(lanes, 0);
    std::vector<std::exception_ptr> errors(lanes);
    const bool gradMode = torch::GradMode::is_enabled();
    const auto lane = [&](int64_t l) {
        try {
            torch::AutoGradMode grad(gradMode);  // pool threads start with their own modes
            const int64_t r0 = rows * l / lanes, r1 = rows * (l + 1) / lanes;
            LaneGenerator gen(at::detail::createCPUGenerator(splitmix(s.seed ^ splitmix(static_cast<uint64_t>(l)))));
            torch::Tensor loss;
            with_autocast(s.device, s.bf16, [&] {
                const MicroBatch b = family.forward(batch.slice(r0, r1 - r0));
                loss = training_loss(b, torch::kSum, s.label_smoothing) * weight;
                tokens[l] = b.tokens;
            });
            grads[l] = torch::autograd::grad({loss}, params, {}, false, false, true);
            losses[l] = loss.item<double>();
        } catch (...) {
            errors[l] = std::current_exception();
        }
    };
    // The caller runs lanes too, single-threaded, and adds the gradients up single-threaded as well (with
    // its helpers, or alone while they are kept waiting, lane_load.h).
    struct CallerThreads {
        int n = at::get_num_threads();
        ~CallerThreads() { omp_set_threads()(n); }
    } caller;
    omp_set_threads()(1);
    const bool alone = m_load.solo() || first_of_its_shape(batch, s);
    // fn(i) for i in [0, n): on the caller alone, or spread over the pool, single-threaded either way.
    const auto each = [&](int64_t n, const std::function<void(int64_t)>& fn) {
        if (alone) {
            for (int64_t i = 0; i < n; ++i)
                fn(i);
            return;
        }
        m_pool.run(n, [&](int64_t i) {
            single_threaded_here();
            fn(i);
        });
    };
    LaneClock clock;
    each(lanes, [&](int64_t l) { clock.time([&] { lane(l); }); });
    m_load.report(clock.share(), alone || m_pool.threads() == 1);
    for (const auto& e : errors)
        if (e)
            std::rethrow_exception(e);
    // Each parameter's gradient gets the lanes' in lane order, a parameter per chunk with single-threaded
    // adds: OpenMP's passive threads would be woken for every matrix (~100 a step).
    each(static_cast<int64_t>(params.size()), [&](int64_t i) {
        torch::NoGradGuard ng;
        const auto p = static_cast<size_t>(i);
        for (int l = 0; l < lanes; ++l)
            if (grads[l][p].defined())
                params[p].mutable_grad().add_(grads[l][p]);
    });
    LanePass pass;
    for (int l = 0; l < lanes; ++l) {
        pass.loss += losses[l];
        pass.tokens += tokens[l];
    }
    return pass;
}

}  // namespace twb::nn
