// Experiments: reference baselines for a prepared dataset, the learning-rate range finder, sweeps over
// config values with a results table, and the table of any folder of runs. Every figure is in the
// units the trainer reports (loss in nats per token, accuracy, perplexity, bits per character), so a
// baseline, a character model and a BPE model rank fairly. Long calls run on the calling thread and
// report through callbacks; stop them through the TrainControl they take. Public API; no torch.
#pragma once
#include "twb/config.h"
#include "twb/training.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace twb {

// ---------------------------------------------------------------- baselines

/// One baseline evaluated on the validation split.
struct BaselineResult {
    std::string name;     // "uniform", "unigram", "bigram"
    double loss = 0;      // nats per token
    double accuracy = 0;  // share of positions whose most probable token is the target
    double perplexity = 0;
    double bits_per_char = 0;
};

/// Uniform, unigram and bigram (add-k smoothed) models fitted on the train split of a prepared dataset
/// and evaluated on its validation split: position i predicts token i from token i-1 (the bigram) or
/// from nothing (uniform, unigram), every position of the split but the first. Throws InputError when
/// the split is shorter than two tokens.
std::vector<BaselineResult> evaluate_baselines(const std::filesystem::path& data_dir, double add_k = 1.0);

// ---------------------------------------------------------------- learning-rate range finder

struct LrFindOptions {
    RunConfig config;             // model, data and optimiser as the run would have them (schedule ignored)
    double min_lr = 1e-7;         // first learning rate
    double max_lr = 1.0;          // last learning rate (reached only when the loss does not diverge first)
    int steps = 100;              // optimiser steps, the rate growing exponentially from min_lr to max_lr
    double smoothing = 0.98;      // exponential moving average of the loss (debiased)
    double diverge_factor = 4.0;  // stop when the smoothed loss exceeds this times the best so far
};

struct LrFindPoint {
    int step = 0;
    double lr = 0;
    double loss = 0;      // this step's training loss
    double smoothed = 0;  // its moving average
};

struct LrFindResult {
    std::vector<LrFindPoint> curve;
    bool diverged = false;    // stopped early: the loss ran away
    double steepest_lr = 0;   // where the smoothed loss falls fastest against log(lr)
    double min_loss_lr = 0;   // where the smoothed loss is lowest
    double suggested_lr = 0;  // min_loss_lr / 10, the usual rule; steepest_lr is the other candidate
};

/// Trains a fresh model (nothing of any run is read or written) with an exponentially growing learning
/// rate and returns the loss curve with the suggestions. on_point returning false stops early.
LrFindResult find_learning_rate(const LrFindOptions& opt, const std::function<bool(const LrFindPoint&)>& on_point = {});

/// The curve as CSV (step,lr,loss,smoothed), written atomically.
void write_lr_curve(const std::filesystem::path& file, const LrFindResult& r);

// ---------------------------------------------------------------- sweeps

/// One swept config key and its values (as `--set` would take them).
struct SweepAxis {
    std::string key;
    std::vector<std::string> values;
};

/// "n_head=1,4,8,16" (a list), "learning_rate=1e-4..1e-1 log 4" (4 values spaced evenly in log),
/// "dropout=0..0.3 lin 4" (evenly spaced); the key must be a config key. Throws ConfigError.
SweepAxis parse_sweep_axis(const std::string& text);

/// A key that follows the swept ones: its value is the product of whole-number keys, set after the cell's
/// values (seed report 000's width = heads x head size).
struct SweepDerived {
    std::string key;
    std::vector<std::string> factors;
};

/// "n_embd=n_head*head_size": whole-number config keys only, the key not among its factors. Throws ConfigError.
SweepDerived parse_sweep_derived(const std::string& text);

struct SweepSpec {
    RunConfig base;  // every cell starts from this config
    std::vector<SweepAxis> axes;
    std::vector<SweepDerived> derived;  // applied in order after the axes' values
    int random_samples = 0;             // 0 = the full grid; N = N cells drawn from the grid without repeats
    uint64_t seed = 1;                  // for the random draw
};

/// One cell: the value of each axis, in the axes' order.
using SweepCell = std::vector<std::pair<std::string, std::string>>;

/// The cells of a sweep, in the order they run. Every cell's config is validated: a cell that is not a
/// valid config (3 heads for a width of 128) throws ConfigError naming it before anything runs.
std::vector<SweepCell> sweep_cells(const SweepSpec& spec);

/// The config of one cell.
RunConfig cell_config(const SweepSpec& spec, const SweepCell& cell);

/// The cell's run folder name inside the sweep folder ("003_n_head=4_n_embd=128").
std::string cell_name(size_t index, const SweepCell& cell);

struct SweepCallbacks {
    /// Before a cell starts (or resumes): its index, the number of cells and the cell.
    std::function<void(size_t index, size_t total, const SweepCell& cell, bool resumed)> on_cell_start;
    /// A finished or skipped cell.
    std::function<void(size_t index, const TrainSummary& summary, bool skipped)> on_cell_done;
    /// Asked before a cell that has not finished runs: true leaves it out of this pass (the GUI's
    /// "remove cell"); it is reported neither started nor done, and a later resume may run it.
    std::function<bool(size_t index)> skip_cell;
    TrainCallbacks train;  // every cell's training reports
};

/// Runs the sweep's cells one after another into SWEEP/<cell_name>/, ordinary run folders. The spec is
/// written to SWEEP/sweep.json first. When the folder already holds a sweep (resume), finished cells are
/// kept, an interrupted cell continues from its checkpoint, and the rest run. Returns true when every
/// cell finished, false when stopped through control.
bool run_sweep(const std::filesystem::path& sweep_dir, const SweepSpec& spec, const SweepCallbacks& callbacks = {},
               TrainControl* control = nullptr);

/// Writes SWEEP/sweep.json (the spec and its cells) atomically.
void write_sweep(const std::filesystem::path& sweep_dir, const SweepSpec& spec);
/// Reads SWEEP/sweep.json. Throws InputError/FormatError.
SweepSpec read_sweep(const std::filesystem::path& sweep_dir);

// ---------------------------------------------------------------- results table

/// One run of a folder, summarised from its config.json and metrics.csv.
struct RunSummary {
    std::string dir;                            // run folder
    std::string name;                           // its folder name
    std::string display_name;                   // run.json's name (run_info.h), else the folder name
    std::string notes;                          // run.json's notes
    std::string created;                        // UTC, ISO 8601 (run_info.h)
    std::map<std::string, std::string> config;  // every config key -> value as text
    std::string status;                         // "running" (a trainer holds it), "finished", "interrupted", "empty"
    int64_t steps = 0;                          // last step logged
    int64_t parameters = 0;
    double final_val_loss = NAN, best_val_loss = NAN;
    double accuracy = NAN;       // at the last evaluation
    double perplexity = NAN;     // exp(final val loss)
    double bits_per_char = NAN;  // at the last evaluation
    double tokens_per_s = NAN;   // median over logged steps
    double wall_s = NAN;         // training time
};

/// Every run directly under folder (and the folder itself when it is a run), sorted by name.
std::vector<RunSummary> collect_runs(const std::filesystem::path& folder);

/// The config keys whose values differ between the runs (what was swept), in config order.
std::vector<std::string> varied_keys(const std::vector<RunSummary>& runs);

/// The table: one row per run, or with group_repeats one row per setting of the varied keys other than
/// "seed", giving mean ± standard deviation of the losses, accuracy and bits per character.
std::string runs_table_markdown(const std::vector<RunSummary>& runs, bool group_repeats = true);
std::string runs_table_csv(const std::vector<RunSummary>& runs);

}  // namespace twb
