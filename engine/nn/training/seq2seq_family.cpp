// The encoder-decoder's side of training (seq2seq_family.h).
#include "nn/training/seq2seq_family.h"

#include "nn/analysis/seq2seq_attention.h"
#include "nn/decoding/seq2seq_source.h"
#include "nn/device.h"
#include "nn/interchange/checkpoint.h"
#include "nn/training/evaluator.h"
#include "twb/bleu.h"
#include "twb/errors.h"
#include "twb/probe.h"
#include "twb/tokenizer.h"

#include <cmath>

namespace twb::nn {

namespace fs = std::filesystem;

void Seq2SeqFamily::adopt_dataset(const PreparedDataset& data, RunConfig& cfg, const TrainJob& job) const {
    if (job.distributed.active())
        throw ConfigError("model_kind=encoder_decoder trains in one process; drop the distributed options");
    if (!data.chat_template.empty())
        throw ConfigError(data.dir.string() +
                          " is a chat dataset (instruction tuning), which trains a decoder; drop "
                          "model_kind=encoder_decoder (finetune a decoder run with --init-from)");
    if (!data.parallel)
        throw ConfigError(data.dir.string() +
                          " is not a parallel dataset, which model_kind=encoder_decoder needs; prepare one with "
                          "twb prepare --source FILE --target FILE (or --pairs TSV)");
    adopt_vocab_size(data, cfg);
    if (cfg.source_vocab_size == 0)
        cfg.source_vocab_size = data.source_vocab_size;
    if (cfg.source_vocab_size != data.source_vocab_size)
        throw ConfigError("config source_vocab_size " + std::to_string(cfg.source_vocab_size) +
                          " differs from the dataset's " + std::to_string(data.source_vocab_size) +
                          " (0 = one vocabulary shared by both sides)");
    if (cfg.batch_tokens == 0)
        cfg.batch_tokens = cfg.batch_size * cfg.block_size;
}

void Seq2SeqFamily::open(const FamilyContext& ctx, RunConfig& cfg) {
    m_ctx = ctx;
    m_cfg = &cfg;
    const PreparedDataset& data = *ctx.data;
    const auto special = data.meta.value("special_tokens", nlohmann::json::object());
    m_ids.bos = special.value("bos", -1);
    m_ids.eos = special.value("eos", -1);
    m_ids.pad = special.value("pad", -1);
    m_tok = load_tokenizer(data.dir);
    if (data.source_vocab_size > 0)
        m_srcTok = load_tokenizer(data.dir / "source_tokenizer");
    m_train =
        std::make_unique<PairBatcher>(read_pairs(data, "train"), m_ids, cfg.block_size, cfg.batch_tokens, cfg.seed);
    m_val = std::make_unique<PairBatcher>(read_pairs(data, "val"), m_ids, cfg.block_size, cfg.batch_tokens, cfg.seed);
    if (m_train->batches() == 0)
        throw InputError(data.dir.string() + ": no training pair fits block_size " + std::to_string(cfg.block_size) +
                         "; raise block_size");
    // Without them every evaluation read "val loss nan, val BLEU nan" and no best checkpoint was ever kept.
    if (m_val->batches() == 0)
        throw InputError(data.dir.string() + ": no validation pair" +
                         (m_val->pairs().empty() ? std::string(" (the split is empty)")
                                                 : " fits block_size " + std::to_string(cfg.block_size)) +
                         "; a translation run measures its loss and BLEU on them: prepare the pairs again with "
                         "--val-fraction above 0 (e.g. 0.05)" +
                         (m_val->pairs().empty() ? "" : ", or raise block_size"));
    report_data();
    apply_epochs(cfg);
    m_model = Seq2Seq(cfg);
    m_model->to(ctx.device);
}

void Seq2SeqFamily::initialise(const TrainJob& job) {
    if (job.init_from.empty())
        return;
    const fs::path ck = find_checkpoint(job.init_from, job.init_checkpoint);
    require_same_tokenizer(job.init_from, m_ctx.data->dir, "initialise from " + job.init_from);
    const auto loaded = read_checkpoint(ck);
    if (loaded.state.config.model_kind != ModelKind::EncoderDecoder)
        throw ConfigError(ck.string() + " is a decoder LM run; an encoder-decoder starts only from an encoder-decoder");
    load_weights(m_model->named_weights(), loaded.weights, ck.string());
    m_ctx.message("initialised weights from " + ck.string());
}

void Seq2SeqFamily::report_data() const {
    const RunConfig& cfg = *m_cfg;
    if (m_train->skipped() || m_val->skipped())
        m_ctx.message("skipped pairs longer than block_size " + std::to_string(cfg.block_size) +
                      " tokens per side (with <bos>/<eos>): " + std::to_string(m_train->skipped()) + " training, " +
                      std::to_string(m_val->skipped()) + " validation");
    m_ctx.message(std::to_string(m_train->pairs().size()) + " training pairs in " + std::to_string(m_train->batches()) +
                  " batches of at most " + std::to_string(cfg.batch_tokens) + " tokens");
    if (cfg.bleu_pairs > 0)
        m_ctx.message("validation BLEU at each evaluation: greedy, on the first " +
                      std::to_string(std::min<size_t>(cfg.bleu_pairs, m_val->pairs().size())) + " of " +
                      std::to_string(m_val->pairs().size()) + " validation pairs");
}

void Seq2SeqFamily::apply_epochs(RunConfig& cfg) const {
    if (cfg.max_epochs <= 0)
        return;
    const double steps =
        std::ceil(cfg.max_epochs * static_cast<double>(m_train->batches()) / cfg.gradient_accumulation_steps);
    // Whichever budget runs out first: `--set max_iters=N` on a preset with epochs still means N steps.
    const int epochSteps = static_cast<int>(std::min(steps, 1e9));
    const bool epochsFirst = epochSteps <= cfg.max_iters;
    m_ctx.message("max_epochs " + nlohmann::json(cfg.max_epochs).dump() + " = " + std::to_string(epochSteps) +
                  " steps" +
                  (epochsFirst ? " (before max_iters " + std::to_string(cfg.max_iters) + ")"
                               : "; max_iters " + std::to_string(cfg.max_iters) + " comes first"));
    cfg.max_iters = std::min(cfg.max_iters, epochSteps);
}

std::vector<std::pair<fs::path, fs::path>> Seq2SeqFamily::tokenizer_folders(const fs::path& run_dir) const {
    const fs::path& dir = m_ctx.data->dir;
    if (!m_srcTok)  // one vocabulary shared by both sides
        return {{dir, run_dir / "tokenizer"}};
    return {{dir, run_dir / "tokenizer"}, {dir / "source_tokenizer", run_dir / "source_tokenizer"}};
}

void Seq2SeqFamily::start_probe(const fs::path& run_dir, bool resume) {
    // The first validation pair, teacher-forced with its reference, captured at every evaluation
    // (RUN/probe/cross.*), so the viewer can show the alignment forming. A resumed run keeps its timeline
    // and its pair. A probe that cannot be made is reported and skipped.
    m_runDir = run_dir;
    try {
        if (resume && has_cross_probe(run_dir)) {
            const auto t = read_cross_probe(run_dir);
            m_probeSource.assign(t.key_ids.begin(), t.key_ids.end() - 1);  // without <eos>
            m_probeTarget.assign(t.ids.begin(), t.ids.end() - 1);
            return;
        }
        if (m_val->pairs().empty())
            throw InputError("the validation split holds no pair that fits block_size");
        m_probeSource = m_val->pairs()[0].source;
        m_probeTarget = m_val->pairs()[0].target;
        auto texts = [&](std::vector<int32_t> ids, const Tokenizer& tok) {
            ids.push_back(static_cast<int32_t>(m_ids.eos));
            std::vector<std::string> out;
            for (int32_t id : ids)
                out.push_back(tok.token_text(id));
            return std::make_pair(ids, out);
        };
        const auto [tgtIds, tgtTexts] = texts(m_probeTarget, *m_tok);
        const auto [srcIds, srcTexts] = texts(m_probeSource, m_srcTok ? *m_srcTok : *m_tok);
        start_cross_probe(run_dir, tgtIds, tgtTexts, srcIds, srcTexts, m_cfg->decoder_layers(), m_cfg->n_head);
    } catch (const Error& e) {
        m_probeSource.clear();
        m_probeTarget.clear();
        m_ctx.message(std::string("no cross-attention probe for this run: ") + e.what());
    }
}

void Seq2SeqFamily::describe(TrainStartInfo& info) const {
    info.train_tokens = m_ctx.data->train_tokens;
    info.val_tokens = m_ctx.data->val_tokens;
    info.global_batch = m_cfg->gradient_accumulation_steps;
}

TrainBatch Seq2SeqFamily::next_batch() {
    const auto b = m_train->next(m_ctx.device);
    return {{b.src, b.src_pad, b.tgt_in, b.tgt_pad, b.tgt_out}, 4, b.target_tokens};
}

MicroBatch Seq2SeqFamily::forward(const TrainBatch& rows) {
    const auto& t = rows.tensors;
    // Counted on the host where the batcher knows it: asking the GPU would wait for its queue.
    const int64_t tokens = rows.target_tokens >= 0 ? rows.target_tokens : t[4].ne(kIgnoreIndex).sum().item<int64_t>();
    return {m_model->forward(t[0], t[1], t[2], t[3]), t[4], tokens};
}

double Seq2SeqFamily::validation_bleu() {
    const size_t k = std::min<size_t>(m_cfg->bleu_pairs, m_val->pairs().size());
    std::vector<std::vector<int32_t>> sources;
    std::vector<std::string> refs, hyps;
    for (size_t i = 0; i < k; ++i) {
        sources.push_back(m_val->pairs()[i].source);
        refs.push_back(m_tok->decode(m_val->pairs()[i].target));
    }
    for (const auto& ids :
         greedy_translate(m_model, sources, m_ids.bos, m_ids.eos, m_ids.pad, 1.5, 10, m_ctx.device, 64))
        hyps.push_back(m_tok->decode(ids));
    return corpus_bleu(hyps, refs).score;
}

FamilyEval Seq2SeqFamily::evaluate(int64_t step) {
    torch::NoGradGuard ng;
    m_model->eval();
    double lossSum = 0;
    int64_t correct = 0, total = 0;
    const size_t n = std::min<size_t>(m_val->batches(), static_cast<size_t>(m_cfg->eval_iters));
    for (size_t i = 0; i < n; ++i) {
        // Spread over the length-sorted batches, so short and long pairs are both measured.
        const auto b = m_val->batch(i * m_val->batches() / n, m_ctx.device);
        with_autocast(m_ctx.device, m_ctx.bf16, [&] {
            auto logits = m_model->forward(b.src, b.src_pad, b.tgt_in, b.tgt_pad).to(torch::kFloat32);
            const int64_t V = logits.size(-1);
            lossSum += masked_cross_entropy(logits.view({-1, V}), b.tgt_out.reshape({-1}), torch::kSum).item<double>();
            const auto [c, t] = masked_correct(logits.view({-1, V}), b.tgt_out.reshape({-1}));
            correct += c;
            total += t;
        });
    }
    FamilyEval fe;
    EvalReport& ev = fe.report;
    ev.val_loss = total ? lossSum / static_cast<double>(total) : NAN;
    ev.val_accuracy = total ? static_cast<double>(correct) / static_cast<double>(total) : NAN;
    ev.val_perplexity = std::exp(ev.val_loss);
    ev.train_loss = NAN;
    ev.train_accuracy = NAN;
    ev.val_bpc = NAN;
    ev.epoch = m_train->epoch();
    if (m_cfg->bleu_pairs > 0 && !m_val->pairs().empty())
        ev.val_bleu = validation_bleu();
    if (!m_probeSource.empty())
        append_cross_probe(
            m_runDir, step,
            capture_seq2seq_attention(m_model, m_probeSource, m_probeTarget, m_ids.bos, m_ids.eos, m_ctx.device).cross);
    m_model->train();
    // best_by=bleu keeps minus the BLEU as the checkpoint's "best_val_loss", so lower is better throughout.
    fe.score = m_cfg->best_by == BestBy::Bleu && !std::isnan(ev.val_bleu) ? -ev.val_bleu : ev.val_loss;
    return fe;
}

}  // namespace twb::nn
