#include "ui/datasets/DatasetPreparation.h"

#include "ui/jobs/JobContext.h"

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
}  // namespace

namespace DatasetPreparation {

Prepared prepare(const twb::PrepareOptions& options, JobContext& ctx) {
    const auto r = twb::prepare_dataset(options, ctx.stageProgress());
    Prepared p{q(r.dir.string()), {}};
    for (const auto& w : r.warnings)
        p.warnings << q(w);
    return p;
}

twb::ParallelPrepareResult prepareParallel(const twb::ParallelPrepareOptions& options, JobContext& ctx) {
    return twb::prepare_parallel(options, ctx.stageProgress());
}

twb::ChatPrepareResult prepareChat(const twb::ChatPrepareOptions& options, JobContext& ctx) {
    return twb::prepare_chat(options, ctx.stageProgress());
}

TokenizerAnalysis inspect(const twb::PrepareOptions& options, JobContext& ctx) {
    TokenizerAnalysis a;
    a.label = TokenizeTab::label(options.tokenizer);
    const auto r = twb::inspect_tokenization(options, ctx.stageProgress());
    a.stats = r.stats;
    a.trainTokens = r.train_tokens;
    a.valTokens = r.val_tokens;
    a.counts = r.counts;
    for (const auto& t : r.token_texts)
        a.tokenTexts << q(t);
    a.previewIds = r.preview_ids;
    return a;
}

}  // namespace DatasetPreparation
