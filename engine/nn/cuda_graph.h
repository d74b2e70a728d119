// A CUDA graph: work recorded once and replayed with one launch. What the GPU paths record (the decoding
// step, decoding/fixed_step.h; the training micro-batch, training/step_graph.h) goes through this one
// recorder, which owns the part they share: a side stream, an eager warm-up there first (cuBLAS,
// autograd and the allocator set up outside the recording), the recording, and the way out of one that
// broke. Where the build has no CUDA graphs (Debian's libtorch), or TWB_CUDA_GRAPHS=0, nothing is
// recorded and the callers run their work eagerly.
#pragma once
#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>

namespace twb::nn {

class CudaGraph {
public:
    /// Why work on `device` is not recorded: the CPU, a build without CUDA graphs, TWB_CUDA_GRAPHS=0;
    /// empty when it can be.
    static std::string unavailable(const torch::Device& device);

    CudaGraph();
    ~CudaGraph();
    CudaGraph(const CudaGraph&) = delete;
    CudaGraph& operator=(const CudaGraph&) = delete;

    /// Runs warm_up, then records body, both on a side stream of `device` with the GPU idle before and
    /// after. Returns why the recording failed (the broken recording is ended, so the GPU works on, and
    /// replay() may not be called), or empty.
    std::string record(const torch::Device& device, const std::function<void()>& warm_up,
                       const std::function<void()>& body);
    /// Runs the recorded work on the current stream.
    void replay();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace twb::nn
