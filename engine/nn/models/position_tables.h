// What both model families (model.h, seq2seq_model.h) build the same way around their blocks: the
// position buffers (the additive causal mask, the sinusoid table made here, the rotary tables) with the attention
// context they make for positions [P, P+T), and GPT-2's initialisation of the parameters.
#pragma once
#include "nn/models/attention.h"
#include "twb/config.h"

#include <torch/torch.h>

#include <functional>
#include <optional>
#include <string>

namespace twb::nn {

/// Sinusoidal table of Vaswani et al.: PE[p, 2i] = sin(p / 10000^(2i/C)), PE[p, 2i+1] = cos(...); with halves
/// (fairseq, Marian) PE[p, i] = sin(...) and PE[p, ceil(C/2) + i] = cos(...) for the same frequencies.
torch::Tensor sinusoidal_table(int64_t positions, int64_t dim, bool halves = false);

struct PositionTables {
    torch::Tensor causal;              // (block, block) additive causal mask: 0 on and below the diagonal
    torch::Tensor sinusoid;            // (block, C) when position == sinusoidal
    torch::Tensor rope_cos, rope_sin;  // (block, D/2) when position == rotary

    /// Makes the tables c asks for and registers them as buffers of m (causal_mask, sinusoid, rope_cos,
    /// rope_sin), so they follow the module to its device.
    void register_on(torch::nn::Module& m, const RunConfig& c);
    /// x plus the sinusoid rows of positions [P, P+T) when the position scheme is sinusoidal; else x.
    torch::Tensor add_sinusoid(const torch::Tensor& x, int64_t P, int64_t T) const;
    /// Self-attention's context for the query positions [P, P+T) over keys [0, P+T): the rows of `mask`
    /// (the causal mask, or an open one), the rotary rows, a cache of block_size positions.
    AttentionContext context(int64_t P, int64_t T, const torch::Tensor& mask, int64_t block_size) const;
    /// The same for one query at `position`, a (1) int64 tensor on the device that the host never reads:
    /// the mask row and rotary rows gathered there, for a fixed-shape step (AttentionContext::cache_position).
    AttentionContext context_at(const torch::Tensor& position, const torch::Tensor& mask, int64_t block_size) const;
    /// add_sinusoid at that position.
    torch::Tensor add_sinusoid_at(const torch::Tensor& x, const torch::Tensor& position) const;
};

/// GPT-2's initialisation over m's parameters in their order: norms 1 (bias 0), biases 0, the residual
/// projections (c_proj) N(0, resid_std), everything else N(0, 0.02) unless `special` gives a standard
/// deviation for that name.
void init_gpt2_weights(torch::nn::Module& m, double resid_std,
                       const std::function<std::optional<double>(const std::string& name)>& special = {});

}  // namespace twb::nn
