// ModelSession: LoadedModel from sampler.h behind a pimpl.
#include "engine/nn/model_session.h"

#include "engine/data/errors.h"
#include "engine/nn/model.h"
#include "engine/nn/sampler.h"
#include "engine/run_files.h"

#include <cmath>

namespace twb::nn {

struct ModelSession::Impl {
    LoadedModel m;
    bool open = false;
};

ModelSession::ModelSession() : d(std::make_unique<Impl>()) {}
ModelSession::~ModelSession() = default;

void ModelSession::open(const std::string& run, const std::string& which) {
    const std::string ck = find_checkpoint(run, which).string();
    if (d->open && d->m.checkpoint == ck)
        return;
    d->m = load_model(ck);  // a checkpoint folder names itself
    d->open = true;
}

bool ModelSession::is_open() const {
    return d->open;
}
std::string ModelSession::checkpoint() const {
    return d->m.checkpoint;
}
int64_t ModelSession::step() const {
    return d->m.step;
}
const RunConfig& ModelSession::config() const {
    return d->m.config;
}

namespace {
const LoadedModel& need(const ModelSession::Impl& d) {
    if (!d.open)
        throw InputError("no checkpoint is loaded; choose a run first");
    return d.m;
}
}  // namespace

std::vector<int32_t> ModelSession::encode(const std::string& prompt) const {
    return encode_prompt(need(*d), prompt);
}
std::string ModelSession::decode(const std::vector<int32_t>& ids) const {
    return need(*d).tokenizer->decode(ids);
}
std::string ModelSession::token_text(int id) const {
    return need(*d).tokenizer->token_text(id);
}

SampleResult ModelSession::generate(const std::vector<int32_t>& prompt, const SamplingOptions& opt,
                                    const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    need(*d);
    opt.validate();
    if (prompt.empty())
        throw InputError("the prompt has no tokens");
    auto& m = d->m;
    GptSource src(m.model, m.device, opt.use_kv_cache);
    auto res = generate_ids(
        src, prompt, opt, m.tokenizer->eos_id(), [&](const std::vector<int32_t>& v) { return m.tokenizer->decode(v); },
        on_token, cancel);
    if (static_cast<int64_t>(prompt.size()) > m.config.block_size)
        res.warnings.push_back("the prompt is longer than block_size; the model sees its last " +
                               std::to_string(m.config.block_size) + " tokens");
    return res;
}

AttentionCapture ModelSession::attention(const std::string& text, int top) {
    need(*d);
    return capture_attention(d->m, text, top);
}

PositionTable ModelSession::positions(int64_t maxRows) const {
    const auto& m = need(*d);
    torch::NoGradGuard ng;
    const auto& c = m.config;
    PositionTable t;
    t.kind = c.position;
    t.rows = std::min<int64_t>(maxRows, c.block_size);
    torch::Tensor table;
    if (c.position == "learned") {
        table = m.model->transformer->wpe->weight.slice(0, 0, t.rows);
        t.col_label = "embedding dimension";
    } else if (c.position == "sinusoidal") {
        table = sinusoidal_table(t.rows, c.n_embd);
        t.col_label = "embedding dimension";
    } else {
        const int64_t hd = c.n_embd / c.n_head;
        table = rotary_tables(t.rows, hd).first;  // cos(position * theta_i)
        t.col_label = "dimension pair (rotation frequency falls to the right)";
        for (int64_t i = 0; i < hd / 2; ++i)
            t.frequencies.push_back(static_cast<float>(std::pow(10000.0, -2.0 * static_cast<double>(i) / hd)));
    }
    table = table.to(torch::kCPU, torch::kFloat32).contiguous();
    t.cols = table.size(1);
    t.values.assign(table.data_ptr<float>(), table.data_ptr<float>() + table.numel());
    return t;
}

}  // namespace twb::nn
