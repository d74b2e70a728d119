// The decoder LM's side of training (model_family.h): a token stream or documents (sequences=documents)
// in random block_size windows, next-token loss, evaluation on random batches of both splits, starting
// weights from another run (init_from) or word vectors (embeddings_from), a chat dataset's loss on the
// replies only (its loss spans: sequences=documents is then implied), and the attention probe: one
// fixed prompt captured at every evaluation (RUN/probe/). Data parallel across processes.
#pragma once
#include "core/data/document_index.h"
#include "core/data/token_file.h"
#include "nn/models/model.h"
#include "nn/training/batcher.h"
#include "nn/training/model_family.h"

#include <memory>
#include <optional>

namespace twb::nn {

class DecoderFamily : public ModelFamily {
public:
    void adopt_dataset(const PreparedDataset& data, RunConfig& cfg, const TrainJob& job) const override;
    std::string subject(const RunConfig& cfg) const override;
    void open(const FamilyContext& ctx, RunConfig& cfg) override;
    void initialise(const TrainJob& job) override;
    NamedWeights named_weights() const override { return m_model->named_weights(); }
    torch::nn::Module& module() override { return *m_model; }
    uint64_t batcher_state() const override { return m_batcher->state(); }
    void set_batcher_state(uint64_t state) override { m_batcher->set_state(state); }
    std::vector<std::pair<std::filesystem::path, std::filesystem::path>> tokenizer_folders(
        const std::filesystem::path& run_dir) const override;
    void start_probe(const std::filesystem::path& run_dir, bool resume) override;
    void describe(TrainStartInfo& info) const override;
    TrainBatch next_batch() override;
    MicroBatch forward(const TrainBatch& rows) override;
    FamilyEval evaluate(int64_t step) override;
    bool fixed_shapes() const override { return !m_trainDocSrc; }  // documents are padded to their batch

private:
    void open_documents();  // sequences=documents: the validated document indexes and special ids

    FamilyContext m_ctx;
    const RunConfig* m_cfg = nullptr;
    std::unique_ptr<TokenFile> m_trainFile, m_valFile;
    bool m_haveVal = false;
    double m_valCharsPerToken = 1;         // of the split evaluated as "val": bits per character divide by it
    DocumentIndex m_trainDocs, m_valDocs;  // sequences=documents: the splits' indexes
    std::optional<DocumentSource> m_trainDocSrc, m_valDocSrc;  // set in documents mode only
    std::optional<DocumentIndex> m_trainLoss, m_valLoss;       // a chat dataset's loss spans
    std::unique_ptr<Batcher> m_batcher;
    GPT m_model{nullptr};
    std::filesystem::path m_runDir;
    std::vector<int32_t> m_probe;  // ids of the attention probe; empty = no probe
};

}  // namespace twb::nn
