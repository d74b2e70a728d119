// ModelSession's views inside the model (session.h): the logit lens, attribution and head ablation for
// the run it has open.
#include "nn/analysis/model_inspection.h"
#include "nn/session_impl.h"
#include "twb/session.h"

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
    if (find_invalid_utf8(target) != std::string::npos)  // encode() would blame "the prompt"
        throw InputError("the target is not valid UTF-8 text");
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
    EvalOptions eo;
    eo.data_dir = opt.data_dir;
    eo.split = opt.split;
    eo.max_tokens = opt.max_tokens;
    eo.batch_size = opt.batch_size;
    const HeadLayout layout{static_cast<int>(m.config.n_layer), static_cast<int>(m.config.n_head), 0};
    return run_ablation_table(
        layout, opt,
        [&](const std::vector<HeadRef>& off, int64_t& tokens) {
            GatesFor g(m, off, d->ablated);
            const auto r = evaluate(eo);
            tokens = r.tokens;
            return r.loss;
        },
        progress);
}

}  // namespace twb
