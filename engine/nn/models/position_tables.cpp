// The position buffers and the initialisation both model families share (position_tables.h).
#include "nn/models/position_tables.h"

#include "core/decoding/position_values.h"

#include <cmath>
#include <limits>

namespace twb::nn {

torch::Tensor sinusoidal_table(int64_t positions, int64_t dim, bool halves) {
    auto v = sinusoid_values(positions, dim, halves);
    return torch::from_blob(v.data(), {positions, dim}, torch::kFloat32).clone();
}

void PositionTables::register_on(torch::nn::Module& m, const RunConfig& c) {
    causal = m.register_buffer(
        "causal_mask", torch::full({c.block_size, c.block_size}, -std::numeric_limits<float>::infinity()).triu(1));
    if (c.position == Position::Sinusoidal)
        sinusoid = m.register_buffer("sinusoid", sinusoidal_table(c.block_size, c.n_embd, c.sinusoid_halves));
    if (c.position == Position::Rotary) {
        auto [cs, sn] = rotary_tables(c.block_size, c.head_dim());
        rope_cos = m.register_buffer("rope_cos", cs);
        rope_sin = m.register_buffer("rope_sin", sn);
    }
}

torch::Tensor PositionTables::add_sinusoid(const torch::Tensor& x, int64_t P, int64_t T) const {
    return sinusoid.defined() ? x + sinusoid.narrow(0, P, T) : x;
}

AttentionContext PositionTables::context(int64_t P, int64_t T, const torch::Tensor& mask, int64_t block_size) const {
    AttentionContext ctx;
    ctx.mask = mask.narrow(0, P, T).narrow(1, 0, P + T);  // (T, S)
    ctx.causal = causal.defined() && mask.is_same(causal);
    ctx.cache_capacity = block_size;
    if (rope_cos.defined()) {
        ctx.rope_cos = rope_cos.narrow(0, P, T);
        ctx.rope_sin = rope_sin.narrow(0, P, T);
    }
    return ctx;
}

AttentionContext PositionTables::context_at(const torch::Tensor& position, const torch::Tensor& mask,
                                            int64_t block_size) const {
    AttentionContext ctx;
    ctx.mask = mask.index_select(0, position);  // (1, block_size)
    ctx.cache_capacity = block_size;
    ctx.cache_position = position;
    if (rope_cos.defined()) {
        ctx.rope_cos = rope_cos.index_select(0, position);
        ctx.rope_sin = rope_sin.index_select(0, position);
    }
    return ctx;
}

torch::Tensor PositionTables::add_sinusoid_at(const torch::Tensor& x, const torch::Tensor& position) const {
    return sinusoid.defined() ? x + sinusoid.index_select(0, position) : x;
}

void init_gpt2_weights(torch::nn::Module& m, double resid_std,
                       const std::function<std::optional<double>(const std::string& name)>& special) {
    torch::NoGradGuard ng;
    for (auto& item : m.named_parameters()) {
        const std::string& name = item.key();
        torch::Tensor& p = item.value();
        const bool isBias = name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0;
        if (name.find("ln_") != std::string::npos || name.find("_norm.") != std::string::npos) {  // norms: 1, 0
            if (isBias)
                p.zero_();
            else
                p.fill_(1.0);
        } else if (isBias) {
            p.zero_();
        } else if (const auto sd = special ? special(name) : std::nullopt) {
            p.normal_(0.0, *sd);
        } else if (name.find("c_proj.weight") != std::string::npos) {
            p.normal_(0.0, resid_std);  // GPT-2: scaled residual projections
        } else {
            p.normal_(0.0, 0.02);
        }
    }
}

}  // namespace twb::nn
