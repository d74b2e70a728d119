// twb generate-eval: every prompt of a file generated with every decoding setting, and the table.
#include "app/twb/commands.h"
#include "app/twb/interrupt.h"
#include "app/twb/progress_line.h"
#include "twb/errors.h"
#include "twb/generation_eval.h"
#include "twb/output_paths.h"
#include "twb/session.h"
#include "twb/text.h"

#include <cstdio>
#include <sstream>

namespace twb::cli {

namespace {
std::vector<std::string> nonempty_lines(const std::string& file) {
    auto out = read_lines(file);
    while (!out.empty() && out.back().empty())
        out.pop_back();
    return out;
}
}  // namespace

Action add_generate_eval(CLI::App& app) {
    struct Opts {
        std::string run, checkpoint = "best", prompts, references, out, format = "markdown";
        std::vector<std::string> settings;
        int maxNew = 100;
        int64_t seed = 1;
        bool quiet = false, force = false;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder (or checkpoint folder) to generate with")->required();
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    app.add_option("--prompts", o->prompts, "Prompts, one per line")->required();
    app.add_option("--references", o->references, "Reference continuations, one per prompt: adds BLEU");
    app.add_option("--setting", o->settings,
                   "A decoding setting, repeatable: greedy | temperature=0.8,top_k=40 | beam=5,length_penalty=1.0 | "
                   "top_p=0.9 ...")
        ->required();
    app.add_option("--max-new-tokens,-n", o->maxNew, "Tokens per generation unless a setting says otherwise (100)");
    app.add_option("--seed", o->seed, "Seed of sampling settings unless a setting says otherwise (1)");
    app.add_option("--format", o->format, "markdown (default) or csv")->check(CLI::IsMember({"markdown", "csv"}));
    app.add_option("--out,-o", o->out, "Also write the table and every output to this file (Markdown)");
    app.add_flag("--force", o->force, "Replace an existing --out file");
    app.add_flag("--quiet,-q", o->quiet, "No progress line");
    return [o]() {
        if (!o->out.empty())
            check_output_file(o->out, {o->run, o->prompts, o->references}, o->force);
        const auto prompts = nonempty_lines(o->prompts);
        const auto refs = o->references.empty() ? std::vector<std::string>{} : nonempty_lines(o->references);
        // Said of the file, before a model is loaded: an empty one was "no prompts", or BLEU left out unsaid.
        if (prompts.empty())
            throw InputError(o->prompts + ": no prompts in it (every line is blank); give one prompt per line");
        if (!o->references.empty() && refs.empty())
            throw InputError(o->references + ": no references in it (every line is blank); give one per prompt");
        ModelSession session;
        session.open(o->run, o->checkpoint);
        SamplingOptions base;
        base.max_new_tokens = o->maxNew;
        base.seed = o->seed;
        std::vector<DecodingSetting> settings;
        for (const auto& s : o->settings)
            settings.push_back(parse_decoding_setting(s, base));
        const auto& stop = install_interrupt_flag();
        ProgressLine bar(!o->quiet);
        const auto rows = evaluate_generations(session, prompts, refs, settings, [&](size_t done, size_t total) {
            bar.update("generating", done, total);
            return !stop.load();
        });
        bar.finish();
        if (stop.load()) {
            std::fprintf(
                stderr, "twb: cancelled after %zu of %zu settings%s\n", rows.size(), settings.size(),
                rows.empty() ? ": nothing to show, and --out is not written" : ": the rows below are all there is");
            if (rows.empty())
                return 130;
        }
        const std::string table = o->format == "csv" ? generation_eval_csv(rows) : generation_eval_markdown(rows);
        std::fwrite(table.data(), 1, table.size(), stdout);
        const std::string scored = "Log-probabilities and perplexity scored in " + session.scoring_precision() + ".\n";
        if (o->format != "csv")
            std::printf("\n%s", scored.c_str());
        if (!o->out.empty()) {
            std::string report =
                "# Generations of " + session.checkpoint() + "\n\n" + generation_eval_markdown(rows) + "\n" + scored;
            for (const auto& r : rows) {
                report += "\n## " + r.setting + "\n\n";
                for (size_t i = 0; i < r.outputs.size(); ++i) {
                    std::string text = r.outputs[i];  // one list item per output: newlines shown as ⏎
                    for (size_t p = text.find('\n'); p != std::string::npos; p = text.find('\n', p))
                        text.replace(p, 1, " ⏎ ");
                    report += std::to_string(i + 1) + ". **" + prompts[i] + "**" + text + "\n";
                }
            }
            write_file_atomic(o->out, report);
        }
        return stop.load() ? 130 : 0;
    };
}

}  // namespace twb::cli
