// The fused CUDA training ops (fused_cuda.h) as autograd functions over the kernels.
#include "nn/models/fused_cuda.h"

#include "nn/models/fused_cuda_kernels.h"
#include "nn/models/layer_norm_to_bf16.h"

#include <ATen/autocast_mode.h>

#include <atomic>
#include <cstdlib>
#include <string>

#if TWB_HAVE_CUDA_KERNELS
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace twb::nn {

namespace {

bool on_from_env() {
    const char* e = std::getenv("TWB_FUSED_CUDA");
    return !(e && std::string(e) == "0");
}
std::atomic<bool> g_on{on_from_env()};

#if TWB_HAVE_CUDA_KERNELS
bool cuda_autocast_bf16() {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    return at::autocast::is_autocast_enabled(at::kCUDA) && at::autocast::get_autocast_dtype(at::kCUDA) == at::kBFloat16;
#else
    return at::autocast::is_enabled() && at::autocast::get_autocast_gpu_dtype() == at::kBFloat16;
#endif
}

void* current_stream(const torch::Tensor& on) {
    return static_cast<void*>(c10::cuda::getCurrentCUDAStream(on.device().index()).stream());
}

uint16_t* bits(const torch::Tensor& t) {
    return reinterpret_cast<uint16_t*>(t.data_ptr<c10::BFloat16>());
}

/// The rows on the GPU for LayerNormToBf16, queued on the current stream.
struct CudaRows {
    static void forward(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, torch::Tensor& y,
                        torch::Tensor& stats, double eps) {
        const c10::cuda::CUDAGuard guard(x.device());
        const int64_t C = x.size(-1);
        cuda_kernels::layer_norm_bf16_forward(x.data_ptr<float>(), w.data_ptr<float>(),
                                              b.defined() ? b.data_ptr<float>() : nullptr, bits(y),
                                              stats[0].data_ptr<float>(), stats[1].data_ptr<float>(), x.numel() / C,
                                              static_cast<int>(C), static_cast<float>(eps), current_stream(x));
    }
    static void backward(const torch::Tensor& dy, const torch::Tensor& x, const torch::Tensor& w,
                         const torch::Tensor& stats, torch::Tensor& dx, torch::Tensor& dw, torch::Tensor& db) {
        const c10::cuda::CUDAGuard guard(x.device());
        const int64_t C = x.size(-1), rows = x.numel() / C;
        auto scratch =
            torch::empty({cuda_kernels::layer_norm_backward_scratch(rows, static_cast<int>(C))}, w.options());
        cuda_kernels::layer_norm_bf16_backward(
            bits(dy), x.data_ptr<float>(), w.data_ptr<float>(), stats[0].data_ptr<float>(), stats[1].data_ptr<float>(),
            dx.data_ptr<float>(), dw.data_ptr<float>(), db.defined() ? db.data_ptr<float>() : nullptr,
            scratch.data_ptr<float>(), rows, static_cast<int>(C), current_stream(x));
    }
};
#endif

}  // namespace

bool fused_cuda_enabled() {
#if TWB_HAVE_CUDA_KERNELS
    return g_on.load();
#else
    return false;
#endif
}

void set_fused_cuda(bool on) {
    g_on = on;
}

bool cuda_layer_norm_to_bf16_serves(const torch::Tensor& x) {
#if TWB_HAVE_CUDA_KERNELS
    return x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() >= 1 && x.size(-1) > 0 &&
           x.size(-1) <= cuda_kernels::kMaxLayerNormWidth && x.is_contiguous() && cuda_autocast_bf16() &&
           fused_cuda_enabled();
#else
    (void)x;
    return false;
#endif
}

torch::Tensor cuda_layer_norm_to_bf16(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                      double eps) {
#if TWB_HAVE_CUDA_KERNELS
    return LayerNormToBf16<CudaRows>::run(x, weight, bias, eps);
#else
    (void)weight;
    (void)bias;
    (void)eps;
    TORCH_CHECK(false, "cuda_layer_norm_to_bf16: this build has no CUDA kernels");
    return x;
#endif
}

}  // namespace twb::nn
