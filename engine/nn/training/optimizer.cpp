// Flat AdamW.
#include "nn/training/optimizer.h"

#include "core/decoding/spin_pool.h"
#include "twb/errors.h"

#include <ATen/Parallel.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace twb::nn {

namespace {

bool plain_cpu_float(const torch::Tensor& t) {
    return t.device().is_cpu() && t.scalar_type() == torch::kFloat32 && t.is_contiguous();
}

struct AdamScalars {
    float decay;    // -lr * weight_decay (0: none)
    float b1w;      // 1 - beta1
    float b2, b2w;  // beta2, 1 - beta2
    float sqrtBc2;  // sqrt(1 - beta2^t)
    float eps;
    float stepSize;  // -lr / (1 - beta1^t)
};

// One pass over [begin, end) doing what step()'s tensor ops do, in their order and rounding (decay, the
// two moments, the update): the weights stream through the cache once instead of eight times. It is
// vectorised: the file is built with -fno-math-errno (engine/CMakeLists.txt), the scalars are copied out
// of `s` and the buffers do not alias; without these the loop ran one element at a time.
#define TWB_ADAMW_BODY                                                                                  \
    const float decay = s.decay, b1w = s.b1w, b2 = s.b2, b2w = s.b2w, sqrtBc2 = s.sqrtBc2, eps = s.eps; \
    const float stepSize = s.stepSize;                                                                  \
    for (int64_t i = begin; i < end; ++i) {                                                             \
        float pi = p[i];                                                                                \
        if (decay != 0.f)                                                                               \
            pi = pi + decay * pi * mask[i];                                                             \
        const float gi = g[i];                                                                          \
        const float mi = m[i] + b1w * (gi - m[i]);                                                      \
        const float vi = v[i] * b2 + b2w * gi * gi;                                                     \
        m[i] = mi;                                                                                      \
        v[i] = vi;                                                                                      \
        p[i] = pi + stepSize * mi / (__builtin_sqrtf(vi) / sqrtBc2 + eps);                              \
    }

__attribute__((target("avx2,fma"), optimize("O3", "no-math-errno"))) void adamw_avx2(
    float* __restrict p, const float* __restrict g, float* __restrict m, float* __restrict v,
    const float* __restrict mask, int64_t begin, int64_t end, const AdamScalars& s) {
    TWB_ADAMW_BODY
}

__attribute__((optimize("O3", "no-math-errno"))) void adamw_plain(float* __restrict p, const float* __restrict g,
                                                                  float* __restrict m, float* __restrict v,
                                                                  const float* __restrict mask, int64_t begin,
                                                                  int64_t end, const AdamScalars& s) {
    TWB_ADAMW_BODY
}
#undef TWB_ADAMW_BODY

__attribute__((optimize("O3"))) double sum_of_squares(const float* g, int64_t n) {
    double acc[4] = {0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (int k = 0; k < 4; ++k)
            acc[k] += static_cast<double>(g[i + k]) * g[i + k];
    for (; i < n; ++i)
        acc[0] += static_cast<double>(g[i]) * g[i];
    return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

// The flat buffers are processed in fixed chunks (so a sum over them is the same for any thread count)
// spread over the process's spin pool.
constexpr int64_t kChunk = 1 << 16;

int64_t chunk_count(int64_t n) {
    return (n + kChunk - 1) / kChunk;
}

/// fn(chunk, begin, end) for every chunk of [0, n), on the caller's and the pool's threads.
template <class Fn>
void over_chunks(int64_t n, const Fn& fn) {
    SpinPool::shared(at::get_num_threads())->run(chunk_count(n), [&](int64_t c) {
        fn(c, c * kChunk, std::min(n, (c + 1) * kChunk));
    });
}

}  // namespace

FlatAdamW::FlatAdamW(const std::vector<std::pair<std::string, torch::Tensor>>& params, const RunConfig& c)
    : m_beta1(c.beta1), m_beta2(c.beta2), m_wd(c.weight_decay) {
    int64_t n = 0;
    for (auto& [name, p] : params)
        n += p.numel();
    const auto opts = params.empty() ? torch::TensorOptions() : params.front().second.options();
    m_params = torch::empty({n}, opts.requires_grad(false));
    m_grads = torch::zeros({n}, opts.requires_grad(false));
    m_decayMask = torch::zeros({n}, opts.requires_grad(false));
    int64_t off = 0;
    torch::NoGradGuard ng;
    for (auto& [name, p] : params) {
        const int64_t k = p.numel();
        auto slot = m_params.narrow(0, off, k);
        slot.copy_(p.detach().reshape({-1}));
        p.set_data(slot.view(p.sizes()));
        p.mutable_grad() = m_grads.narrow(0, off, k).view(p.sizes());
        const bool isEmbedding = name.find("wte") != std::string::npos || name.find("wpe") != std::string::npos;
        // A frozen parameter (freeze_embeddings) gets no gradient and no decay, so it never moves.
        if (p.requires_grad() && p.dim() >= 2 && (c.decay_embeddings || !isEmbedding))
            m_decayMask.narrow(0, off, k).fill_(1.0);
        off += k;
    }
    m_expAvg = torch::zeros_like(m_params);
    m_expAvgSq = torch::zeros_like(m_params);
}

// The CPU's float32 buffers are zeroed and scaled on the spin pool that step() uses: after training
// lanes its helpers are still spinning, and an OpenMP region would wait for their cores (0.7 ms a step).
void FlatAdamW::zero_grad() {
    if (!plain_cpu_float(m_grads)) {
        m_grads.zero_();
        return;
    }
    float* g = m_grads.data_ptr<float>();
    over_chunks(m_grads.numel(), [&](int64_t, int64_t begin, int64_t end) {
        std::memset(g + begin, 0, static_cast<size_t>(end - begin) * sizeof(float));
    });
    torch::autograd::impl::bump_version(m_grads);
}

double FlatAdamW::grad_norm() const {
    const auto version = m_grads._version();
    if (version == m_normVersion)
        return m_norm;
    if (plain_cpu_float(m_grads)) {
        // Summed in double, in fixed chunks added in order: the same figure for any thread count.
        const float* g = m_grads.data_ptr<float>();
        std::vector<double> part(static_cast<size_t>(chunk_count(m_grads.numel())), 0.0);
        over_chunks(m_grads.numel(), [&](int64_t c, int64_t begin, int64_t end) {
            part[static_cast<size_t>(c)] = sum_of_squares(g + begin, end - begin);
        });
        double sum = 0;
        for (double x : part)
            sum += x;
        m_norm = std::sqrt(sum);
    } else {
        m_norm = m_grads.norm().item<double>();
    }
    m_normVersion = version;
    return m_norm;
}

double FlatAdamW::clip_grad_norm(double max_norm) {
    const double norm = grad_norm();
    if (!(max_norm > 0 && norm > max_norm))
        return norm;
    if (!plain_cpu_float(m_grads)) {
        m_grads.mul_(max_norm / (norm + 1e-6));
        return norm;
    }
    // mul_'s own arithmetic: the factor rounded to float once, each gradient times it.
    const auto factor = static_cast<float>(max_norm / (norm + 1e-6));
    float* g = m_grads.data_ptr<float>();
    over_chunks(m_grads.numel(), [&](int64_t, int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            g[i] *= factor;
    });
    torch::autograd::impl::bump_version(m_grads);
    return norm;
}

torch::Tensor FlatAdamW::clip_grad_norm_queued(double max_norm) {
    torch::NoGradGuard ng;
    auto norm = m_grads.norm();
    if (max_norm > 0)  // a factor of exactly 1 below max_norm: the gradients are then unchanged
        m_grads.mul_((max_norm / (norm + 1e-6)).clamp_max(1.0));
    return norm;
}

bool FlatAdamW::grads_finite() const {
    // A sum of float squares in double overflows only past 1e308: the norm is finite exactly when every
    // gradient is.
    return std::isfinite(grad_norm());
}

void FlatAdamW::step(double lr) {
    torch::NoGradGuard ng;
    ++m_step;
    if (plain_cpu_float(m_params) && plain_cpu_float(m_grads)) {
        fused_cpu_step(lr);
        return;
    }
    if (m_wd > 0)
        m_params.addcmul_(m_params, m_decayMask, -lr * m_wd);  // decoupled decay, matrices only
    m_expAvg.lerp_(m_grads, 1.0 - m_beta1);
    m_expAvgSq.mul_(m_beta2).addcmul_(m_grads, m_grads, 1.0 - m_beta2);
    const double bc1 = 1.0 - std::pow(m_beta1, static_cast<double>(m_step));
    const double bc2 = 1.0 - std::pow(m_beta2, static_cast<double>(m_step));
    auto denom = m_expAvgSq.sqrt().div_(std::sqrt(bc2)).add_(m_eps);
    m_params.addcdiv_(m_expAvg, denom, -lr / bc1);
}

void FlatAdamW::fused_cpu_step(double lr) {
    AdamScalars s;
    s.decay = m_wd > 0 ? static_cast<float>(-lr * m_wd) : 0.f;
    s.b1w = static_cast<float>(1.0 - m_beta1);
    s.b2 = static_cast<float>(m_beta2);
    s.b2w = static_cast<float>(1.0 - m_beta2);
    s.sqrtBc2 = static_cast<float>(std::sqrt(1.0 - std::pow(m_beta2, static_cast<double>(m_step))));
    s.eps = static_cast<float>(m_eps);
    s.stepSize = static_cast<float>(-lr / (1.0 - std::pow(m_beta1, static_cast<double>(m_step))));
    float* p = m_params.data_ptr<float>();
    const float* g = m_grads.data_ptr<float>();
    float* m = m_expAvg.data_ptr<float>();
    float* v = m_expAvgSq.data_ptr<float>();
    const float* mask = m_decayMask.data_ptr<float>();
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    over_chunks(m_params.numel(), [&](int64_t, int64_t begin, int64_t end) {
        (avx2 ? adamw_avx2 : adamw_plain)(p, g, m, v, mask, begin, end, s);
    });
}

std::vector<std::pair<std::string, torch::Tensor>> FlatAdamW::state() const {
    return {{"exp_avg", m_expAvg}, {"exp_avg_sq", m_expAvgSq}, {"step", torch::tensor({m_step}, torch::kInt64)}};
}

void FlatAdamW::load_state(const std::map<std::string, torch::Tensor>& st) {
    for (const char* k : {"exp_avg", "exp_avg_sq", "step"})
        if (!st.count(k))
            throw FormatError(std::string("optimizer state lacks '") + k + "'");
    for (const char* k : {"exp_avg", "exp_avg_sq"}) {
        const auto& a = st.at(k);
        if (a.numel() != m_params.numel())
            throw FormatError(std::string("optimizer state '") + k + "' holds " + std::to_string(a.numel()) +
                              " values but the model has " + std::to_string(m_params.numel()) +
                              " parameters; the checkpoint belongs to another config or is damaged");
        if (!at::isFloatingType(a.scalar_type()))
            throw FormatError(std::string("optimizer state '") + k +
                              "' is not floating point; the checkpoint is damaged");
        // The moments of a healthy run are finite and the second one never negative; damaged state would
        // make the run fail later as if the learning rate were to blame.
        if (!torch::isfinite(a).all().item<bool>())
            throw FormatError(std::string("optimizer state '") + k +
                              "' holds NaN or infinite values; the checkpoint is damaged (resume from an earlier one)");
    }
    if ((st.at("exp_avg_sq") < 0).any().item<bool>())
        throw FormatError(
            "optimizer state 'exp_avg_sq' holds negative values (a second moment never is); the "
            "checkpoint is damaged (resume from an earlier one)");
    const auto& s = st.at("step");
    if (s.numel() != 1 || at::isFloatingType(s.scalar_type()) || s.scalar_type() == torch::kBool)
        throw FormatError("optimizer state 'step' is not a single whole number; the checkpoint is damaged");
    if (s.reshape({-1})[0].item<int64_t>() < 0)
        throw FormatError("optimizer state 'step' is negative; the checkpoint is damaged");
    torch::NoGradGuard ng;
    m_expAvg.copy_(st.at("exp_avg").reshape({-1}));
    m_expAvgSq.copy_(st.at("exp_avg_sq").reshape({-1}));
    m_step = s.reshape({-1})[0].item<int64_t>();
}

}  // namespace twb::nn
