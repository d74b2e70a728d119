// An independent forward pass of the encoder-decoder for the tests (float64, plain tensor ops, from the
// definitions: pre-norm blocks, sinusoidal positions, exact GELU, tied embeddings), reading the model's
// weights by name; and the tiny config the tests build their models from.
#pragma once
#include "nn/models/seq2seq_model.h"
#include "twb/config.h"

#include <torch/torch.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace twbtest {

inline twb::RunConfig tiny_seq2seq_config(int decoder_layers = 1, twb::Position pos = twb::Position::Sinusoidal) {
    twb::RunConfig c;
    c.model_kind = twb::ModelKind::EncoderDecoder;
    c.vocab_size = 13;
    c.n_layer = 1;
    c.n_encoder_layer = 2;
    c.n_decoder_layer = decoder_layers;
    c.n_head = 2;
    c.n_embd = 8;
    c.ffn_hidden = 16;
    c.block_size = 12;
    c.dropout = 0;
    c.position = pos;
    return c;
}

namespace ref {
using T = torch::Tensor;
inline T ln(const T& x, const T& w, const T& b) {
    const auto mu = x.mean(-1, true);
    const auto var = (x - mu).pow(2).mean(-1, true);
    return (x - mu) / (var + 1e-5).sqrt() * w + b;
}
inline T softmax_rows(const T& s) {
    const auto e = (s - std::get<0>(s.max(-1, true))).exp();
    return e / e.sum(-1, true);
}
/// Multi-head attention of q-side x (T, C) over kv-side m (S, C) with the given projections and an
/// additive mask (T, S); appends each head's weights (T, S) to probs when given.
inline T mha(const T& x, const T& m, const T& Wq, const T& bq, const T& Wk, const T& bk, const T& Wv, const T& bv,
             const T& Wo, const T& bo, const T& mask, int64_t H, std::vector<T>* probs = nullptr) {
    const int64_t C = x.size(1), D = C / H;
    const auto q = x.matmul(Wq.t()) + bq, k = m.matmul(Wk.t()) + bk, v = m.matmul(Wv.t()) + bv;
    std::vector<T> heads;
    for (int64_t h = 0; h < H; ++h) {
        const auto qh = q.narrow(1, h * D, D), kh = k.narrow(1, h * D, D), vh = v.narrow(1, h * D, D);
        const auto p = softmax_rows(qh.matmul(kh.t()) / std::sqrt(static_cast<double>(D)) + mask);
        if (probs)
            probs->push_back(p);
        heads.push_back(p.matmul(vh));
    }
    return torch::cat(heads, 1).matmul(Wo.t()) + bo;
}
inline T gelu_exact(const T& x) {
    return 0.5 * x * (1 + torch::erf(x / std::sqrt(2.0)));
}
inline T pe(int64_t n, int64_t C) {  // PE[p, 2i] = sin(p / 10000^(2i/C)), PE[p, 2i+1] = cos(...)
    auto t = torch::zeros({n, C}, torch::kFloat64);
    for (int64_t p = 0; p < n; ++p)
        for (int64_t i = 0; i < C; i += 2) {
            const double a =
                static_cast<double>(p) / std::pow(10000.0, static_cast<double>(i) / static_cast<double>(C));
            t[p][i] = std::sin(a);
            t[p][i + 1] = std::cos(a);
        }
    return t;
}
}  // namespace ref

