// twb-torch: the headless command line over the whole engine (libtorch included). Thin: parses, dispatches,
// reports errors. `twb` itself (light_main.cpp) runs what needs no libtorch and hands every other command
// line to this program.
#include "app/twb/commands.h"
#include "app/twb/launcher.h"
#include "app/twb/run_action.h"
#include "app/twb/run_options.h"
#include "twb/errors.h"
#include "twb/process.h"
#include "twb/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {
/// The subcommands, in the order --help lists them.
struct Command {
    const char* name;
    const char* help;
    twb::cli::Action (*add)(CLI::App&);
};
const Command kCommands[] = {
    {"prepare", "Read, clean and tokenize a corpus into DIR/{train.bin,val.bin,meta.json}", twb::cli::add_prepare},
    {"tokenize", "Encode stdin to token ids (or decode ids with --decode) with a prepared dataset's tokenizer",
     twb::cli::add_tokenize},
    {"datasets", "List the dataset catalogue and presets", twb::cli::add_datasets},
    {"synth",
     "Write a synthetic task (addition, copy, reverse, sort) as text, one example per line, or instructions as "
     "JSON records",
     twb::cli::add_synth},
    {"doctor", "Print versions, BLAS library, threads and device", twb::cli::add_doctor},
    {"train", "Train a model on a prepared dataset (a GPT language model, or a translation model on parallel data)",
     twb::cli::add_train},
    {"eval", "Evaluate a run's checkpoint: loss, accuracy, perplexity, bits/char", twb::cli::add_eval},
    {"sample", "Generate text from a trained run", twb::cli::add_sample},
    {"chat", "Chat with a run in the chat template (instruction-tuned with twb prepare --chat): turns, history kept",
     twb::cli::add_chat},
    {"translate", "Translate lines with an encoder-decoder run (greedy or beam search), one line out per line in",
     twb::cli::add_translate},
    {"attention",
     "Write the attention weights of every layer and head for a prompt (a translation run: encoder, decoder "
     "and cross-attention of a sentence pair) as JSON",
     twb::cli::add_attention},
    {"lens", "Logit lens: what each layer already predicts at every position of a prompt", twb::cli::add_lens},
    {"attribute",
     "Which earlier tokens a token depends on: gradient x input and attention rollout over the prompt (a "
     "translation run: every target token over the source)",
     twb::cli::add_attribute},
    {"ablate",
     "Switch heads off and measure the validation loss (and the generated text): one head, a set, or every head",
     twb::cli::add_ablate},
    {"embeddings",
     "Explore a run's token embeddings: nearest tokens of a word, similarity of two texts, a 2-D map (PCA)",
     twb::cli::add_embeddings},
    {"keys", "Describe the run-config keys: type, default, range, choices, model family and what each does",
     twb::cli::add_keys},
    {"sweep", "Train a grid (or a random draw) of configs, one run per cell; resumable; prints the results table",
     twb::cli::add_sweep},
    {"runs", "Print the results table of a folder of runs (a sweep or any folder)", twb::cli::add_runs},
    {"label", "Print or set a run's name and notes (RUN/run.json)", twb::cli::add_label},
    {"export-metrics", "Write a run's curves as TensorBoard event files (RUN/tb/) from its metrics.csv",
     twb::cli::add_export_metrics},
    {"lr-find", "Learning-rate range finder: the loss against an exponentially growing rate, with suggestions",
     twb::cli::add_lr_find},
    {"baselines", "Uniform, unigram and bigram baselines of a prepared dataset, in the models' units",
     twb::cli::add_baselines},
    {"bleu", "Corpus BLEU (sacreBLEU's default: 13a, exp smoothing) and chrF of a hypothesis file against references",
     twb::cli::add_bleu},
    {"generate-eval",
     "Generate every prompt of a file with several decoding settings and compare them: speed, perplexity under "
     "the model, distinct-n, repetition, BLEU",
     twb::cli::add_generate_eval},
    {"import",
     "Import a Hugging Face folder (GPT-2 family or Marian/opus-mt: config.json, model.safetensors and its "
     "tokenizer files) or a safetensors export as a run",
     twb::cli::add_import},
    {"export",
     "Export a run's checkpoint: Hugging Face layout (--format hf: GPT-2's, or Marian's for a translation run), "
     "plain safetensors, or GGUF for llama.cpp (--format gguf)",
     twb::cli::add_export},
};

