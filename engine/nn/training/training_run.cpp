// The training spine (training_run.h), and twb::train, its public entry point.
#include "nn/training/training_run.h"

#include "core/util/memory.h"
#include "nn/device.h"
#include "nn/models/module_weights.h"
#include "nn/training/decoder_family.h"
#include "nn/training/evaluator.h"
#include "nn/training/lanes.h"
#include "nn/training/seq2seq_family.h"
#include "twb/devices.h"
#include "twb/errors.h"
#include "twb/run_info.h"
#include "twb/schedule.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <cmath>
#include <cstdlib>

namespace twb::nn {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

void adopt_vocab_size(const PreparedDataset& data, RunConfig& cfg) {
    if (cfg.vocab_size < 0)  // before the comparison, which called -1 a mismatch with the dataset's
        throw ConfigError("invalid config: vocab_size must be between 0 and " + std::to_string(1 << 24) + " (got " +
                          std::to_string(cfg.vocab_size) + "); 0 takes the dataset's");
    if (cfg.vocab_size == 0)
        cfg.vocab_size = data.vocab_size;
    if (cfg.vocab_size != data.vocab_size)
        throw ConfigError("config vocab_size " + std::to_string(cfg.vocab_size) + " differs from the dataset's " +
                          std::to_string(data.vocab_size) + "; a run trains on one tokenizer");
}

namespace {
/// A checkpoint a resume cannot use: its problem, and how to resume from the run's checkpoint before it (train
/// has no option to choose one: the newest is taken).
[[noreturn]] void refuse_resume(const fs::path& run_dir, const fs::path& ck, std::string why) {
    const std::string choose = " (use another one)";  // the readers' advice, for commands that take --checkpoint
    if (why.size() > choose.size() && why.compare(why.size() - choose.size(), choose.size(), choose) == 0)
        why.erase(why.size() - choose.size());
    const std::string name = ck.filename().string();
    int64_t step = -1;
    try {
        step = std::stoll(name.substr(name.find('_') + 1));
    } catch (const std::exception&) {
    }
    int64_t before = -1;
    for (int64_t s : list_checkpoints(run_dir))
        if (s < step)
            before = s;
    if (before >= 0)
        why += "; to resume from the checkpoint before it (step " + std::to_string(before) + "), move the folder " +
               ck.string() + " out of the run (or delete it) and resume again";
    else
        why += "; it is the run's only checkpoint, so the run cannot resume: train a new run (another --out)";
    throw FormatError(why);
}
}  // namespace

TrainingRun::TrainingRun(std::unique_ptr<ModelFamily> family, const TrainJob& job, const TrainCallbacks& callbacks,
                         TrainControl* control)
    : m_family(std::move(family)), m_job(job), m_cb(callbacks), m_ctl(control), m_cfg(job.config) {}

TrainSummary TrainingRun::run() {
    prepare();
    // A folder where a run file belongs, found before anything is read or written: the refusal came after
    // "resuming from" and config.json's rewrite, and advised a file name inside the folder.
    for (const char* file : {"config.json", "metrics.csv"})
        if (m_writer && fs::is_directory(m_runDir / file))
            throw InputError((m_runDir / file).string() + " is a folder where the run keeps its " + file +
                             " file: move it out of the run folder, then train again");
    restore();
    open_run_folder();
    report_start();
    m_family->module().train();
    m_readStep = m_state.step;
    if (m_queued && CudaGraph::unavailable(m_device).empty() && m_family->fixed_shapes())
        m_graph = std::make_unique<StepGraph>();
    m_summary.stopped = loop();
    return finish();
}

void TrainingRun::message(const std::string& text) const {
    if (m_cb.on_message)
        m_cb.on_message(text);
}

namespace {
/// The dataset opened and adopted, the config checked, the memory estimate compared: prepare's first
/// steps, shared with check_trainable.
void adopt_and_check(const ModelFamily& family, const TrainJob& job, RunConfig& cfg, PreparedDataset& data) {
    if (cfg.data_dir.empty())
        throw ConfigError("no dataset given; set data_dir (twb train --data DIR)");
    // Kept absolute in the run's config.json: a relative one (--set data_dir=d, a sweep axis) would name
    // another folder, or none, from any other working directory.
    cfg.data_dir = std::filesystem::absolute(cfg.data_dir).string();
    data = open_prepared(cfg.data_dir);
    try {
        family.adopt_dataset(data, cfg, job);
    } catch (const ConfigError&) {
        // A resume onto a dataset of another tokenizer: both named, and the command that fixes it (the sizes'
        // mismatch, "config vocab_size 65 differs from the dataset's 80", said neither)
        const std::filesystem::path own = std::filesystem::path(job.run_dir) / "tokenizer";
        if (job.resume && std::filesystem::exists(own / "tokenizer.json") &&
            std::filesystem::exists(data.dir / "tokenizer.json"))
            require_same_tokenizer(own, data.dir, "resume " + job.run_dir);
        throw;
    }
    cfg.check();
    // Memory before anything is allocated: a model that cannot fit is refused now, not killed later.
    if (!job.skip_memory_check)
        check_memory_fits(cfg.estimated_memory_bytes(), family.subject(cfg), "pass --ignore-memory-check to twb train");
}
}  // namespace

std::unique_ptr<ModelFamily> family_for(const RunConfig& config) {
    if (config.model_kind == ModelKind::EncoderDecoder)
        return std::make_unique<Seq2SeqFamily>();
    return std::make_unique<DecoderFamily>();
}

RunConfig check_trainable(const TrainJob& job) {
    RunConfig cfg = job.config;
    PreparedDataset data;
    adopt_and_check(*family_for(cfg), job, cfg, data);
    return cfg;
}

void TrainingRun::prepare() {
    adopt_and_check(*m_family, m_job, m_cfg, m_data);
    m_runDir = fs::path(m_job.run_dir);
    if (m_runDir.empty())
        throw ConfigError("no run folder given (twb train --out RUN)");
    if (const std::string warning = check_training_threads(m_cfg.threads); !warning.empty())
        message(warning);  // before the lock: a refusal leaves no folder behind
    // Only the process that writes the run folder (rank 0 of a multi-process run) locks it and tidies
    // it: the other ranks read it and must neither be refused by rank 0's lock nor remove its temporaries.
    if (m_job.distributed.rank == 0) {
        m_lock = std::make_unique<RunLock>(m_runDir);
        if (const int n = remove_stale_temporaries(m_runDir); n > 0)
            message("removed " + std::to_string(n) + " unfinished file(s) an interrupted run left in " +
                    m_runDir.string());
    }
    if (!m_job.resume && !list_checkpoints(m_runDir).empty())
        throw InputError(m_runDir.string() +
                         " already holds a run; continue it with --resume or choose another folder");

    m_threads = apply_threads(m_cfg.threads);
    keep_freed_memory_for_reuse();
    m_device = resolve_device(m_cfg.device);
    m_precision = resolve_precision(m_cfg.dtype, m_device);
    if (m_job.distributed.active()) {
        m_comm = std::make_unique<Communicator>(m_job.distributed, m_device);
        m_writer = m_comm->rank() == 0;
        const char* verify = std::getenv("TWB_DIST_VERIFY");  // tests: compare the weights after every step
        m_verifyEachStep = verify && std::string(verify) == "1";
    }
    // TWB_QUEUED_STEPS=1: queued steps on the CPU too (tests); =0: the host waits for every step (to
    // measure what queuing gains).
    const std::string queued = std::getenv("TWB_QUEUED_STEPS") ? std::getenv("TWB_QUEUED_STEPS") : "";
    m_queued = !m_comm && queued != "0" && (m_device.is_cuda() || queued == "1");
    torch::manual_seed(m_cfg.seed);

    FamilyContext ctx;
    ctx.data = &m_data;
    ctx.device = m_device;
    ctx.bf16 = m_precision.dtype == DType::BFloat16;
    ctx.rank = m_comm ? m_comm->rank() : 0;
    ctx.world = m_comm ? m_comm->world() : 1;
    ctx.message = [this](const std::string& text) { message(text); };
    m_family->open(ctx, m_cfg);
}

void TrainingRun::restore() {
    m_family->initialise(m_job);
    m_opt = std::make_unique<FlatAdamW>(m_family->named_weights(), m_cfg);
    for (const auto& [name, p] : m_family->named_weights())
        if (p.requires_grad())
            m_trainable.push_back(p);
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
    LoadedCheckpoint loaded;
    try {
        loaded = read_checkpoint(ck, CheckpointParts::WithOptimizer);
        if (!loaded.state.has_batcher_state)
            throw FormatError((ck / "state.json").string() +
                              ": has no batcher_state (the position in the data), so the run cannot resume exactly "
                              "(a new run can start from it with --init-from)");
    } catch (const FormatError& e) {
        refuse_resume(m_runDir, ck, e.what());
    }
    check_resume_config(loaded.state.config, m_cfg, ck.string());
    // The run's own tokenizer against the dataset's: a dataset prepared again with another one (same size,
    // other text per id) trained on and then overwrote the run's copy, leaving its checkpoints unreadable.
    // A run whose copy is gone is refused too, as every other command refuses it: resuming copied the
    // dataset's in its place, whichever tokenizer the dataset held by then.
    for (const auto& [data, own] : m_family->tokenizer_folders(m_runDir)) {
        require_kept_tokenizer(own, data);
        if (fs::exists(data / "tokenizer.json"))
            require_same_tokenizer(own, data, "resume " + m_runDir.string());
    }
    try {
        load_weights(m_family->named_weights(), loaded.weights, ck.string());
        if (loaded.optimizer.tensors.empty())
            throw FormatError(ck.string() + ": holds no optimizer state, so the run cannot resume exactly");
        try {
            m_opt->load_state(loaded.optimizer.tensors);
        } catch (const FormatError& e) {
            throw FormatError(ck.string() + ": " + e.what());
        }
        restore_rng(loaded.optimizer, ck.string(), m_device);
    } catch (const FormatError& e) {
        refuse_resume(m_runDir, ck, e.what());
    }
    m_family->set_batcher_state(loaded.state.batcher_state);
    m_state = loaded.state;
    m_state.config = m_cfg;
    m_skipFirstEval = !std::isnan(loaded.state.val_loss);
    if (m_comm) {
        auto params = m_opt->flat_params();  // every rank read the same checkpoint; rank 0's is the truth
        m_comm->broadcast(params);
    }
    message("resuming from " + ck.string());
}

void TrainingRun::open_run_folder() {
    if (!m_writer)
        return;  // rank 0 alone writes the run folder: config, metrics, probe and checkpoints
    // The run carries its tokenizers, so it samples even when the dataset folder moves.
    for (const auto& [from, to] : m_family->tokenizer_folders(m_runDir)) {
        fs::create_directories(to);
        // Marian's vocabulary (an imported translation model's) is three more files: its two models and vocab.json.
        std::vector<std::string> files{"tokenizer.json", "tokenizer.model"};
        if (fs::exists(from / "source.spm"))
            files.insert(files.end(), {"source.spm", "target.spm", "vocab.json"});
        for (const auto& f : files)
            if (fs::exists(from / f))
                fs::copy_file(from / f, to / f, fs::copy_options::overwrite_existing);
    }
    if (m_job.resume) {
        try {
            pin_created_time(m_runDir);  // before config.json's time, which stood for it, is the rewrite's
        } catch (const std::exception& e) {
            message(std::string("warning: the run's creation time is not kept: ") + e.what());
        }
    }
    write_file_atomic(m_runDir / "config.json", nlohmann::json(m_cfg).dump(2));
    m_metrics =
        std::make_unique<MetricsLog>(m_runDir / "metrics.csv", m_job.resume ? m_state.step : -1, m_skipFirstEval);
    if (m_metrics->dropped_lines() > 0)
        message("warning: " + (m_runDir / "metrics.csv").string() + " held " +
                std::to_string(m_metrics->dropped_lines()) +
                " damaged line(s), left out; the curves from before may have gaps");
    open_tensorboard();
    m_family->start_probe(m_runDir, m_job.resume);
}

void TrainingRun::open_tensorboard() {
    // tb/ mirrors metrics.csv as the line above left it (a resumed run's rows after its checkpoint gone),
    // so a step is never in TensorBoard twice; without tensorboard it would be stale, so it goes.
    if (!m_cfg.tensorboard) {
        if (remove_tensorboard(m_runDir))
            message("removed " + (m_runDir / "tb").string() + " (tensorboard=false; twb export-metrics remakes it)");
        return;
    }
    m_tensorboard = std::make_unique<TensorBoardLog>(
        m_runDir, nlohmann::json(m_cfg), read_metrics(m_runDir / "metrics.csv"), wall_clock_now(), m_state.elapsed_s);
}

void TrainingRun::log_row(const MetricsRow& row) {
    m_metrics->append(row);
    if (m_tensorboard)
        m_tensorboard->append(row);
}

void TrainingRun::report_start() {
    m_summary.parameters = parameter_count_of(m_family->module());
    m_summary.run_dir = m_runDir.string();
    m_elapsedBefore = m_state.elapsed_s;
    m_t0 = Clock::now();
    if (!m_cb.on_start)
        return;
    TrainStartInfo info;
    info.parameters = m_summary.parameters;
    info.start_step = m_state.step;
    info.threads = m_threads;
    info.device = m_device.str();
    info.device_name = describe_device(info.device);
    info.dtype = to_string(m_precision.dtype);
    info.dtype_reason = m_precision.reason;
    info.run_dir = m_runDir.string();
    info.config = m_cfg;
    info.rank = m_comm ? m_comm->rank() : 0;
    info.world_size = m_comm ? m_comm->world() : 1;
    m_family->describe(info);
    m_cb.on_start(info);
}

bool TrainingRun::loop() {
    while (true) {
        const int64_t step = m_state.step;
        if (m_ctl && m_ctl->paused()) {
            if (m_cb.on_pause)
                m_cb.on_pause(step);  // the step a stop now checkpoints, told before waiting
            const auto paused = Clock::now();
            m_ctl->wait_while_paused();
            // Save while paused writes the step the run waits at (it was written only after a resume, a
            // step later than the one said).
            while (m_ctl->paused() && !stop_requested() && m_ctl->take_checkpoint_request()) {
                checkpoint(NAN);
                m_ctl->wait_while_paused();
            }
            m_t0 += Clock::now() - paused;  // the run's time is its training's: a pause does not count
        }
        if (stop_requested()) {
            checkpoint(NAN);
            return true;
        }
        // Evaluate every eval_interval steps and at the end, but not again at the step a resumed
        // checkpoint had evaluated.
        if ((step % m_cfg.eval_interval == 0 || step == m_cfg.max_iters) && !m_skipFirstEval)
            evaluate(step);
        m_skipFirstEval = false;
        if (step >= m_cfg.max_iters) {
            if (const std::string traced = m_trace.finish(); !traced.empty())
                message(traced);
            return false;
        }
        if (const std::string traced = m_trace.before_step(step); !traced.empty())
            message(traced);
        train_step(step);
        if (m_ctl && m_ctl->take_checkpoint_request())
            checkpoint(NAN);
    }
}

double TrainingRun::elapsed() const {
    return m_elapsedBefore + std::chrono::duration<double>(Clock::now() - m_t0).count();
}

bool TrainingRun::stop_requested() const {
    const bool here = m_localStop || (m_ctl && m_ctl->stop_requested());
    return m_comm ? m_comm->any(here) : here;  // every rank stops at the same step
}

void TrainingRun::evaluate(int64_t step) {
    if (m_comm && !m_comm->identical(m_opt->flat_params()))
        throw Error("distributed training: the ranks' weights differ at step " + std::to_string(step) +
                    " (they must stay identical); resume from the last checkpoint with --resume");
    const FamilyEval fe = m_family->evaluate(step);
    EvalReport ev = fe.report;
    ev.step = step;
    // Only evaluations that are checkpointed (step > 0) can be the best: best.json never names a
    // checkpoint that was not saved (step 0 is not).
    ev.is_best =
        step > 0 && !std::isnan(fe.score) && (std::isnan(m_state.best_val_loss) || fe.score < m_state.best_val_loss);
    ev.elapsed_s = elapsed();
    if (ev.is_best) {
        m_state.best_val_loss = fe.score;
        m_state.best_step = step;
    }
    m_summary.last_val_loss = ev.val_loss;
    if (m_writer) {
        MetricsRow row = metrics_row(ev);
        row.lr = learning_rate_at(m_cfg, step);
        log_row(row);
    }
    if (m_cb.on_eval)
        m_cb.on_eval(ev);
    if (step > 0)
        checkpoint(ev.val_loss);
}

void TrainingRun::check_finite(double loss, int64_t step) const {
    if (std::isfinite(loss) && m_opt->grads_finite())
        return;
    diverged(std::string("the loss became ") + (std::isnan(loss) ? "NaN" : "infinite") + " at step " +
             std::to_string(step));
}

void TrainingRun::diverged(const std::string& what) const {
    const auto have = list_checkpoints(m_runDir);
    throw Error("training diverged: " + what + ". " +
                (have.empty() ? std::string("No checkpoint was written yet. ")
                              : "The last good checkpoint (step " + std::to_string(have.back()) + ") is intact. ") +
                "Lower learning_rate, raise warmup_iters or set grad_clip (e.g. 1.0).");
}

std::pair<double, double> TrainingRun::read_queued() {
    if (!m_queuedFinite.defined())
        return {NAN, NAN};
    const bool finite = m_queuedFinite.item<bool>();  // waits for the device's queue
    if (!finite)
        diverged("the loss or the gradients became NaN or infinite between step " + std::to_string(m_readStep) +
                 " and step " + std::to_string(m_state.step));
    m_queuedFinite = torch::Tensor();
    m_readStep = m_state.step;
    return {m_queuedLoss.item<double>(), m_queuedNorm.item<double>()};
}

bool TrainingRun::read_due() const {
    const int64_t s = m_state.step;
    return StepMeter::due(s, m_cfg) || s % m_cfg.eval_interval == 0 || s >= m_cfg.max_iters;
}

void TrainingRun::train_step(int64_t step) {
    const auto s0 = Clock::now();
    const double lr = learning_rate_at(m_cfg, step);
    auto [loss, tokens] = forward_backward();
    if (tokens < 0)
        return;  // abandoned for a stop: the run stands where it stood, for the loop to checkpoint
    double gradNorm = 0;
    if (m_queued) {
        m_queuedNorm = m_opt->clip_grad_norm_queued(m_cfg.grad_clip);
        auto finite = torch::isfinite(m_queuedLoss).logical_and(torch::isfinite(m_queuedNorm));
        m_queuedFinite = m_queuedFinite.defined() ? m_queuedFinite.logical_and(finite) : finite;
    } else {
        check_finite(loss, step);
        gradNorm = m_opt->clip_grad_norm(m_cfg.grad_clip);
    }
    m_opt->step(lr);
    m_opt->zero_grad();
    if (m_verifyEachStep && !m_comm->identical(m_opt->flat_params()))
        throw Error("distributed training: the ranks' weights differ after step " + std::to_string(step + 1));
    m_state.step = step + 1;
    m_state.tokens_seen += static_cast<uint64_t>(tokens);
    const bool settled = !m_queued || read_due();
    if (m_queued && settled)
        std::tie(loss, gradNorm) = read_queued();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - s0).count();
    report_step(loss, lr, gradNorm, ms, static_cast<double>(tokens), settled);
}

