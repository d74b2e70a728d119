// The training spine: one class owns what every training run does, whatever the model: the run folder
// and its lock, the checkpoint state, metrics.csv, checkpoints and their pruning, timing, pause and stop,
// the optimiser and the schedule, the data-parallel averaging, the callbacks, the start and finish
// reports. A model family (model_family.h) plugs in its data, model, step and evaluation. The public
// entry point is twb::train (training.h), which runs one on the calling thread. Not thread-safe: only
// the TrainControl it is given may be touched from other threads.
#pragma once
#include "core/run/run_lock.h"
#include "nn/interchange/checkpoint.h"
#include "nn/step_trace.h"
#include "nn/training/communicator.h"
#include "nn/training/lanes.h"
#include "nn/training/model_family.h"
#include "nn/training/optimizer.h"
#include "nn/training/step_graph.h"
#include "nn/training/step_meter.h"
#include "twb/metrics.h"
#include "twb/precision.h"
#include "twb/tensorboard.h"
#include "twb/training.h"

#include <chrono>
#include <memory>

namespace twb::nn {

class TrainingRun {
public:
    TrainingRun(std::unique_ptr<ModelFamily> family, const TrainJob& job, const TrainCallbacks& callbacks,
                TrainControl* control);
    /// Runs to max_iters or until stopped (then a checkpoint is written first).
    TrainSummary run();

private:
    // The named steps, in the order run() takes them.
    void prepare();          // config checked against the dataset; lock, device, precision, seed, data, model
    void restore();          // optimiser; a fresh run's starting weights, or the last checkpoint's whole state
    void open_run_folder();  // tokenizer copies, config.json, metrics.csv, tb/, the probe
    void open_tensorboard();
    void log_row(const MetricsRow& row);  // metrics.csv and tb/
    void report_start();
    bool loop();  // pause, stop, evaluate, step, checkpoint-now; returns whether it stopped early
    bool stop_requested() const;
    void evaluate(int64_t step);    // the family's figures, the best so far, metrics row, callbacks, checkpoint
    void train_step(int64_t step);  // one optimiser step over the family's micro-batches
    /// The step's micro-batches forward and backward (gradients averaged over the ranks): the mean loss
    /// and the target tokens trained on; tokens -1 when a stop abandoned the step (nothing changed).
    std::pair<double, int64_t> forward_backward();
    /// Queued steps: after the step's update, whether the host reads its figures now.
    bool read_due() const;
    void checkpoint(double val_loss);
    TrainSummary finish();

    /// Throws naming the step and the last good checkpoint when the loss or gradients are not finite.
    void check_finite(double loss, int64_t step) const;
    /// Queued steps: waits for the device, throws as check_finite if a step since the last read was not
    /// finite, and returns the last step's loss and gradient norm.
    std::pair<double, double> read_queued();
    [[noreturn]] void diverged(const std::string& what) const;
    /// settled: the host waited for this step (always, unless steps are queued).
    void report_step(double loss, double lr, double grad_norm, double ms, double tokens, bool settled);
    void message(const std::string& text) const;
    double elapsed() const;

    std::unique_ptr<ModelFamily> m_family;
    TrainJob m_job;
    const TrainCallbacks& m_cb;
    TrainControl* m_ctl;
    RunConfig m_cfg;
    PreparedDataset m_data;
    std::filesystem::path m_runDir;
    std::unique_ptr<RunLock> m_lock;  // held from prepare() until the run is destroyed
    int m_threads = 0;
    torch::Device m_device{torch::kCPU};
    PrecisionChoice m_precision;  // what dtype (auto) resolved to, and why
    std::unique_ptr<FlatAdamW> m_opt;
    std::vector<torch::Tensor> m_trainable;  // the parameters with gradients, for the training lanes
    std::unique_ptr<Lanes> m_lanes;          // their threads, made at the first step that runs lanes
    std::unique_ptr<Communicator> m_comm;    // a multi-process run; null for one process
    bool m_writer = true;                    // rank 0 (or the only process) writes the run folder
    bool m_verifyEachStep = false;           // TWB_DIST_VERIFY=1: check the ranks' weights after every step
    // Queued steps (one process on a GPU; TWB_QUEUED_STEPS=1 on the CPU for the tests, =0 off): the host never
    // waits for a step. The loss and the gradient norm stay on the device, their finiteness is folded
    // into one flag, and the host reads them at a report, before an evaluation or a checkpoint, and at
    // the end (read_queued). A step that went non-finite is then refused; no checkpoint holds it.
    bool m_queued = false;
    torch::Tensor m_queuedLoss, m_queuedNorm, m_queuedFinite;  // the last step's; all steps' since a read
    int64_t m_readStep = 0;                                    // the step of the last read
    std::unique_ptr<StepGraph> m_graph;                 // queued steps of fixed shapes on a GPU: recorded and replayed
    bool m_graphTold = false;                           // whether the recording's outcome was said
    StepTrace m_trace{"TWB_TRACE", "TWB_TRACE_STEPS"};  // a profile of a few steps, when asked for
    CheckpointState m_state;
    bool m_skipFirstEval = false;  // a resumed run whose checkpoint had evaluated does not evaluate again
    std::unique_ptr<MetricsLog> m_metrics;
    std::unique_ptr<TensorBoardLog> m_tensorboard;  // RUN/tb/, the same rows (tensorboard=true)
    TrainSummary m_summary;
    double m_elapsedBefore = 0;
    std::chrono::steady_clock::time_point m_t0;
    StepMeter m_meter;
    bool m_localStop = false;  // on_step asked to stop
};

/// The family a job's model kind trains with.
std::unique_ptr<ModelFamily> family_for(const RunConfig& config);

/// The checks TrainingRun::prepare makes before it touches the run folder: the dataset opens, the
/// family adopts it (vocab size, kind), the config is valid and, unless the job skips it, the model fits
/// in memory. Writes nothing; the sweep runner checks every cell with it before the first one trains.
/// Returns the config as the run would train it; throws as prepare would.
RunConfig check_trainable(const TrainJob& job);

}  // namespace twb::nn
