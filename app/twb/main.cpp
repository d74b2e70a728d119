// twb: the headless command line over the engine. Thin: parses, dispatches, reports errors.
#include "app/twb/commands.h"
#include "app/twb/launcher.h"
#include "twb/errors.h"
#include "twb/process.h"

#include <iostream>

int main(int argc, char** argv) {
    twb::ensure_openmp_wait_policy(argv);
    CLI::App app{
        "twb - Transformer Workbench command line: prepare data, train, evaluate and sample "
        "small transformer language models"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "twb 0.1.0");
    std::vector<std::pair<CLI::App*, twb::cli::Action>> cmds;
    auto reg = [&](const char* name, const char* help, twb::cli::Action (*add)(CLI::App&)) {
        CLI::App* sub = app.add_subcommand(name, help);
        cmds.emplace_back(sub, add(*sub));
    };
    reg("prepare", "Read, clean and tokenize a corpus into DIR/{train.bin,val.bin,meta.json}", twb::cli::add_prepare);
    reg("tokenize", "Encode stdin to token ids (or decode ids with --decode) with a prepared dataset's tokenizer",
        twb::cli::add_tokenize);
    reg("datasets", "List the dataset catalogue and presets", twb::cli::add_datasets);
    reg("synth", "Write a synthetic task (addition, copy, reverse, sort) as text, one example per line",
        twb::cli::add_synth);
    reg("doctor", "Print versions, BLAS library, threads and device", twb::cli::add_doctor);
    reg("train", "Train a GPT model on a prepared dataset", twb::cli::add_train);
    reg("eval", "Evaluate a run's checkpoint: loss, accuracy, perplexity, bits/char", twb::cli::add_eval);
    reg("sample", "Generate text from a trained run", twb::cli::add_sample);
    reg("attention", "Write the attention weights of every layer and head for a prompt as JSON",
        twb::cli::add_attention);
    reg("embeddings",
        "Explore a run's token embeddings: nearest tokens of a word, similarity of two texts, a 2-D map (PCA)",
        twb::cli::add_embeddings);
    reg("sweep", "Train a grid (or a random draw) of configs, one run per cell; resumable; prints the results table",
        twb::cli::add_sweep);
    reg("runs", "Print the results table of a folder of runs (a sweep or any folder)", twb::cli::add_runs);
    reg("lr-find", "Learning-rate range finder: the loss against an exponentially growing rate, with suggestions",
        twb::cli::add_lr_find);
    reg("baselines", "Uniform, unigram and bigram baselines of a prepared dataset, in the models' units",
        twb::cli::add_baselines);
    reg("bleu",
        "Corpus BLEU (sacreBLEU's default: 13a, exp smoothing) and chrF of a hypothesis file against references",
        twb::cli::add_bleu);
    reg("generate-eval",
        "Generate every prompt of a file with several decoding settings and compare them: speed, perplexity under "
        "the model, distinct-n, repetition, BLEU",
        twb::cli::add_generate_eval);
    twb::cli::set_command_line(argc, argv);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    try {
        for (auto& [sub, action] : cmds)
            if (sub->parsed())
                return action();
    } catch (const twb::Cancelled&) {
        std::cerr << "twb: cancelled\n";
        return 130;
    } catch (const std::exception& e) {
        std::cerr << "twb: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
