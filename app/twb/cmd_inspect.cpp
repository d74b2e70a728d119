// twb lens / attribute / ablate: the views inside a model (issue 39) through ModelSession, or Translator
// for a translation run, as the GUI's Attention panel and Sampling console show them.
#include "app/twb/commands.h"
#include "app/twb/interrupt.h"
#include "app/twb/progress_line.h"
#include "twb/errors.h"
#include "twb/inspection.h"
#include "twb/output_paths.h"
#include "twb/session.h"
#include "twb/text.h"
#include "twb/translation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace twb::cli {

namespace {
struct Common {
    std::string run, checkpoint = "best", csv;
    bool json = false, force = false;

    void add_to(CLI::App& app, const char* csvWhat) {
        app.add_option("--run,-r", run, "Run folder (from twb train or twb import) or a checkpoint folder")->required();
        app.add_option("--checkpoint", checkpoint, "best (default), last or a step number");
        app.add_flag("--json", json, "Print the whole result as JSON instead of the table");
        app.add_option("--csv", csv, csvWhat)->type_name("FILE")->check([](const std::string& v) {
            return v.empty() ? std::string("an empty file name (give FILE, or leave --csv out)") : std::string();
        });
        app.add_flag("--force", force, "Replace an existing --csv FILE");
    }
    /// Checks the output before the model loads.
    void checkOutput() const {
        if (!csv.empty())
            check_output_file(csv, {run}, force);
    }
    void write(const std::string& csvText, const std::string& jsonText) const {
        if (!csv.empty())
            write_file_atomic(csv, csvText);
        if (json)
            std::fwrite(jsonText.data(), 1, jsonText.size(), stdout);
    }
};

/// A token as the tables show it: whitespace made visible, cut to `width` characters (not bytes) with "~",
/// padded to that width.
std::string shown(const std::string& token, size_t width) {
    const std::string v = visible_whitespace(token);
    std::string out;
    size_t chars = 0;
    for (size_t i = 0; i < v.size() && chars < width;) {
        const size_t n = std::max<size_t>(1, utf8_sequence_length(v, i));
        if (chars + 1 == width && i + n < v.size()) {
            out += '~';
            ++chars;
            break;
        }
        out += v.substr(i, n);
        i += n;
        ++chars;
    }
    return out + std::string(width - chars, ' ');
}

std::string cell(const std::string& token, double p) {
    char b[16];
    std::snprintf(b, sizeof b, " %3.0f%%", 100 * p);
    return shown(token, 8) + b;
}
}  // namespace

