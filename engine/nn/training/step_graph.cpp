// StepGraph: a training micro-batch recorded as a CUDA graph where the build has them.
#include "nn/training/step_graph.h"

#include <cstdlib>

#if TWB_HAVE_CUDA_GRAPHS
#include <ATen/autocast_mode.h>
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <torch/cuda.h>
#endif

namespace twb::nn {

struct StepGraph::Graph {
#if TWB_HAVE_CUDA_GRAPHS
    at::cuda::CUDAGraph graph;
#endif
};

StepGraph::StepGraph() = default;
StepGraph::~StepGraph() = default;

bool StepGraph::wanted(const torch::Device& device) {
#if TWB_HAVE_CUDA_GRAPHS
    const char* env = std::getenv("TWB_CUDA_GRAPHS");
    return device.is_cuda() && !(env && std::string(env) == "0");
#else
    (void)device;
    return false;
#endif
}

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
#if TWB_HAVE_CUDA_GRAPHS
    for (size_t i = 0; i < batch.tensors.size(); ++i)
        m_inputs.tensors[i].copy_(batch.tensors[i], /*non_blocking=*/true);
    m_graph->graph.replay();
#endif
    return {m_loss.clone(), m_tokens};
}

void StepGraph::record(const TrainBatch& batch, const Pass& pass, FlatAdamW& opt) {
    m_tried = true;
#if TWB_HAVE_CUDA_GRAPHS
    const torch::Device device = batch.tensors.at(0).device();
    m_inputs = TrainBatch{{}, batch.target, batch.target_tokens};
    for (const auto& t : batch.tensors)
        m_inputs.tensors.push_back(t.clone());
    auto gen = at::cuda::detail::getDefaultCUDAGenerator(device.index());
    const auto rng = gen.get_state();
    const bool cache = at::autocast::is_autocast_cache_enabled();
    const auto stream = c10::cuda::getStreamFromPool(false, device.index());
    torch::cuda::synchronize();
    try {
        auto graph = std::make_unique<Graph>();
        {
            c10::cuda::CUDAStreamGuard side(stream);
            // Autocast's cache of cast weights would hold tensors of the recording's memory pool.
            at::autocast::set_autocast_cache_enabled(false);
            pass(m_inputs);  // the warm-up, undone next
            torch::cuda::synchronize();
            opt.zero_grad();
            gen.set_state(rng);
            graph->graph.capture_begin();
            auto [loss, tokens] = pass(m_inputs);
            graph->graph.capture_end();
            m_loss = loss;
            m_tokens = tokens;
            at::autocast::set_autocast_cache_enabled(cache);
        }
        torch::cuda::synchronize();
        m_graph = std::move(graph);
        m_replaying = true;
    } catch (const std::exception& e) {
        // A recording broken off (an operation that waits for the GPU, say) is ended here, so the stream
        // works again; the steps then run eagerly, from the state before the warm-up.
        cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
        if (cudaStreamIsCapturing(stream.stream(), &status) == cudaSuccess && status != cudaStreamCaptureStatusNone) {
            cudaGraph_t broken = nullptr;
            cudaStreamEndCapture(stream.stream(), &broken);
            if (broken)
                cudaGraphDestroy(broken);
        }
        (void)cudaGetLastError();
        at::autocast::set_autocast_cache_enabled(cache);
        torch::cuda::synchronize();
        opt.zero_grad();
        gen.set_state(rng);
        const auto* c10e = dynamic_cast<const c10::Error*>(&e);
        m_eagerReason = std::string("recording the training step as a CUDA graph failed (") +
                        (c10e ? c10e->what_without_backtrace() : e.what()) + "); the steps run one operation at a time";
        m_loss = torch::Tensor();
    }
#else
    (void)batch;
    (void)pass;
    (void)opt;
    m_eagerReason = "this libtorch was built without CUDA graphs";
#endif
}

}  // namespace twb::nn
