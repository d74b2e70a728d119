// StepGraph: a training micro-batch recorded as a CUDA graph where the build has them.
#include "nn/training/step_graph.h"

#include <ATen/autocast_mode.h>

namespace twb::nn {

bool StepGraph::same_shapes(const TrainBatch& batch) const {
    if (batch.tensors.size() != m_inputs.tensors.size())
        return false;
    for (size_t i = 0; i < batch.tensors.size(); ++i)
        if (batch.tensors[i].sizes() != m_inputs.tensors[i].sizes() ||
            batch.tensors[i].scalar_type() != m_inputs.tensors[i].scalar_type())
            return false;
    return true;
}

std::pair<torch::Tensor, int64_t> StepGraph::run(const TrainBatch& batch, const Pass& pass, FlatAdamW& opt) {
    if (!m_tried)
        record(batch, pass, opt);
    if (!m_replaying || !same_shapes(batch))
        return pass(batch);
    for (size_t i = 0; i < batch.tensors.size(); ++i)
        m_inputs.tensors[i].copy_(batch.tensors[i], /*non_blocking=*/true);
    m_graph.replay();
    return {m_loss.clone(), m_tokens};
}

void StepGraph::record(const TrainBatch& batch, const Pass& pass, FlatAdamW& opt) {
    m_tried = true;
    const torch::Device device = batch.tensors.at(0).device();
    m_inputs = TrainBatch{{}, batch.target, batch.target_tokens};
    for (const auto& t : batch.tensors)
        m_inputs.tensors.push_back(t.clone());
    auto gen = at::globalContext().defaultGenerator(device);
    const auto rng = gen.get_state();
    const auto undo = [&] {  // the warm-up's gradients and random draws
        opt.zero_grad();
        gen.set_state(rng);
    };
    // Autocast's cache of cast weights would hold tensors of the recording's memory pool.
    const bool cache = at::autocast::is_autocast_cache_enabled();
    at::autocast::set_autocast_cache_enabled(false);
    const std::string failed = m_graph.record(
        device,
        [&] {
            pass(m_inputs);
            undo();
        },
        [&] { std::tie(m_loss, m_tokens) = pass(m_inputs); });
    at::autocast::set_autocast_cache_enabled(cache);
    m_replaying = failed.empty();
    if (!m_replaying) {
        undo();  // the steps run eagerly from the state before the warm-up
        m_eagerReason = "recording the training step as a CUDA graph failed (" + failed +
                        "); the steps run one operation at a time";
        m_loss = torch::Tensor();
    }
}

}  // namespace twb::nn
