// Dropout with a thread's own generator (dropout.h).
#include "nn/models/dropout.h"

namespace twb::nn {

namespace {
thread_local at::Generator* t_lane = nullptr;
}

LaneGenerator::LaneGenerator(at::Generator gen) : m_gen(std::move(gen)), m_outer(t_lane) {
    t_lane = &m_gen;
}

LaneGenerator::~LaneGenerator() {
    t_lane = m_outer;
}

bool lane_generator_active() {
    return t_lane != nullptr;
}

torch::Tensor DropoutImpl::forward(const torch::Tensor& x) {
    if (!is_training() || p <= 0)
        return x;
    if (!t_lane)
        return torch::dropout(x, p, true);
    // torch's own formula (input * bernoulli(1 - p) / (1 - p)), with the lane's generator.
    auto keep = torch::empty_like(x).bernoulli_(1 - p, *t_lane).div_(1 - p);
    return x * keep;
}

}  // namespace twb::nn
