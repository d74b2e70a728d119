// Engine tests: a GPT's bf16 loss and gradients on one batch, so that a fused kernel can be compared
// with libtorch's ops on the same model (tst_fused_cpu on the CPU, tst_cuda on a GPU).
#pragma once
#include "nn/models/model.h"
#include "nn/training/evaluator.h"

#include <torch/torch.h>
#include <QString>

#include <cmath>
#include <vector>

namespace twbtest {

struct LossAndGrads {
    double loss = 0;
    std::vector<torch::Tensor> grads;  // one per parameter, in parameters() order
};

/// The cross-entropy of m on (idx, targets) under bf16 autocast on `device`, and its gradients.
inline LossAndGrads bf16_loss_and_grads(twb::nn::GPT& m, const torch::Tensor& idx, const torch::Tensor& targets,
                                        const torch::Device& device) {
    m->zero_grad();
    torch::Tensor loss;
    twb::nn::with_autocast(device, true, [&] {
        const auto logits = m->forward(idx, {});
        loss = torch::nn::functional::cross_entropy(logits.view({-1, logits.size(-1)}).to(torch::kFloat32),
                                                    targets.view({-1}));
    });
    loss.backward();
    LossAndGrads out{loss.item<double>(), {}};
    for (const auto& p : m->parameters())
        out.grads.push_back(p.grad().clone());
    return out;
}

/// Empty when `on` agrees with `off` as bf16 training allows (the loss within 2e-3 of itself, each
/// gradient within 5% of its own size); else what is off.
inline QString bf16_disagreement(const LossAndGrads& on, const LossAndGrads& off) {
    if (!(std::abs(on.loss - off.loss) < 2e-3 * off.loss))
        return QString("loss %1 against %2").arg(on.loss, 0, 'g', 8).arg(off.loss, 0, 'g', 8);
    for (size_t i = 0; i < on.grads.size(); ++i) {
        const double err = (on.grads[i] - off.grads[i]).norm().item<double>();
        const double size = off.grads[i].norm().item<double>();
        if (!(err <= 0.05 * size + 1e-6))
            return QString("parameter %1: gradient off by %2 of %3").arg(i).arg(err).arg(size);
    }
    return {};
}

}  // namespace twbtest
