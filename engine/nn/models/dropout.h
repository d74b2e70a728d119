// Dropout that a training lane (nn/training/lanes.h) can feed from its own generator. Lanes run the
// rows of one micro-batch on several threads at once; drawing their masks from torch's one default
// generator would make the masks depend on which thread got there first. While a LaneGenerator lives on
// a thread, that thread's dropout draws from it; elsewhere dropout is torch::dropout, as before.
#pragma once
#include <ATen/core/Generator.h>
#include <torch/torch.h>

namespace twb::nn {

class DropoutImpl : public torch::nn::Module {
public:
    explicit DropoutImpl(double p_) : p(p_) {}
    torch::Tensor forward(const torch::Tensor& x);
    double p;
};
TORCH_MODULE(Dropout);

/// Routes this thread's dropout to gen for its lifetime (nested ones restore the outer one).
class LaneGenerator {
public:
    explicit LaneGenerator(at::Generator gen);
    ~LaneGenerator();
    LaneGenerator(const LaneGenerator&) = delete;
    LaneGenerator& operator=(const LaneGenerator&) = delete;

private:
    at::Generator m_gen;
    at::Generator* m_outer;
};

/// Whether this thread's dropout draws from a lane's generator: fused kernels that draw from torch's
/// default generator themselves (scaled_dot_product_attention's dropout) must not be used then.
bool lane_generator_active();

/// Whether d, called now on this thread, draws its mask from a lane's generator.
inline bool draws_from_lane(const Dropout& d) {
    return d->is_training() && d->p > 0 && lane_generator_active();
}

}  // namespace twb::nn
