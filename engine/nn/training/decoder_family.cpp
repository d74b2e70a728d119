// The decoder LM's side of training (decoder_family.h).
#include "nn/training/decoder_family.h"

#include "core/data/chat_data.h"
#include "nn/analysis/attention_capture.h"
#include "nn/device.h"
#include "nn/interchange/checkpoint.h"
#include "nn/training/embedding_import.h"
#include "nn/training/evaluator.h"
#include "twb/errors.h"
#include "twb/metrics.h"
#include "twb/probe.h"
#include "twb/tokenizer.h"

#include <algorithm>

namespace twb::nn {

namespace fs = std::filesystem;

namespace {

constexpr int64_t kProbeTokens = 64;

/// A new probe's ids: the configured prompt, else the first tokens of the given split; at most
/// min(block_size, 64) tokens.
std::vector<int32_t> new_probe(const RunConfig& cfg, const TokenFile& text, const Tokenizer& tok) {
    std::vector<int32_t> ids;
    if (!cfg.probe_prompt.empty())
        ids = tok.encode(cfg.probe_prompt);
    else
        for (uint64_t i = 0; i < std::min<uint64_t>(text.size(), kProbeTokens); ++i)
            ids.push_back(text.at(i));
    if (static_cast<int64_t>(ids.size()) > std::min<int64_t>(cfg.block_size, kProbeTokens))
        ids.resize(static_cast<size_t>(std::min<int64_t>(cfg.block_size, kProbeTokens)));
    return ids;
}

uint64_t eval_seed(uint64_t seed, int64_t step, int split) {
    return seed * 1000003ull + static_cast<uint64_t>(step) * 7919ull + static_cast<uint64_t>(split);
}

}  // namespace

void DecoderFamily::adopt_dataset(const PreparedDataset& data, RunConfig& cfg, const TrainJob&) const {
    if (data.parallel)
        throw ConfigError(data.dir.string() +
                          " is a parallel dataset (translation pairs); train it with --set model_kind=encoder_decoder "
                          "or --preset multi30k");
    adopt_vocab_size(data, cfg);
    // A chat dataset's loss masks are per conversation: it trains as documents, whatever the run it starts from.
    if (!data.chat_template.empty())
        cfg.sequences = Sequences::Documents;
}

std::string DecoderFamily::subject(const RunConfig& cfg) const {
    return "training this model (" + std::to_string(cfg.n_layer) + " layers x " + std::to_string(cfg.n_embd) + " wide)";
}

void DecoderFamily::open(const FamilyContext& ctx, RunConfig& cfg) {
    m_ctx = ctx;
    m_cfg = &cfg;
    const PreparedDataset& data = *ctx.data;
    m_trainFile = std::make_unique<TokenFile>(open_split(data, "train"));
    m_valFile = std::make_unique<TokenFile>(open_split(data, "val"));
    if (const std::string w = unknown_share_warning(data, *m_trainFile, "train"); !w.empty())
        ctx.message(w);
    m_haveVal = static_cast<int64_t>(m_valFile->size()) > cfg.block_size;
    if (cfg.sequences == Sequences::Documents)
        open_documents();
    m_valCharsPerToken = split_chars_per_token(data, m_haveVal ? "val" : "train");
    if (!m_haveVal)
        ctx.message("warning: the validation split has " + std::to_string(m_valFile->size()) +
                    " tokens, fewer than block_size+1 (" + std::to_string(cfg.block_size + 1) +
                    "): every evaluation scores the training split instead, and the best checkpoint is chosen on "
                    "it; prepare the data with a larger --val-fraction for a validation loss");

    m_model = GPT(cfg);
    m_model->to(ctx.device);
    m_batcher = m_trainDocSrc
                    ? std::make_unique<Batcher>(*m_trainFile, *m_trainDocSrc, cfg.block_size, cfg.batch_size, cfg.seed)
                    : std::make_unique<Batcher>(*m_trainFile, cfg.block_size, cfg.batch_size, cfg.seed);
    if (ctx.world > 1)
        m_batcher->set_shard(ctx.rank, ctx.world);
}

void DecoderFamily::open_documents() {
    const PreparedDataset& data = *m_ctx.data;
    if (!data.has_documents)
        throw ConfigError("sequences=documents needs a dataset prepared with --documents, and " + data.dir.string() +
                          " keeps no document boundaries; prepare it again with --documents or use sequences=stream");
    DocumentSource src = document_source(data);
    m_trainDocs = DocumentIndex::read(data.dir / "train.docs", m_trainFile->size(), data.train_documents);
    m_valDocs = DocumentIndex::read(data.dir / "val.docs", m_valFile->size(), data.val_documents);
    m_trainLoss = read_loss_spans(data, "train", m_trainFile->size());
    m_valLoss = read_loss_spans(data, "val", m_valFile->size());
    src.index = &m_trainDocs;
    src.trained = m_trainLoss ? &*m_trainLoss : nullptr;
    m_trainDocSrc = src;
    src.index = &m_valDocs;
    src.trained = m_valLoss ? &*m_valLoss : nullptr;
    m_valDocSrc = src;
    m_haveVal = !m_valDocs.docs.empty();
    if (m_trainDocs.docs.empty())
        throw InputError(data.dir.string() +
                         ": the training split holds no documents; add text or lower the "
                         "val fraction");
}

void DecoderFamily::initialise(const TrainJob& job) {
    if (!job.init_from.empty()) {
        const fs::path ck = find_checkpoint(job.init_from, job.init_checkpoint);
        require_same_tokenizer(job.init_from, m_ctx.data->dir, "initialise from " + job.init_from);
        const auto loaded = read_checkpoint(ck);
        load_weights(m_model, loaded.weights, ck.string());
        m_ctx.message("initialised weights from " + ck.string());
    }
    if (!job.resume && !m_cfg->embeddings_from.empty())  // a resumed run has them in its checkpoint
        m_ctx.message(import_embeddings(m_model, m_cfg->embeddings_from, m_ctx.data->dir).message);
}

std::vector<std::pair<fs::path, fs::path>> DecoderFamily::tokenizer_folders(const fs::path& run_dir) const {
    return {{m_ctx.data->dir, run_dir / "tokenizer"}};
}

void DecoderFamily::start_probe(const fs::path& run_dir, bool resume) {
    // A probe that cannot be made is reported and skipped; it never stops training.
    m_runDir = run_dir;
    try {
        if (resume)
            m_probe = probe_ids(run_dir);  // a resumed run keeps its timeline
        if (m_probe.empty()) {
            const auto tok = load_tokenizer(run_dir / "tokenizer");
            m_probe = new_probe(*m_cfg, m_haveVal ? *m_valFile : *m_trainFile, *tok);
            if (m_probe.empty())
                throw InputError("the probe prompt is empty");
            std::vector<std::string> texts;
            for (int32_t id : m_probe)
                texts.push_back(tok->token_text(id));
            twb::start_probe(run_dir, m_probe, texts, m_cfg->n_layer, m_cfg->n_head);
        }
    } catch (const Error& e) {
        m_probe.clear();
        m_ctx.message(std::string("no attention probe for this run: ") + e.what());
    }
}

void DecoderFamily::describe(TrainStartInfo& info) const {
    info.train_tokens = m_trainFile->size();
    info.val_tokens = m_valFile->size();
    info.global_batch = static_cast<int64_t>(m_ctx.world) * m_cfg->batch_size * m_cfg->gradient_accumulation_steps;
}

TrainBatch DecoderFamily::next_batch() {
    auto [x, y] = m_batcher->next(m_ctx.device);
    // A chat batch whose pieces are all prompt has no target to learn (its mean loss would be 0/0): the
    // next one is drawn instead, as deterministically as any batch.
    for (int redraw = 0; m_trainLoss && y.ne(kIgnoreIndex).sum().item<int64_t>() == 0; ++redraw) {
        if (redraw == 1000)
            throw InputError("1000 chat batches in a row held no reply token; raise block_size or batch_size");
        std::tie(x, y) = m_batcher->next(m_ctx.device);
    }
    return {{x, y}, 1};
}

MicroBatch DecoderFamily::forward(const TrainBatch& rows) {
    const auto& y = rows.tensors[1];
    return {m_model->forward(rows.tensors[0]), y, y.numel()};
}

FamilyEval DecoderFamily::evaluate(int64_t step) {
    const RunConfig& cfg = *m_cfg;
    // Every rank evaluates the global batch (the same figures a single process of that batch gets).
    const int batch = cfg.batch_size * m_ctx.world;
    const auto tr = evaluate_random(m_model, *m_trainFile, batch, cfg.eval_iters, eval_seed(cfg.seed, step, 0),
                                    m_ctx.device, m_ctx.bf16, m_trainDocSrc ? &*m_trainDocSrc : nullptr);
    const auto va = m_haveVal
                        ? evaluate_random(m_model, *m_valFile, batch, cfg.eval_iters, eval_seed(cfg.seed, step, 1),
                                          m_ctx.device, m_ctx.bf16, m_valDocSrc ? &*m_valDocSrc : nullptr)
                        : tr;
    FamilyEval fe;
    EvalReport& ev = fe.report;
    ev.train_loss = tr.loss;
    ev.train_accuracy = tr.accuracy;
    ev.val_loss = va.loss;
    const SplitMetrics sm = split_metrics(va.loss, va.accuracy, m_valCharsPerToken);
    ev.val_accuracy = sm.accuracy;
    ev.val_perplexity = sm.perplexity;
    ev.val_bpc = sm.bits_per_char;
    fe.score = va.loss;
    if (!m_probe.empty())
        append_probe(m_runDir, step, capture_attention_ids(m_model, m_probe, m_ctx.device, 1));
    return fe;
}

}  // namespace twb::nn
