// GPT model construction, GPT-2 initialisation and the forward pass.
#include "nn/models/model.h"

#include "nn/models/fused_cpu.h"
#include "nn/models/fused_cuda.h"
#include "nn/models/module_weights.h"

#include <cmath>
#include <optional>

namespace twb::nn {

NormImpl::NormImpl(int64_t n_, NormKind kind_, bool with_bias, double eps_) : n(n_), kind(kind_), eps(eps_) {
    weight = register_parameter("weight", torch::ones({n}));
    if (with_bias && kind == NormKind::LayerNorm)
        bias = register_parameter("bias", torch::zeros({n}));
}

torch::Tensor NormImpl::forward(const torch::Tensor& x) {
    // In float32 at least (as autocast runs layer_norm): a bf16 input (qk_norm under autocast) is cast,
    // float32 and a float64 model (the attribution tests' finite differences) are as they are.
    const auto xf = x.scalar_type() == torch::kFloat64 ? x : x.to(torch::kFloat32);
    if (kind == NormKind::LayerNorm)
        return torch::layer_norm(xf, {n}, weight, bias, eps);
    return xf * torch::rsqrt(xf.pow(2).mean(-1, /*keepdim=*/true) + eps) * weight;
}

torch::Tensor NormImpl::forward_into_linear(const torch::Tensor& x) {
    if (kind == NormKind::LayerNorm && layer_norm_to_bf16_serves(x))
        return layer_norm_to_bf16(x, weight, bias, eps);
    if (kind == NormKind::LayerNorm && cuda_layer_norm_to_bf16_serves(x))
        return cuda_layer_norm_to_bf16(x, weight, bias, eps);
    return forward(x);
}

torch::Tensor activate(const torch::Tensor& x, Activation a) {
    switch (a) {
        case Activation::GeluTanh:
            return torch::gelu(x, "tanh");
        case Activation::Relu:
            return torch::relu(x);
        case Activation::Silu:
            return torch::silu(x);
        case Activation::Gelu:
            break;
    }
    return fused_gelu_serves(x) ? fused_gelu(x) : torch::gelu(x);
}

MLPImpl::MLPImpl(int64_t n_embd, int64_t hidden, Activation activation_, double p, bool bias)
    : activation(activation_) {
    c_fc = register_module("c_fc", Linear(n_embd, hidden, bias));
    c_proj = register_module("c_proj", Linear(hidden, n_embd, bias));
    dropout = register_module("dropout", Dropout(p));
}

torch::Tensor MLPImpl::forward(const torch::Tensor& x) {
    return dropout(linear(c_proj, activate(linear(c_fc, x), activation)));
}

BlockImpl::BlockImpl(const RunConfig& c) : post_norm(c.norm_position == NormPosition::Post) {
    ln_1 = register_module("ln_1", Norm(c.n_embd, c.norm, c.bias, c.norm_eps));
    attn = register_module("attn",
                           CausalSelfAttention(c.n_embd, c.n_head, c.head_dim(), c.dropout, c.bias, QkNorm::of(c)));
    ln_2 = register_module("ln_2", Norm(c.n_embd, c.norm, c.bias, c.norm_eps));
    mlp = register_module("mlp", MLP(c.n_embd, c.ffn_dim(), c.activation, c.dropout, c.bias));
}

torch::Tensor BlockImpl::forward(const torch::Tensor& x, const AttentionContext& ctx) {
    if (post_norm) {  // Vaswani et al.: each sublayer's residual sum is normalised
        auto y = ln_1(x + attn(x, ctx));
        return ln_2(y + mlp(y));
    }
    auto y = x + attn(ln_1->forward_into_linear(x), ctx);
    return y + mlp(ln_2->forward_into_linear(y));
}

TransformerImpl::TransformerImpl(const RunConfig& c) {
    wte = register_module("wte", torch::nn::Embedding(c.vocab_size, c.n_embd));
    if (c.position == Position::Learned)
        wpe = register_module("wpe", torch::nn::Embedding(c.block_size, c.n_embd));
    drop = register_module("drop", Dropout(c.dropout));
    h = register_module("h", torch::nn::ModuleList());
    for (int i = 0; i < c.n_layer; ++i)
        h->push_back(Block(c));
    if (c.norm_position == NormPosition::Pre)
        ln_f = register_module("ln_f", Norm(c.n_embd, c.norm, c.bias, c.norm_eps));
}

GPTImpl::GPTImpl(const RunConfig& c, Init init) : m_cfg(c) {
    std::optional<SkipLayerInitialisation> skip;
    if (init == Init::None)
        skip.emplace();
    transformer = register_module("transformer", Transformer(c));
    if (!c.tie_embeddings)
        lm_head = register_module("lm_head", Linear(c.n_embd, c.vocab_size, false));
    m_tables.register_on(*this, c);
    if (init == Init::Gpt2)
        init_gpt2_weights(*this, 0.02 / std::sqrt(2.0 * c.n_layer));
    if (c.freeze_embeddings)  // the optimizer leaves it alone (no gradient, no decay); tied: the LM head too
        transformer->wte->weight.set_requires_grad(false);
}

torch::Tensor GPTImpl::forward(const torch::Tensor& idx, const ForwardOptions& opt) {
    if (opt.position)
        return step_at(idx, *opt.position, opt);
    const int64_t T = idx.size(1), P = opt.pos_offset;
    TORCH_CHECK(P + T <= m_cfg.block_size, "sequence of ", P + T, " tokens is longer than block_size ",
                m_cfg.block_size);
    auto x = opt.token_embeddings ? *opt.token_embeddings : transformer->wte(idx);  // (B, T, C)
    if (m_cfg.position == Position::Learned)
        x = x + transformer->wpe(torch::arange(P, P + T, idx.options()));
    x = transformer->drop(m_tables.add_sinusoid(x, P, T));
    AttentionContext ctx = m_tables.context(P, T, m_tables.causal, m_cfg.block_size);
    if (opt.attention)
        opt.attention->assign(transformer->h->size(), torch::Tensor());
    if (opt.residuals)
        opt.residuals->assign(1, x);
    for (size_t i = 0; i < transformer->h->size(); ++i) {
        ctx.cache = opt.cache ? &(*opt.cache)[i] : nullptr;
        ctx.weights_out = opt.attention ? &(*opt.attention)[i] : nullptr;
        ctx.head_gate = i < m_headGates.size() ? m_headGates[i] : torch::Tensor();
        x = transformer->h[i]->as<Block>()->forward(x, ctx);
        if (opt.residuals)
            opt.residuals->push_back(x);
    }
    if (opt.last_only)
        x = x.narrow(1, T - 1, 1);
    return unembed(x);
}

torch::Tensor GPTImpl::step_at(const torch::Tensor& idx, const torch::Tensor& position, const ForwardOptions& opt) {
    TORCH_CHECK(idx.size(1) == 1 && opt.cache && opt.cache->size() == transformer->h->size(),
                "a fixed-shape step takes one token and a cache per layer");
    auto x = transformer->wte(idx);  // (B, 1, C)
    if (m_cfg.position == Position::Learned)
        x = x + transformer->wpe(position);
    x = transformer->drop(m_tables.add_sinusoid_at(x, position));
    AttentionContext ctx = m_tables.context_at(position, m_tables.causal, m_cfg.block_size);
    for (size_t i = 0; i < transformer->h->size(); ++i) {
        ctx.cache = &(*opt.cache)[i];
        ctx.head_gate = i < m_headGates.size() ? m_headGates[i] : torch::Tensor();
        x = transformer->h[i]->as<Block>()->forward(x, ctx);
    }
    return unembed(x);
}

torch::Tensor GPTImpl::unembed(const torch::Tensor& residual) {
    auto x = transformer->ln_f ? transformer->ln_f->forward_into_linear(residual) : residual;
    if (lm_head)
        return linear(lm_head, x);
    if (x.numel() == x.size(-1) && !torch::GradMode::is_enabled() && x.device().is_cpu() &&
        x.scalar_type() == transformer->wte->weight.scalar_type())  // mv has no autocast rule (linear())
        return torch::mv(transformer->wte->weight, x.reshape({-1})).view({1, 1, -1});  // one row: no gemm packing
    return torch::matmul(x, transformer->wte->weight.t());                             // tied LM head: (B, T, V)
}

void GPTImpl::set_head_gates(std::vector<torch::Tensor> gates) {
    TORCH_CHECK(gates.empty() || gates.size() == transformer->h->size(), "head gates for ", gates.size(),
                " layers; the model has ", transformer->h->size());
    m_headGates = std::move(gates);
}

std::vector<std::pair<std::string, torch::Tensor>> GPTImpl::named_weights() const {
    return named_weights_of(*this);
}

int64_t GPTImpl::num_parameters() const {
    return parameter_count_of(*this);
}

}  // namespace twb::nn
