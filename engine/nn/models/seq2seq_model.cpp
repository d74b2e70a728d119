// The encoder-decoder's construction, initialisation and forward passes.
#include "nn/models/seq2seq_model.h"

#include "nn/models/module_weights.h"

#include <cmath>
#include <limits>

namespace twb::nn {

DecoderBlockImpl::DecoderBlockImpl(const RunConfig& c) : post_norm(c.norm_position == NormPosition::Post) {
    ln_1 = register_module("ln_1", Norm(c.n_embd, c.norm, c.bias, c.norm_eps));
    self_attn = register_module(
        "self_attn", CausalSelfAttention(c.n_embd, c.n_head, c.head_dim(), c.dropout, c.bias, QkNorm::of(c)));
    ln_2 = register_module("ln_2", Norm(c.n_embd, c.norm, c.bias, c.norm_eps));
    cross_attn = register_module("cross_attn",
                                 CrossAttention(c.n_embd, c.n_head, c.head_dim(), c.dropout, c.bias, QkNorm::of(c)));
    ln_3 = register_module("ln_3", Norm(c.n_embd, c.norm, c.bias, c.norm_eps));
    mlp = register_module("mlp", MLP(c.n_embd, c.ffn_dim(), c.activation, c.dropout, c.bias));
}

torch::Tensor DecoderBlockImpl::forward(const torch::Tensor& x, const AttentionContext& self_ctx, const MemoryKV& kv,
                                        const torch::Tensor& memory_padding, torch::Tensor* cross_weights) {
    if (post_norm) {
        auto y = ln_1(x + self_attn(x, self_ctx));
        y = ln_2(y + cross_attn(y, kv, memory_padding, cross_weights));
        return ln_3(y + mlp(y));
    }
    auto y = x + self_attn(ln_1(x), self_ctx);
    y = y + cross_attn(ln_2(y), kv, memory_padding, cross_weights);
    return y + mlp(ln_3(y));
}

StackImpl::StackImpl(const RunConfig& c, int layers, bool decoder) {
    if (c.position == Position::Learned)
        wpe = register_module("wpe", torch::nn::Embedding(c.block_size, c.n_embd));
    h = register_module("h", torch::nn::ModuleList());
    for (int i = 0; i < layers; ++i) {
        if (decoder)
            h->push_back(DecoderBlock(c));
        else
            h->push_back(Block(c));
    }
    if (c.norm_position == NormPosition::Pre)
        ln_f = register_module("ln_f", Norm(c.n_embd, c.norm, c.bias, c.norm_eps));
}

Seq2SeqImpl::Seq2SeqImpl(const RunConfig& c) : m_cfg(c) {
    wte = register_module("wte", torch::nn::Embedding(c.vocab_size, c.n_embd));
    if (c.source_vocab_size > 0)
        src_wte = register_module("src_wte", torch::nn::Embedding(c.source_vocab_size, c.n_embd));
    drop = register_module("drop", Dropout(c.dropout));
    encoder = register_module("encoder", Stack(c, c.encoder_layers(), false));
    decoder = register_module("decoder", Stack(c, c.decoder_layers(), true));
    if (!c.tie_embeddings)
        lm_head = register_module("lm_head", Linear(c.n_embd, c.vocab_size, false));
    if (c.logits_bias)
        final_logits_bias = register_parameter("final_logits_bias", torch::zeros({c.vocab_size}));
    m_tables.register_on(*this, c);
    m_open = register_buffer("open_mask", torch::zeros({c.block_size, c.block_size}));
    // GPT-2's initialisation, the embeddings at 1/sqrt(C) as they are scaled by sqrt(C) in embed().
    const double embeddingStd = c.scale_embeddings ? std::pow(static_cast<double>(c.n_embd), -0.5) : 0.02;
    init_gpt2_weights(*this, 0.02 / std::sqrt(2.0 * std::max(c.encoder_layers(), c.decoder_layers())),
                      [&](const std::string& name) -> std::optional<double> {
                          if (name == "wte.weight" || name == "src_wte.weight")
                              return embeddingStd;
                          return std::nullopt;
                      });
    if (c.freeze_embeddings) {
        wte->weight.set_requires_grad(false);
        if (src_wte)
            src_wte->weight.set_requires_grad(false);
    }
}

torch::Tensor Seq2SeqImpl::padding_mask(const torch::Tensor& pad) {
    const auto inf = std::numeric_limits<float>::infinity();
    return torch::zeros(pad.sizes(), torch::TensorOptions().dtype(torch::kFloat32).device(pad.device()))
        .masked_fill(pad, -inf)
        .view({pad.size(0), 1, 1, pad.size(1)});
}

torch::Tensor Seq2SeqImpl::embed(const torch::Tensor& ids, int64_t P, Stack& stack, const torch::Tensor* rows) {
    const int64_t T = ids.size(1);
    TORCH_CHECK(P + T <= m_cfg.block_size, "a sequence of ", P + T, " tokens is longer than block_size ",
                m_cfg.block_size);
    const bool source = stack.get() == encoder.get();
    auto x = rows ? *rows : source && src_wte ? src_wte(ids) : wte(ids);
    if (m_cfg.scale_embeddings)
        x = x * std::sqrt(static_cast<double>(m_cfg.n_embd));
    if (m_cfg.position == Position::Learned)
        x = x + stack->wpe(torch::arange(P, P + T, ids.options()));
    return drop(m_tables.add_sinusoid(x, P, T));
}

AttentionContext Seq2SeqImpl::self_context(int64_t P, int64_t T, bool causal) {
    return m_tables.context(P, T, causal ? m_tables.causal : m_open, m_cfg.block_size);
}

torch::Tensor Seq2SeqImpl::encode(const torch::Tensor& src, const torch::Tensor& src_pad,
                                  std::vector<torch::Tensor>* attention, const torch::Tensor* token_embeddings) {
    auto x = embed(src, 0, encoder, token_embeddings);
    AttentionContext ctx = self_context(0, src.size(1), false);
    ctx.key_padding = padding_mask(src_pad);
    if (attention)
        attention->assign(encoder->h->size(), torch::Tensor());
    for (size_t i = 0; i < encoder->h->size(); ++i) {
        ctx.weights_out = attention ? &(*attention)[i] : nullptr;
        ctx.head_gate = i < m_gates.encoder.size() ? m_gates.encoder[i] : torch::Tensor();
        x = encoder->h[i]->as<Block>()->forward(x, ctx);
    }
    return encoder->ln_f ? encoder->ln_f(x) : x;
}

std::vector<MemoryKV> Seq2SeqImpl::project_memory(const torch::Tensor& memory) {
    std::vector<MemoryKV> kv;
    for (size_t i = 0; i < decoder->h->size(); ++i)
        kv.push_back(decoder->h[i]->as<DecoderBlock>()->cross_attn->project_memory(memory));
    return kv;
}

torch::Tensor Seq2SeqImpl::decode(const torch::Tensor& tgt, const std::vector<MemoryKV>& kv,
                                  const torch::Tensor& src_pad, const DecodeOptions& opt) {
    const int64_t T = tgt.size(1);
    auto x = embed(tgt, opt.pos_offset, decoder, opt.token_embeddings);
    AttentionContext ctx = self_context(opt.pos_offset, T, true);
    if (opt.target_padding.defined())
        ctx.key_padding = padding_mask(opt.target_padding);
    const auto memoryPadding = padding_mask(src_pad);
    const size_t L = decoder->h->size();
    if (opt.self_attention)
        opt.self_attention->assign(L, torch::Tensor());
    if (opt.cross_attention)
        opt.cross_attention->assign(L, torch::Tensor());
    if (opt.residuals)
        opt.residuals->assign(1, x);
    for (size_t i = 0; i < L; ++i) {
        ctx.cache = opt.cache ? &(*opt.cache)[i] : nullptr;
        ctx.weights_out = opt.self_attention ? &(*opt.self_attention)[i] : nullptr;
        ctx.head_gate = i < m_gates.decoder.size() ? m_gates.decoder[i] : torch::Tensor();
        x = decoder->h[i]->as<DecoderBlock>()->forward(x, ctx, kv[i], memoryPadding,
                                                       opt.cross_attention ? &(*opt.cross_attention)[i] : nullptr);
        if (opt.residuals)
            opt.residuals->push_back(x);
    }
    if (opt.last_only)
        x = x.narrow(1, T - 1, 1);
    return unembed(x);
}

torch::Tensor Seq2SeqImpl::unembed(const torch::Tensor& residual) {
    const auto x = decoder->ln_f ? decoder->ln_f(residual) : residual;
    auto logits = lm_head ? linear(lm_head, x) : torch::matmul(x, wte->weight.t());
    return final_logits_bias.defined() ? logits + final_logits_bias.to(logits.scalar_type()) : logits;
}

torch::Tensor Seq2SeqImpl::forward(const torch::Tensor& src, const torch::Tensor& src_pad, const torch::Tensor& tgt,
                                   const torch::Tensor& tgt_pad) {
    const auto memory = encode(src, src_pad);
    DecodeOptions opt;
    opt.target_padding = tgt_pad;
    return decode(tgt, project_memory(memory), src_pad, opt);
}

void Seq2SeqImpl::set_head_gates(Seq2SeqHeadGates gates) {
    for (size_t i = 0; i < decoder->h->size(); ++i)
        decoder->h[i]->as<DecoderBlock>()->cross_attn->head_gate =
            i < gates.cross.size() ? gates.cross[i] : torch::Tensor();
    m_gates = std::move(gates);
}

std::vector<std::pair<std::string, torch::Tensor>> Seq2SeqImpl::named_weights() const {
    return named_weights_of(*this);
}

int64_t Seq2SeqImpl::num_parameters() const {
    return parameter_count_of(*this);
}

}  // namespace twb::nn
