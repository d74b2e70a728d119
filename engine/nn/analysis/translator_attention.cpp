// Translator::attention (translation.h, translation_attention.h): the three attention captures of an
// encoder-decoder run over a source sentence and a target, given or translated greedily here.
#include "nn/analysis/seq2seq_attention.h"
#include "nn/decoding/seq2seq_source.h"
#include "nn/decoding/translator_impl.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "twb/translation.h"

namespace twb {

TranslationAttention Translator::attention(const std::string& source, const std::string& target) {
    if (!d->model)
        throw InputError("no translation run is open");
    for (const auto* s : {&source, &target})
        if (find_invalid_utf8(*s) != std::string::npos)
            throw InputError("the text is not valid UTF-8");
    const auto src = d->source_tok().encode(source);  // InputError naming characters the vocabulary lacks
    if (src.empty())
        throw InputError("the source sentence is empty; type one to see its attention");
    const int64_t bos = d->tok->bos_id(), eos = d->tok->eos_id();
    std::vector<int32_t> tgt;
    const bool fromModel = target.empty();
    if (fromModel) {
        if (static_cast<int64_t>(src.size()) + 1 > d->cfg.block_size)
            throw InputError("the source has " + std::to_string(src.size()) + " tokens; the model takes at most " +
                             std::to_string(d->cfg.block_size - 1) + ": shorten the sentence");
        tgt = nn::greedy_translate(d->model, {src}, bos, eos, d->tok->pad_id(), 1.5, 10, d->device, 1, true).at(0);
        if (static_cast<int64_t>(tgt.size()) + 1 > d->cfg.block_size)
            tgt.resize(static_cast<size_t>(d->cfg.block_size - 1));
    } else {
        tgt = d->tok->encode(target);
    }
    TranslationAttention a = nn::capture_seq2seq_attention(d->model, src, tgt, bos, eos, d->device);
    a.source = source;
    a.target = fromModel ? d->tok->decode(tgt) : target;
    a.target_from_model = fromModel;
    auto texts = [&](const std::vector<int32_t>& ids, const Tokenizer& tok) {
        std::vector<std::string> out;
        for (int32_t id : ids)
            out.push_back(tok.token_text(id));
        return out;
    };
    std::vector<int32_t> srcRow = src, tgtIn{static_cast<int32_t>(bos)}, tgtOut = tgt;
    srcRow.push_back(static_cast<int32_t>(eos));
    tgtIn.insert(tgtIn.end(), tgt.begin(), tgt.end());
    tgtOut.push_back(static_cast<int32_t>(eos));
    a.encoder.tokens = texts(srcRow, d->source_tok());
    a.decoder.tokens = texts(tgtIn, *d->tok);
    a.cross.tokens = texts(tgtOut, *d->tok);
    a.cross.key_tokens = a.encoder.tokens;
    // Copied from a constant: moving a temporary string into the vector trips GCC 12's -Warray-bounds and
    // -Wrestrict false positives inside libstdc++ (GCC bug 105329) with the torch wheel's flags.
    static const std::string kEmptyTranslation = "the model's translation is empty: it predicts <eos> first";
    if (fromModel && tgt.empty())
        a.warnings.push_back(kEmptyTranslation);
    return a;
}

}  // namespace twb
