// Training lanes (lanes.h).
#include "nn/training/lanes.h"

#include "nn/models/dropout.h"
#include "nn/training/batcher.h"
#include "nn/training/evaluator.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <exception>

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

Lanes::Lanes(int threads) : m_pool(threads) {}

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
    const int callerThreads = at::get_num_threads();
    omp_set_threads()(1);  // the caller runs lanes too
    m_pool.run(lanes, [&](int64_t l) {
        single_threaded_here();
        lane(l);
    });
    omp_set_threads()(callerThreads);
    for (const auto& e : errors)
        if (e)
            std::rethrow_exception(e);
    torch::NoGradGuard ng;
    LanePass pass;
    for (int l = 0; l < lanes; ++l) {
        for (size_t i = 0; i < params.size(); ++i)
            if (grads[l][i].defined())
                params[i].mutable_grad().add_(grads[l][i]);
        pass.loss += losses[l];
        pass.tokens += tokens[l];
    }
    return pass;
}

}  // namespace twb::nn
