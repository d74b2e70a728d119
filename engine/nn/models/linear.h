// The models' linear layer: torch::nn::Linear's parameters ("weight" (out, in), "bias" (out) or none), its
// forward and its initialisation, draw for draw, so a run's random numbers are what they were with
// torch's layer. One thing more: a guard under which new layers keep their storage as it comes, for a model
// whose weights are loaded right after (a GPT-2-sized model would otherwise draw ~85M random numbers only
// to overwrite them; the bench model's 10.6M took ~85 ms of a `twb sample`).
#pragma once
#include <torch/torch.h>

namespace twb::nn {

class LinearImpl : public torch::nn::Module {
public:
    LinearImpl(int64_t in_features, int64_t out_features, bool bias);
    /// x W^T + b, as torch::nn::Linear computes it.
    torch::Tensor forward(const torch::Tensor& x);

    torch::Tensor weight, bias;  // bias undefined when the layer has none
};
TORCH_MODULE(Linear);

/// While one lives, layers built on this thread skip their initialisation (their weights are loaded next).
class SkipLayerInitialisation {
public:
    SkipLayerInitialisation();
    ~SkipLayerInitialisation();
    SkipLayerInitialisation(const SkipLayerInitialisation&) = delete;
    SkipLayerInitialisation& operator=(const SkipLayerInitialisation&) = delete;

private:
    bool m_before;
};

}  // namespace twb::nn
