// twb bleu: corpus BLEU and chrF of a hypothesis file against a reference file, line by line.
#include "app/twb/commands.h"
#include "twb/bleu.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <cstdio>
#include <sstream>

namespace twb::cli {

Action add_bleu(CLI::App& app) {
    struct Opts {
        std::string ref, hyp;
        bool chrf = true;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--ref,-r", o->ref, "Reference translations, one per line")->required();
    app.add_option("--hyp", o->hyp, "Hypotheses (system output), one per line, aligned with --ref")->required();
    return [o]() {
        const auto refs = read_lines(o->ref), hyps = read_lines(o->hyp);
        if (refs.empty())
            throw InputError(o->ref + " has no lines; give the reference translations, one per line");
        if (refs.size() != hyps.size())
            throw InputError(o->hyp + " has " + std::to_string(hyps.size()) + " lines but " + o->ref + " has " +
                             std::to_string(refs.size()) + "; they must be line-aligned");
        const BleuScore b = corpus_bleu(hyps, refs);
        std::printf("BLEU = %.2f %.1f/%.1f/%.1f/%.1f (BP = %.3f ratio = %.3f hyp_len = %lld ref_len = %lld)\n", b.score,
                    b.precisions[0], b.precisions[1], b.precisions[2], b.precisions[3], b.brevity_penalty,
                    b.ref_length ? static_cast<double>(b.hyp_length) / static_cast<double>(b.ref_length) : 0.0,
                    static_cast<long long>(b.hyp_length), static_cast<long long>(b.ref_length));
        std::printf("signature: %s\n", b.signature.c_str());
        const ChrfScore c = corpus_chrf(hyps, refs);
        std::printf("chrF2 = %.2f\nsignature: %s\n", c.score, c.signature.c_str());
        return 0;
    };
}

}  // namespace twb::cli
