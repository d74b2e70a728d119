// The encoder-decoder's training loop (seq2seq_trainer.h).
#include "nn/seq2seq_trainer.h"

#include "core/util/memory.h"
#include "nn/device.h"
#include "nn/evaluator.h"
#include "nn/schedule.h"
#include "nn/seq2seq_attention.h"
#include "nn/seq2seq_source.h"
#include "nn/train_loop.h"
#include "twb/bleu.h"
#include "twb/errors.h"
#include "twb/precision.h"
#include "twb/probe.h"
#include "twb/text.h"

#include <cmath>

namespace twb::nn {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

Seq2SeqTrainer::Seq2SeqTrainer(const TrainJob& job, const TrainCallbacks& callbacks, TrainControl* control)
    : m_job(job), m_cb(callbacks), m_ctl(control), m_cfg(job.config) {}

TrainSummary Seq2SeqTrainer::run() {
    prepare();
    restore();
    open_run_folder();
    m_summary.parameters = m_model->num_parameters();
    m_summary.run_dir = m_runDir.string();
    m_elapsedBefore = m_state.elapsed_s;
    m_t0 = Clock::now();
    if (m_cb.on_start) {
        TrainStartInfo info;
        info.parameters = m_summary.parameters;
        info.start_step = m_state.step;
        info.threads = m_threads;
        info.device = m_device.str();
        info.dtype = m_dtype;
        info.dtype_reason = m_dtypeReason;
        info.run_dir = m_runDir.string();
        info.config = m_cfg;
        info.train_tokens = m_data.train_tokens;
        info.val_tokens = m_data.val_tokens;
        info.global_batch = m_cfg.gradient_accumulation_steps;
        m_cb.on_start(info);
    }
    m_model->train();
    m_summary.stopped = run_train_loop(*this);
    m_summary.final_step = m_state.step;
    m_summary.best_val_loss = m_state.best_val_loss;
    m_summary.best_step = m_state.best_step;
    m_summary.elapsed_s = elapsed();
    m_summary.median_ms_per_step = m_meter.median_ms();
    return m_summary;
}

void Seq2SeqTrainer::prepare() {
    if (m_cfg.data_dir.empty())
        throw ConfigError("no dataset given; set data_dir (twb train --data DIR)");
    if (m_job.distributed.active())
        throw ConfigError("model_kind=encoder_decoder trains in one process; drop the distributed options");
    m_data = open_prepared(m_cfg.data_dir);
    if (!m_data.parallel)
        throw ConfigError(m_data.dir.string() +
                          " is not a parallel dataset, which model_kind=encoder_decoder needs; prepare one with "
                          "twb prepare --source FILE --target FILE (or --pairs TSV)");
    if (m_cfg.vocab_size == 0)
        m_cfg.vocab_size = m_data.vocab_size;
    if (m_cfg.vocab_size != m_data.vocab_size)
        throw ConfigError("config vocab_size " + std::to_string(m_cfg.vocab_size) + " differs from the dataset's " +
                          std::to_string(m_data.vocab_size));
    if (m_cfg.source_vocab_size == 0)
        m_cfg.source_vocab_size = m_data.source_vocab_size;
    if (m_cfg.source_vocab_size != m_data.source_vocab_size)
        throw ConfigError("config source_vocab_size " + std::to_string(m_cfg.source_vocab_size) +
                          " differs from the dataset's " + std::to_string(m_data.source_vocab_size) +
                          " (0 = one vocabulary shared by both sides)");
    if (m_cfg.batch_tokens == 0)
        m_cfg.batch_tokens = m_cfg.batch_size * m_cfg.block_size;
    m_cfg.check();
    m_runDir = fs::path(m_job.run_dir);
    if (m_runDir.empty())
        throw ConfigError("no run folder given (twb train --out RUN)");
    if (!m_job.skip_memory_check)
        check_memory_fits(m_cfg.estimated_memory_bytes(), "training this encoder-decoder",
                          "pass --ignore-memory-check to twb train");
    m_lock = std::make_unique<RunLock>(m_runDir);
    remove_stale_temporaries(m_runDir);
    if (!m_job.resume && !list_checkpoints(m_runDir).empty())
        throw InputError(m_runDir.string() +
                         " already holds a run; continue it with --resume or choose another folder");
    m_threads = apply_threads(m_cfg.threads);
    m_device = resolve_device(m_cfg.device);
    const PrecisionChoice precision = resolve_precision(m_cfg.dtype, m_device);
    m_bf16 = precision.dtype == DType::BFloat16;
    m_dtype = to_string(precision.dtype);
    m_dtypeReason = precision.reason;
    torch::manual_seed(m_cfg.seed);

    const auto special = m_data.meta.value("special_tokens", nlohmann::json::object());
    m_ids.bos = special.value("bos", -1);
    m_ids.eos = special.value("eos", -1);
    m_ids.pad = special.value("pad", -1);
    m_tok = load_tokenizer(m_data.dir);
    if (m_data.source_vocab_size > 0)
        m_srcTok = load_tokenizer(m_data.dir / "source_tokenizer");
    m_train = std::make_unique<PairBatcher>(read_pairs(m_data, "train"), m_ids, m_cfg.block_size, m_cfg.batch_tokens,
                                            m_cfg.seed);
    m_val = std::make_unique<PairBatcher>(read_pairs(m_data, "val"), m_ids, m_cfg.block_size, m_cfg.batch_tokens,
                                          m_cfg.seed);
    if (m_train->batches() == 0)
        throw InputError(m_data.dir.string() + ": no training pair fits block_size " +
                         std::to_string(m_cfg.block_size) + "; raise block_size");
    if (m_cb.on_message) {
        if (m_train->skipped() || m_val->skipped())
            m_cb.on_message("skipped pairs longer than block_size " + std::to_string(m_cfg.block_size) +
                            " tokens per side (with <bos>/<eos>): " + std::to_string(m_train->skipped()) +
                            " training, " + std::to_string(m_val->skipped()) + " validation");
        m_cb.on_message(std::to_string(m_train->pairs().size()) + " training pairs in " +
                        std::to_string(m_train->batches()) + " batches of at most " +
                        std::to_string(m_cfg.batch_tokens) + " tokens");
        if (m_cfg.bleu_pairs > 0)
            m_cb.on_message("validation BLEU at each evaluation: greedy, on the first " +
                            std::to_string(std::min<size_t>(m_cfg.bleu_pairs, m_val->pairs().size())) + " of " +
                            std::to_string(m_val->pairs().size()) + " validation pairs");
    }
    if (m_cfg.max_epochs > 0) {
        const double steps =
            std::ceil(m_cfg.max_epochs * static_cast<double>(m_train->batches()) / m_cfg.gradient_accumulation_steps);
        // Whichever budget runs out first: `--set max_iters=N` on a preset with epochs still means N steps.
        const int epochSteps = static_cast<int>(std::min(steps, 1e9));
        const bool epochsFirst = epochSteps <= m_cfg.max_iters;
        if (m_cb.on_message)
            m_cb.on_message("max_epochs " + nlohmann::json(m_cfg.max_epochs).dump() + " = " +
                            std::to_string(epochSteps) + " steps" +
                            (epochsFirst ? " (before max_iters " + std::to_string(m_cfg.max_iters) + ")"
                                         : "; max_iters " + std::to_string(m_cfg.max_iters) + " comes first"));
        m_cfg.max_iters = std::min(m_cfg.max_iters, epochSteps);
    }
    m_model = Seq2Seq(m_cfg);
    m_model->to(m_device);
}

void Seq2SeqTrainer::restore() {
    m_opt = std::make_unique<FlatAdamW>(m_model->named_weights(), m_cfg);
    m_state.config = m_cfg;
    m_state.batcher_state = 0;
    if (!m_job.resume)
        return;
    const fs::path ck = find_resume_checkpoint(m_runDir);
    auto loaded = read_checkpoint(ck);
    check_resume_config(loaded.state.config, m_cfg, ck.string());
    load_weights(m_model->named_weights(), loaded.weights, ck.string());
    if (loaded.optimizer.tensors.empty())
        throw FormatError(ck.string() + ": holds no optimizer state, so the run cannot resume exactly");
    m_opt->load_state(loaded.optimizer.tensors);
    restore_rng(loaded.optimizer, ck.string());
    m_train->set_state(loaded.state.batcher_state);
    m_state = loaded.state;
    m_state.config = m_cfg;
    m_skipFirstEval = !std::isnan(loaded.state.val_loss);
    if (m_cb.on_message)
        m_cb.on_message("resuming from " + ck.string());
}

void Seq2SeqTrainer::open_run_folder() {
    // The run carries its tokenizers (the source side's too, with separate vocabularies).
    for (const auto& [from, to] : {std::pair<fs::path, fs::path>{m_data.dir, m_runDir / "tokenizer"},
                                   {m_data.dir / "source_tokenizer", m_runDir / "source_tokenizer"}}) {
        if (!fs::exists(from / "tokenizer.json"))
            continue;
        fs::create_directories(to);
        for (const char* f : {"tokenizer.json", "tokenizer.model"})
            if (fs::exists(from / f))
                fs::copy_file(from / f, to / f, fs::copy_options::overwrite_existing);
    }
    write_file_atomic(m_runDir / "config.json", nlohmann::json(m_cfg).dump(2));
    m_metrics =
        std::make_unique<MetricsLog>(m_runDir / "metrics.csv", m_job.resume ? m_state.step : -1, m_skipFirstEval);

    // The cross-attention probe: the first validation pair, teacher-forced with its reference, captured at
    // every evaluation (RUN/probe/cross.*), so the viewer can show the alignment forming. A resumed run
    // keeps its timeline and its pair. A probe that cannot be made is reported and skipped.
    try {
        if (m_job.resume && has_cross_probe(m_runDir)) {
            const auto t = read_cross_probe(m_runDir);
            m_probeSource.assign(t.key_ids.begin(), t.key_ids.end() - 1);  // without <eos>
            m_probeTarget.assign(t.ids.begin(), t.ids.end() - 1);
        } else {
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
            start_cross_probe(m_runDir, tgtIds, tgtTexts, srcIds, srcTexts, m_cfg.decoder_layers(), m_cfg.n_head);
        }
    } catch (const Error& e) {
        m_probeSource.clear();
        m_probeTarget.clear();
        if (m_cb.on_message)
            m_cb.on_message(std::string("no cross-attention probe for this run: ") + e.what());
    }
}

bool Seq2SeqTrainer::stop_requested() const {
    return m_localStop || (m_ctl && m_ctl->stop_requested());
}

double Seq2SeqTrainer::elapsed() const {
    return m_elapsedBefore + std::chrono::duration<double>(Clock::now() - m_t0).count();
}

void Seq2SeqTrainer::evaluate(int64_t step) {
    torch::NoGradGuard ng;
    m_model->eval();
    double lossSum = 0;
    int64_t correct = 0, total = 0;
    const size_t n = std::min<size_t>(m_val->batches(), static_cast<size_t>(m_cfg.eval_iters));
    for (size_t i = 0; i < n; ++i) {
        // Spread over the length-sorted batches, so short and long pairs are both measured.
        const auto b = m_val->batch(i * m_val->batches() / n, m_device);
        with_autocast(m_device, m_bf16, [&] {
            auto logits = m_model->forward(b.src, b.src_pad, b.tgt_in, b.tgt_pad).to(torch::kFloat32);
            const int64_t V = logits.size(-1);
            lossSum += masked_cross_entropy(logits.view({-1, V}), b.tgt_out.reshape({-1}), torch::kSum).item<double>();
            const auto [c, t] = masked_correct(logits.view({-1, V}), b.tgt_out.reshape({-1}));
            correct += c;
            total += t;
        });
    }
    EvalReport ev;
    ev.step = step;
    ev.val_loss = total ? lossSum / static_cast<double>(total) : NAN;
    ev.val_accuracy = total ? static_cast<double>(correct) / static_cast<double>(total) : NAN;
    ev.val_perplexity = std::exp(ev.val_loss);
    ev.train_loss = NAN;
    ev.train_accuracy = NAN;
    ev.val_bpc = NAN;
    ev.epoch = m_train->epoch();
    if (m_cfg.bleu_pairs > 0 && !m_val->pairs().empty()) {
        const size_t k = std::min<size_t>(m_cfg.bleu_pairs, m_val->pairs().size());
        std::vector<std::vector<int32_t>> sources;
        std::vector<std::string> refs, hyps;
        for (size_t i = 0; i < k; ++i) {
            sources.push_back(m_val->pairs()[i].source);
            refs.push_back(m_tok->decode(m_val->pairs()[i].target));
        }
        for (const auto& ids :
             greedy_translate(m_model, sources, m_ids.bos, m_ids.eos, m_ids.pad, 1.5, 10, m_device, 64))
            hyps.push_back(m_tok->decode(ids));
        ev.val_bleu = corpus_bleu(hyps, refs).score;
    }
    if (!m_probeSource.empty())
        append_cross_probe(
            m_runDir, step,
            capture_seq2seq_attention(m_model, m_probeSource, m_probeTarget, m_ids.bos, m_ids.eos, m_device).cross);
    m_model->train();
    // best_by=bleu keeps minus the BLEU as the checkpoint's "best_val_loss", so lower is better throughout.
    const double score = m_cfg.best_by == BestBy::Bleu && !std::isnan(ev.val_bleu) ? -ev.val_bleu : ev.val_loss;
    ev.is_best = step > 0 && !std::isnan(score) && (std::isnan(m_state.best_val_loss) || score < m_state.best_val_loss);
    ev.elapsed_s = elapsed();
    if (ev.is_best) {
        m_state.best_val_loss = score;
        m_state.best_step = step;
    }
    m_summary.last_val_loss = ev.val_loss;
    MetricsRow row = metrics_row(ev);
    row.lr = learning_rate_at(m_cfg, step);
    m_metrics->append(row);
    if (m_cb.on_eval)
        m_cb.on_eval(ev);
    if (step > 0)
        checkpoint(ev.val_loss);
}

void Seq2SeqTrainer::train_step(int64_t step) {
    const auto s0 = Clock::now();
    const double lr = learning_rate_at(m_cfg, step);
    double loss = 0;
    int64_t tokens = 0;
    for (int micro = 0; micro < m_cfg.gradient_accumulation_steps; ++micro) {
        const auto b = m_train->next(m_device);
        tokens += b.target_tokens;
        torch::Tensor l;
        with_autocast(m_device, m_bf16, [&] {
            auto logits = m_model->forward(b.src, b.src_pad, b.tgt_in, b.tgt_pad);
            const int64_t V = logits.size(-1);
            l = masked_cross_entropy(logits.view({-1, V}).to(torch::kFloat32), b.tgt_out.reshape({-1}), torch::kMean,
                                     m_cfg.label_smoothing);
        });
        if (m_cfg.gradient_accumulation_steps > 1)
            l = l / m_cfg.gradient_accumulation_steps;
        l.backward();
        loss += l.item<double>();
    }
    if (!std::isfinite(loss) || !m_opt->grads_finite())
        throw Error("training diverged: the loss is not finite at step " + std::to_string(step) +
                    "; lower learning_rate, raise warmup_iters or set grad_clip");
    const double gradNorm = m_opt->clip_grad_norm(m_cfg.grad_clip);
    m_opt->step(lr);
    m_opt->zero_grad();
    m_state.step = step + 1;
    m_state.tokens_seen += static_cast<uint64_t>(tokens);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - s0).count();
    m_meter.add(ms, static_cast<double>(tokens));  // target tokens
    if (!StepMeter::due(m_state.step, m_cfg))
        return;
    StepReport r = m_meter.take(m_state.step, m_cfg, loss, lr, gradNorm);
    r.elapsed_s = elapsed();
    r.dtype = m_dtype;
    r.epoch = m_train->epoch();
    m_metrics->append(metrics_row(r));
    if (m_cb.on_step && !m_cb.on_step(r))
        m_localStop = true;
}

void Seq2SeqTrainer::checkpoint(double valLoss) {
    m_state.val_loss = valLoss;
    m_state.batcher_state = m_train->state();
    m_state.elapsed_s = elapsed();
    const fs::path p = save_checkpoint(m_runDir, m_model->named_weights(), m_opt.get(), m_state);
    prune_checkpoints(m_runDir, m_cfg.keep_checkpoints, m_state.best_step);
    if (m_cb.on_checkpoint)
        m_cb.on_checkpoint(p.string(), m_state.step);
}

}  // namespace twb::nn
