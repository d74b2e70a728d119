// RUN/metrics.csv, its one owner: one row per logged step and per evaluation, appended as training
// goes, so the GUI opening a finished run and other tools read the curves back. And the figures every
// evaluation reports, each computed from its definition in one place (split_metrics). Public API.
#pragma once
#include "twb/train_job.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace twb {

/// One metrics row; NaN marks a value the row does not have.
struct MetricsRow {
    int64_t step = 0;
    std::string kind;  // "train" (a logged step) or "eval"
    double train_loss = NAN, val_loss = NAN, val_accuracy = NAN, val_perplexity = NAN, val_bpc = NAN;
    double lr = NAN, ms_per_step = NAN, tokens_per_s = NAN, elapsed_s = NAN;
    double train_accuracy = NAN;  // eval rows: accuracy on the training split (beside val_accuracy)
    std::string dtype;            // train rows: the precision in force (float32 or bfloat16; what auto chose)
    double val_bleu = NAN;        // eval rows of an encoder-decoder: greedy BLEU on the first bleu_pairs val pairs
    double epoch = NAN;           // encoder-decoder: passes over the training pairs so far
};

class MetricsLog {
public:
    /// Opens (creating with a header) path. When resume_step >= 0, rows of the part of the run that is
    /// redone are dropped first: training rows after resume_step, evaluations from resume_step on
    /// (the one at resume_step is kept when keep_eval_at_resume, i.e. the checkpoint had evaluated).
    /// A new run (resume_step < 0) replaces an existing file: a run stopped before its first checkpoint.
    MetricsLog(const std::filesystem::path& path, int64_t resume_step = -1, bool keep_eval_at_resume = false);
    ~MetricsLog();
    MetricsLog(const MetricsLog&) = delete;
    MetricsLog& operator=(const MetricsLog&) = delete;
    void append(const MetricsRow& row);
    /// Lines of the resumed file that were no row of ours (damaged, or not a metrics file): left out.
    int64_t dropped_lines() const { return m_dropped; }

private:
    std::FILE* m_f = nullptr;
    int64_t m_dropped = 0;
};

/// The row a training report becomes, and back (the GUI shows a finished run's rows as reports).
MetricsRow metrics_row(const StepReport& r);
MetricsRow metrics_row(const EvalReport& r);
StepReport step_report(const MetricsRow& row);
EvalReport eval_report(const MetricsRow& row);

/// Reads a metrics.csv (unknown columns ignored, missing ones NaN). Throws InputError if unreadable.
std::vector<MetricsRow> read_metrics(const std::filesystem::path& path);

/// The figures of one evaluated split, from the mean loss (nats per token) and accuracy.
struct SplitMetrics {
    double loss = 0, accuracy = 0;
    double perplexity = 0;     // exp(loss)
    double bits_per_char = 0;  // loss / ln 2 / chars_per_token: comparable across tokenizers
};
SplitMetrics split_metrics(double loss, double accuracy, double chars_per_token);

}  // namespace twb
