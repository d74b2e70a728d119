// The `twb` subcommands. Each registers its options on a CLI11 app and returns the exit status.
// They only parse, call the engine and print; no engine logic lives here.
#pragma once
#include <CLI/CLI.hpp>
#include <atomic>
#include <functional>

namespace twb::cli {

/// twb --version and twb doctor print it.
inline constexpr const char* kVersion = "0.1.0";

/// A subcommand's action, run after parsing; returns the process exit status.
using Action = std::function<int()>;

Action add_prepare(CLI::App& app);
Action add_tokenize(CLI::App& app);
Action add_datasets(CLI::App& app);
Action add_synth(CLI::App& app);
Action add_doctor(CLI::App& app);
Action add_train(CLI::App& app);
Action add_eval(CLI::App& app);
Action add_sample(CLI::App& app);
Action add_chat(CLI::App& app);
Action add_attention(CLI::App& app);
Action add_lens(CLI::App& app);
Action add_attribute(CLI::App& app);
Action add_ablate(CLI::App& app);
Action add_sweep(CLI::App& app);
Action add_runs(CLI::App& app);
Action add_label(CLI::App& app);
Action add_export_metrics(CLI::App& app);
Action add_lr_find(CLI::App& app);
Action add_baselines(CLI::App& app);
Action add_bleu(CLI::App& app);
Action add_export(CLI::App& app);
Action add_generate_eval(CLI::App& app);
Action add_embeddings(CLI::App& app);
Action add_import(CLI::App& app);
Action add_translate(CLI::App& app);
/// twb eval on an encoder-decoder run: loss, accuracy, BLEU and chrF of a split.
int eval_translation(const std::string& run, const std::string& checkpoint, const std::string& split,
                     const std::string& data, int beam);

}  // namespace twb::cli
