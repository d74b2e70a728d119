// The encoder-decoder's side of training (model_kind=encoder_decoder; model_family.h) on a parallel
// dataset: token-budget batches of pairs (pair_batcher), padding excluded from loss and accuracy,
// max_epochs besides max_iters, and at each evaluation the validation loss, token accuracy and greedy
// BLEU on the first bleu_pairs validation pairs; the best checkpoint by val loss or BLEU (best_by); the
// cross-attention probe on the first validation pair. One process only.
#pragma once
#include "core/tokenizers/tokenizer.h"
#include "nn/models/seq2seq_model.h"
#include "nn/training/model_family.h"
#include "nn/training/pair_batcher.h"

#include <memory>

namespace twb::nn {

class Seq2SeqFamily : public ModelFamily {
public:
    void adopt_dataset(const PreparedDataset& data, RunConfig& cfg, const TrainJob& job) const override;
    std::string subject(const RunConfig&) const override { return "training this encoder-decoder"; }
    void open(const FamilyContext& ctx, RunConfig& cfg) override;
    /// init_from: the weights of another encoder-decoder run with the same tokenizer (finetuning, e.g. an
    /// imported Marian model on pairs prepared with --tokenizer-from).
    void initialise(const TrainJob& job) override;
    NamedWeights named_weights() const override { return m_model->named_weights(); }
    torch::nn::Module& module() override { return *m_model; }
    uint64_t batcher_state() const override { return m_train->state(); }
    void set_batcher_state(uint64_t state) override { m_train->set_state(state); }
    std::vector<std::pair<std::filesystem::path, std::filesystem::path>> tokenizer_folders(
        const std::filesystem::path& run_dir) const override;
    void start_probe(const std::filesystem::path& run_dir, bool resume) override;
    void describe(TrainStartInfo& info) const override;
    TrainBatch next_batch() override;
    MicroBatch forward(const TrainBatch& rows) override;
    FamilyEval evaluate(int64_t step) override;
    double epoch() const override { return m_train->epoch(); }

private:
    void report_data() const;                 // pairs, batches, skipped pairs, the BLEU subset
    void apply_epochs(RunConfig& cfg) const;  // max_epochs as steps: the lower budget wins
    double validation_bleu();

    FamilyContext m_ctx;
    const RunConfig* m_cfg = nullptr;
    PairIds m_ids;
    std::unique_ptr<PairBatcher> m_train, m_val;
    Seq2Seq m_model{nullptr};
    std::unique_ptr<Tokenizer> m_tok;
    std::unique_ptr<Tokenizer> m_srcTok;  // separate vocabularies: the source side's (else m_tok)
    std::filesystem::path m_runDir;
    std::vector<int32_t> m_probeSource, m_probeTarget;  // the cross-attention probe's pair; empty = none
};

}  // namespace twb::nn
