// The norms every block uses: LayerNorm with an optional bias, or RMSNorm; and the per-head norm of the
// queries and keys (qk_norm) that the attentions build from the same class. Defined in model.cpp.
#pragma once
#include "twb/config.h"

#include <torch/torch.h>

namespace twb::nn {

/// LayerNorm with an optional bias (nanoGPT's bias=False option), or RMSNorm (weight only):
/// x / sqrt(mean(x^2) + eps) * weight over the last dimension, computed in float32.
class NormImpl : public torch::nn::Module {
public:
    NormImpl(int64_t n, NormKind kind, bool bias, double eps);
    torch::Tensor forward(const torch::Tensor& x);
    /// forward(x) for a linear layer to take: under the CPU's bf16 autocast a LayerNorm's result comes
    /// out in bf16 from one fused op (the linear layer would convert it), elsewhere as forward gives it.
    torch::Tensor forward_into_linear(const torch::Tensor& x);
    torch::Tensor weight, bias;
    int64_t n;
    NormKind kind;
    double eps;
};
TORCH_MODULE(Norm);

/// qk_norm: a norm over each head's queries and one over its keys (head_size wide, shared by the
/// heads), of the config's norm kind, bias and epsilon; off leaves an attention exactly as without it.
struct QkNorm {
    bool on = false;
    NormKind kind = NormKind::LayerNorm;
    bool bias = true;
    double eps = 1e-5;
    static QkNorm of(const RunConfig& c) { return {c.qk_norm, c.norm, c.bias, c.norm_eps}; }
    /// When on: registers the two norms over head_size channels on m as q_norm and k_norm.
    void register_on(torch::nn::Module& m, int64_t head_size, Norm& q, Norm& k) const {
        if (!on)
            return;
        q = m.register_module("q_norm", Norm(head_size, kind, bias, eps));
        k = m.register_module("k_norm", Norm(head_size, kind, bias, eps));
    }
};

}  // namespace twb::nn
