// The autograd function of the LayerNorm into a linear layer, shared by its two kernels (fused_cpu.h on
// a CPU, fused_cuda.h on a GPU): float32 x, weight and bias (an empty tensor for none) in, the result in
// bf16, each row's mean and rstd kept for the backward, float32 gradients. The backend runs the rows:
//   Backend::forward(x, w, b, y, stats, eps): y (bf16) and stats (2, rows) from x; b undefined without bias;
//   Backend::backward(dy, x, w, stats, dx, dw, db): dx, dw and db (undefined without bias), which come
//   uninitialised.
#pragma once
#include <torch/torch.h>

namespace twb::nn {

template <class Backend>
struct LayerNormToBf16 : torch::autograd::Function<LayerNormToBf16<Backend>> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& weight, const torch::Tensor& bias, double eps) {
        auto y = torch::empty(x.sizes(), x.options().dtype(torch::kBFloat16));
        auto stats = torch::empty({2, x.numel() / x.size(-1)}, x.options());
        const bool has_bias = bias.numel() > 0;  // an empty tensor for none: apply() takes no undefined one
        const auto w = weight.to(torch::kFloat32).contiguous();
        const auto b = has_bias ? bias.to(torch::kFloat32).contiguous() : torch::Tensor();
        Backend::forward(x, w, b, y, stats, eps);
        ctx->save_for_backward({x, w, stats});
        ctx->saved_data["bias"] = has_bias;
        return y;
    }
    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &x = saved[0], &w = saved[1], &stats = saved[2];
        const int64_t C = x.size(-1);
        auto dx = torch::empty(x.sizes(), x.options());
        auto dw = torch::empty({C}, w.options());
        auto db = ctx->saved_data["bias"].toBool() ? torch::empty({C}, w.options()) : torch::Tensor();
        Backend::backward(grads[0].to(torch::kBFloat16).contiguous(), x, w, stats, dx, dw, db);
        return {dx, dw, db, torch::Tensor()};
    }
    /// LayerNorm of x over its last dimension into bf16; bias may be undefined.
    static torch::Tensor run(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                             double eps) {
        return LayerNormToBf16::apply(x, weight, bias.defined() ? bias : torch::empty({0}, weight.options()), eps);
    }
};

}  // namespace twb::nn
