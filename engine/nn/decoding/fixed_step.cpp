// FixedStep: a GPT decoding step of fixed shapes, recorded once as a CUDA graph where the build has them.
#include "nn/decoding/fixed_step.h"

#include <torch/cuda.h>

#include <cstdlib>

#if TWB_HAVE_CUDA_GRAPHS
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace twb::nn {

struct FixedStep::Graph {
#if TWB_HAVE_CUDA_GRAPHS
    at::cuda::CUDAGraph graph;
#endif
};

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
    const char* env = std::getenv("TWB_CUDA_GRAPHS");
    if (env && std::string(env) == "0")
        m_eagerReason = "TWB_CUDA_GRAPHS=0";
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
    if (!m_tried && m_device.is_cuda())
        capture();
    torch::Tensor logits;
#if TWB_HAVE_CUDA_GRAPHS
    if (m_replaying) {
        m_graph->graph.replay();
        logits = m_logits;
    }
#endif
    if (!logits.defined())
        logits = run();
    for (auto& layer : m_cache)
        layer.len = pos + 1;
    return logits;
}

void FixedStep::capture() {
    m_tried = true;
    if (!m_eagerReason.empty())  // TWB_CUDA_GRAPHS=0
        return;
#if TWB_HAVE_CUDA_GRAPHS
    try {
        // Recorded on a side stream after one eager run there (which creates cuBLAS's handle and workspace
        // outside the capture). The eager run writes this step's keys and values; the replay after the
        // capture writes the same ones again.
        torch::cuda::synchronize();
        auto graph = std::make_unique<Graph>();
        {
            c10::cuda::CUDAStreamGuard side(c10::cuda::getStreamFromPool(false, m_device.index()));
            run();
            graph->graph.capture_begin();
            m_logits = run();
            graph->graph.capture_end();
        }
        torch::cuda::synchronize();
        m_graph = std::move(graph);
        m_replaying = true;
    } catch (const std::exception& e) {
        torch::cuda::synchronize();
        m_eagerReason = std::string("the CUDA graph capture failed: ") + e.what();
        m_logits = torch::Tensor();
    }
#else
    m_eagerReason = "this libtorch was built without CUDA graphs";
#endif
}

}  // namespace twb::nn
