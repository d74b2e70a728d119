// FixedStep: a GPT decoding step of fixed shapes, recorded once as a CUDA graph where the build has them.
#include "nn/decoding/fixed_step.h"

namespace twb::nn {

FixedStep::FixedStep(GPT model, torch::Device device) : m_model(std::move(model)), m_device(device) {
    torch::NoGradGuard ng;
    const RunConfig& c = m_model->config();
    const auto opts = m_model->transformer->wte->weight.options();
    m_cache.resize(m_model->transformer->h->size());
    for (auto& layer : m_cache) {
        // Zeros, not garbage: the positions after the current one are attended with weight 0, and
        // 0 * NaN would still be NaN.
        layer.k = torch::zeros({1, c.n_head, c.block_size, c.head_dim()}, opts);
        layer.v = torch::zeros({1, c.n_head, c.block_size, c.head_dim()}, opts);
    }
    m_token = torch::zeros({1, 1}, torch::TensorOptions().dtype(torch::kInt64).device(device));
    m_position = torch::zeros({1}, torch::TensorOptions().dtype(torch::kInt64).device(device));
    m_eagerReason = CudaGraph::unavailable(device);
}

FixedStep::~FixedStep() = default;

void FixedStep::reset() {
    for (auto& layer : m_cache)
        layer.len = 0;
}

torch::Tensor FixedStep::run() {
    ForwardOptions fo;
    fo.cache = &m_cache;
    fo.position = &m_position;
    return m_model->forward(m_token, fo).view({1, -1});
}

torch::Tensor FixedStep::step(int64_t token) {
    torch::NoGradGuard ng;
    const int64_t pos = m_cache.empty() ? 0 : m_cache[0].len;
    TORCH_CHECK(pos < m_model->config().block_size, "the fixed step's cache is full");
    // Filled by kernels that take the value as an argument: no copy from the host to wait for.
    m_token.fill_(token);
    m_position.fill_(pos);
    if (!m_tried)
        record();
    torch::Tensor logits;
    if (m_replaying) {
        m_graph.replay();
        logits = m_logits;
    } else {
        logits = run();
    }
    for (auto& layer : m_cache)
        layer.len = pos + 1;
    return logits;
}

void FixedStep::record() {
    m_tried = true;
    if (!m_eagerReason.empty())
        return;
    // The warm-up writes this step's keys and values; the replay after the recording writes the same ones.
    const std::string failed = m_graph.record(
        m_device, [&] { run(); }, [&] { m_logits = run(); });
    m_replaying = failed.empty();
    if (!m_replaying) {
        m_eagerReason = "the CUDA graph capture failed: " + failed;
        m_logits = torch::Tensor();
    }
}

}  // namespace twb::nn