Action add_lens(CLI::App& app) {
    struct Opts : Common {
        std::string prompt, target;
        int top = 5, last = 8;
    };
    auto o = std::make_shared<Opts>();
    o->add_to(app, "Write every stage, position and top token as CSV to FILE");
    app.add_option("--prompt,-p", o->prompt, "Text to look through (a translation run: the source sentence)")
        ->required();
    app.add_option("--target", o->target,
                   "A translation run only: the target, teacher-forced (default: the model's greedy translation)");
    app.add_option("--top", o->top, "Tokens per cell in the JSON and CSV (default 5)")->check(CLI::Range(1, 100));
    app.add_option("--last", o->last, "The table shows the last N positions (default 8; --json and --csv all)")
        ->check(CLI::Range(1, 100000));
    return [o]() {
        LogitLens lens;
        int64_t step = 0;
        o->checkOutput();
        if (is_encoder_decoder_run(o->run)) {  // the decoder's layers, over <bos> + the target
            Translator t;
            t.open(o->run, o->checkpoint);
            lens = t.logit_lens(o->prompt, o->target, o->top);
            step = t.step();
            // The translation the columns are, as twb attention says it (only its last tokens are shown)
            if (o->target.empty()) {
                std::string target;
                for (size_t i = 1; i < lens.tokens.size(); ++i)  // after <bos>
                    target += lens.tokens[i];
                std::fprintf(stderr, "target (the model's greedy translation): %s\n", target.c_str());
            }
        } else {
            if (!o->target.empty())
                throw InputError("--target is for translation (encoder-decoder) runs; " + o->run +
                                 " is a decoder LM: drop --target");
            ModelSession m;
            m.open(o->run, o->checkpoint);
            lens = m.logit_lens(o->prompt, o->top);
            step = m.step();
            // Said, as twb attention says it: the lens covers the last block_size tokens only.
            if (const size_t n = m.encode(o->prompt).size(); static_cast<int64_t>(n) > lens.positions)
                std::fprintf(stderr,
                             "twb: warning: the text has %zu tokens; the lens shows the last %lld (block_size)\n", n,
                             static_cast<long long>(lens.positions));
        }
        o->write(lens_to_csv(lens), lens_to_json(lens));
        if (o->json)
            return 0;
        const int64_t first = std::max<int64_t>(0, lens.positions - o->last);
        std::printf(
            "logit lens at step %lld: each stage's most probable next token (and its probability); "
            "[r] is the rank there of the model's final choice\n%-10s",
            static_cast<long long>(step), "");
        for (int64_t p = first; p < lens.positions; ++p)
            std::printf(" | %s", shown(lens.tokens[static_cast<size_t>(p)], 19).c_str());
        std::printf("\n");
        for (int64_t s = 0; s < lens.stages; ++s) {
            std::printf("%-10s", LogitLens::stage_name(s).c_str());
            for (int64_t p = first; p < lens.positions; ++p) {
                const auto& top = lens.at(s, p).front();
                std::printf(
                    " | %s %-5s", cell(top.text, top.prob).c_str(),
                    ("[" + std::to_string(lens.final_rank[static_cast<size_t>(s * lens.positions + p)]) + "]").c_str());
            }
            std::printf("\n");
        }
        return 0;
    };
}

namespace {
/// The translation's attribution as a table: a row per target token, a column per source token, and the
/// earlier target token it leans on most.
void print_translation_attribution(const TranslationAttribution& a, int64_t step) {
    // Values of 1e-3 printed as +0.00 said nothing: below 0.1 the table is in a power of ten, named.
    double top = 0;  // the source columns' largest (the target's own tokens are often far larger)
    for (size_t t = 0; t < a.output_ids.size(); ++t)
        for (size_t s = 0; s < a.source_ids.size(); ++s)
            top = std::max(top, std::abs(a.source(t, s)));
    const int power = top > 0 && top < 0.1 ? static_cast<int>(std::floor(std::log10(top))) : 0;
    const double unit = std::pow(10.0, power);
    char scale[48] = "";
    if (power != 0)
        std::snprintf(scale, sizeof scale, "; the source's columns in units of 1e%d", power);
    std::printf(
        "gradient x input at step %lld: each target token (row) over the source's tokens (columns) and the "
        "earlier target tokens%s%s\n%-12s %6s |",
        static_cast<long long>(step), a.target_from_model ? " (the model's own translation)" : "", scale, "target",
        "P");
    for (const auto& s : a.source_tokens)
        std::printf(" %s", shown(s, 7).c_str());
    std::printf(" | most from the target before it\n");
    for (size_t t = 0; t < a.output_ids.size(); ++t) {
        std::printf("%s %6.3f |", shown(a.output_tokens[t], 12).c_str(), a.output_prob[t]);
        for (size_t s = 0; s < a.source_ids.size(); ++s)
            std::printf(" %+7.2f", a.source(t, s) / unit);
        size_t best = 0;
        for (size_t u = 1; u <= t; ++u)
            if (std::abs(a.input(t, u)) > std::abs(a.input(t, best)))
                best = u;
        std::printf(" | %s %+.2f\n", visible_whitespace(a.input_tokens[best]).c_str(), a.input(t, best));
    }
}
}  // namespace

