// The table of a folder of runs: each run summarised from its config.json and metrics.csv, the keys that
// vary between them, and the table as Markdown (repeats grouped, mean ± sd) or CSV. Public API
// (twb_core); no torch.
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace twb {

/// One run of a folder, summarised from its config.json and metrics.csv.
struct RunSummary {
    std::string dir;                            // run folder
    std::string name;                           // its folder name
    std::string display_name;                   // run.json's name (run_info.h), else the folder name
    std::string notes;                          // run.json's notes
    std::string created;                        // UTC, ISO 8601 (run_info.h)
    std::string info_damage;                    // why run.json could not be read ("" = read, or none)
    std::map<std::string, std::string> config;  // every config key -> value as text
    // "running" (a trainer holds it), "finished", "stopped" (before max_iters: a Stop, a crash or a closed
    // window; it resumes), "imported" (a model imported at step 0, no dataset of its own), "empty" or
    // "damaged"
    std::string status;
    int64_t steps = 0;  // last step logged
    int64_t parameters = 0;
    double final_val_loss = NAN;
    // The lowest val loss of the evaluations after step 0 (each one a checkpoint; step 0's never is), and its
    // step (-1: none). For best_by=loss it is the best checkpoint's (checkpoints/best.json).
    double best_val_loss = NAN;
    int64_t best_step = -1;
    double accuracy = NAN;            // at the last evaluation
    double perplexity = NAN;          // exp(final val loss)
    double bits_per_char = NAN;       // at the last evaluation
    double best_bits_per_char = NAN;  // at best_step's evaluation (beside best_val_loss)
    // An encoder-decoder's validation BLEU (metrics.csv's val_bleu): at the last evaluation, and the highest
    // after step 0 (for best_by=bleu, the best checkpoint's).
    double bleu = NAN;
    double best_bleu = NAN;
    double tokens_per_s = NAN;  // median over logged steps
    double wall_s = NAN;        // training time
};

/// Every run directly under folder (and the folder itself when it is a run), sorted by name.
std::vector<RunSummary> collect_runs(const std::filesystem::path& folder);

/// Whether every word of `words` (split at spaces) occurs in the run's name, folder name, dataset (its
/// folder's name), notes or status, ASCII letters in any case: "shakes bpe stopped". True for no words.
bool run_matches(const RunSummary& run, const std::string& words);

/// The config keys whose values differ between the runs (what was swept), in config order.
std::vector<std::string> varied_keys(const std::vector<RunSummary>& runs);

/// The table: one row per run, or with group_repeats one row per setting of the varied keys other than
/// "seed", giving mean ± standard deviation of the losses, accuracy and bits per character. A column of
/// the best validation BLEU joins when a run has one (translation runs); the CSV always has bleu and
/// best_bleu.
std::string runs_table_markdown(const std::vector<RunSummary>& runs, bool group_repeats = true);
std::string runs_table_csv(const std::vector<RunSummary>& runs);

}  // namespace twb
