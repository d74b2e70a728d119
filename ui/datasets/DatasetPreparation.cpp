#include "ui/datasets/DatasetPreparation.h"

#include "twb/text.h"
#include "ui/jobs/JobContext.h"

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

TokenizerAnalysis analysis(const twb::TokenizerSpec& spec, const twb::TokenizerInspection& r) {
    TokenizerAnalysis a;
    a.label = TokenizeTab::label(spec);
    a.stats = r.stats;
    a.trainTokens = r.train_tokens;
    a.valTokens = r.val_tokens;
    a.counts = r.counts;
    // A byte token (0x00-0x1f, or a lone byte of a longer UTF-8 character) is no text: its picture or
    // "\x80" tells the tokens apart where they all showed as one box or "�".
    for (const auto& t : r.token_texts)
        a.tokenTexts << q(twb::printable_text(t));
    a.previewIds = r.preview_ids;
    return a;
}
}  // namespace

namespace DatasetPreparation {

Prepared prepare(const twb::PrepareOptions& options, JobContext& ctx) {
    const auto r = twb::prepare_dataset(options, ctx.stageProgress());
    Prepared p{q(r.dir.string()), {}, {}};
    for (const auto& w : r.warnings)
        p.warnings << q(w);
    // What was prepared, as Tokenize would have shown it: the tab said "Tokenize to see statistics." after a
    // Prepare. Read back from the dataset (one pass over its tokens), with the tokenizer it was given.
    // A dataset that cannot be read back is still prepared: the tab then keeps its note.
    try {
        p.analysis = analysis(options.tokenizer, twb::inspect_prepared(r.dir));
    } catch (const std::exception&) {
    }
    return p;
}

twb::ParallelPrepareResult prepareParallel(const twb::ParallelPrepareOptions& options, JobContext& ctx) {
    return twb::prepare_parallel(options, ctx.stageProgress());
}

twb::ChatPrepareResult prepareChat(const twb::ChatPrepareOptions& options, JobContext& ctx) {
    return twb::prepare_chat(options, ctx.stageProgress());
}

TokenizerAnalysis inspect(const twb::PrepareOptions& options, JobContext& ctx) {
    return analysis(options.tokenizer, twb::inspect_tokenization(options, ctx.stageProgress()));
}

}  // namespace DatasetPreparation