std::pair<double, int64_t> TrainingRun::forward_backward() {
    const int accumulation = m_cfg.gradient_accumulation_steps;
    const bool bf16 = m_precision.dtype == DType::BFloat16;
    double lossSum = 0;
    int64_t tokens = 0;
    // A stop asked between micro-batches abandons the step rather than waiting for all of them (with
    // thousands, a SIGTERM took minutes, past what timeout or docker stop wait): the data's position and
    // the random generators go back to the step's start, so the checkpoint written next is this step's
    // start and a resume trains the same numbers. Not across ranks, whose stop is agreed once a step.
    const bool abandonable = accumulation > 1 && !m_comm && m_ctl;
    uint64_t batcherBefore = 0;
    torch::Tensor cpuRng, deviceRng;
    if (abandonable) {
        batcherBefore = m_family->batcher_state();
        cpuRng = at::detail::getDefaultCPUGenerator().get_state();
        if (m_device.is_cuda())
            deviceRng = at::globalContext().defaultGenerator(m_device).get_state();
    }
    for (int micro = 0; micro < accumulation; ++micro) {
        if (abandonable && micro > 0 && m_ctl->stop_requested()) {
            m_family->set_batcher_state(batcherBefore);
            auto restore = [](at::Generator gen, const torch::Tensor& state) {
                std::lock_guard<std::mutex> lock(gen.mutex());
                gen.set_state(state);
            };
            restore(at::detail::getDefaultCPUGenerator(), cpuRng);
            if (deviceRng.defined())
                restore(at::globalContext().defaultGenerator(m_device), deviceRng);
            m_opt->zero_grad();
            m_queuedLoss = torch::Tensor();
            message("stop asked at micro-batch " + std::to_string(micro) + " of " + std::to_string(accumulation) +
                    ": step " + std::to_string(m_state.step + 1) + " is left undone");
            return {NAN, -1};
        }
        const TrainBatch batch = m_family->next_batch();
        if (const int lanes = lane_count(m_threads, batch.rows(), m_device); lanes > 1) {
            LaneSettings ls;
            ls.device = m_device;
            ls.bf16 = bf16;
            ls.label_smoothing = m_cfg.label_smoothing;
            ls.scale = 1.0 / accumulation;
            ls.seed =
                m_cfg.seed * 1000003ull + static_cast<uint64_t>(m_state.step) * 131ull + static_cast<uint64_t>(micro);
            if (!m_lanes)
                m_lanes = std::make_unique<Lanes>(m_threads);
            const LanePass pass = m_lanes->run(*m_family, batch, lanes, ls, m_trainable);
            lossSum += pass.loss;
            if (m_queued) {  // lanes run on the CPU: the loss is on the host already
                auto l = torch::scalar_tensor(pass.loss, torch::kFloat32);
                m_queuedLoss = micro == 0 ? l : m_queuedLoss + l;
            }
            tokens += pass.tokens;
            continue;
        }
        const StepGraph::Pass pass = [&](const TrainBatch& rows) {
            torch::Tensor loss;
            int64_t n = 0;
            with_autocast(m_device, bf16, [&] {
                const MicroBatch b = m_family->forward(rows);
                loss = training_loss(b, torch::kMean, m_cfg.label_smoothing);
                n = b.tokens;
            });
            if (accumulation > 1)
                loss = loss / accumulation;
            loss.backward();
            return std::make_pair(loss.detach(), n);
        };
        auto [loss, n] = m_graph ? m_graph->run(batch, pass, *m_opt) : pass(batch);
        tokens += n;
        if (m_graph && !m_graphTold) {
            message(m_graph->replaying() ? "the training step is recorded as a CUDA graph and replayed"
                                         : m_graph->eager_reason());
            m_graphTold = true;
        }
        // The micro-batch losses were divided by the accumulation steps.
        if (m_queued)
            m_queuedLoss = micro == 0 ? loss : m_queuedLoss + loss;
        else
            lossSum += loss.item<double>();
    }
    if (m_comm) {
        const auto c0 = Clock::now();
        auto grads = m_opt->flat_grads();
        m_comm->average(grads);  // the mean gradient of the global batch, identical on every rank
        lossSum = m_comm->average(lossSum);
        tokens *= m_comm->world();
        m_meter.add_comm(std::chrono::duration<double, std::milli>(Clock::now() - c0).count());
    }
    return {lossSum, tokens};
}

