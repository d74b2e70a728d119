// Translator::attention (translation.h, translation_attention.h): the three attention captures of an
// encoder-decoder run over a source sentence and a target, given or translated greedily here; and its
// positions for the Attention panel's Positions tab.
#include "nn/analysis/position_view.h"
#include "nn/analysis/seq2seq_attention.h"
#include "nn/decoding/seq2seq_source.h"
#include "nn/decoding/translator_impl.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "twb/translation.h"

namespace twb {

std::vector<int32_t> Translator::Impl::view_source(const std::string& source, const std::string& what_for) const {
    if (find_invalid_utf8(source) != std::string::npos)
        throw InputError("the text is not valid UTF-8");
    auto ids = source_tok().encode(source);  // InputError naming characters the vocabulary lacks
    if (ids.empty())
        throw InputError("the source sentence is empty; type one " + what_for);
    return ids;
}

Translator::Impl::ViewPair Translator::Impl::view_pair(const std::string& source, const std::string& target,
                                                       const std::string& what_for) {
    if (find_invalid_utf8(target) != std::string::npos)
        throw InputError("the text is not valid UTF-8");
    ViewPair p;
    p.source = view_source(source, what_for);
    p.target_from_model = target.empty();
    if (!p.target_from_model) {
        tok->encode_target(target, p.target);  // Marian cuts the target side with its own model
        return p;
    }
    if (static_cast<int64_t>(p.source.size()) + 1 > cfg.block_size)
        throw InputError("the source has " + std::to_string(p.source.size()) + " tokens; the model takes at most " +
                         std::to_string(cfg.block_size - 1) + ": shorten the sentence");
    p.target =
        nn::greedy_translate(model, {p.source}, tok->bos_id(), tok->eos_id(), tok->pad_id(), 1.5, 10, device, 1, true)
            .at(0);
    if (static_cast<int64_t>(p.target.size()) + 1 > cfg.block_size)
        p.target.resize(static_cast<size_t>(cfg.block_size - 1));
    return p;
}

TranslationAttention Translator::attention(const std::string& source, const std::string& target) {
    if (!d->model)
        throw InputError("no translation run is open");
    const auto pair = d->view_pair(source, target, "to see its attention");
    const auto& src = pair.source;
    const auto& tgt = pair.target;
    const bool fromModel = pair.target_from_model;
    const int64_t bos = d->tok->bos_id(), eos = d->tok->eos_id();
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

PositionTable Translator::positions(int64_t max_rows) const {
    if (!d->model)
        throw InputError("no translation run is open");
    const auto& wpe = d->model->decoder->wpe;
    return nn::viewer_position_table(d->cfg, wpe ? wpe->weight : torch::Tensor(), max_rows);
}

}  // namespace twb
