// Translator's head ablation (translation.h, inspection.h): an encoder-decoder has three attentions, the
// encoder's self-attention, the decoder's and the decoder's cross-attention over the source; each head
// of each is switched off by a gate on its output, and the teacher-forced loss of a split says what it
// was worth, as ModelSession::ablation_table does for a language model.
#include "nn/analysis/model_inspection.h"
#include "nn/decoding/translator_impl.h"
#include "twb/errors.h"
#include "twb/translation.h"

namespace twb {

HeadLayout Translator::head_layout() const {
    if (!d->model)
        throw InputError("no translation run is open");
    return {d->cfg.decoder_layers(), static_cast<int>(d->cfg.n_head), d->cfg.encoder_layers()};
}

void Translator::set_ablated_heads(const std::vector<HeadRef>& heads) {
    if (!d->model)
        throw InputError("no translation run is open");
    d->model->set_head_gates(nn::seq2seq_head_gates(d->cfg, heads, d->device));  // InputError for a head it lacks
    d->ablated = heads;
}

const std::vector<HeadRef>& Translator::ablated_heads() const {
    return d->ablated;
}

AblationTable Translator::ablation_table(const AblationOptions& opt, const InspectionProgress& progress) {
    const HeadLayout layout = head_layout();
    nn::seq2seq_head_gates(d->cfg, opt.heads, d->device);  // checks every head before the first evaluation
    /// The model's gates for `off` for as long as it lives, then the translator's own ablation again.
    struct GatesFor {
        Impl& d;
        GatesFor(Impl& impl, const std::vector<HeadRef>& off) : d(impl) {
            d.model->set_head_gates(nn::seq2seq_head_gates(d.cfg, off, d.device));
        }
        ~GatesFor() { d.model->set_head_gates(nn::seq2seq_head_gates(d.cfg, d.ablated, d.device)); }
    };
    const nn::PairBatcher batches = d->batcher(opt.data_dir, opt.split);
    return run_ablation_table(
        layout, opt,
        [&](const std::vector<HeadRef>& off, int64_t& tokens) {
            GatesFor g(*d, off);
            const auto r = d->teacher_forced(batches, opt.max_tokens);
            tokens = r.tokens;
            return r.loss_sum / static_cast<double>(r.tokens);
        },
        progress);
}

}  // namespace twb
