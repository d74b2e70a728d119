// Translator::logit_lens (translation.h, inspection.h): the decoder's logit lens of an encoder-decoder run
// over a source sentence and a target, given or translated greedily here.
#include "nn/analysis/model_inspection.h"
#include "nn/decoding/seq2seq_source.h"
#include "nn/decoding/translator_impl.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "twb/translation.h"

namespace twb {

LogitLens Translator::logit_lens(const std::string& source, const std::string& target, int top) {
    if (!d->model)
        throw InputError("no translation run is open");
    for (const auto* s : {&source, &target})
        if (find_invalid_utf8(*s) != std::string::npos)
            throw InputError("the text is not valid UTF-8");
    const auto src = d->source_tok().encode(source);  // InputError naming characters the vocabulary lacks
    if (src.empty())
        throw InputError("the source sentence is empty; type one to look through the decoder's layers");
    const int64_t bos = d->tok->bos_id(), eos = d->tok->eos_id();
    std::vector<int32_t> tgt;
    if (target.empty()) {
        if (static_cast<int64_t>(src.size()) + 1 > d->cfg.block_size)
            throw InputError("the source has " + std::to_string(src.size()) + " tokens; the model takes at most " +
                             std::to_string(d->cfg.block_size - 1) + ": shorten the sentence");
        tgt = nn::greedy_translate(d->model, {src}, bos, eos, d->tok->pad_id(), 1.5, 10, d->device, 1, true).at(0);
        if (static_cast<int64_t>(tgt.size()) + 1 > d->cfg.block_size)
            tgt.resize(static_cast<size_t>(d->cfg.block_size - 1));
    } else {
        tgt = d->tok->encode(target);
    }
    return nn::seq2seq_logit_lens(d->model, src, tgt, bos, eos, d->device, top,
                                  [this](int id) { return d->tok->token_text(id); });
}

}  // namespace twb
