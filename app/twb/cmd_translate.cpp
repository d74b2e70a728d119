// twb translate: an encoder-decoder run translates lines (a file or stdin), one line out per line in,
// progress on stderr; and what twb eval prints for a translation run.
#include "app/twb/commands.h"
#include "app/twb/interrupt.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "twb/translation.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <iterator>

namespace twb::cli {

namespace {
void add_decoding_options(CLI::App& app, TranslateOptions& t) {
    app.add_option("--beam", t.beam_width, "Beam width; 1 = greedy, batched over lines (default 1)");
    app.add_option("--length-penalty", t.length_penalty, "Beam search: score / length^this (default 1.0)");
    app.add_option("--max-ratio", t.max_length_ratio,
                   "A translation stops after this many tokens per source token, plus --max-extra (default 1.5)");
    app.add_option("--max-extra", t.max_length_extra, "Tokens allowed beyond --max-ratio (default 10)");
    app.add_option("--batch-size", t.batch_size, "Greedy: source lines per encoder pass (default 32)");
    app.add_flag_function(
        "--no-kv-cache", [&t](int64_t) { t.use_kv_cache = false; },
        "Recompute the whole prefix at each step (same output, slower)");
}

bool has_text(const std::string& line) {
    return line.find_first_not_of(" \t\r\f\v") != std::string::npos;
}

/// "line 3" or "lines 3, 7, 9, 12, 15, ...": the first five of lines numbered from 1.
std::string line_list(const std::vector<size_t>& lines) {
    std::string which = lines.size() == 1 ? "line " : "lines ";
    for (size_t i = 0; i < lines.size() && i < 5; ++i)
        which += (i ? ", " : "") + std::to_string(lines[i]);
    return which + (lines.size() > 5 ? ", ..." : "");
}

TranslateProgress stderr_progress(bool quiet) {
    const auto& interrupted = install_interrupt_flag();
    // A terminal sees the count redrawn in place; a log (stderr not a terminal) gets the final count alone,
    // not every count run together by carriage returns.
    const bool terminal = ::isatty(2);
    return [&interrupted, quiet, terminal](size_t done, size_t total) {
        if (!quiet && terminal) {
            std::fprintf(stderr, "\rtranslated %zu/%zu", done, total);
            if (done == total)
                std::fprintf(stderr, "\n");
        } else if (!quiet && done == total) {
            std::fprintf(stderr, "translated %zu/%zu\n", done, total);
        }
        return !interrupted.load();
    };
}
}  // namespace

Action add_translate(CLI::App& app) {
    struct Opts {
        std::string run, input, checkpoint = "best";
        TranslateOptions t;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder of an encoder-decoder run (or a checkpoint folder)")->required();
    app.add_option("--input,-i", o->input, "Source lines to translate (default: stdin)");
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    add_decoding_options(app, o->t);
    app.add_flag("--quiet,-q", o->quiet, "No progress on stderr");
    return [o]() {
        o->t.validate();
        Translator tr;
        tr.open(o->run, o->checkpoint);
        std::string text;
        if (o->input.empty() || o->input == "-")
            text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        else
            text = read_file(o->input);
        const auto lines = text_lines(text, o->input.empty() ? "stdin" : o->input);
        // Blank lines come out blank without a pass of the model, so the count that follows leaves them out.
        const auto blank =
            static_cast<size_t>(std::count_if(lines.begin(), lines.end(), [](const auto& l) { return !has_text(l); }));
        const std::string blanks = blank ? " (" + std::to_string(blank) + " blank, kept blank)" : "";
        if (!o->quiet)
            std::fprintf(stderr, "checkpoint %s (step %lld), %zu line%s%s, %s\n", tr.checkpoint().c_str(),
                         static_cast<long long>(tr.step()), lines.size(), lines.size() == 1 ? "" : "s", blanks.c_str(),
                         o->t.beam_width > 1 ? ("beam " + std::to_string(o->t.beam_width)).c_str() : "greedy");
        // Translated a block at a time and written as it comes, so a Ctrl-C keeps the lines done (in their
        // places: the output's line N is still the input's line N). A block is one greedy batch or one beam.
        const size_t total = lines.size() - blank;
        const size_t perBlock = o->t.beam_width > 1 ? 1 : static_cast<size_t>(o->t.batch_size);
        const TranslateProgress progress = stderr_progress(o->quiet);
        std::vector<size_t> empty, cropped, limited;  // numbered from 1
        size_t done = 0, written = 0;
        try {
            while (written < lines.size()) {
                size_t end = written, texts = 0;
                while (end < lines.size() && (texts < perBlock || !has_text(lines[end])))
                    texts += has_text(lines[end++]);
                const std::vector<std::string> block(lines.begin() + static_cast<long>(written),
                                                     lines.begin() + static_cast<long>(end));
                const auto outs =
                    tr.translate(block, o->t, [&](size_t d, size_t) { return progress(done + d, total); });
                for (size_t i = 0; i < outs.size(); ++i) {
                    std::printf("%s\n", outs[i].c_str());
                    // A line with text whose translation has none.
                    if (!has_text(outs[i]) && has_text(block[i]))
                        empty.push_back(written + i + 1);
                }
                std::fflush(stdout);
                for (size_t l : tr.cropped_lines())
                    cropped.push_back(written + l);
                for (size_t l : tr.limited_lines())
                    limited.push_back(written + l);
                done += texts;
                written = end;
            }
        } catch (const Cancelled&) {
            std::fprintf(stderr, "twb: stopped: the first %zu of %zu lines are written\n", written, lines.size());
            return 130;
        }
        // Blank lines out and nothing said why: an early checkpoint writes only special tokens.
        if (!empty.empty())
            std::fprintf(stderr,
                         "twb: warning: %zu translation%s came out empty (%s): the model wrote no text (only "
                         "special tokens); at step %lld it may not have learned to translate yet: "
                         "train it further, or try another --checkpoint\n",
                         empty.size(), empty.size() == 1 ? "" : "s", line_list(empty).c_str(),
                         static_cast<long long>(tr.step()));
        // Said even with --quiet: the output is partial.
        if (const auto& cut = cropped; !cut.empty())
            std::fprintf(stderr,
                         "twb: warning: %zu line%s longer than the model's %lld source tokens %s translated from "
                         "%s first %lld only (%s); split long sentences\n",
                         cut.size(), cut.size() == 1 ? "" : "s", static_cast<long long>(tr.max_source_tokens()),
                         cut.size() == 1 ? "was" : "were", cut.size() == 1 ? "its" : "their",
                         static_cast<long long>(tr.max_source_tokens()), line_list(cut).c_str());
        if (const auto& cut = limited; !cut.empty())
            std::fprintf(stderr,
                         "twb: warning: %zu translation%s reached the length limit before the model ended %s (%s) "
                         "and may be unfinished; the limit is --max-ratio %g x source tokens + --max-extra %d, at "
                         "most the model's %lld\n",
                         cut.size(), cut.size() == 1 ? "" : "s", cut.size() == 1 ? "it" : "them",
                         line_list(cut).c_str(), o->t.max_length_ratio, o->t.max_length_extra,
                         static_cast<long long>(tr.max_source_tokens()));
        return 0;
    };
}

int eval_translation(const std::string& run, const std::string& checkpoint, const std::string& split,
                     const std::string& data, int beam) {
    Translator tr;
    tr.open(run, checkpoint);
    std::printf("checkpoint %s (step %lld)\n", tr.checkpoint().c_str(), static_cast<long long>(tr.step()));
    std::fflush(stdout);  // before the progress on stderr (on a terminal "translated 301/301" came first)
    TranslateOptions t;
    t.beam_width = beam;
    const TranslationEval e = tr.evaluate(split, t, data, stderr_progress(false));
    std::printf("%s: %lld pairs (%lld longer than block_size skipped), %lld target tokens, %s\n", e.split.c_str(),
                static_cast<long long>(e.pairs), static_cast<long long>(e.skipped),
                static_cast<long long>(e.target_tokens),
                beam > 1 ? ("beam " + std::to_string(beam)).c_str() : "greedy");
    std::printf("loss        %.4f\naccuracy    %.4f\n", e.loss, e.accuracy);
    std::printf("BLEU        %.2f (references: the split's target ids decoded; %s)\n", e.bleu.score,
                e.bleu.signature.c_str());
    std::printf("chrF2       %.2f\n", e.chrf.score);
    return 0;
}

}  // namespace twb::cli
