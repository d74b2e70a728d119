// The training loop.
#include "twb/training.h"

#include "nn/attention_capture.h"
#include "nn/batcher.h"
#include "nn/checkpoint.h"
#include "nn/device.h"
#include "nn/evaluator.h"
#include "nn/model.h"
#include "nn/optimizer.h"
#include "nn/schedule.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/metrics.h"
#include "twb/probe.h"
#include "twb/text.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace twb {

namespace fs = std::filesystem;

using namespace twb::nn;

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

TrainSummary train(const TrainJob& job, const TrainCallbacks& cb, TrainControl* ctl) {
    RunConfig cfg = job.config;
    if (cfg.data_dir.empty())
        throw ConfigError("no dataset given; set data_dir (twb train --data DIR)");
    const PreparedDataset data = open_prepared(cfg.data_dir);
    if (cfg.vocab_size == 0)
        cfg.vocab_size = data.vocab_size;
    if (cfg.vocab_size != data.vocab_size)
        throw ConfigError("config vocab_size " + std::to_string(cfg.vocab_size) + " differs from the dataset's " +
                          std::to_string(data.vocab_size) + "; a run trains on one tokenizer");
    cfg.check();

    const fs::path runDir(job.run_dir);
    if (runDir.empty())
        throw ConfigError("no run folder given (twb train --out RUN)");
    if (!job.resume && !list_checkpoints(runDir).empty())
        throw InputError(runDir.string() + " already holds a run; continue it with --resume or choose another folder");

    const int threads = apply_threads(cfg.threads);
    const torch::Device device = resolve_device(cfg.device);
    const bool bf16 = cfg.dtype == DType::BFloat16;
    torch::manual_seed(cfg.seed);

    TokenFile trainFile(data.dir / "train.bin", data.dtype), valFile(data.dir / "val.bin", data.dtype);
    const bool haveVal = static_cast<int64_t>(valFile.size()) > cfg.block_size;
    if (!haveVal && cb.on_message)
        cb.on_message("the validation split has fewer than block_size+1 tokens; evaluating on train only");

    GPT model(cfg);
    model->to(device);
    if (!job.init_from.empty()) {
        const fs::path ck = find_checkpoint(job.init_from, job.init_checkpoint);
        const auto loaded = read_checkpoint(ck);
        load_weights(model, loaded.weights, ck.string());
        if (cb.on_message)
            cb.on_message("initialised weights from " + ck.string());
    }
    FlatAdamW opt(model->named_weights(), cfg);
    Batcher batcher(trainFile, cfg.block_size, cfg.batch_size, cfg.seed);

    CheckpointState st;
    st.config = cfg;
    bool skipFirstEval = false;
    if (job.resume) {
        const fs::path ck = find_checkpoint(runDir, "last");
        auto loaded = read_checkpoint(ck);
        load_weights(model, loaded.weights, ck.string());
        if (loaded.optimizer.tensors.empty())
            throw FormatError(ck.string() + ": holds no optimizer state, so the run cannot resume exactly");
        opt.load_state(loaded.optimizer.tensors);
        restore_rng(loaded.optimizer);
        batcher.set_state(loaded.state.batcher_state);
        st = loaded.state;
        st.config = cfg;
        skipFirstEval = !std::isnan(loaded.state.val_loss);
        if (cb.on_message)
            cb.on_message("resuming from " + ck.string());
    }
    fs::create_directories(runDir / "tokenizer");
    // The run carries its tokenizer, so it samples even when the dataset folder moves.
    for (const char* f : {"tokenizer.json", "tokenizer.model"})
        if (fs::exists(data.dir / f))
            fs::copy_file(data.dir / f, runDir / "tokenizer" / f, fs::copy_options::overwrite_existing);
    write_file_atomic(runDir / "config.json", nlohmann::json(cfg).dump(2));
    MetricsLog metrics(runDir / "metrics.csv", job.resume ? st.step : -1, skipFirstEval);

    // The attention probe: one fixed prompt captured at every evaluation (RUN/probe/). A probe that
    // cannot be made is reported and skipped; it never stops training.
    std::vector<int32_t> probe;
    try {
        if (job.resume)
            probe = probe_ids(runDir);  // a resumed run keeps its timeline
        if (probe.empty()) {
            const auto tok = load_tokenizer(runDir / "tokenizer");
            probe = new_probe(cfg, haveVal ? valFile : trainFile, *tok);
            if (probe.empty())
                throw InputError("the probe prompt is empty");
            std::vector<std::string> texts;
            for (int32_t id : probe)
                texts.push_back(tok->token_text(id));
            start_probe(runDir, probe, texts, cfg.n_layer, cfg.n_head);
        }
    } catch (const Error& e) {
        probe.clear();
        if (cb.on_message)
            cb.on_message(std::string("no attention probe for this run: ") + e.what());
    }

    TrainSummary summary;
    summary.parameters = model->num_parameters();
    summary.run_dir = runDir.string();
    if (cb.on_start) {
        TrainStartInfo info;
        info.parameters = summary.parameters;
        info.start_step = st.step;
        info.threads = threads;
        info.device = device.str();
        info.run_dir = runDir.string();
        info.config = cfg;
        info.train_tokens = trainFile.size();
        info.val_tokens = valFile.size();
        cb.on_start(info);
    }

    const double elapsedBefore = st.elapsed_s;
    const auto t0 = Clock::now();
    auto elapsed = [&] { return elapsedBefore + std::chrono::duration<double>(Clock::now() - t0).count(); };
    const int64_t tokensPerStep =
        static_cast<int64_t>(cfg.batch_size) * cfg.block_size * cfg.gradient_accumulation_steps;
    std::vector<double> stepMs;
    double intervalMs = 0;
    int intervalSteps = 0;

    auto checkpoint = [&](double valLoss) {
        st.val_loss = valLoss;
        st.batcher_state = batcher.state();
        st.elapsed_s = elapsed();
        const fs::path p = save_checkpoint(runDir, model, &opt, st);
        prune_checkpoints(runDir, cfg.keep_checkpoints, st.best_step);
        if (cb.on_checkpoint)
            cb.on_checkpoint(p.string(), st.step);
    };

    bool localStop = false;  // set when on_step asks to stop
    model->train();
    while (true) {
        const int64_t step = st.step;
        if (ctl)
            ctl->wait_while_paused();
        if (localStop || (ctl && ctl->stop_requested())) {
            checkpoint(NAN);
            summary.stopped = true;
            break;
        }
        // Evaluate (and checkpoint) every eval_interval steps and at the end, as nanoGPT does.
        if ((step % cfg.eval_interval == 0 || step == cfg.max_iters) && !skipFirstEval) {
            const auto tr = evaluate_random(model, trainFile, cfg.batch_size, cfg.eval_iters,
                                            eval_seed(cfg.seed, step, 0), device, bf16);
            const auto va = haveVal ? evaluate_random(model, valFile, cfg.batch_size, cfg.eval_iters,
                                                      eval_seed(cfg.seed, step, 1), device, bf16)
                                    : tr;
            EvalReport ev;
            ev.step = step;
            ev.train_loss = tr.loss;
            ev.val_loss = va.loss;
            const SplitMetrics sm = split_metrics(va.loss, va.accuracy, data.chars_per_token);
            ev.val_accuracy = sm.accuracy;
            ev.val_perplexity = sm.perplexity;
            ev.val_bpc = sm.bits_per_char;
            ev.is_best = std::isnan(st.best_val_loss) || va.loss < st.best_val_loss;
            ev.elapsed_s = elapsed();
            if (ev.is_best) {
                st.best_val_loss = va.loss;
                st.best_step = step;
            }
            summary.last_val_loss = va.loss;
            MetricsRow row = metrics_row(ev);
            row.lr = learning_rate_at(cfg, step);
            metrics.append(row);
            if (!probe.empty())
                append_probe(runDir, step, capture_attention_ids(model, probe, device, 1));
            if (cb.on_eval)
                cb.on_eval(ev);
            if (step > 0)
                checkpoint(va.loss);
        }
        skipFirstEval = false;
        if (step >= cfg.max_iters)
            break;

        // One optimiser step over gradient_accumulation_steps micro-batches.
        const auto s0 = Clock::now();
        const double lr = learning_rate_at(cfg, step);
        double lossSum = 0;
        for (int micro = 0; micro < cfg.gradient_accumulation_steps; ++micro) {
            auto [x, y] = batcher.next(device);
            torch::Tensor loss;
            with_autocast(device, bf16, [&] {
                auto logits = model->forward(x);
                const int64_t V = logits.size(-1);
                loss = torch::nn::functional::cross_entropy(
                    logits.view({-1, V}).to(torch::kFloat32), y.reshape({-1}),
                    torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(cfg.label_smoothing));
            });
            if (cfg.gradient_accumulation_steps > 1)
                loss = loss / cfg.gradient_accumulation_steps;
            loss.backward();
            lossSum += loss.item<double>();
        }
        if (!std::isfinite(lossSum) || !opt.grads_finite()) {
            const auto have = list_checkpoints(runDir);
            throw Error("training diverged: the loss became " + std::string(std::isnan(lossSum) ? "NaN" : "infinite") +
                        " at step " + std::to_string(step) + ". " +
                        (have.empty()
                             ? std::string("No checkpoint was written yet. ")
                             : "The last good checkpoint (step " + std::to_string(have.back()) + ") is intact. ") +
                        "Lower learning_rate, raise warmup_iters or set grad_clip (e.g. 1.0).");
        }
        const double gradNorm = opt.clip_grad_norm(cfg.grad_clip);
        opt.step(lr);
        opt.zero_grad();
        st.step = step + 1;
        st.tokens_seen += static_cast<uint64_t>(tokensPerStep);
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - s0).count();
        stepMs.push_back(ms);
        intervalMs += ms;
        ++intervalSteps;

        if (st.step % cfg.log_interval == 0 || st.step == cfg.max_iters) {
            StepReport r;
            r.step = st.step;
            r.max_iters = cfg.max_iters;
            r.loss = lossSum;  // micro-batch losses were divided by the accumulation steps
            r.lr = lr;
            r.grad_norm = gradNorm;
            r.ms_per_step = intervalMs / intervalSteps;
            r.tokens_per_s = 1000.0 * static_cast<double>(tokensPerStep) / r.ms_per_step;
            r.elapsed_s = elapsed();
            intervalMs = 0;
            intervalSteps = 0;
            const MetricsRow row = metrics_row(r);
            metrics.append(row);
            if (cb.on_step && !cb.on_step(r))
                localStop = true;
        }
        if (ctl && ctl->take_checkpoint_request())
            checkpoint(NAN);
    }
    summary.final_step = st.step;
    summary.best_val_loss = st.best_val_loss;
    summary.best_step = st.best_step;
    summary.elapsed_s = elapsed();
    if (!stepMs.empty()) {
        std::vector<double> s(stepMs);
        std::nth_element(s.begin(), s.begin() + static_cast<long>(s.size() / 2), s.end());
        summary.median_ms_per_step = s[s.size() / 2];
    }
    return summary;
}

}  // namespace twb