Action add_attribute(CLI::App& app) {
    struct Opts : Common {
        std::string prompt, target;
    };
    auto o = std::make_shared<Opts>();
    o->add_to(app, "Write each context token's attribution as CSV to FILE");
    app.add_option("--prompt,-p", o->prompt,
                   "The context: the text before the target (a translation run: the source sentence)")
        ->required();
    app.add_option("--target", o->target,
                   "The token that follows the prompt (one token of the model's tokenizer); a translation run: "
                   "the whole target, teacher-forced (default: the model's greedy translation)");
    return [o]() {
        o->checkOutput();
        if (is_encoder_decoder_run(o->run)) {
            Translator t;
            t.open(o->run, o->checkpoint);
            const auto a = t.attribute(o->prompt, o->target);
            o->write(attribution_to_csv(a), attribution_to_json(a));
            if (!o->json)
                print_translation_attribution(a, t.step());
            return 0;
        }
        if (o->target.empty())
            throw InputError("give --target: the token that follows the prompt, whose sources you want to see");
        ModelSession m;
        m.open(o->run, o->checkpoint);
        const auto a = m.attribute(o->prompt, o->target);
        if (const size_t n = m.encode(o->prompt).size(); n > a.ids.size())
            std::fprintf(stderr, "twb: warning: the prompt has %zu tokens; the model sees the last %zu (block_size)\n",
                         n, a.ids.size());
        o->write(attribution_to_csv(a), attribution_to_json(a));
        if (o->json)
            return 0;
        std::printf("\"%s\" after the prompt: P = %.4f at step %lld\n", visible_whitespace(a.target_text).c_str(),
                    a.target_prob, static_cast<long long>(m.step()));
        std::printf("%8s  %-12s %14s %9s\n", "position", "token", "grad x input", "rollout");
        for (size_t i = 0; i < a.ids.size(); ++i)
            std::printf("%8zu  %s %+14.5f %9.4f\n", i, shown(a.tokens[i], 12).c_str(), a.gradient_x_input[i],
                        a.rollout[i]);
        return 0;
    };
}

namespace {
struct AblateOpts : Common {
    std::string heads, data, split = "val", prompt;
    bool all = false;
    int64_t maxTokens = 16384;
    int newTokens = 100;
    int64_t seed = 1;

    AblationOptions options(const HeadLayout& layout) const {
        AblationOptions opt;
        opt.heads = parse_heads(heads, layout);
        opt.every_head = all;
        opt.data_dir = data;
        opt.split = split;
        opt.max_tokens = maxTokens;
        return opt;
    }
};

/// Runs the table with a progress line that Ctrl-C cancels, writes its files, prints it; 130 when
/// cancelled.
int ablation(const AblateOpts& o, int64_t step, const std::function<AblationTable(const InspectionProgress&)>& run) {
    const auto& stop = install_interrupt_flag();
    ProgressLine line(!o.json);
    const auto t = run([&](int done, int total) {
        line.update("ablation", static_cast<uint64_t>(done), static_cast<uint64_t>(total));
        return !stop.load();
    });
    line.finish();
    o.write(ablation_to_csv(t), ablation_to_json(t));
    if (!o.json) {
        std::printf("%s loss over %lld %stokens at step %lld (nats per token; cost = loss - loss with every head)\n",
                    t.split.c_str(), static_cast<long long>(t.tokens), t.encoder_layers ? "target " : "",
                    static_cast<long long>(step));
        std::printf("%-24s %9s %9s\n", "heads off", "loss", "cost");
        std::printf("%-24s %9.4f %9s\n", "none", t.base_loss, "");
        if (!t.set.empty())
            std::printf("%-24s %9.4f %+9.4f\n", o.heads.substr(0, 24).c_str(), t.set_loss, t.set_loss - t.base_loss);
        auto rows = t.every_head;
        std::stable_sort(rows.begin(), rows.end(),
                         [](const HeadCost& a, const HeadCost& b) { return a.cost > b.cost; });
        for (const auto& r : rows)
            std::printf("%-24s %9.4f %+9.4f\n", to_string(r.head).c_str(), r.loss, r.cost);
        std::printf("%.1f s%s\n", t.seconds, t.cancelled ? ", cancelled: the rows above are all there is" : "");
    }
    return t.cancelled ? 130 : 0;
}

/// A translation run: its three attentions' heads; --prompt is a source sentence, translated greedily
/// with every head and with --heads off.
int ablate_translation(const AblateOpts& o) {
    Translator tr;
    tr.open(o.run, o.checkpoint);
    const AblationOptions opt = o.options(tr.head_layout());
    const int rc = ablation(o, tr.step(), [&](const InspectionProgress& p) { return tr.ablation_table(opt, p); });
    if (rc != 0 || o.prompt.empty() || o.json)
        return rc;
    const auto with = tr.translate({o.prompt}).front();
    tr.set_ablated_heads(opt.heads);
    const auto without = tr.translate({o.prompt}).front();
    std::printf("\nevery head, greedy:\n%s\n\nwith %s off, greedy:\n%s\n", with.c_str(), o.heads.c_str(),
                without.c_str());
    return 0;
}
}  // namespace