/// CLI11's parse errors in twb's words. "Could not convert: --seed = 1e99" did not say what was wrong with
/// the value; "--max-new-tokens: At Most 1 required but received 2" read as CLI11's, capitals and all.
std::string parse_error_text(std::string what) {
    const std::string cannot = "Could not convert: ", eq = " = ", once = ": At Most 1 required but received ";
    if (what.rfind(cannot, 0) == 0) {
        what = what.substr(cannot.size());
        const size_t at = what.find(eq);
        const std::string value = at == std::string::npos ? std::string() : what.substr(at + eq.size());
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        const bool number = !value.empty() && end && *end == '\0';
        return what + (!number              ? " is not a value that option takes: a number is wanted"
                       : v != std::floor(v) ? " is a fraction; that option takes a whole number"
                                            : " is out of the range that option takes");
    }
    if (const size_t at = what.find(once); at != std::string::npos)
        return what.substr(0, at) + " is given " + what.substr(at + once.size()) + " times; give it once";
    return what;
}
/// The number of single-letter edits between a and b (for "did you mean").
size_t edits(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

/// "unknown option --rn (did you mean --run?)" for the first option of the command line that neither the
/// command nor twb itself has, or "". CLI11 checks required options first: a misspelt --run was reported as
/// "--run is required" (exit 106), and a misspelt optional one as "The following arguments were not expected:
/// 0.5 --temprature".
std::string unknown_option(const CLI::App& app, int argc, char** argv) {
    const CLI::App* sub = nullptr;
    for (const CLI::App* c : app.get_subcommands([](const CLI::App*) { return true; }))
        if (c->parsed())
            sub = c;
    if (!sub)
        return {};
    auto names = [](const CLI::App* a) {
        std::vector<std::string> all;
        for (const CLI::Option* o : a->get_options()) {
            for (const auto& l : o->get_lnames())
                all.push_back("--" + l);
            for (const auto& n : o->get_snames())
                all.push_back("-" + n);
        }
        return all;
    };
    std::vector<std::string> known = names(sub);
    for (const auto& n : names(&app))
        known.push_back(n);
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--")
            break;
        char* end = nullptr;
        std::strtod(arg.c_str(), &end);
        if (arg.size() < 2 || arg[0] != '-' || (end && *end == '\0'))  // a value ("-0.5" too)
            continue;
        const std::string name = arg.substr(0, arg.find('='));
        if (std::find(known.begin(), known.end(), name) != known.end() ||
            (name.size() > 2 && name[1] != '-'))  // -n40: a short option with its value
            continue;
        std::string best;
        size_t bestEdits = 3;  // at most two letters off
        for (const auto& k : known)
            if (const size_t e = k.size() > 2 ? edits(name, k) : bestEdits; e < bestEdits)
                bestEdits = e, best = k;
        return "unknown option " + twb::printable_text(name) +
               (best.empty() ? std::string(" for twb ") + sub->get_name() : " (did you mean " + best + "?)") +
               " (see twb " + sub->get_name() + " --help)";
    }
    return {};
}
}  // namespace

int main(int argc, char** argv) {
    twb::ensure_openmp_wait_policy(argv);
    CLI::App app{
        "twb - Transformer Workbench command line: prepare data, train, evaluate and sample "
        "small transformer language models"};
    app.require_subcommand(1);
    app.fallthrough();  // --verbose after the subcommand too
    app.set_version_flag("--version", std::string("twb ") + twb::cli::kVersion);
    std::vector<std::pair<CLI::App*, twb::cli::Action>> cmds;
    for (const Command& c : kCommands) {
        CLI::App* sub = app.add_subcommand(c.name, c.help);
        cmds.emplace_back(sub, c.add(*sub));
    }
    twb::cli::set_command_line(argc, argv);
    std::string names;
    bool known = false;
    for (const Command& c : kCommands) {
        names += (names.empty() ? "" : ", ") + std::string(c.name);
        known = known || (argc > 1 && std::string(argv[1]) == c.name);
    }
    if (argc > 1 && argv[1][0] != '-' && !known) {  // CLI11 said "A subcommand is required", not which word
        std::cerr << "twb: error: '" << twb::printable_text(argv[1]) << "' is not a twb command; the commands are "
                  << names << " (twb --help describes each)\n";
        return 106;
    }
    bool verbose = std::getenv("TWB_VERBOSE") != nullptr;
    app.add_flag("--verbose", verbose, "On an error, print the full message (a library's stack trace too)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // a required option "missing" or arguments "not expected": a mistyped option, named
        const bool unexpected =
            dynamic_cast<const CLI::RequiredError*>(&e) || dynamic_cast<const CLI::ExtrasError*>(&e);
        if (const std::string unknown = unexpected ? unknown_option(app, argc, argv) : std::string();
            !unknown.empty()) {
            std::cerr << "twb: error: " << unknown << "\n";
            return static_cast<int>(CLI::ExitCodes::ExtrasError);
        }
        // CLI11 would print two lines; every twb error is one.
        const std::string what = parse_error_text(e.what());
        std::cerr << "twb: error: " << twb::cli::one_line(what, false) << " (see twb --help or twb COMMAND --help)\n";
        return e.get_exit_code() ? e.get_exit_code() : 1;
    }
    for (auto& [sub, action] : cmds)
        if (sub->parsed())
            twb::cli::finish(twb::cli::run_action(action, verbose));
    return 0;
}
