// Translator::logit_lens and Translator::attribute (translation.h, inspection.h): the decoder's logit lens
// and gradient x input of an encoder-decoder run over a source sentence and a target, given or translated
// greedily here.
#include "nn/analysis/model_inspection.h"
#include "nn/decoding/translator_impl.h"
#include "twb/errors.h"
#include "twb/translation.h"

namespace twb {

LogitLens Translator::logit_lens(const std::string& source, const std::string& target, int top) {
    if (!d->model)
        throw InputError("no translation run is open");
    const auto pair = d->view_pair(source, target, "to look through the decoder's layers");
    return nn::seq2seq_logit_lens(d->model, pair.source, pair.target, d->tok->bos_id(), d->tok->eos_id(), d->device,
                                  top, [this](int id) { return d->tok->token_text(id); });
}

TranslationAttribution Translator::Impl::attribute_ids(const std::vector<int32_t>& source,
                                                       const std::vector<int32_t>& target) {
    return nn::seq2seq_attribution(
        model, source, target, tok->bos_id(), tok->eos_id(), device,
        [this](int id) { return source_tok().token_text(id); }, [this](int id) { return tok->token_text(id); });
}

TranslationAttribution Translator::attribute(const std::string& source, const std::string& target) {
    if (!d->model)
        throw InputError("no translation run is open");
    const auto pair = d->view_pair(source, target, "to attribute its translation");
    auto a = d->attribute_ids(pair.source, pair.target);
    a.target_from_model = pair.target_from_model;
    return a;
}

TranslationAttribution Translator::attribute(const std::string& source, const std::vector<int32_t>& target) {
    if (!d->model)
        throw InputError("no translation run is open");
    const auto src = d->view_source(source, "to attribute its translation");
    std::vector<int32_t> tgt = target;
    if (!tgt.empty() && tgt.back() == d->tok->eos_id())
        tgt.pop_back();
    for (int32_t id : tgt)
        if (id < 0 || id >= d->cfg.vocab_size)
            throw InputError("token id " + std::to_string(id) + " of the translation is outside the vocabulary of " +
                             std::to_string(d->cfg.vocab_size));
    return d->attribute_ids(src, tgt);
}

}  // namespace twb
