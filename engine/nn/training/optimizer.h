// AdamW over one flat parameter buffer. Every parameter and its gradient become views into two
// contiguous tensors, so an update is a handful of vector ops instead of a loop over tensors, and the
// global gradient norm is one reduction. Weight decay applies to matrices only (dim >= 2), optionally
// not to embeddings. Same maths as torch.optim.AdamW (decoupled decay, bias correction, eps 1e-8).
#pragma once
#include "twb/config.h"

#include <torch/torch.h>

namespace twb::nn {

class FlatAdamW {
public:
    /// Rewires the given parameters into flat storage (their values are kept).
    FlatAdamW(const std::vector<std::pair<std::string, torch::Tensor>>& params, const RunConfig& c);
    /// Zeroes the gradients (float32 on the CPU: in chunks over the spin pool, as step() runs).
    void zero_grad();
    /// Scales gradients so their global L2 norm is at most max_norm (if > 0); returns the norm before.
    double clip_grad_norm(double max_norm);
    /// clip_grad_norm computed where the gradients are, the host reading nothing: a GPU step is queued
    /// without waiting for the GPU. Returns the norm before (a 0-dim float tensor on that device).
    torch::Tensor clip_grad_norm_queued(double max_norm);
    void step(double lr);
    /// True when every gradient is finite (no NaN, no infinity).
    bool grads_finite() const;
    /// The global L2 norm of the gradients (computed once per change of them).
    double grad_norm() const;

    int64_t steps() const { return m_step; }
    int64_t numel() const { return m_params.numel(); }
    /// State for checkpoints: "exp_avg", "exp_avg_sq" (flat), "step".
    std::vector<std::pair<std::string, torch::Tensor>> state() const;
    void load_state(const std::map<std::string, torch::Tensor>& st);
    torch::Tensor flat_params() const { return m_params; }
    torch::Tensor flat_grads() const { return m_grads; }

private:
    void fused_cpu_step(double lr);  // step() in one pass over float32 CPU buffers

    torch::Tensor m_params, m_grads, m_expAvg, m_expAvgSq, m_decayMask;
    double m_beta1, m_beta2, m_wd, m_eps = 1e-8;
    int64_t m_step = 0;
    mutable double m_norm = 0;  // grad_norm() of the gradients' version m_normVersion
    mutable uint32_t m_normVersion = ~0u;
};

}  // namespace twb::nn
