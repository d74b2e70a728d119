// The head ablation job's order, the same for both model families (ModelSession, Translator): the loss with
// nothing off, with the typed set off, then with each head off alone; progress after each evaluation, and a
// cancel keeps the rows so far.
#include "twb/inspection.h"

#include <chrono>

namespace twb {

AblationTable run_ablation_table(const HeadLayout& layout, const AblationOptions& opt, const AblationLoss& loss_with,
                                 const InspectionProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    AblationTable t;
    t.split = opt.split;
    t.layers = layout.layers;
    t.heads = layout.heads;
    t.encoder_layers = layout.encoder_layers;
    t.set = opt.heads;
    const auto every = opt.every_head ? layout.all() : std::vector<HeadRef>{};
    const int total = 1 + (opt.heads.empty() ? 0 : 1) + static_cast<int>(every.size());
    int done = 0;
    auto loss = [&](const std::vector<HeadRef>& off) {
        const double l = loss_with(off, t.tokens);
        ++done;
        return l;
    };
    auto go_on = [&] { return !progress || progress(done, total); };
    auto finish = [&](bool cancelled) {
        t.cancelled = cancelled;
        t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return t;
    };
    t.base_loss = loss({});
    t.set_loss = t.base_loss;
    if (!go_on())
        return finish(true);
    if (!opt.heads.empty()) {
        t.set_loss = loss(opt.heads);
        if (!go_on())
            return finish(true);
    }
    for (const auto& h : every) {
        const double l = loss({h});
        t.every_head.push_back({h, l, l - t.base_loss});
        if (!go_on())
            return finish(true);
    }
    return finish(false);
}

}  // namespace twb
