// The models' linear layer (linear.h).
#include "nn/models/linear.h"

#include <cmath>

namespace twb::nn {

namespace {
thread_local bool t_skipInitialisation = false;
}  // namespace

LinearImpl::LinearImpl(int64_t in_features, int64_t out_features, bool hasBias) {
    weight = register_parameter("weight", torch::empty({out_features, in_features}));
    bias = register_parameter("bias", hasBias ? torch::empty({out_features}) : torch::Tensor(), hasBias);
    if (t_skipInitialisation)
        return;
    // torch::nn::Linear's initialisation: Kaiming-uniform with a = sqrt(5), the bias uniform in +-1/sqrt(in).
    torch::nn::init::kaiming_uniform_(weight, std::sqrt(5.0));
    if (hasBias) {
        const double bound = 1 / std::sqrt(static_cast<double>(in_features));
        torch::nn::init::uniform_(bias, -bound, bound);
    }
}

torch::Tensor LinearImpl::forward(const torch::Tensor& x) {
    return torch::linear(x, weight, bias);
}

SkipLayerInitialisation::SkipLayerInitialisation() : m_before(t_skipInitialisation) {
    t_skipInitialisation = true;
}

SkipLayerInitialisation::~SkipLayerInitialisation() {
    t_skipInitialisation = m_before;
}

}  // namespace twb::nn
