// The training loop as named steps (trainer.h), and twb::train, its public entry point.
#include "nn/trainer.h"

#include "core/util/memory.h"
#include "nn/attention_capture.h"
#include "nn/device.h"
#include "nn/embedding_import.h"
#include "nn/evaluator.h"
#include "nn/schedule.h"
#include "nn/seq2seq_trainer.h"
#include "nn/train_loop.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/metrics.h"
#include "twb/probe.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

namespace twb::nn {

namespace fs = std::filesystem;

namespace {
using Clock = std::chrono::steady_clock;

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

Trainer::Trainer(const TrainJob& job, const TrainCallbacks& callbacks, TrainControl* control)
    : m_job(job), m_cb(callbacks), m_ctl(control), m_cfg(job.config) {}

TrainSummary Trainer::run() {
    prepare();
    restore();
    open_run_folder();
    report_start();
    m_model->train();
    m_summary.stopped = run_train_loop(*this);
    return finish();
}

void Trainer::prepare() {
    if (m_cfg.data_dir.empty())
        throw ConfigError("no dataset given; set data_dir (twb train --data DIR)");
    m_data = open_prepared(m_cfg.data_dir);
    if (m_data.parallel)
        throw ConfigError(m_data.dir.string() +
                          " is a parallel dataset (translation pairs); train it with --set model_kind=encoder_decoder "
                          "or --preset multi30k");
    if (m_cfg.vocab_size == 0)
        m_cfg.vocab_size = m_data.vocab_size;
    if (m_cfg.vocab_size != m_data.vocab_size)
        throw ConfigError("config vocab_size " + std::to_string(m_cfg.vocab_size) + " differs from the dataset's " +
                          std::to_string(m_data.vocab_size) + "; a run trains on one tokenizer");
    m_cfg.check();

    m_runDir = fs::path(m_job.run_dir);
    if (m_runDir.empty())
        throw ConfigError("no run folder given (twb train --out RUN)");
    // Memory before anything is allocated: a model that cannot fit is refused now, not killed later.
    if (!m_job.skip_memory_check)
        check_memory_fits(m_cfg.estimated_memory_bytes(),
                          "training this model (" + std::to_string(m_cfg.n_layer) + " layers x " +
                              std::to_string(m_cfg.n_embd) + " wide)",
                          "pass --ignore-memory-check to twb train");
    // Only the process that writes the run folder (rank 0 of a multi-process run) locks it and tidies
    // it: the other ranks read it and must neither be refused by rank 0's lock nor remove its temporaries.
    if (m_job.distributed.rank == 0) {
        m_lock = std::make_unique<RunLock>(m_runDir);
        if (const int n = remove_stale_temporaries(m_runDir); n > 0 && m_cb.on_message)
            m_cb.on_message("removed " + std::to_string(n) + " unfinished file(s) an interrupted run left in " +
                            m_runDir.string());
    }
    if (!m_job.resume && !list_checkpoints(m_runDir).empty())
        throw InputError(m_runDir.string() +
                         " already holds a run; continue it with --resume or choose another folder");

    m_threads = apply_threads(m_cfg.threads);
    m_device = resolve_device(m_cfg.device);
    m_precision = resolve_precision(m_cfg.dtype, m_device);
    m_bf16 = m_precision.dtype == DType::BFloat16;
    if (m_job.distributed.active()) {
        m_comm = std::make_unique<Communicator>(m_job.distributed, m_device);
        m_writer = m_comm->rank() == 0;
        const char* verify = std::getenv("TWB_DIST_VERIFY");  // tests: compare the weights after every step
        m_verifyEachStep = verify && std::string(verify) == "1";
    }
    torch::manual_seed(m_cfg.seed);

    m_trainFile = std::make_unique<TokenFile>(m_data.dir / "train.bin", m_data.dtype);
    m_valFile = std::make_unique<TokenFile>(m_data.dir / "val.bin", m_data.dtype);
    m_haveVal = static_cast<int64_t>(m_valFile->size()) > m_cfg.block_size;
    if (m_cfg.sequences == Sequences::Documents)
        open_documents();
    m_valCharsPerToken = split_chars_per_token(m_data, m_haveVal ? "val" : "train");
    if (!m_haveVal && m_cb.on_message)
        m_cb.on_message("the validation split has fewer than block_size+1 tokens; evaluating on train only");

    m_model = GPT(m_cfg);
    m_model->to(m_device);
}

void Trainer::open_documents() {
    if (!m_data.has_documents)
        throw ConfigError("sequences=documents needs a dataset prepared with --documents, and " + m_data.dir.string() +
                          " keeps no document boundaries; prepare it again with --documents or use sequences=stream");
    DocumentSource src = document_source(m_data);
    m_trainDocs = DocumentIndex::read(m_data.dir / "train.docs", m_trainFile->size(), m_data.train_documents);
    m_valDocs = DocumentIndex::read(m_data.dir / "val.docs", m_valFile->size(), m_data.val_documents);
    src.index = &m_trainDocs;
    m_trainDocSrc = src;
    src.index = &m_valDocs;
    m_valDocSrc = src;
    m_haveVal = !m_valDocs.docs.empty();
    if (m_trainDocs.docs.empty())
        throw InputError(m_data.dir.string() +
                         ": the training split holds no documents; add text or lower the "
                         "val fraction");
}

void Trainer::restore() {
    if (!m_job.init_from.empty()) {
        const fs::path ck = find_checkpoint(m_job.init_from, m_job.init_checkpoint);
        require_same_tokenizer(m_job.init_from, m_data.dir, "initialise from " + m_job.init_from);
        const auto loaded = read_checkpoint(ck);
        load_weights(m_model, loaded.weights, ck.string());
        if (m_cb.on_message)
            m_cb.on_message("initialised weights from " + ck.string());
    }
    if (!m_job.resume && !m_cfg.embeddings_from.empty()) {  // a resumed run has them in its checkpoint
        const auto imported = import_embeddings(m_model, m_cfg.embeddings_from, m_data.dir);
        if (m_cb.on_message)
            m_cb.on_message(imported.message);
    }
    m_opt = std::make_unique<FlatAdamW>(m_model->named_weights(), m_cfg);
    m_batcher = m_trainDocSrc ? std::make_unique<Batcher>(*m_trainFile, *m_trainDocSrc, m_cfg.block_size,
                                                          m_cfg.batch_size, m_cfg.seed)
                              : std::make_unique<Batcher>(*m_trainFile, m_cfg.block_size, m_cfg.batch_size, m_cfg.seed);
    if (m_comm)
        m_batcher->set_shard(m_comm->rank(), m_comm->world());
    m_state.config = m_cfg;
    if (!m_job.resume) {
        if (m_comm) {
            // Every rank starts from rank 0's weights, so the ranks never drift apart.
            auto params = m_opt->flat_params();
            m_comm->broadcast(params);
        }
        return;
    }
    const fs::path ck = find_resume_checkpoint(m_runDir);
    auto loaded = read_checkpoint(ck);
    check_resume_config(loaded.state.config, m_cfg, ck.string());
    load_weights(m_model, loaded.weights, ck.string());
    if (loaded.optimizer.tensors.empty())
        throw FormatError(ck.string() + ": holds no optimizer state, so the run cannot resume exactly");
    try {
        m_opt->load_state(loaded.optimizer.tensors);
    } catch (const FormatError& e) {
        throw FormatError(ck.string() + ": " + e.what());
    }
    restore_rng(loaded.optimizer, ck.string());
    m_batcher->set_state(loaded.state.batcher_state);
    m_state = loaded.state;
    m_state.config = m_cfg;
    m_skipFirstEval = !std::isnan(loaded.state.val_loss);
    if (m_comm) {
        auto params = m_opt->flat_params();  // every rank read the same checkpoint; rank 0's is the truth
        m_comm->broadcast(params);
    }
    if (m_cb.on_message)
        m_cb.on_message("resuming from " + ck.string());
}

void Trainer::open_run_folder() {
    if (!m_writer)
        return;  // rank 0 alone writes the run folder: config, metrics, probe and checkpoints
    fs::create_directories(m_runDir / "tokenizer");
    // The run carries its tokenizer, so it samples even when the dataset folder moves.
    for (const char* f : {"tokenizer.json", "tokenizer.model"})
        if (fs::exists(m_data.dir / f))
            fs::copy_file(m_data.dir / f, m_runDir / "tokenizer" / f, fs::copy_options::overwrite_existing);
    write_file_atomic(m_runDir / "config.json", nlohmann::json(m_cfg).dump(2));
    m_metrics =
        std::make_unique<MetricsLog>(m_runDir / "metrics.csv", m_job.resume ? m_state.step : -1, m_skipFirstEval);

    // The attention probe: one fixed prompt captured at every evaluation (RUN/probe/). A probe that
    // cannot be made is reported and skipped; it never stops training.
    try {
        if (m_job.resume)
            m_probe = probe_ids(m_runDir);  // a resumed run keeps its timeline
        if (m_probe.empty()) {
            const auto tok = load_tokenizer(m_runDir / "tokenizer");
            m_probe = new_probe(m_cfg, m_haveVal ? *m_valFile : *m_trainFile, *tok);
            if (m_probe.empty())
                throw InputError("the probe prompt is empty");
            std::vector<std::string> texts;
            for (int32_t id : m_probe)
                texts.push_back(tok->token_text(id));
            start_probe(m_runDir, m_probe, texts, m_cfg.n_layer, m_cfg.n_head);
        }
    } catch (const Error& e) {
        m_probe.clear();
        if (m_cb.on_message)
            m_cb.on_message(std::string("no attention probe for this run: ") + e.what());
    }
}

void Trainer::report_start() {
    m_summary.parameters = m_model->num_parameters();
    m_summary.run_dir = m_runDir.string();
    m_elapsedBefore = m_state.elapsed_s;
    m_t0 = Clock::now();
    m_tokensPerStep = static_cast<int64_t>(m_cfg.batch_size) * m_cfg.block_size * m_cfg.gradient_accumulation_steps *
                      (m_comm ? m_comm->world() : 1);
    if (!m_cb.on_start)
        return;
    TrainStartInfo info;
    info.parameters = m_summary.parameters;
    info.start_step = m_state.step;
    info.threads = m_threads;
    info.device = m_device.str();
    info.dtype = to_string(m_precision.dtype);
    info.dtype_reason = m_precision.reason;
    info.run_dir = m_runDir.string();
    info.config = m_cfg;
    info.train_tokens = m_trainFile->size();
    info.val_tokens = m_valFile->size();
    info.rank = m_comm ? m_comm->rank() : 0;
    info.world_size = m_comm ? m_comm->world() : 1;
    info.global_batch = static_cast<int64_t>(info.world_size) * m_cfg.batch_size * m_cfg.gradient_accumulation_steps;
    m_cb.on_start(info);
}

double Trainer::elapsed() const {
    return m_elapsedBefore + std::chrono::duration<double>(Clock::now() - m_t0).count();
}

bool Trainer::stop_requested() const {
    const bool here = m_localStop || (m_ctl && m_ctl->stop_requested());
    return m_comm ? m_comm->any(here) : here;  // every rank stops at the same step
}

void Trainer::evaluate(int64_t step) {
    // Every rank evaluates the global batch (the same figures a single process of that batch gets).
    const int batch = m_cfg.batch_size * (m_comm ? m_comm->world() : 1);
    if (m_comm && !m_comm->identical(m_opt->flat_params()))
        throw Error("distributed training: the ranks' weights differ at step " + std::to_string(step) +
                    " (they must stay identical); resume from the last checkpoint with --resume");
    const auto tr = evaluate_random(m_model, *m_trainFile, batch, m_cfg.eval_iters, eval_seed(m_cfg.seed, step, 0),
                                    m_device, m_bf16, m_trainDocSrc ? &*m_trainDocSrc : nullptr);
    const auto va = m_haveVal
                        ? evaluate_random(m_model, *m_valFile, batch, m_cfg.eval_iters, eval_seed(m_cfg.seed, step, 1),
                                          m_device, m_bf16, m_valDocSrc ? &*m_valDocSrc : nullptr)
                        : tr;
    EvalReport ev;
    ev.step = step;
    ev.train_loss = tr.loss;
    ev.train_accuracy = tr.accuracy;
    ev.val_loss = va.loss;
    const SplitMetrics sm = split_metrics(va.loss, va.accuracy, m_valCharsPerToken);
    ev.val_accuracy = sm.accuracy;
    ev.val_perplexity = sm.perplexity;
    ev.val_bpc = sm.bits_per_char;
    // Only evaluations that are checkpointed (step > 0) can be the best: best.json never names a
    // checkpoint that was not saved (step 0 is not).
    ev.is_best = step > 0 && (std::isnan(m_state.best_val_loss) || va.loss < m_state.best_val_loss);
    ev.elapsed_s = elapsed();
    if (ev.is_best) {
        m_state.best_val_loss = va.loss;
        m_state.best_step = step;
    }
    m_summary.last_val_loss = va.loss;
    if (m_writer) {
        MetricsRow row = metrics_row(ev);
        row.lr = learning_rate_at(m_cfg, step);
        m_metrics->append(row);
    }
    if (!m_probe.empty())
        append_probe(m_runDir, step, capture_attention_ids(m_model, m_probe, m_device, 1));
    if (m_cb.on_eval)
        m_cb.on_eval(ev);
    if (step > 0)
        checkpoint(va.loss);
}

double Trainer::forward_backward() {
    double lossSum = 0;
    for (int micro = 0; micro < m_cfg.gradient_accumulation_steps; ++micro) {
        auto [x, y] = m_batcher->next(m_device);
        torch::Tensor loss;
        with_autocast(m_device, m_bf16, [&] {
            auto logits = m_model->forward(x);
            const int64_t V = logits.size(-1);
            loss = masked_cross_entropy(logits.view({-1, V}).to(torch::kFloat32), y.reshape({-1}), torch::kMean,
                                        m_cfg.label_smoothing);
        });
        if (m_cfg.gradient_accumulation_steps > 1)
            loss = loss / m_cfg.gradient_accumulation_steps;
        loss.backward();
        lossSum += loss.item<double>();
    }
    if (m_comm) {
        const auto c0 = Clock::now();
        auto grads = m_opt->flat_grads();
        m_comm->average(grads);  // the mean gradient of the global batch, identical on every rank
        lossSum = m_comm->average(lossSum);
        m_meter.add_comm(std::chrono::duration<double, std::milli>(Clock::now() - c0).count());
    }
    return lossSum;  // micro-batch losses were divided by the accumulation steps
}

void Trainer::check_finite(double loss, int64_t step) const {
    if (std::isfinite(loss) && m_opt->grads_finite())
        return;
    const auto have = list_checkpoints(m_runDir);
    throw Error("training diverged: the loss became " + std::string(std::isnan(loss) ? "NaN" : "infinite") +
                " at step " + std::to_string(step) + ". " +
                (have.empty() ? std::string("No checkpoint was written yet. ")
                              : "The last good checkpoint (step " + std::to_string(have.back()) + ") is intact. ") +
                "Lower learning_rate, raise warmup_iters or set grad_clip (e.g. 1.0).");
}

void Trainer::train_step(int64_t step) {
    const auto s0 = Clock::now();
    const double lr = learning_rate_at(m_cfg, step);
    const double loss = forward_backward();
    check_finite(loss, step);
    const double gradNorm = m_opt->clip_grad_norm(m_cfg.grad_clip);
    m_opt->step(lr);
    m_opt->zero_grad();
    if (m_verifyEachStep && !m_comm->identical(m_opt->flat_params()))
        throw Error("distributed training: the ranks' weights differ after step " + std::to_string(step + 1));
    m_state.step = step + 1;
    m_state.tokens_seen += static_cast<uint64_t>(m_tokensPerStep);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - s0).count();
    report_step(loss, lr, gradNorm, ms);
}

void Trainer::report_step(double loss, double lr, double gradNorm, double ms) {
    m_meter.add(ms, static_cast<double>(m_tokensPerStep));
    if (!StepMeter::due(m_state.step, m_cfg))
        return;
    StepReport r = m_meter.take(m_state.step, m_cfg, loss, lr, gradNorm);
    r.dtype = to_string(m_precision.dtype);
    r.elapsed_s = elapsed();
    if (m_writer)
        m_metrics->append(metrics_row(r));
    if (m_cb.on_step && !m_cb.on_step(r))
        m_localStop = true;
}

void Trainer::checkpoint(double valLoss) {
    if (!m_writer)
        return;
    m_state.val_loss = valLoss;
    m_state.batcher_state = m_batcher->state();
    m_state.elapsed_s = elapsed();
    const fs::path p = save_checkpoint(m_runDir, m_model, m_opt.get(), m_state);
    prune_checkpoints(m_runDir, m_cfg.keep_checkpoints, m_state.best_step);
    if (m_cb.on_checkpoint)
        m_cb.on_checkpoint(p.string(), m_state.step);
}

TrainSummary Trainer::finish() {
    m_summary.final_step = m_state.step;
    m_summary.best_val_loss = m_state.best_val_loss;
    m_summary.best_step = m_state.best_step;
    m_summary.elapsed_s = elapsed();
    m_summary.median_ms_per_step = m_meter.median_ms();
    return m_summary;
}

}  // namespace twb::nn

namespace twb {

TrainSummary train(const TrainJob& job, const TrainCallbacks& callbacks, TrainControl* control) {
    if (job.config.model_kind == ModelKind::EncoderDecoder)
        return nn::Seq2SeqTrainer(job, callbacks, control).run();
    return nn::Trainer(job, callbacks, control).run();
}

}  // namespace twb
