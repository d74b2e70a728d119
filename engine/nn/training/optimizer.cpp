// Flat AdamW.
#include "nn/training/optimizer.h"

#include "twb/errors.h"

#include <cmath>

namespace twb::nn {

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

double FlatAdamW::clip_grad_norm(double max_norm) {
    const double norm = m_grads.norm().item<double>();
    if (max_norm > 0 && norm > max_norm)
        m_grads.mul_(max_norm / (norm + 1e-6));
    return norm;
}

bool FlatAdamW::grads_finite() const {
    return torch::isfinite(m_grads).all().item<bool>();
}

void FlatAdamW::step(double lr) {
    torch::NoGradGuard ng;
    ++m_step;
    if (m_wd > 0)
        m_params.addcmul_(m_params, m_decayMask, -lr * m_wd);  // decoupled decay, matrices only
    m_expAvg.lerp_(m_grads, 1.0 - m_beta1);
    m_expAvgSq.mul_(m_beta2).addcmul_(m_grads, m_grads, 1.0 - m_beta2);
    const double bc1 = 1.0 - std::pow(m_beta1, static_cast<double>(m_step));
    const double bc2 = 1.0 - std::pow(m_beta2, static_cast<double>(m_step));
    auto denom = m_expAvgSq.sqrt().div_(std::sqrt(bc2)).add_(m_eps);
    m_params.addcdiv_(m_expAvg, denom, -lr / bc1);
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
