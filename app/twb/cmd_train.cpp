// twb train / twb eval.
#include "app/twb/commands.h"
#include "engine/data/errors.h"
#include "engine/data/prepare.h"
#include "engine/data/text_utils.h"
#include "engine/nn/checkpoint.h"
#include "engine/nn/device.h"
#include "engine/nn/evaluator.h"
#include "engine/nn/trainer.h"

#include <csignal>
#include <cstdio>

namespace twb::cli {

namespace {
TrainControl* g_control = nullptr;
extern "C" void on_sigint(int) {
    if (g_control && !g_control->stop_requested()) {
        g_control->request_stop_from_signal();
    } else {
        std::_Exit(130);
    }
}
} // namespace

Action add_train(CLI::App& app) {
    struct Opts {
        std::string data, out, configFile, preset = "default", initFrom, initCheckpoint = "best";
        std::vector<std::string> sets;
        bool resume = false, quiet = false;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--data,-d", o->data, "Prepared dataset folder (from twb prepare)");
    app.add_option("--out,-o", o->out, "Run folder: config.json, metrics.csv and checkpoints/ go here")->required();
    app.add_option("--config,-c", o->configFile, "Config JSON (nanoGPT key names); applied over the preset");
    app.add_option("--preset", o->preset,
                   "Starting config: default (4x4x128, rotary, lr 3e-3), nanogpt-cpu (nanoGPT's CPU recipe exactly), "
                   "baby-gpt (6x6x384), tiny")
        ->check(CLI::IsMember({"default", "nanogpt-cpu", "baby-gpt", "tiny"}));
    app.add_option("--set,-s", o->sets, "Override one key, repeatable: --set n_layer=6 --set dropout=0.1");
    app.add_flag("--resume", o->resume, "Continue the run in --out from its last checkpoint");
    app.add_option("--init-from", o->initFrom, "Start from the weights of another run or checkpoint (finetuning)");
    app.add_option("--init-checkpoint", o->initCheckpoint, "With --init-from: best (default), last or a step");
    app.add_flag("--quiet,-q", o->quiet, "Print only evaluations and the summary");
    return [o]() {
        RunConfig cfg;
        if (o->resume) {
            cfg = nn::read_run_config(o->out);
        } else {
            cfg = preset_config(o->preset);
            if (!o->configFile.empty()) {
                try {
                    cfg = nlohmann::json::parse(read_file(o->configFile)).get<RunConfig>();
                } catch (const nlohmann::json::exception& e) {
                    throw InputError(o->configFile + ": not a valid config JSON (" + e.what() + ")");
                }
            }
        }
        for (auto& s : o->sets) cfg.set(s);
        if (!o->data.empty()) cfg.data_dir = fs::absolute(o->data).string();
        if (cfg.data_dir.empty()) throw ConfigError("give the dataset with --data DIR (a folder from twb prepare)");

        TrainJob job;
        job.config = cfg;
        job.run_dir = o->out;
        job.resume = o->resume;
        job.init_from = o->initFrom;
        job.init_checkpoint = o->initCheckpoint;
        TrainControl control;
        g_control = &control;
        std::signal(SIGINT, on_sigint);

        TrainCallbacks cb;
        cb.on_start = [&](const TrainStartInfo& s) {
            std::printf("run %s: %.2fM parameters, %d threads, %s, train %llu / val %llu tokens, from step %lld\n",
                        s.run_dir.c_str(), static_cast<double>(s.parameters) / 1e6, s.threads, s.device.c_str(),
                        static_cast<unsigned long long>(s.train_tokens), static_cast<unsigned long long>(s.val_tokens),
                        static_cast<long long>(s.start_step));
            std::fflush(stdout);
        };
        cb.on_step = [&](const StepReport& r) {
            if (!o->quiet)
                std::printf("step %6lld/%lld | loss %.4f | lr %.2e | %.1f ms/step | %.0f tok/s | %.1f s\n",
                            static_cast<long long>(r.step), static_cast<long long>(r.max_iters), r.loss, r.lr,
                            r.ms_per_step, r.tokens_per_s, r.elapsed_s);
            std::fflush(stdout);
            return true;
        };
        cb.on_eval = [&](const EvalReport& e) {
            std::printf("eval step %lld: train loss %.4f, val loss %.4f, val accuracy %.4f, perplexity %.3f, "
                        "bits/char %.4f%s\n",
                        static_cast<long long>(e.step), e.train_loss, e.val_loss, e.val_accuracy, e.val_perplexity,
                        e.val_bpc, e.is_best ? " (best)" : "");
            std::fflush(stdout);
        };
        cb.on_message = [](const std::string& m) { std::fprintf(stderr, "twb: %s\n", m.c_str()); };
        cb.on_checkpoint = [&](const std::string& p, int64_t) {
            if (!o->quiet) std::printf("checkpoint %s\n", p.c_str());
        };
        const auto s = train(job, cb, &control);
        g_control = nullptr;
        std::printf("%s at step %lld: best val loss %.4f (step %lld), last val loss %.4f, median %.2f ms/step, "
                    "%.1f s\n",
                    s.stopped ? "stopped" : "finished", static_cast<long long>(s.final_step), s.best_val_loss,
                    static_cast<long long>(s.best_step), s.last_val_loss, s.median_ms_per_step, s.elapsed_s);
        if (s.stopped) std::printf("continue with: twb train --out %s --resume\n", o->out.c_str());
        return s.stopped ? 130 : 0;
    };
}

Action add_eval(CLI::App& app) {
    struct Opts {
        std::string run, data, checkpoint = "best", split = "val";
        int64_t maxTokens = 0;
        int batch = 32;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder (from twb train) or a checkpoint folder")->required();
    app.add_option("--data,-d", o->data, "Dataset to evaluate on (default: the run's own; same tokenizer)");
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    app.add_option("--split", o->split, "val (default) or train")->check(CLI::IsMember({"val", "train"}));
    app.add_option("--max-tokens", o->maxTokens, "Evaluate at most this many tokens (default: the whole split)");
    app.add_option("--batch-size", o->batch, "Blocks per forward pass");
    return [o]() {
        const fs::path ck = nn::find_checkpoint(o->run, o->checkpoint);
        auto loaded = nn::read_checkpoint(ck);
        RunConfig cfg = loaded.state.config;
        nn::apply_threads(cfg.threads);
        const auto data = open_prepared(o->data.empty() ? cfg.data_dir : o->data);
        if (data.vocab_size != cfg.vocab_size)
            throw InputError("the dataset's vocab size " + std::to_string(data.vocab_size) +
                             " differs from the model's " + std::to_string(cfg.vocab_size) +
                             "; evaluate on data prepared with the same tokenizer");
        const torch::Device device = nn::resolve_device(cfg.device);
        nn::GPT model(cfg);
        model->to(device);
        nn::load_weights(model, loaded.weights, ck.string());
        TokenFile f(data.dir / (o->split + ".bin"), data.dtype);
        const auto r = nn::evaluate_sequential(model, f, o->batch, o->maxTokens, device, cfg.dtype == "bfloat16");
        const double bpc = r.loss / std::log(2.0) / std::max(1e-9, data.chars_per_token);
        std::printf("checkpoint %s (step %lld)\n", ck.c_str(), static_cast<long long>(loaded.state.step));
        std::printf("%s: %lld tokens\n", o->split.c_str(), static_cast<long long>(r.tokens));
        std::printf("loss        %.4f\naccuracy    %.4f\nperplexity  %.3f\nbits/char   %.4f\n", r.loss, r.accuracy,
                    std::exp(r.loss), bpc);
        return 0;
    };
}

} // namespace twb::cli
