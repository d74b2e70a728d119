// The encoder-decoder's attention capture (seq2seq_attention.h).
#include "nn/analysis/seq2seq_attention.h"
#include "nn/decoding/seq2seq_source.h"

#include "twb/errors.h"

namespace twb::nn {

namespace {
/// (L entries of (1, H, Q, K)) -> a capture's weights [layer][head][query][key].
void fill(AttentionCapture& cap, AttentionKind kind, const std::vector<torch::Tensor>& att, int64_t keys) {
    cap.kind = kind;
    cap.layers = static_cast<int64_t>(att.size());
    auto all = torch::stack(att, 0).select(1, 0).to(torch::kCPU, torch::kFloat32).contiguous();  // (L, H, Q, K)
    cap.heads = all.size(1);
    cap.length = all.size(2);
    cap.key_length = kind == AttentionKind::Cross ? keys : 0;
    cap.weights.assign(all.data_ptr<float>(), all.data_ptr<float>() + all.numel());
}
}  // namespace

TranslationAttention capture_seq2seq_attention(Seq2Seq& model, const std::vector<int32_t>& source,
                                               const std::vector<int32_t>& target, int64_t bos, int64_t eos,
                                               const torch::Device& device) {
    check_view_pair(model->config(), source.size(), target.size(), "to see its attention");
    torch::NoGradGuard ng;
    const bool was = model->is_training();
    model->eval();
    std::vector<int64_t> s(source.begin(), source.end()), t{bos};
    s.push_back(eos);
    t.insert(t.end(), target.begin(), target.end());
    const auto src = torch::tensor(s, torch::kInt64).unsqueeze(0).to(device);
    const auto tgt = torch::tensor(t, torch::kInt64).unsqueeze(0).to(device);
    const auto srcPad = torch::zeros_like(src, torch::kBool);
    std::vector<torch::Tensor> enc, self, cross;
    const auto memory = model->encode(src, srcPad, &enc);
    DecodeOptions opt;
    opt.self_attention = &self;
    opt.cross_attention = &cross;
    model->decode(tgt, model->project_memory(memory), srcPad, opt);
    model->train(was);
    TranslationAttention a;
    fill(a.encoder, AttentionKind::EncoderSelf, enc, 0);
    fill(a.decoder, AttentionKind::DecoderSelf, self, 0);
    fill(a.cross, AttentionKind::Cross, cross, static_cast<int64_t>(s.size()));
    return a;
}

}  // namespace twb::nn
