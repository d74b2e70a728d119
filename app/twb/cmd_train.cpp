// twb train / twb eval.
#include "app/twb/commands.h"
#include "app/twb/interrupt.h"
#include "app/twb/launcher.h"
#include "app/twb/run_options.h"
#include "twb/config.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/run_folder.h"
#include "twb/samples_history.h"
#include "twb/session.h"
#include "twb/text.h"
#include "twb/training.h"
#include "twb/translation.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <thread>

namespace twb::cli {

namespace {
struct TrainOpts {
    std::string data, out, configFile, preset = "default", initFrom, initCheckpoint = "best";
    std::vector<std::string> sets;
    bool resume = false, quiet = false, ignoreMemory = false;
    int nproc = 1;
};

/// The run's config: its own config.json (--resume), the run it starts from (--init-from without a
/// preset or file), or the preset with the file's keys over it; then each --set, then --data.
RunConfig train_config(const TrainOpts& o, bool presetGiven) {
    RunConfig cfg;
    if (o.resume && (presetGiven || !o.configFile.empty()))
        throw ConfigError(
            "--preset and --config start a new run; --resume continues the run's own config.json "
            "(change keys with --set)");
    if (o.resume) {
        cfg = read_run_config(o.out);
    } else if (!o.initFrom.empty() && !presetGiven && o.configFile.empty()) {
        // Finetuning without --preset/--config: the model (and its settings) of the run it starts from.
        // A run folder, or one of its checkpoint folders (RUN/checkpoints/step_N); anything else is refused
        // naming the path given.
        namespace fs = std::filesystem;
        fs::path from = fs::absolute(o.initFrom).lexically_normal();
        if (from.filename().empty())
            from = from.parent_path();  // "run/" names the folder run
        if (!fs::exists(from / "config.json")) {
            if (!fs::exists(from / "state.json")) {
                find_checkpoint(o.initFrom, o.initCheckpoint);  // throws: no such folder, no checkpoints here
                throw InputError(o.initFrom + ": no config.json; is this a run folder written by 'twb train'?");
            }
            from = from.parent_path().parent_path();
        }
        cfg = read_run_config(from);
        cfg.data_dir.clear();
        cfg.vocab_size = 0;
    } else {
        cfg = preset_config(o.preset);
    }
    const ModelKind kind = cfg.model_kind;
    apply_file_and_sets(cfg, o.configFile, o.sets);  // no file beside --resume (refused above) or a bare --init-from
    // The weights continued or started from are of one family: a --set of the other was refused later, for
    // another reason (the dataset, or a tensor name).
    if ((o.resume || !o.initFrom.empty()) && cfg.model_kind != kind && !presetGiven && o.configFile.empty())
        throw ConfigError(std::string(o.resume ? "--resume continues" : "--init-from starts from") + " a " +
                          (kind == ModelKind::Decoder ? "decoder LM" : "encoder-decoder") +
                          "'s weights: model_kind cannot change; train a new run without them");
    set_dataset(cfg, o.data, o.sets);
    // The kind came with the run started from, not from the user: a dataset of the other kind's message
    // ("drop model_kind=encoder_decoder") named a setting they never gave.
    if (!o.resume && !o.initFrom.empty() && !presetGiven && o.configFile.empty() && !cfg.data_dir.empty()) {
        const bool translation = cfg.model_kind == ModelKind::EncoderDecoder;
        if (const PreparedDataset d = open_prepared(cfg.data_dir); d.parallel != translation)
            throw InputError(
                "--init-from " + o.initFrom + " is " +
                (translation ? "a translation (encoder-decoder) run" : "a decoder LM run") + ", and " + cfg.data_dir +
                (d.parallel ? " is a parallel dataset (translation pairs)" : " holds no translation pairs") +
                ": start from a " + (d.parallel ? "translation run" : "decoder LM run") +
                " to finetune on it, or train a new run on it (without --init-from)");
    }
    return cfg;
}

/// --nproc N: starts N local ranks of this command (a bad config is reported once, not by every rank).
int launch_ranks(const TrainOpts& o, const RunConfig& cfg) {
    cfg.check();
    bool threadsSet = false;
    for (auto& s : o.sets)
        threadsSet = threadsSet || s.rfind("threads=", 0) == 0;
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return launch_local(o.nproc, threadsSet || cfg.threads > 0 ? 0 : std::max(1, cores / o.nproc));
}

void print_start(const TrainStartInfo& s) {
    if (s.world_size > 1)
        std::printf("%d ranks, global batch %lld sequences per step\n", s.world_size,
                    static_cast<long long>(s.global_batch));
    std::printf(
        "run %s: %.2fM parameters, %d threads, %s, %s (%s), train %llu / val %llu tokens, from step "
        "%lld\n",
        s.run_dir.c_str(), static_cast<double>(s.parameters) / 1e6, s.threads,
        (s.device_name.empty() ? s.device : s.device_name).c_str(), s.dtype.c_str(), s.dtype_reason.c_str(),
        static_cast<unsigned long long>(s.train_tokens), static_cast<unsigned long long>(s.val_tokens),
        static_cast<long long>(s.start_step));
    std::fflush(stdout);
}

void print_step(const StepReport& r, bool quiet) {
    if (!quiet) {
        std::printf("step %6lld/%lld | loss %.4f | lr %.2e | %.1f ms/step | %.0f tok/s | %.1f s",
                    static_cast<long long>(r.step), static_cast<long long>(r.max_iters), r.loss, r.lr, r.ms_per_step,
                    r.tokens_per_s, r.elapsed_s);
        if (r.device_memory_total > 0)  // a CUDA run: the device's memory in use
            std::printf(" | GPU %.1f/%.1f GiB", static_cast<double>(r.device_memory_used) / (1 << 30),
                        static_cast<double>(r.device_memory_total) / (1 << 30));
        std::printf("\n");
        if (r.comm_ms_per_step > 0)
            std::printf("           all-reduce %.2f ms/step (%.0f%% of the step)\n", r.comm_ms_per_step,
                        100.0 * r.comm_ms_per_step / r.ms_per_step);
    }
    std::fflush(stdout);
}

void print_eval(const EvalReport& e) {
    if (!std::isnan(e.epoch)) {  // an encoder-decoder run
        std::printf("eval step %lld (epoch %.2f): val loss %.4f, val accuracy %.4f, val BLEU %.2f%s\n",
                    static_cast<long long>(e.step), e.epoch, e.val_loss, e.val_accuracy, e.val_bleu,
                    e.is_best ? " (best)" : "");
    } else {
        std::printf(
            "eval step %lld: train loss %.4f, train accuracy %.4f, val loss %.4f, val accuracy %.4f, perplexity "
            "%.3f, bits/char %.4f%s\n",
            static_cast<long long>(e.step), e.train_loss, e.train_accuracy, e.val_loss, e.val_accuracy,
            e.val_perplexity, e.val_bpc, e.is_best ? " (best)" : "");
    }
    std::fflush(stdout);
}

/// What the command prints as training goes: only rank 0 of a multi-process run speaks.
TrainCallbacks printing_callbacks(bool quiet, bool lead) {
    TrainCallbacks cb;
    cb.on_start = [lead](const TrainStartInfo& s) {
        if (lead)
            print_start(s);
    };
    cb.on_step = [quiet, lead](const StepReport& r) {
        print_step(r, quiet || !lead);
        return true;
    };
    cb.on_eval = [lead](const EvalReport& e) {
        if (lead)
            print_eval(e);
    };
    cb.on_message = [lead](const std::string& m) {
        if (lead)
            std::fprintf(stderr, "twb: %s\n", m.c_str());
    };
    cb.on_checkpoint = [quiet](const std::string& p, int64_t) {
        if (!quiet)
            std::printf("checkpoint %s\n", p.c_str());
    };
    return cb;
}

int run_train(const TrainOpts& o, bool presetGiven) {
    const RunConfig cfg = train_config(o, presetGiven);
    const DistributedEnv dist = distributed_from_env();
    if (o.nproc > 1) {
        if (dist.active())
            throw ConfigError("--nproc starts its own ranks; do not combine it with WORLD_SIZE (torchrun)");
        return launch_ranks(o, cfg);
    }
    const bool lead = dist.rank == 0;  // only rank 0 of a multi-process run prints progress
    TrainJob job;
    job.distributed = dist;
    job.config = cfg;
    job.run_dir = o.out;
    job.resume = o.resume;
    job.init_from = o.initFrom;
    job.init_checkpoint = o.initCheckpoint;
    job.skip_memory_check = o.ignoreMemory;
    TrainControl control;
    install_interrupt_flag(&control);
    TrainCallbacks cb = printing_callbacks(o.quiet, lead);
    int64_t startStep = -1;
    cb.on_start = [startStep = &startStep, print = cb.on_start](const TrainStartInfo& i) {
        *startStep = i.start_step;
        if (print)
            print(i);
    };
    int64_t lastEvalStep = -1;  // the step of "last val loss": 4.1823 at step 0 read as the result of 62 steps
    cb.on_eval = [&lastEvalStep, print = cb.on_eval](const EvalReport& e) {
        lastEvalStep = e.step;
        if (print)
            print(e);
    };
    const auto s = train(job, cb, &control);
    if (!lead)
        return s.stopped ? 130 : 0;
    if (o.resume && !s.stopped && startStep >= s.final_step) {
        std::printf(
            "nothing left to train: the run was already at its last step, %lld (raise max_iters with --set "
            "max_iters=N to train further)\n",
            static_cast<long long>(s.final_step));
        return 0;
    }
    // The best only when a checkpoint was evaluated (none with max_iters=0 or a stop before the first one).
    const std::string best = s.best_step >= 0 ? best_text(s, job.config.best_by) + ", " : std::string();
    char last[96] = "";
    if (!std::isnan(s.last_val_loss) && lastEvalStep >= 0 && lastEvalStep != s.final_step)
        std::snprintf(last, sizeof last, "last val loss %.4f (at step %lld), ", s.last_val_loss,
                      static_cast<long long>(lastEvalStep));
    else if (!std::isnan(s.last_val_loss))
        std::snprintf(last, sizeof last, "last val loss %.4f, ", s.last_val_loss);
    std::printf("%s at step %lld: %s%smedian %.2f ms/step, %.1f s\n", s.stopped ? "stopped" : "finished",
                static_cast<long long>(s.final_step), best.c_str(), last, s.median_ms_per_step, s.elapsed_s);
    if (s.stopped)
        std::printf("continue with: twb train --out %s --resume\n", o.out.c_str());
    return s.stopped ? 130 : 0;
}
}  // namespace

Action add_train(CLI::App& app) {
    auto o = std::make_shared<TrainOpts>();
    app.add_option("--data,-d", o->data, "Prepared dataset folder (from twb prepare)");
    app.add_option("--out,-o", o->out, "Run folder: config.json, metrics.csv and checkpoints/ go here")->required();
    app.add_option("--config,-c", o->configFile, "Config JSON (nanoGPT key names); applied over the preset");
    auto* presetOpt =
        app.add_option(
               "--preset", o->preset,
               "Starting config: default (4x4x128, rotary, lr 3e-3), nanogpt-cpu (nanoGPT's CPU recipe exactly), "
               "baby-gpt (6x6x384), tiny (3x4x96, rotary, 500 steps); translation (encoder-decoder, parallel "
               "data): multi30k (3+3 blocks 256 wide), tatoeba (2+2 blocks 128 wide)")
            ->check(CLI::IsMember(preset_config_names()));
    app.add_option("--set,-s", o->sets, "Override one key, repeatable: --set n_layer=6 --set dropout=0.1");
    app.footer(config_keys_footer());
    auto* resumeOpt = app.add_flag("--resume", o->resume, "Continue the run in --out from its last checkpoint");
    auto* initFromOpt = app.add_option(
        "--init-from", o->initFrom,
        "Start from the weights of another run or checkpoint (finetuning); without --preset or --config its "
        "config too");
    app.add_option("--init-checkpoint", o->initCheckpoint, "With --init-from: best (default), last or a step")
        ->needs(initFromOpt);
    initFromOpt->excludes(resumeOpt);
    app.add_flag("--quiet,-q", o->quiet, "Print only evaluations and the summary");
    app.add_option("--nproc", o->nproc,
                   "Data-parallel training in N processes on this machine (c10d, Gloo on CPU); the global batch is "
                   "N x batch_size x gradient_accumulation_steps. torchrun's RANK/WORLD_SIZE/MASTER_ADDR/"
                   "MASTER_PORT are honoured too")
        ->check(CLI::Range(1, 256));
    app.add_flag("--ignore-memory-check", o->ignoreMemory,
                 "Train even when the model's memory estimate exceeds the available memory");
    return [o, presetOpt]() { return run_train(*o, presetOpt->count() > 0); };
}

namespace {
struct EvalOpts {
    std::string run, data, checkpoint = "best", split = "val", text, samples, precision = "float32";
    int64_t maxTokens = 0;
    int batch = 32, beam = 1;
};

/// --text: the file's perplexity and bits/char under the run.
int eval_text(ModelSession& session, const std::string& file) {
    const EvalResult r = session.score_text(read_text_file(file));
    std::printf("%s: %lld tokens scored\nloss        %.4f\nperplexity  %.3f\nbits/char   %.4f\nprecision   %s\n",
                file.c_str(), static_cast<long long>(r.tokens), r.loss, r.perplexity, r.bits_per_char,
                r.precision.c_str());
    for (const auto& w : r.warnings)
        std::fprintf(stderr, "twb: warning: %s\n", w.c_str());
    return 0;
}

/// --samples: every output of another run's samples.jsonl scored by this run (its prompt as context).
int eval_samples(ModelSession& session, const std::string& file) {
    // A run folder, or its samples.jsonl itself.
    const std::filesystem::path path(file);
    const bool isFile = std::filesystem::is_regular_file(path);
    if (isFile && path.filename() != "samples.jsonl")
        throw InputError("--samples " + file + ": give a run folder (or its samples.jsonl), not another file");
    const auto history = read_sample_history(isFile ? path.parent_path() : path);
    if (history.empty())
        throw InputError(file + ": no samples.jsonl entries to judge (generate with twb sample first)");
    // The summary is over every token scored (as eval --text's): a plain mean of the outputs' perplexities let
    // one short output decide it (an empty one, scored as the start token, read 261 among outputs of 2.5-17).
    double totalNats = 0;
    size_t totalTokens = 0;
    int n = 0, empty = 0;
    for (size_t i = 0; i < history.size(); ++i)
        for (size_t k = 0; k < history[i].outputs.size(); ++k) {
            if (history[i].outputs[k].empty()) {
                std::printf("sample %zu.%zu (step %lld): empty, not scored\n", i + 1, k + 1,
                            static_cast<long long>(history[i].checkpoint_step));
                ++empty;
                continue;
            }
            const auto prompt = session.encode(history[i].prompt);
            auto ids = prompt;
            const auto out = session.encode(history[i].outputs[k]);
            ids.insert(ids.end(), out.begin(), out.end());
            if (out.empty())
                continue;
            const auto lp = session.log_probs(ids, std::max<size_t>(1, prompt.size()));
            double nats = 0;
            for (double v : lp)
                nats -= v;
            const double ppl = std::exp(nats / static_cast<double>(lp.size()));
            std::printf("sample %zu.%zu (step %lld, %zu tokens): perplexity %.3f\n", i + 1, k + 1,
                        static_cast<long long>(history[i].checkpoint_step), lp.size(), ppl);
            totalNats += nats;
            totalTokens += lp.size();
            ++n;
        }
    if (n == 0)
        throw InputError(file + ": every output is empty");
    std::printf("perplexity over %d outputs (%zu tokens%s): %.3f (scored in %s)\n", n, totalTokens,
                empty ? (", " + std::to_string(empty) + " empty left out").c_str() : "",
                std::exp(totalNats / static_cast<double>(totalTokens)), session.scoring_precision().c_str());
    return 0;
}

/// Whether dir is a chat dataset (twb prepare --chat), whose loss counts the replies' tokens only (the split's
/// token count said 5466 of its 10322 without a word why).
bool chat_dataset(const std::string& dir) {
    try {
        return !dir.empty() && !open_prepared(dir).chat_template.empty();
    } catch (const Error&) {
        return false;
    }
}

/// A dataset split, scored as the run trained on it (blocks of a stream, or documents).
int eval_split(ModelSession& session, const EvalOpts& o, DType precision) {
    EvalOptions opt;
    opt.data_dir = o.data;
    opt.split = o.split;
    opt.batch_size = o.batch;
    opt.max_tokens = o.maxTokens;
    opt.precision = precision;
    const EvalResult r = session.evaluate(opt);
    if (r.sequences == Sequences::Documents && o.maxTokens > 0)  // not every document was scored
        std::printf(
            "%s: the first %lld tokens of its %lld documents (--max-tokens), scored as documents as in "
            "training (each <bos> ... <eos>, padding excluded)\n",
            r.split.c_str(), static_cast<long long>(r.tokens), static_cast<long long>(r.documents));
    else if (r.sequences == Sequences::Documents)
        std::printf(
            "%s: %lld tokens, scored as documents as in training (%lld documents, each <bos> ... <eos>, "
            "padding excluded%s)\n",
            r.split.c_str(), static_cast<long long>(r.tokens), static_cast<long long>(r.documents),
            chat_dataset(o.data.empty() ? session.config().data_dir : o.data)
                ? "; a chat dataset: the replies' tokens only, as training scores them"
                : "");
    else
        std::printf("%s: %lld tokens, scored as a stream of consecutive blocks\n", r.split.c_str(),
                    static_cast<long long>(r.tokens));
    std::printf("loss        %.4f\naccuracy    %.4f\nperplexity  %.3f\nbits/char   %.4f\nprecision   %s\n", r.loss,
                r.accuracy, r.perplexity, r.bits_per_char, r.precision.c_str());
    return 0;
}

/// The options that say nothing for this kind of run, refused rather than ignored (--max-tokens was).
void check_eval_options(const EvalOpts& o, bool translation) {
    if (!translation) {
        if (o.beam != 1)
            throw InputError("--beam is for translation runs (the beam of their BLEU); " + o.run +
                             " is a language model: drop --beam");
        return;
    }
    const EvalOpts defaults;
    for (const auto& [set, name] : {std::pair<bool, const char*>{o.maxTokens != defaults.maxTokens, "--max-tokens"},
                                    {o.batch != defaults.batch, "--batch-size"},
                                    {!o.text.empty(), "--text"},
                                    {!o.samples.empty(), "--samples"},
                                    {o.precision != defaults.precision, "--precision"}})
        if (set)
            throw InputError(std::string(name) + " is for language-model runs; " + o.run +
                             " is a translation run, whose evaluation scores every pair of the split (loss, "
                             "accuracy, BLEU, chrF): drop " +
                             name +
                             (o.text.empty() ? ""
                                             : ", and use twb translate "
                                               "for a text"));
}

int run_eval(const EvalOpts& o) {
    const bool translation = is_encoder_decoder_run(o.run);
    check_eval_options(o, translation);
    if (translation)
        return eval_translation(o.run, o.checkpoint, o.split, o.data, o.beam);
    if (o.split == "test")
        throw InputError("--split test is for translation runs; a decoder LM's dataset has train and val");
    const DType precision = parse_choice<DType>(o.precision, "--precision");
    ModelSession session;
    session.open(o.run, o.checkpoint);
    session.set_scoring_precision(precision);
    std::printf("checkpoint %s (step %lld)\n", session.checkpoint().c_str(), static_cast<long long>(session.step()));
    std::fflush(stdout);  // before any progress or warning on stderr
    if (!o.text.empty())
        return eval_text(session, o.text);
    if (!o.samples.empty())
        return eval_samples(session, o.samples);
    return eval_split(session, o, precision);
}
}  // namespace

Action add_eval(CLI::App& app) {
    auto o = std::make_shared<EvalOpts>();
    app.add_option("--run,-r", o->run, "Run folder (from twb train) or a checkpoint folder")->required();
    app.add_option("--beam", o->beam, "Translation runs: beam width for BLEU (default 1 = greedy)");
    app.add_option("--data,-d", o->data, "Dataset to evaluate on (default: the run's own; same tokenizer)");
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    app.add_option("--split", o->split, "val (default), train, or test (translation runs)")
        ->check(CLI::IsMember({"val", "train", "test"}));
    app.add_option("--max-tokens", o->maxTokens, "Evaluate at most this many tokens (default: the whole split)");
    app.add_option("--batch-size", o->batch, "Blocks per forward pass");
    app.add_option("--text", o->text,
                   "Score a text file instead of a dataset split: perplexity and bits/char of the text under this run "
                   "(its tokenizer)");
    app.add_option("--samples", o->samples,
                   "Judge another run's generations: every output in RUN/samples.jsonl scored by this run (prompt as "
                   "context, output scored)");
    app.add_option("--precision", o->precision,
                   "float32 (default: the same figures on every machine), bfloat16 (autocast, as a bf16 run "
                   "trains), or auto (the run's dtype as it resolves here)")
        ->check(CLI::IsMember({"float32", "bfloat16", "auto"}));
    return [o]() { return run_eval(*o); };
}

}  // namespace twb::cli
