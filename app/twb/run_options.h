// The options every command that builds a training config shares (sweep, lr-find): a preset, a config
// file over it, then --set over both, and the dataset; registered once and turned into a RunConfig.
// The key list of their --help (and twb train's) comes from the option table, as `twb keys` does.
#pragma once
#include "twb/config.h"
#include "twb/train_job.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace twb::cli {

struct RunOptions {
    std::string data, configFile, preset = "default";
    std::vector<std::string> sets;

    /// Adds --data, --preset, --config and --set to a subcommand.
    void add_to(CLI::App& app);
    /// preset -> config file -> --set, then --data; throws ConfigError/InputError. dataFromAxis: a sweep
    /// whose axis names the datasets, so the base has none.
    RunConfig config(bool dataFromAxis = false) const;
};

/// Each --set over the config, in order. A key given twice is said on stderr (the last counts, as in
/// nanoGPT); a key the run's model family does not use (max_epochs on a decoder LM) is refused, since it
/// would do nothing, unless set to its default (which undoes a preset's). A learning_rate given below the config's
/// min_lr takes min_lr to a tenth of it (said on stderr) unless min_lr is given too. Throws ConfigError.
void apply_sets(RunConfig& cfg, const std::vector<std::string>& sets);

/// The config file's keys over cfg (none when configFile is empty), then apply_sets. A key of the file
/// that the run's model family does not use is said on stderr. Throws ConfigError/InputError.
void apply_file_and_sets(RunConfig& cfg, const std::string& configFile, const std::vector<std::string>& sets);

/// --data over the config's data_dir: a --set data_dir=... naming another folder beside --data is refused
/// (one of the two would be dropped without a word); neither given is refused too, unless dataFromAxis
/// (then either given is refused: the axis would override it). Throws ConfigError.
void set_dataset(RunConfig& cfg, const std::string& data, const std::vector<std::string>& sets,
                 bool dataFromAxis = false);

/// "best val loss 1.8234 (step 2000)", or "best val BLEU 31.20 (step 800)" when the run chose its best by
/// BLEU (TrainSummary keeps the negated BLEU, so that lower is better either way).
std::string best_text(const TrainSummary& s, BestBy by);

/// The --help footer of a command that takes --set: every config key by group, with its default.
std::string config_keys_footer();
/// twb keys: the option table (twb/config_options.h), every key or the ones named.
std::function<int()> add_keys(CLI::App& app);

}  // namespace twb::cli
