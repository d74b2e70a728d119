// ModelSession's views inside the model (session.h): the logit lens, attribution and head ablation for
// the run it has open.
#include "nn/analysis/model_inspection.h"
#include "nn/session_impl.h"
#include "twb/session.h"

#include <chrono>
#include <cmath>

namespace twb {

namespace {
nn::TokenText text_of(const nn::LoadedModel& m) {
    return [&m](int id) { return m.tokenizer->token_text(id); };
}

/// Sets the model's gates for `off` for as long as it lives, then the session's own ablation again.
struct GatesFor {
    nn::LoadedModel& m;
    const std::vector<HeadRef>& own;
    GatesFor(nn::LoadedModel& model, const std::vector<HeadRef>& off, const std::vector<HeadRef>& session)
        : m(model), own(session) {
        m.model->set_head_gates(nn::head_gates(m.config, off, m.device));
    }
    ~GatesFor() { m.model->set_head_gates(nn::head_gates(m.config, own, m.device)); }
};
}  // namespace

LogitLens ModelSession::logit_lens(const std::string& text, int top) {
    auto& m = d->need();
    return nn::logit_lens_ids(m.model, encode(text), m.device, top, text_of(m));
}

TokenAttribution ModelSession::attribute(const std::vector<int32_t>& context, int target) {
    auto& m = d->need();
    return nn::attribute_ids(m.model, context, target, m.device, text_of(m));
}

TokenAttribution ModelSession::attribute(const std::string& prompt, const std::string& target) {
    if (target.empty())
        throw InputError("the target is empty; give the token whose sources you want to see");
    const auto t = encode(target);
    if (t.size() != 1) {
        std::string parts;
        for (int32_t id : t)
            parts += (parts.empty() ? "'" : ", '") + token_text(id) + "'";
        throw InputError("the target '" + target + "' is " + std::to_string(t.size()) + " tokens for this model (" +
                         parts + "); give one token");
    }
    return attribute(encode(prompt), t.front());
}

void ModelSession::set_ablated_heads(const std::vector<HeadRef>& heads) {
    auto& m = d->need();
    m.model->set_head_gates(nn::head_gates(m.config, heads, m.device));  // InputError for a head it lacks
    d->ablated = heads;
}

const std::vector<HeadRef>& ModelSession::ablated_heads() const {
    return d->ablated;
}

AblationTable ModelSession::ablation_table(const AblationOptions& opt, const InspectionProgress& progress) {
    auto& m = d->need();
    nn::head_gates(m.config, opt.heads, m.device);  // checks every head before the first evaluation
    const auto start = std::chrono::steady_clock::now();
    AblationTable t;
    t.split = opt.split;
    t.layers = static_cast<int>(m.config.n_layer);
    t.heads = static_cast<int>(m.config.n_head);
    t.set = opt.heads;
    EvalOptions eo;
    eo.data_dir = opt.data_dir;
    eo.split = opt.split;
    eo.max_tokens = opt.max_tokens;
    eo.batch_size = opt.batch_size;
    const int total = 1 + (opt.heads.empty() ? 0 : 1) + (opt.every_head ? t.layers * t.heads : 0);
    int done = 0;
    auto loss_with = [&](const std::vector<HeadRef>& off) {
        GatesFor g(m, off, d->ablated);
        const auto r = evaluate(eo);
        t.tokens = r.tokens;
        ++done;
        return r.loss;
    };
    auto go_on = [&] { return !progress || progress(done, total); };
    auto finish = [&](bool cancelled) {
        t.cancelled = cancelled;
        t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return t;
    };
    t.base_loss = loss_with({});
    t.set_loss = t.base_loss;
    if (!go_on())
        return finish(true);
    if (!opt.heads.empty()) {
        t.set_loss = loss_with(opt.heads);
        if (!go_on())
            return finish(true);
    }
    if (opt.every_head)
        for (int l = 0; l < t.layers; ++l)
            for (int h = 0; h < t.heads; ++h) {
                const double loss = loss_with({HeadRef{l, h}});
                t.every_head.push_back({HeadRef{l, h}, loss, loss - t.base_loss});
                if (!go_on())
                    return finish(true);
            }
    return finish(false);
}

}  // namespace twb
