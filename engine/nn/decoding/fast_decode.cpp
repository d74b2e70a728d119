// A loaded GPT's weights for the CPU decoder (fast_decode.h).
#include "nn/decoding/fast_decode.h"

#include <map>

namespace twb::nn {

namespace {
torch::Tensor as_float(const torch::Tensor& t) {
    return t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
}
}  // namespace

Bf16Matrix bf16_matrix(const torch::Tensor& weight, const torch::Tensor& bias) {
    const auto w = as_float(weight);
    const auto b = bias.defined() ? as_float(bias) : torch::Tensor();
    return Bf16Matrix::from(w.data_ptr<float>(), w.size(0), w.size(1), b.defined() ? b.data_ptr<float>() : nullptr);
}

std::shared_ptr<const FastWeights> make_fast_weights(const GPT& model, bool avx2) {
    torch::NoGradGuard ng;
    std::map<std::string, torch::Tensor> weights;  // fp32 copies, alive while the decoder's are made
    for (const auto& [name, t] : model->named_weights())
        weights.emplace(name, as_float(t));
    return build_fast_weights(model->config(), avx2, [&](const std::string& name) -> std::optional<WeightView> {
        const auto it = weights.find(name);
        if (it == weights.end())
            return std::nullopt;
        const auto& t = it->second;
        return WeightView{t.data_ptr<float>(), t.sizes().vec()};
    });
}

}  // namespace twb::nn
