// The fused CUDA training ops (fused_cuda.h) as autograd functions over the kernels.
#include "nn/models/fused_cuda.h"

#include "nn/models/fused_cuda_kernels.h"

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

struct LayerNormFunction : torch::autograd::Function<LayerNormFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& weight, const torch::Tensor& bias, double eps) {
        const c10::cuda::CUDAGuard guard(x.device());
        const int64_t C = x.size(-1), rows = x.numel() / C;
        auto y = torch::empty(x.sizes(), x.options().dtype(torch::kBFloat16));
        auto stats = torch::empty({2, rows}, x.options());
        const bool has_bias = bias.numel() > 0;  // an empty tensor for none: apply() takes no undefined one
        const auto w = weight.to(torch::kFloat32).contiguous();
        const auto b = has_bias ? bias.to(torch::kFloat32).contiguous() : bias;
        cuda_kernels::layer_norm_bf16_forward(x.data_ptr<float>(), w.data_ptr<float>(),
                                              has_bias ? b.data_ptr<float>() : nullptr, bits(y),
                                              stats[0].data_ptr<float>(), stats[1].data_ptr<float>(), rows,
                                              static_cast<int>(C), static_cast<float>(eps), current_stream(x));
        ctx->save_for_backward({x, w, stats});
        ctx->saved_data["bias"] = has_bias;
        return y;
    }
    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &x = saved[0], &w = saved[1], &stats = saved[2];
        const c10::cuda::CUDAGuard guard(x.device());
        const bool has_bias = ctx->saved_data["bias"].toBool();
        const auto dy = grads[0].to(torch::kBFloat16).contiguous();
        const int64_t C = x.size(-1), rows = x.numel() / C;
        auto dx = torch::empty(x.sizes(), x.options());
        auto dw = torch::empty({C}, w.options());
        auto db = has_bias ? torch::empty({C}, w.options()) : torch::Tensor();
        auto scratch =
            torch::empty({cuda_kernels::layer_norm_backward_scratch(rows, static_cast<int>(C))}, w.options());
        cuda_kernels::layer_norm_bf16_backward(
            bits(dy), x.data_ptr<float>(), w.data_ptr<float>(), stats[0].data_ptr<float>(), stats[1].data_ptr<float>(),
            dx.data_ptr<float>(), dw.data_ptr<float>(), has_bias ? db.data_ptr<float>() : nullptr,
            scratch.data_ptr<float>(), rows, static_cast<int>(C), current_stream(x));
        return {dx, dw, db, torch::Tensor()};
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
    return LayerNormFunction::apply(x, weight, bias.defined() ? bias : torch::empty({0}, weight.options()), eps);
#else
    (void)weight;
    (void)bias;
    (void)eps;
    TORCH_CHECK(false, "cuda_layer_norm_to_bf16: this build has no CUDA kernels");
    return x;
#endif
}

}  // namespace twb::nn
