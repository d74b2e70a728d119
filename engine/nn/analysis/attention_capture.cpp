// Attention capture: one forward pass that keeps the softmax weights of every layer and head, and
// the most probable next tokens at each position. Serves the viewer, `twb attention` and the probe.
#include "nn/analysis/attention_capture.h"

#include "twb/errors.h"

namespace twb::nn {

AttentionCapture capture_attention_ids(GPT& model, const std::vector<int32_t>& idsIn, const torch::Device& device,
                                       int top) {
    torch::NoGradGuard ng;
    AttentionCapture cap;
    const int64_t block = model->config().block_size;
    std::vector<int32_t> ids = idsIn;
    if (static_cast<int64_t>(ids.size()) > block) {
        cap.warnings.push_back("the text has " + std::to_string(ids.size()) + " tokens; showing the last " +
                               std::to_string(block) + " (block_size)");
        ids.erase(ids.begin(), ids.end() - block);
    }
    if (ids.empty())
        throw InputError("the text is empty; type a prompt to see its attention");
    const bool was = model->is_training();
    model->eval();
    std::vector<int64_t> v(ids.begin(), ids.end());
    auto x = torch::tensor(v, torch::kInt64).unsqueeze(0).to(device);
    std::vector<torch::Tensor> att;
    ForwardOptions fo;
    fo.attention = &att;
    auto logits = model->forward(x, fo).to(torch::kCPU, torch::kFloat32)[0];  // (T, V)
    model->train(was);
    cap.layers = static_cast<int64_t>(att.size());
    cap.heads = model->config().n_head;
    cap.length = static_cast<int64_t>(ids.size());
    auto all = torch::stack(att, 0).select(1, 0).to(torch::kCPU, torch::kFloat32).contiguous();  // (L, H, T, T)
    cap.weights.assign(all.data_ptr<float>(), all.data_ptr<float>() + all.numel());
    auto probs = torch::softmax(logits, -1);
    auto [pv, pi] = probs.topk(std::min<int64_t>(top, probs.size(-1)), -1);
    for (int64_t t = 0; t < cap.length; ++t) {
        std::vector<std::pair<int, float>> row;
        for (int64_t k = 0; k < pv.size(1); ++k)
            row.emplace_back(static_cast<int>(pi[t][k].item<int64_t>()), pv[t][k].item<float>());
        cap.next_top.push_back(std::move(row));
    }
    return cap;
}

AttentionCapture capture_attention(LoadedModel& m, const std::string& text, int top) {
    const auto ids = encode_prompt(m, text);
    auto cap = capture_attention_ids(m.model, ids, m.device, top);
    const size_t start = ids.size() - static_cast<size_t>(cap.length);
    for (size_t i = start; i < ids.size(); ++i)
        cap.tokens.push_back(m.tokenizer->token_text(ids[i]));
    return cap;
}

}  // namespace twb::nn