/// Logits (T, V) of one pair: src (S real ids, then padding to Sp), tgt inputs (T ids). With cross given,
/// each decoder layer's cross-attention weights per head (T, Sp) are appended to it, layer by layer.
inline torch::Tensor reference_forward(twb::nn::Seq2Seq& model, const std::vector<int64_t>& src, int64_t Sp,
                                       const std::vector<int64_t>& tgt, std::vector<torch::Tensor>* cross = nullptr) {
    using namespace ref;
    std::map<std::string, T> w;
    for (auto& [n, p] : model->named_weights())
        w[n] = p.detach().to(torch::kFloat64);
    const auto& c = model->config();
    const int64_t C = c.n_embd, H = c.n_head, S = static_cast<int64_t>(src.size()),
                  Tn = static_cast<int64_t>(tgt.size());
    auto g = [&](const std::string& n) { return w.at(n); };
    auto embed = [&](const std::vector<int64_t>& ids) {
        auto x = torch::zeros({static_cast<int64_t>(ids.size()), C}, torch::kFloat64);
        for (size_t i = 0; i < ids.size(); ++i)
            x[static_cast<int64_t>(i)] = g("wte.weight")[ids[i]] * std::sqrt(static_cast<double>(C));
        return x + pe(static_cast<int64_t>(ids.size()), C);
    };
    auto ffn = [&](const std::string& p, const T& x) {
        return gelu_exact(x.matmul(g(p + "mlp.c_fc.weight").t()) + g(p + "mlp.c_fc.bias"))
                   .matmul(g(p + "mlp.c_proj.weight").t()) +
               g(p + "mlp.c_proj.bias");
    };
    // Encoder over the padded source: padded keys masked; padded positions' ids are 0 here.
    std::vector<int64_t> srcPadded(src);
    srcPadded.resize(static_cast<size_t>(Sp), 0);
    auto x = embed(srcPadded);
    auto keyMask = torch::zeros({Sp}, torch::kFloat64);
    for (int64_t k = S; k < Sp; ++k)
        keyMask[k] = -INFINITY;
    for (int l = 0; l < c.encoder_layers(); ++l) {
        const std::string p = "encoder.h." + std::to_string(l) + ".";
        const auto Wa = g(p + "attn.c_attn.weight"), ba = g(p + "attn.c_attn.bias");
        const auto h = ln(x, g(p + "ln_1.weight"), g(p + "ln_1.bias"));
        x = x + mha(h, h, Wa.narrow(0, 0, C), ba.narrow(0, 0, C), Wa.narrow(0, C, C), ba.narrow(0, C, C),
                    Wa.narrow(0, 2 * C, C), ba.narrow(0, 2 * C, C), g(p + "attn.c_proj.weight"),
                    g(p + "attn.c_proj.bias"), keyMask.unsqueeze(0).expand({Sp, Sp}), H);
        x = x + ffn(p, ln(x, g(p + "ln_2.weight"), g(p + "ln_2.bias")));
    }
    const auto mem = ln(x, g("encoder.ln_f.weight"), g("encoder.ln_f.bias"));
    auto y = embed(tgt);
    const auto causal = torch::full({Tn, Tn}, -INFINITY, torch::kFloat64).triu(1);
    for (int l = 0; l < c.decoder_layers(); ++l) {
        const std::string p = "decoder.h." + std::to_string(l) + ".";
        const auto Wa = g(p + "self_attn.c_attn.weight"), ba = g(p + "self_attn.c_attn.bias");
        auto h = ln(y, g(p + "ln_1.weight"), g(p + "ln_1.bias"));
        y = y + mha(h, h, Wa.narrow(0, 0, C), ba.narrow(0, 0, C), Wa.narrow(0, C, C), ba.narrow(0, C, C),
                    Wa.narrow(0, 2 * C, C), ba.narrow(0, 2 * C, C), g(p + "self_attn.c_proj.weight"),
                    g(p + "self_attn.c_proj.bias"), causal, H);
        h = ln(y, g(p + "ln_2.weight"), g(p + "ln_2.bias"));
        const auto Wkv = g(p + "cross_attn.c_kv.weight"), bkv = g(p + "cross_attn.c_kv.bias");
        y = y + mha(h, mem, g(p + "cross_attn.c_q.weight"), g(p + "cross_attn.c_q.bias"), Wkv.narrow(0, 0, C),
                    bkv.narrow(0, 0, C), Wkv.narrow(0, C, C), bkv.narrow(0, C, C), g(p + "cross_attn.c_proj.weight"),
                    g(p + "cross_attn.c_proj.bias"), keyMask.unsqueeze(0).expand({Tn, Sp}), H, cross);
        y = y + ffn(p, ln(y, g(p + "ln_3.weight"), g(p + "ln_3.bias")));
    }
    y = ln(y, g("decoder.ln_f.weight"), g("decoder.ln_f.bias"));
    return y.matmul(g("wte.weight").t());
}

}  // namespace twbtest
