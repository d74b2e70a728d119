// The trainer: one training job as a short loop over named steps (prepare, restore, open the run
// folder, evaluate, step, checkpoint, finish). The public entry point is twb::train (training.h), which
// runs a Trainer on the calling thread. Not thread-safe: only the TrainControl it is given may be
// touched from other threads.
#pragma once
#include "core/data/token_file.h"
#include "core/run/run_lock.h"
#include "nn/batcher.h"
#include "nn/checkpoint.h"
#include "nn/communicator.h"
#include "nn/model.h"
#include "nn/optimizer.h"
#include "nn/step_meter.h"
#include "twb/dataset.h"
#include "twb/metrics.h"
#include "twb/precision.h"
#include "twb/training.h"

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace twb::nn {

class Trainer {
public:
    Trainer(const TrainJob& job, const TrainCallbacks& callbacks, TrainControl* control);
    /// Runs to max_iters or until stopped (then a checkpoint is written first).
    TrainSummary run();

private:
    template <class T>
    friend bool run_train_loop(T& t);
    // The named steps, in the order run() takes them.
    void prepare();          // config checked against the dataset, device, threads, model, optimiser, data
    void open_documents();   // sequences=documents: the validated document indexes and special ids
    void restore();          // weights of init_from and embeddings_from, or the run's last checkpoint's whole state
    void open_run_folder();  // tokenizer copy, config.json, metrics.csv, the attention probe
    void report_start();
    bool stop_requested() const;
    void evaluate(int64_t step);    // both splits, metrics row, probe capture, callbacks, checkpoint
    void train_step(int64_t step);  // one optimiser step over the accumulated micro-batches
    void checkpoint(double val_loss);
    TrainSummary finish();

    /// Mean loss of this step's micro-batches (gradients accumulated in the model).
    double forward_backward();
    /// Throws naming the step and the last good checkpoint when the loss or gradients are not finite.
    void check_finite(double loss, int64_t step) const;
    void report_step(double loss, double lr, double grad_norm, double ms);
    double elapsed() const;

    TrainJob m_job;
    const TrainCallbacks& m_cb;
    TrainControl* m_ctl;
    RunConfig m_cfg;
    PreparedDataset m_data;
    std::filesystem::path m_runDir;
    std::unique_ptr<RunLock> m_lock;  // held from prepare() until the trainer is destroyed
    int m_threads = 0;
    torch::Device m_device{torch::kCPU};
    PrecisionChoice m_precision;  // what dtype (auto) resolved to, and why
    bool m_bf16 = false;
    std::unique_ptr<TokenFile> m_trainFile, m_valFile;
    bool m_haveVal = false;
    double m_valCharsPerToken = 1;  // of the split evaluated as "val": bits per character divide by it
    GPT m_model{nullptr};
    std::unique_ptr<FlatAdamW> m_opt;
    std::unique_ptr<Communicator> m_comm;  // a multi-process run; null for one process
    bool m_writer = true;                  // rank 0 (or the only process) writes the run folder
    bool m_verifyEachStep = false;         // TWB_DIST_VERIFY=1: check the ranks' weights after every step
    std::unique_ptr<Batcher> m_batcher;
    DocumentIndex m_trainDocs, m_valDocs;                      // sequences=documents: the splits' indexes
    std::optional<DocumentSource> m_trainDocSrc, m_valDocSrc;  // set in documents mode only
    CheckpointState m_state;
    bool m_skipFirstEval = false;  // a resumed run whose checkpoint had evaluated does not evaluate again
    std::unique_ptr<MetricsLog> m_metrics;
    std::vector<int32_t> m_probe;  // ids of the attention probe; empty = no probe
    TrainSummary m_summary;
    double m_elapsedBefore = 0;
    std::chrono::steady_clock::time_point m_t0;
    int64_t m_tokensPerStep = 0;
    StepMeter m_meter;
    bool m_localStop = false;  // on_step asked to stop
};

}  // namespace twb::nn
