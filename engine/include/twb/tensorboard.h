// RUN/tb/, the run's curves as TensorBoard event files, so TensorBoard (and the tools that read its
// files) show a run beside others. A mirror of metrics.csv and probe/, its sources: every number of every row
// becomes a scalar (tensorboard_scalars names them), the config is a text summary at step 0, and each
// evaluation's attention probe (RUN/probe/) is a grey picture per layer, heads side by side
// ("attention/layer_N", an encoder-decoder's "cross_attention/layer_N"). The
// trainer rebuilds tb/ from metrics.csv when it opens a run (a resumed run's rows after the checkpoint are
// gone from both, so TensorBoard never shows a step twice) and appends each new row, flushed, so
// TensorBoard follows a run live. export_tensorboard does the same for a run made before (`twb
// export-metrics`). The record format is core/run/tfevents.* (hand-written: see there). Public API.
#pragma once
#include "twb/config.h"
#include "twb/metrics.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace twb {

/// One scalar of a metrics row: its TensorBoard tag ("train/loss", "eval/val_bleu", ...) and value.
struct TensorBoardScalar {
    std::string tag;
    double value = 0;
};
/// The scalars a metrics row becomes (the row's step is theirs; values rounded to metrics.csv's 6
/// significant digits, so tb/ holds the CSV's numbers); values the row lacks (NaN) are left out.
/// Train rows: train/loss, train/lr, train/tokens_per_s, train/ms_per_step, train/epoch. Evaluation
/// rows: eval/<column> for train_loss, val_loss, val_accuracy, train_accuracy, val_perplexity, val_bpc,
/// val_bleu.
std::vector<TensorBoardScalar> tensorboard_scalars(const MetricsRow& row);
/// The tag of the config's text summary (at step 0).
inline constexpr const char* kTensorBoardConfigTag = "config";

/// RUN/tb/ written live by the trainer.
class TensorBoardLog {
public:
    /// Replaces RUN/tb/ (atomically: a temporary folder renamed) with one event file holding the config
    /// (config.json's JSON) and rows, and keeps that file open for append. A row's wall time is now_wall minus the
    /// training time between it (elapsed_s) and now_elapsed. Throws IoError when the folder cannot be written.
    TensorBoardLog(const std::filesystem::path& run_dir, const nlohmann::json& config,
                   const std::vector<MetricsRow>& rows, double now_wall, double now_elapsed);
    ~TensorBoardLog();
    TensorBoardLog(const TensorBoardLog&) = delete;
    TensorBoardLog& operator=(const TensorBoardLog&) = delete;
    /// Appends the row's scalars (wall time: now) and, for an evaluation, the probe's pictures of its step
    /// when RUN/probe/ has them; flushes, so TensorBoard reads them at once.
    void append(const MetricsRow& row);
    const std::filesystem::path& file() const { return m_file; }
    /// The probe's pictures written so far.
    int64_t images() const { return m_images; }

private:
    std::FILE* m_f = nullptr;
    std::filesystem::path m_file, m_runDir;
    int64_t m_images = 0;
};

struct TensorBoardExport {
    std::filesystem::path event_file;
    int64_t rows = 0, scalars = 0, images = 0;  // images: the probe's pictures
};
/// Rebuilds RUN/tb/ from RUN/metrics.csv and RUN/config.json (for runs made before tb/ existed, or with
/// tensorboard=false). Throws InputError when run_dir is not a run (no config.json or metrics.csv) or a
/// trainer holds it now, IoError when tb/ cannot be written.
TensorBoardExport export_tensorboard(const std::filesystem::path& run_dir);

/// Removes RUN/tb/ (tensorboard=false); true when there was one.
bool remove_tensorboard(const std::filesystem::path& run_dir);

/// Seconds since the Unix epoch, now (an event's wall time).
double wall_clock_now();

}  // namespace twb
