// The logit lens, gradient x input with attention rollout, and head gates, over a bare GPT.
#include "nn/analysis/model_inspection.h"

#include "nn/analysis/attention_capture.h"
#include "nn/decoding/seq2seq_source.h"
#include "twb/attention.h"
#include "twb/errors.h"

namespace twb::nn {

namespace {
torch::Tensor id_tensor(const std::vector<int32_t>& ids, const torch::Device& device) {
    return torch::tensor(std::vector<int64_t>(ids.begin(), ids.end()), torch::kInt64).unsqueeze(0).to(device);
}

/// Restores the model's training flag on the way out; the views run it in eval mode (no dropout).
struct EvalMode {
    GPT& m;
    bool was;
    explicit EvalMode(GPT& model) : m(model), was(model->is_training()) { m->eval(); }
    ~EvalMode() { m->train(was); }
};

void check_ids(const GPT& model, const std::vector<int32_t>& ids, const char* what) {
    for (int32_t id : ids)
        if (id < 0 || id >= model->config().vocab_size)
            throw InputError(std::string("token id ") + std::to_string(id) + " of the " + what +
                             " is outside this model's vocabulary of " + std::to_string(model->config().vocab_size));
}
}  // namespace

namespace {
/// Fills lens (ids and tokens set) from the residual stream after each stage and the model's own logits
/// (T, V), the stages unembedded by `unembed` (the last stage is the model's output, not recomputed).
void fill_lens(LogitLens& lens, const std::vector<torch::Tensor>& stream, const torch::Tensor& final_logits,
               const std::function<torch::Tensor(const torch::Tensor&)>& unembed, int top, const TokenText& text) {
    lens.stages = static_cast<int64_t>(stream.size());
    lens.positions = static_cast<int64_t>(lens.ids.size());
    lens.top = static_cast<int>(std::min<int64_t>(top, final_logits.size(-1)));
    const auto final_ids = final_logits.argmax(-1).to(torch::kCPU).contiguous();  // (T)
    const int64_t* fi = final_ids.data_ptr<int64_t>();
    lens.final_ids.assign(fi, fi + lens.positions);
    const auto choice = final_ids.to(final_logits.device()).unsqueeze(-1);  // (T, 1)
    for (int64_t s = 0; s < lens.stages; ++s) {
        const auto logits = s + 1 == lens.stages ? final_logits : unembed(stream[static_cast<size_t>(s)])[0];
        const auto probs = torch::softmax(logits.to(torch::kFloat32), -1);  // (T, V)
        const auto chosen = probs.gather(-1, choice);                       // (T, 1)
        // tokens more probable than the choice
        const auto rank = (probs > chosen).sum(-1).to(torch::kCPU, torch::kInt64).contiguous();
        auto [pv, pi] = probs.topk(lens.top, -1);
        pv = pv.to(torch::kCPU).contiguous();
        pi = pi.to(torch::kCPU).contiguous();
        const auto chosenCpu = chosen.to(torch::kCPU).contiguous();
        const float* v = pv.data_ptr<float>();
        const int64_t* ix = pi.data_ptr<int64_t>();
        for (int64_t t = 0; t < lens.positions; ++t) {
            std::vector<TokenProb> cell;
            for (int64_t k = 0; k < lens.top; ++k) {
                const int id = static_cast<int>(ix[t * lens.top + k]);
                cell.push_back({id, text(id), v[t * lens.top + k]});
            }
            lens.cells.push_back(std::move(cell));
            lens.final_rank.push_back(static_cast<int>(rank.data_ptr<int64_t>()[t]));
            lens.final_prob.push_back(chosenCpu.data_ptr<float>()[t]);
        }
    }
}

void check_top(int top) {
    if (top < 1)
        throw InputError("the lens shows at least the top token (got top " + std::to_string(top) + ")");
}
}  // namespace

LogitLens logit_lens_ids(GPT& model, const std::vector<int32_t>& idsIn, const torch::Device& device, int top,
                         const TokenText& text) {
    if (idsIn.empty())
        throw InputError("the prompt has no tokens; type a text to look through the layers");
    check_top(top);
    check_ids(model, idsIn, "prompt");
    const int64_t block = model->config().block_size;
    LogitLens lens;
    lens.ids = idsIn;
    if (static_cast<int64_t>(lens.ids.size()) > block)
        lens.ids.erase(lens.ids.begin(), lens.ids.end() - block);
    for (int32_t id : lens.ids)
        lens.tokens.push_back(text(id));
    torch::NoGradGuard ng;
    EvalMode em(model);
    std::vector<torch::Tensor> stream;
    ForwardOptions fo;
    fo.residuals = &stream;
    const auto final_logits = model->forward(id_tensor(lens.ids, device), fo)[0];  // (T, V)
    fill_lens(
        lens, stream, final_logits, [&](const torch::Tensor& x) { return model->unembed(x); }, top, text);
    return lens;
}

LogitLens seq2seq_logit_lens(Seq2Seq& model, const std::vector<int32_t>& source, const std::vector<int32_t>& target,
                             int64_t bos, int64_t eos, const torch::Device& device, int top, const TokenText& text) {
    check_top(top);
    check_view_pair(model->config(), source.size(), target.size(), "to look through the decoder's layers");
    torch::NoGradGuard ng;
    const bool was = model->is_training();
    model->eval();
    std::vector<int64_t> s(source.begin(), source.end());
    s.push_back(eos);
    LogitLens lens;
    lens.ids = {static_cast<int32_t>(bos)};
    lens.ids.insert(lens.ids.end(), target.begin(), target.end());
    for (int32_t id : lens.ids)
        lens.tokens.push_back(text(id));
    const auto src = torch::tensor(s, torch::kInt64).unsqueeze(0).to(device);
    const auto srcPad = torch::zeros_like(src, torch::kBool);
    std::vector<torch::Tensor> stream;
    DecodeOptions opt;
    opt.residuals = &stream;
    const auto final_logits =
        model->decode(id_tensor(lens.ids, device), model->project_memory(model->encode(src, srcPad)), srcPad, opt)[0];
    fill_lens(
        lens, stream, final_logits, [&](const torch::Tensor& x) { return model->unembed(x); }, top, text);
    model->train(was);
    return lens;
}

namespace {
/// For each row t of grads (T', L, C): (g_t . (e - base)) summed over C, as (T', L) in double on the CPU.
torch::Tensor gradient_x_input(const torch::Tensor& grads, const torch::Tensor& e, const torch::Tensor& base) {
    return (grads * (e - base)).sum(-1).to(torch::kCPU, torch::kFloat64).contiguous();
}

std::vector<double> flat(const torch::Tensor& t) {
    return {t.data_ptr<double>(), t.data_ptr<double>() + t.numel()};
}
}  // namespace

TranslationAttribution seq2seq_attribution(Seq2Seq& model, const std::vector<int32_t>& source,
                                           const std::vector<int32_t>& target, int64_t bos, int64_t eos,
                                           const torch::Device& device, const TokenText& source_text,
                                           const TokenText& target_text) {
    check_view_pair(model->config(), source.size(), target.size(), "to attribute its translation");
    TranslationAttribution a;
    a.source_ids = source;
    a.source_ids.push_back(static_cast<int32_t>(eos));
    a.input_ids = {static_cast<int32_t>(bos)};
    a.input_ids.insert(a.input_ids.end(), target.begin(), target.end());
    a.output_ids = target;
    a.output_ids.push_back(static_cast<int32_t>(eos));
    for (int32_t id : a.source_ids)
        a.source_tokens.push_back(source_text(id));
    for (int32_t id : a.input_ids)
        a.input_tokens.push_back(target_text(id));
    for (int32_t id : a.output_ids)
        a.output_tokens.push_back(target_text(id));
    const bool was = model->is_training();
    model->eval();
    struct Restore {
        Seq2Seq& m;
        bool was;
        ~Restore() { m->train(was); }
    } restore{model, was};
    torch::AutoGradMode grad(true);
    const auto src = id_tensor(a.source_ids, device), tgt = id_tensor(a.input_ids, device);
    const auto srcPad = torch::zeros_like(src, torch::kBool);
    auto srcTable = model->src_wte ? model->src_wte : model->wte;
    auto es = srcTable(src).detach().requires_grad_(true);    // (1, S, C)
    auto ed = model->wte(tgt).detach().requires_grad_(true);  // (1, T, C)
    DecodeOptions opt;
    opt.token_embeddings = &ed;
    const auto memory = model->encode(src, srcPad, nullptr, &es);
    const auto logits = model->decode(tgt, model->project_memory(memory), srcPad, opt)[0].to(torch::kFloat64);
    const auto T = static_cast<int64_t>(a.output_ids.size());
    const auto out = torch::tensor(std::vector<int64_t>(a.output_ids.begin(), a.output_ids.end()), torch::kInt64)
                         .to(logits.device());
    const auto z = logits.gather(-1, out.unsqueeze(-1)).squeeze(-1);  // (T): each output's logit
    const auto probs = torch::softmax(logits.detach(), -1).gather(-1, out.unsqueeze(-1)).squeeze(-1);
    const auto p = probs.to(torch::kCPU).contiguous();
    a.output_prob = flat(p);
    // One backward per output: z_t's gradient alone (the outputs share the graph).
    std::vector<torch::Tensor> gs, gd;
    for (int64_t t = 0; t < T; ++t) {
        const torch::autograd::variable_list outputs{z[t]}, inputs{es, ed};
        const auto g = torch::autograd::grad(outputs, inputs, {}, /*retain_graph=*/t + 1 < T);
        gs.push_back(g[0][0]);
        gd.push_back(g[1][0]);
    }
    const auto baseSrc = srcTable->weight.detach().mean(0), baseTgt = model->wte->weight.detach().mean(0);
    a.source_attribution = flat(gradient_x_input(torch::stack(gs), es.detach()[0], baseSrc));
    // Causal: output t's gradient on inputs after t is exactly 0; masked anyway so rounding shows no noise.
    const auto visible = torch::ones({T, T}, torch::kFloat64).tril();
    a.input_attribution = flat(gradient_x_input(torch::stack(gd), ed.detach()[0], baseTgt).mul_(visible));
    return a;
}

double target_logit(GPT& model, const std::vector<int32_t>& context, int target, const torch::Tensor& embeddings,
                    const torch::Device& device) {
    torch::NoGradGuard ng;
    EvalMode em(model);
    ForwardOptions fo;
    fo.token_embeddings = &embeddings;
    fo.last_only = true;
    return model->forward(id_tensor(context, device), fo).to(torch::kFloat64)[0][0][target].item<double>();
}

TokenAttribution attribute_ids(GPT& model, const std::vector<int32_t>& contextIn, int target,
                               const torch::Device& device, const TokenText& text) {
    if (contextIn.empty())
        throw InputError("there is no token before the target to attribute it to; give a prompt");
    const int64_t block = model->config().block_size;
    std::vector<int32_t> context = contextIn;  // the model sees the last block_size tokens, as when it generated
    if (static_cast<int64_t>(context.size()) > block)
        context.erase(context.begin(), context.end() - block);
    check_ids(model, context, "context");
    check_ids(model, {target}, "target");
    EvalMode em(model);
    TokenAttribution a;
    a.ids = context;
    for (int32_t id : context)
        a.tokens.push_back(text(id));
    a.target_id = target;
    a.target_text = text(target);
    {
        torch::AutoGradMode grad(true);
        const auto idx = id_tensor(context, device);
        auto e = model->transformer->wte(idx).detach().requires_grad_(true);  // (1, T, C)
        ForwardOptions fo;
        fo.token_embeddings = &e;
        fo.last_only = true;
        const auto logits = model->forward(idx, fo).to(torch::kFloat64)[0][0];  // (V)
        // The target's logit, not its log-probability: a confident model's log-probability is flat (its
        // gradient vanishes as P -> 1), the logit still says which inputs raise it.
        const auto g = torch::autograd::grad({logits[target]}, {e})[0];
        const auto base = model->transformer->wte->weight.detach().mean(0);  // the average token's row
        const auto gxi = (g * (e - base)).sum(-1)[0].to(torch::kCPU, torch::kFloat64).contiguous();  // (T)
        a.gradient_x_input.assign(gxi.data_ptr<double>(), gxi.data_ptr<double>() + gxi.numel());
        a.target_prob = torch::softmax(logits.detach(), -1)[target].item<double>();
    }
    const AttentionCapture cap = capture_attention_ids(model, context, device, 1);
    const auto roll = attention_rollout(cap, cap.layers - 1);  // (T, T)
    const size_t T = context.size();
    for (size_t k = 0; k < T; ++k)
        a.rollout.push_back(roll[(T - 1) * T + k]);
    return a;
}

namespace {
/// The gates of one stack of `layers` layers: 0 for its heads in `off`.
std::vector<torch::Tensor> stack_gates(HeadStack stack, int64_t layers, int64_t heads, const std::vector<HeadRef>& off,
                                       const torch::Device& device) {
    std::vector<torch::Tensor> gates;
    for (const auto& h : off) {
        if (h.stack != stack)
            continue;
        if (gates.empty())
            gates.resize(static_cast<size_t>(layers));
        auto& g = gates[static_cast<size_t>(h.layer)];
        if (!g.defined())
            g = torch::ones({heads}, torch::TensorOptions().dtype(torch::kFloat32).device(device));
        g[h.head].fill_(0);
    }
    return gates;
}

void check_heads(const HeadLayout& layout, const std::vector<HeadRef>& off) {
    for (const auto& h : off) {
        const int layers = h.stack == HeadStack::Encoder ? layout.encoder_layers : layout.layers;
        if (h.stack != HeadStack::Decoder && !layout.translation())
            throw InputError("head " + to_string(h) +
                             " does not exist; a language model has no encoder or "
                             "cross-attention");
        if (h.layer < 0 || h.layer >= layers || h.head < 0 || h.head >= layout.heads)
            throw InputError("head " + to_string(h) + " does not exist; the model has " + std::to_string(layers) +
                             " layers of " + std::to_string(layout.heads) + " heads there, numbered from 0");
    }
}
}  // namespace

std::vector<torch::Tensor> head_gates(const RunConfig& c, const std::vector<HeadRef>& off,
                                      const torch::Device& device) {
    check_heads({c.n_layer, c.n_head, 0}, off);
    return stack_gates(HeadStack::Decoder, c.n_layer, c.n_head, off, device);
}

Seq2SeqHeadGates seq2seq_head_gates(const RunConfig& c, const std::vector<HeadRef>& off, const torch::Device& device) {
    check_heads({c.decoder_layers(), c.n_head, c.encoder_layers()}, off);
    return {stack_gates(HeadStack::Encoder, c.encoder_layers(), c.n_head, off, device),
            stack_gates(HeadStack::Decoder, c.decoder_layers(), c.n_head, off, device),
            stack_gates(HeadStack::Cross, c.decoder_layers(), c.n_head, off, device)};
}

}  // namespace twb::nn
