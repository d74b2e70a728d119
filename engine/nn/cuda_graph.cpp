// CudaGraph: recording and replaying, where the build has CUDA graphs (TWB_HAVE_CUDA_GRAPHS).
#include "nn/cuda_graph.h"

#include <cstdlib>

#if TWB_HAVE_CUDA_GRAPHS
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <torch/cuda.h>
#endif

namespace twb::nn {

struct CudaGraph::Impl {
#if TWB_HAVE_CUDA_GRAPHS
    at::cuda::CUDAGraph graph;
#endif
};

CudaGraph::CudaGraph() = default;
CudaGraph::~CudaGraph() = default;

std::string CudaGraph::unavailable(const torch::Device& device) {
    if (!device.is_cuda())
        return "not a GPU";
#if TWB_HAVE_CUDA_GRAPHS
    const char* env = std::getenv("TWB_CUDA_GRAPHS");
    return env && std::string(env) == "0" ? "TWB_CUDA_GRAPHS=0" : "";
#else
    return "this libtorch was built without CUDA graphs";
#endif
}

std::string CudaGraph::record(const torch::Device& device, const std::function<void()>& warm_up,
                              const std::function<void()>& body) {
#if TWB_HAVE_CUDA_GRAPHS
    const auto stream = c10::cuda::getStreamFromPool(false, device.index());
    torch::cuda::synchronize();
    try {
        auto impl = std::make_unique<Impl>();
        {
            c10::cuda::CUDAStreamGuard side(stream);
            warm_up();
            torch::cuda::synchronize();
            impl->graph.capture_begin();
            body();
            impl->graph.capture_end();
        }
        torch::cuda::synchronize();
        m_impl = std::move(impl);
        return "";
    } catch (const std::exception& e) {
        // A recording broken off (an operation that waits for the GPU, say) is ended here, so the stream
        // works again.
        cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
        if (cudaStreamIsCapturing(stream.stream(), &status) == cudaSuccess && status != cudaStreamCaptureStatusNone) {
            cudaGraph_t broken = nullptr;
            cudaStreamEndCapture(stream.stream(), &broken);
            if (broken)
                cudaGraphDestroy(broken);
        }
        (void)cudaGetLastError();
        torch::cuda::synchronize();
        const auto* c10e = dynamic_cast<const c10::Error*>(&e);
        return c10e ? c10e->what_without_backtrace() : e.what();
    }
#else
    (void)device;
    (void)warm_up;
    (void)body;
    return "this libtorch was built without CUDA graphs";
#endif
}

void CudaGraph::replay() {
    TORCH_CHECK(m_impl, "CudaGraph::replay before a recording");
#if TWB_HAVE_CUDA_GRAPHS
    m_impl->graph.replay();
#endif
}

}  // namespace twb::nn
