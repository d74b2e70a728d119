// Training the encoder-decoder (model_kind=encoder_decoder) on a parallel dataset: token-budget batches
// of pairs (pair_batcher), padding excluded from loss and accuracy, label smoothing, gradient
// accumulation, max_epochs besides max_iters, and at each evaluation the validation loss, token
// accuracy and greedy BLEU on the first bleu_pairs validation pairs, written to metrics.csv; the best
// checkpoint by val loss or BLEU (best_by). It shares the decoder LM's pieces rather than copying them:
// the schedule (schedule.h), the optimiser (FlatAdamW), checkpoints and exact resume (checkpoint.h,
// the run lock), metrics.csv (MetricsLog) and the masked loss (evaluator.h). One process only.
#pragma once
#include "core/run/run_lock.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/checkpoint.h"
#include "nn/optimizer.h"
#include "nn/pair_batcher.h"
#include "nn/seq2seq_model.h"
#include "nn/step_meter.h"
#include "twb/dataset.h"
#include "twb/metrics.h"
#include "twb/training.h"

#include <chrono>
#include <memory>

namespace twb::nn {

class Seq2SeqTrainer {
public:
    Seq2SeqTrainer(const TrainJob& job, const TrainCallbacks& callbacks, TrainControl* control);
    TrainSummary run();

private:
    template <class T>
    friend bool run_train_loop(T& t);
    void prepare();
    void restore();
    void open_run_folder();
    void evaluate(int64_t step);
    void train_step(int64_t step);
    void checkpoint(double val_loss);
    bool stop_requested() const;
    double elapsed() const;

    TrainJob m_job;
    const TrainCallbacks& m_cb;
    TrainControl* m_ctl;
    RunConfig m_cfg;
    PreparedDataset m_data;
    std::filesystem::path m_runDir;
    std::unique_ptr<RunLock> m_lock;
    int m_threads = 0;
    torch::Device m_device{torch::kCPU};
    bool m_bf16 = false;
    std::string m_dtype;
    std::string m_dtypeReason;  // why m_dtype: "auto: the CPU has avx512_bf16"
    PairIds m_ids;
    std::unique_ptr<PairBatcher> m_train, m_val;
    Seq2Seq m_model{nullptr};
    std::unique_ptr<FlatAdamW> m_opt;
    std::unique_ptr<MetricsLog> m_metrics;
    std::unique_ptr<Tokenizer> m_tok;
    std::unique_ptr<Tokenizer> m_srcTok;  // separate vocabularies: the source side's (else m_tok)
    CheckpointState m_state;
    bool m_skipFirstEval = false;
    TrainSummary m_summary;
    double m_elapsedBefore = 0;
    std::chrono::steady_clock::time_point m_t0;
    StepMeter m_meter;
    bool m_localStop = false;
    std::vector<int32_t> m_probeSource, m_probeTarget;  // the cross-attention probe's pair; empty = none
};

}  // namespace twb::nn