void TrainingRun::report_step(double loss, double lr, double gradNorm, double ms, double tokens, bool settled) {
    m_meter.add(ms, tokens);
    if (settled)
        m_meter.settle();
    if (!StepMeter::due(m_state.step, m_cfg))
        return;
    StepReport r = m_meter.take(m_state.step, m_cfg, loss, lr, gradNorm);
    r.dtype = to_string(m_precision.dtype);
    r.elapsed_s = elapsed();
    r.epoch = m_family->epoch();
    if (m_device.is_cuda()) {
        const DeviceMemory mem = device_memory(m_device.str());
        r.device_memory_used = mem.used;
        r.device_memory_total = mem.total;
    }
    if (m_writer)
        log_row(metrics_row(r));
    if (m_cb.on_step && !m_cb.on_step(r))
        m_localStop = true;
}

void TrainingRun::checkpoint(double valLoss) {
    if (!m_writer)
        return;
    if (m_queued)
        read_queued();  // a step that went non-finite since the last read is refused, not saved
    m_state.val_loss = valLoss;
    m_state.batcher_state = m_family->batcher_state();
    m_state.elapsed_s = elapsed();
    const fs::path p = save_checkpoint(m_runDir, m_family->named_weights(), m_opt.get(), m_state);
    prune_checkpoints(m_runDir, m_cfg.keep_checkpoints, m_state.best_step);
    if (m_cb.on_checkpoint)
        m_cb.on_checkpoint(p.string(), m_state.step);
}

TrainSummary TrainingRun::finish() {
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
    return nn::TrainingRun(nn::family_for(job.config), job, callbacks, control).run();
}

}  // namespace twb