Action add_ablate(CLI::App& app) {
    auto o = std::make_shared<AblateOpts>();
    o->add_to(app, "Write the table (heads off, loss, cost) as CSV to FILE");
    app.add_option("--heads", o->heads,
                   "Heads to switch off together: LAYER.HEAD from 0, comma-separated (1.0,2.3), LAYER.* for a "
                   "whole layer; a translation run: enc.L.H, cross.L.H (and L.H for the decoder's own)");
    app.add_flag("--all", o->all, "Also switch off every head alone, one evaluation each: what each head is worth");
    app.add_option("--data", o->data, "Evaluate on this prepared dataset (default: the run's own)");
    app.add_option("--split", o->split, "val (default) or train")->check(CLI::IsMember({"val", "train"}));
    app.add_option("--max-tokens", o->maxTokens, "Tokens scored per evaluation (default 16384; 0 = the whole split)")
        ->check(CLI::Range(int64_t{0}, int64_t{1} << 40));
    app.add_option("--prompt,-p", o->prompt,
                   "Also generate from this prompt with and without the --heads switched off (same seed); a "
                   "translation run: translate this source sentence");
    auto* newTokens = app.add_option("--max-new-tokens,-n", o->newTokens, "Tokens --prompt generates (default 100)")
                          ->check(CLI::Range(1, 100000));
    auto* seed = app.add_option("--seed", o->seed, "Seed of the --prompt generations (default 1)");
    return [o, newTokens, seed]() {
        if (o->heads.empty() && !o->all)
            throw InputError("say which heads to switch off: --heads L.H,... (from 0), or --all for every head alone");
        if (!o->prompt.empty() && o->heads.empty())
            throw InputError("--prompt compares the text with and without --heads: give --heads too");
        // What only a --prompt generation uses, without one or where a translation (greedy, to <eos>) has
        // no use for it, was ignored without a word.
        const bool translation = is_encoder_decoder_run(o->run);
        for (const CLI::Option* opt : {newTokens, seed})
            if (opt->count() > 0 && (o->prompt.empty() || translation))
                throw ConfigError(opt->get_name() + (translation ? " is for a language model's --prompt generation; "
                                                                   "a translation is greedy and ends at <eos>"
                                                                 : " is for the --prompt generation: give --prompt"));
        o->checkOutput();
        if (translation)
            return ablate_translation(*o);
        ModelSession m;
        m.open(o->run, o->checkpoint);
        const auto& c = m.config();
        const AblationOptions opt = o->options({static_cast<int>(c.n_layer), static_cast<int>(c.n_head), 0});
        const int rc = ablation(*o, m.step(), [&](const InspectionProgress& p) { return m.ablation_table(opt, p); });
        if (rc != 0 || o->prompt.empty() || o->json)
            return rc;
        SamplingOptions s;
        s.max_new_tokens = o->newTokens;
        s.seed = o->seed;
        const auto ids = m.encode(o->prompt);
        const auto with = m.generate(ids, s);
        m.set_ablated_heads(opt.heads);
        const auto without = m.generate(ids, s);
        std::printf("\nevery head, seed %lld:\n%s%s\n\nwith %s off, seed %lld:\n%s%s\n",
                    static_cast<long long>(o->seed), o->prompt.c_str(), with.texts.front().c_str(), o->heads.c_str(),
                    static_cast<long long>(o->seed), o->prompt.c_str(), without.texts.front().c_str());
        return 0;
    };
}

}  // namespace twb::cli
