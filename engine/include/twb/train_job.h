// What a training job is and what it reports: TrainJob, the reports (start, step, evaluation, summary),
// the callbacks and TrainControl, the only object meant to be touched from other threads (stop, pause,
// resume, checkpoint-now). Torch-free data, shared by the trainer (twb::train, training.h), metrics.csv
// (metrics.h), the GUI worker and `twb train`. Public API (twb_core).
#pragma once
#include "twb/config.h"
#include "twb/distributed.h"

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace twb {

struct TrainStartInfo {
    int64_t parameters = 0;
    int64_t start_step = 0;
    int threads = 0;
    std::string device;
    std::string device_name;   // the device in words: "cuda:0 (NVIDIA H200, 139.8 GiB)", "cpu (AMD EPYC 7B13)"
    std::string dtype;         // the precision in force: float32 or bfloat16 (what auto chose)
    std::string dtype_reason;  // why: "auto: the CPU has avx512_bf16", "asked for"
    std::string run_dir;
    RunConfig config;  // as used (vocab_size filled in)
    uint64_t train_tokens = 0, val_tokens = 0;
    int rank = 0, world_size = 1;  // a multi-process run: this process's rank and the number of ranks
    int64_t global_batch = 0;      // sequences per optimiser step over all ranks: world * batch * accumulation
};

struct StepReport {
    int64_t step = 0;  // optimiser steps done after this one
    int64_t max_iters = 0;
    double loss = 0;  // mean training loss of this step's micro-batches
    double lr = 0;
    double grad_norm = 0;
    double ms_per_step = 0;  // mean over the steps since the last report
    double tokens_per_s = 0;
    double elapsed_s = 0;              // training time of the run so far (resumes add up)
    double comm_ms_per_step = 0;       // multi-process runs: time in the gradient all-reduce, mean per step
    std::string dtype;                 // the precision in force: float32 or bfloat16
    double epoch = NAN;                // encoder-decoder: passes over the training pairs so far
    uint64_t device_memory_used = 0;   // a CUDA run: device memory in use (device-wide), bytes; 0 on the CPU
    uint64_t device_memory_total = 0;  // and the device's total; 0 when not known
};

struct EvalReport {
    int64_t step = 0;
    double train_loss = 0, train_accuracy = 0, val_loss = 0, val_accuracy = 0, val_perplexity = 0, val_bpc = 0;
    bool is_best = false;
    double elapsed_s = 0;
    double val_bleu = NAN;  // encoder-decoder: greedy BLEU on the first bleu_pairs validation pairs
    double epoch = NAN;     // encoder-decoder: passes over the training pairs so far
};

struct TrainSummary {
    int64_t final_step = 0;
    bool stopped = false;  // stopped early by request
    double last_val_loss = NAN;
    double best_val_loss = NAN;
    int64_t best_step = -1;
    double elapsed_s = 0;
    double median_ms_per_step = 0;
    int64_t parameters = 0;
    std::string run_dir;
};

/// Callbacks, all optional, all called on the training thread. on_step returning false stops the run.
struct TrainCallbacks {
    std::function<void(const TrainStartInfo&)> on_start;
    std::function<bool(const StepReport&)> on_step;
    std::function<void(const EvalReport&)> on_eval;
    std::function<void(const std::string& path, int64_t step)> on_checkpoint;
    std::function<void(const std::string& message)> on_message;
    /// A pause took effect: the run waits with `step` steps done (the step under way when pause() was
    /// called is finished first). A stop while paused checkpoints this step.
    std::function<void(int64_t step)> on_pause;
};

/// Thread-safe controls for a running job.
class TrainControl {
public:
    void request_stop() {
        m_stop = true;
        wake();
    }
    /// Async-signal-safe variant for a SIGINT handler: only sets the flag (the loop checks it every step).
    void request_stop_from_signal() { m_stop = true; }
    bool stop_requested() const { return m_stop; }
    void pause() { m_pause = true; }
    void resume() {
        m_pause = false;
        wake();
    }
    bool paused() const { return m_pause; }
    /// A checkpoint of the step now: after the step under way, or at once while paused.
    void request_checkpoint() {
        m_save = true;
        wake();
    }
    bool take_checkpoint_request() { return m_save.exchange(false); }
    /// Blocks the training thread while paused (returns at once when not paused, when stopping or when a
    /// checkpoint is asked for).
    void wait_while_paused() {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_cv.wait(lock, [&] { return !m_pause || m_stop || m_save; });
    }

private:
    /// The waiter checks its flags under the mutex: taking it once after a flag is set means the wakeup
    /// cannot fall between that check and the wait.
    void wake() {
        { std::lock_guard<std::mutex> lock(m_mutex); }
        m_cv.notify_all();
    }

    std::atomic<bool> m_stop{false}, m_pause{false}, m_save{false};
    std::mutex m_mutex;
    std::condition_variable m_cv;
};

struct TrainJob {
    RunConfig config;                      // config.data_dir names the prepared dataset
    std::string run_dir;                   // where config.json, metrics.csv and checkpoints/ go
    bool resume = false;                   // continue from the run's last checkpoint
    std::string init_from;                 // run folder or checkpoint folder whose weights start this run (finetuning)
    std::string init_checkpoint = "best";  // with init_from: best | last | step number
    DistributedEnv distributed;            // world_size > 1: one rank of a data-parallel run (rank 0 writes run_dir)
    bool skip_memory_check = false;        // train even when the memory estimate exceeds the available memory
};

}  // namespace twb
