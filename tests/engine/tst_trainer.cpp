// Training: a small model learns, resume reproduces the uninterrupted run bit for bit, stop writes a
// checkpoint (while paused, at the step on_pause names), bad settings stop with a message. Every test
// function makes its own runs, so each passes alone and in any order (divergence is tst_train_step's).
#include "core/data/token_file.h"
#include "core/run/checkpoint_state.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/interchange/checkpoint.h"
#include "nn/training/optimizer.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/metrics.h"
#include "twb/probe.h"
#include "twb/run_folder.h"
#include "twb/schedule.h"
#include "twb/session.h"
#include "twb/training.h"
#include "twb/translation.h"

#include <QDir>
#include <QScopeGuard>

#include <fstream>

using namespace twb;

class TestTrainer : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_data;

    RunConfig config(int iters) const {
        RunConfig c = preset_config("tiny");
        c.dtype = DType::Float32;  // pinned: auto would be bf16 on a CPU with AVX512-BF16
        c.data_dir = m_data.string();
        c.n_layer = 2;
        c.n_embd = 32;
        c.n_head = 2;
        c.block_size = 32;
        c.batch_size = 8;
        c.max_iters = iters;
        c.lr_decay_iters = iters;
        c.warmup_iters = 5;
        c.eval_interval = 10;
        c.eval_iters = 2;
        c.log_interval = 1;
        c.threads = 1;
        return c;
    }
    struct Run {
        std::vector<double> losses;
        TrainSummary summary;
    };
    Run run(const RunConfig& c, const std::string& dir, bool resume = false, int stopAt = -1) {
        Run r;
        TrainJob job;
        job.config = c;
        job.run_dir = dir;
        job.resume = resume;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) {
            r.losses.push_back(s.loss);
            return s.step != stopAt;
        };
        r.summary = train(job, cb);
        return r;
    }

    /// A learnable corpus prepared as `name`: a repeating pattern with a little noise (`rare` now and then).
    std::filesystem::path patternData(const std::string& name, const std::string& rare) {
        std::string text;
        std::mt19937 rng(3);
        for (int i = 0; i < 4000; ++i)
            text += (rng() % 10 == 0) ? rare + "\n" : "hello world\n";
        twbtest::write(twbtest::path(m_dir, (name + ".txt").c_str()), text);
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, (name + ".txt").c_str()).string()};
        o.out = twbtest::path(m_dir, name.c_str());
        prepare_dataset(o);
        return o.out;
    }

private slots:
    void initTestCase() { m_data = patternData("data", "xyz"); }
    void lossFallsWellBelowStart() {
        auto r = run(config(120), twbtest::path(m_dir, "learn").string());
        QVERIFY(r.losses.size() == 120);
        const double start = std::log(12.0);  // ~uniform over the 12-character vocabulary
        QVERIFY2(r.losses.back() < 0.35 * start, qPrintable(QString::number(r.losses.back())));
        QVERIFY(r.summary.best_val_loss < 0.35 * start);
        // metrics.csv has the header and rows for every step and evaluation
        const auto rows = read_metrics(twbtest::path(m_dir, "learn") / "metrics.csv");
        QCOMPARE(std::count_if(rows.begin(), rows.end(), [](auto& x) { return x.kind == "train"; }), 120l);
        QCOMPARE(std::count_if(rows.begin(), rows.end(), [](auto& x) { return x.kind == "eval"; }), 13l);
        // Every training row names the precision in force (this config pins float32).
        QVERIFY(
            std::all_of(rows.begin(), rows.end(), [](auto& x) { return x.kind != "train" || x.dtype == "float32"; }));
    }
    void probeTimelineHasOneCapturePerEvaluation() {
        const auto dir = twbtest::path(m_dir, "probe");
        auto r = run(config(30), dir.string());
        const auto t = read_probe(dir);
        // Evaluations at 0, 10, 20, 30; the probe is the first block of val (32 tokens < 64).
        QCOMPARE(t.steps, (std::vector<int64_t>{0, 10, 20, 30}));
        QCOMPARE(t.layers, int64_t(2));
        QCOMPARE(t.heads, int64_t(2));
        QCOMPARE(t.length, int64_t(32));
        QCOMPARE(t.tokens.size(), size_t(32));
        const auto open = open_prepared(m_data);
        TokenFile val(m_data / "val.bin", open.dtype);
        for (size_t i = 0; i < t.ids.size(); ++i)
            QCOMPARE(t.ids[i], val.at(i));
        for (size_t i = 0; i < t.steps.size(); ++i) {
            const auto c = t.at(i);
            for (int64_t q = 0; q < c.length; ++q) {
                double sum = 0;
                for (int64_t k = 0; k < c.length; ++k) {
                    sum += c.at(1, 1, q, k);
                    if (k > q)
                        QCOMPARE(c.at(1, 1, q, k), 0.0f);
                }
                QVERIFY2(std::abs(sum - 1.0) < (q + 1) * 0.5 / 255 + 1e-6, qPrintable(QString::number(sum)));
            }
        }
        // Heads change as the model learns: the last capture differs from the first.
        QVERIFY(t.at(0).weights != t.at(3).weights);
        // Resuming and training on appends after the resumed step and keeps steps ascending.
        auto more = config(50);
        run(more, dir.string(), true);
        QCOMPARE(read_probe(dir).steps, (std::vector<int64_t>{0, 10, 20, 30, 40, 50}));
        // A torn record (crash mid-append) is ignored on reading.
        {
            std::ofstream f(dir / "probe" / "attention.u8", std::ios::binary | std::ios::app);
            f << "torn";
        }
        QCOMPARE(read_probe(dir).steps.size(), size_t(6));
    }
    void resumeIsBitIdentical_data() {
        QTest::addColumn<int>("threads");
        QTest::newRow("one thread") << 1;
        QTest::newRow("two lanes") << 2;  // lanes.h: the rows split over two threads, dropout from lane generators
    }
    void resumeIsBitIdentical() {
        QFETCH(int, threads);
        auto cfg = config(40);
        cfg.threads = threads;
        cfg.dropout = 0.1;  // exercises torch's RNG state too
        const std::string tag = std::to_string(threads);
        const auto full = run(cfg, twbtest::path(m_dir, ("full" + tag).c_str()).string());
        const auto first = run(cfg, twbtest::path(m_dir, ("split" + tag).c_str()).string(), false, 17);
        QVERIFY(first.summary.stopped);
        QCOMPARE(first.summary.final_step, int64_t(17));
        const auto second = run(cfg, twbtest::path(m_dir, ("split" + tag).c_str()).string(), true);
        QCOMPARE(second.summary.final_step, int64_t(40));
        std::vector<double> joined = first.losses;
        joined.insert(joined.end(), second.losses.begin(), second.losses.end());
        QCOMPARE(joined.size(), full.losses.size());
        for (size_t i = 0; i < joined.size(); ++i)
            QCOMPARE(joined[i], full.losses[i]);  // exact, not fuzzy
        // metrics.csv of the resumed run has each step once
        const auto rows = read_metrics(twbtest::path(m_dir, ("split" + tag).c_str()) / "metrics.csv");
        QCOMPARE(std::count_if(rows.begin(), rows.end(), [](auto& x) { return x.kind == "train"; }), 40l);
    }
    /// A pause takes effect after the step under way; on_pause names the step the run waits at, and a
    /// stop while paused checkpoints that step, with no step run after it (the GUI said "paused at 300"
    /// and checkpointed 301 before it was told where the run waited).
    void stopWhilePausedCheckpointsThePausedStep() {
        TrainControl ctl;
        TrainJob job;
        job.config = config(60);
        job.run_dir = twbtest::path(m_dir, "paused").string();
        std::vector<int64_t> steps, pauses;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) {
            steps.push_back(s.step);
            if (s.step == 15)
                ctl.pause();
            return true;
        };
        std::vector<int64_t> whilePaused;
        cb.on_checkpoint = [&](const std::string&, int64_t step) {
            if (!ctl.paused())
                return;
            whilePaused.push_back(step);
            ctl.request_stop();  // as Stop pressed while paused, after Save
        };
        cb.on_pause = [&](int64_t step) {
            pauses.push_back(step);
            QVERIFY(ctl.paused());
            ctl.request_checkpoint();  // as Save (Ctrl+S) pressed while paused: written at once, of step 15
        };
        const TrainSummary summary = train(job, cb, &ctl);
        QVERIFY(!whilePaused.empty());
        QCOMPARE(whilePaused.front(), int64_t(15));
        QCOMPARE(pauses, std::vector<int64_t>{15});
        QVERIFY(summary.stopped);
        QCOMPARE(summary.final_step, int64_t(15));
        QCOMPARE(steps.back(), int64_t(15));  // no step after the pause
        QCOMPARE(list_checkpoints(job.run_dir).back(), int64_t(15));
        // pause then resume: told once, and the run goes on to its end
        TrainControl ctl2;
        job.run_dir = twbtest::path(m_dir, "paused_resumed").string();
        pauses.clear();
        cb.on_checkpoint = nullptr;
        cb.on_step = [&](const StepReport& s) {
            if (s.step == 7)
                ctl2.pause();
            return true;
        };
        cb.on_pause = [&](int64_t step) {
            pauses.push_back(step);
            ctl2.resume();
        };
        QCOMPARE(train(job, cb, &ctl2).final_step, int64_t(60));
        QCOMPARE(pauses, std::vector<int64_t>{7});
    }
    void existingRunNeedsResume() {
        const auto dir = twbtest::path(m_dir, "exists").string();
        run(config(10), dir);
        QVERIFY_THROWS_EXCEPTION(InputError, run(config(10), dir));
    }
    void aRelativeDatasetIsKeptAbsolute() {
        // data_dir "data" (--set data_dir=data, a sweep axis) from the scratch folder: the run's
        // config.json names the folder itself, so the run reads it from any working directory.
        const QString before = QDir::currentPath();
        auto back = qScopeGuard([&] { QDir::setCurrent(before); });
        QVERIFY(QDir::setCurrent(m_dir.path()));
        RunConfig c = config(10);
        c.data_dir = m_data.filename().string();
        const auto dir = twbtest::path(m_dir, "relative").string();
        run(c, dir);
        QVERIFY(QDir::setCurrent("/"));
        QCOMPARE(std::filesystem::path(read_run_config(dir).data_dir), m_data);
    }
    void resumeRefusesADatasetPreparedAgainWithAnotherTokenizer() {
        // The run's data prepared again from text with one character swapped: the same 12 tokens, other
        // text for one id. Resuming trained on, and replaced the run's tokenizer with the dataset's, so the
        // run's checkpoints were read as other text from then on.
        const auto swapped = patternData("data_swapped", "xyq");
        const auto dir = twbtest::path(m_dir, "retokenized");
        run(config(10), dir.string(), false, 5);
        const std::string tokenizer = read_file(dir / "tokenizer" / "tokenizer.json");
        RunConfig c = config(10);
        c.data_dir = swapped.string();
        try {
            run(c, dir.string(), true);
            QFAIL("a resume on another tokenizer's dataset was not refused");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("cannot resume") != std::string::npos, e.what());
        }
        QCOMPARE(read_file(dir / "tokenizer" / "tokenizer.json"), tokenizer);  // the run's own, untouched
        QCOMPARE(list_checkpoints(dir).back(), int64_t(5));
        // A tokenizer of another size is named as well, with the command that fixes it (it said "config vocab_size
        // 12 differs from the dataset's 14; a run trains on one tokenizer")
        RunConfig resumed = config(10);
        resumed.vocab_size = 12;  // as the run's config.json holds it
        resumed.data_dir = patternData("data_bigger", "xyzuvw").string();
        try {
            run(resumed, dir.string(), true);
            QFAIL("a resume on a bigger tokenizer's dataset was not refused");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("cannot resume") != std::string::npos &&
                         std::string(e.what()).find("--tokenizer-from") != std::string::npos,
                     e.what());
        }
        // Without its own copy a run is not read with its dataset's tokenizer in its place.
        std::filesystem::remove(dir / "tokenizer" / "tokenizer.json");
        QVERIFY_THROWS_EXCEPTION(InputError, run_tokenizer_dir(dir, m_data));
        // Nor resumed with it: resuming copied the dataset's in (the swapped one too) and trained on.
        for (const auto& data : {m_data, swapped}) {
            c.data_dir = data.string();
            try {
                run(c, dir.string(), true);
                QFAIL("a resume without the run's own tokenizer was not refused");
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find("tokenizer.json: missing") != std::string::npos, e.what());
            }
            QVERIFY(!std::filesystem::exists(dir / "tokenizer" / "tokenizer.json"));
            QCOMPARE(list_checkpoints(dir).back(), int64_t(5));
        }
    }
    void commandsRefuseTheRunsDatasetPreparedAgain() {
        // twb eval, ablate and embeddings --map read the run's own dataset when given none. Prepared again
        // with another tokenizer of the same size, it was scored (and its tokens counted) without a word.
        const auto data = patternData("data_again", "xyz");
        RunConfig c = config(10);
        c.data_dir = data.string();
        const auto dir = twbtest::path(m_dir, "again");
        run(c, dir.string(), false, 5);
        ModelSession s;
        s.open(dir.string(), "last");
        EvalOptions eo;
        QVERIFY(std::isfinite(s.evaluate(eo).loss));  // its own, as it was
        QVERIFY(s.embedding_map(5).by_frequency);
        std::filesystem::remove_all(data);
        QCOMPARE(patternData("data_again", "xyq"), data);  // the same 12 tokens, other text for one id
        try {
            s.evaluate(eo);
            QFAIL("the run's dataset prepared again with another tokenizer was scored");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("cannot evaluate on the run's dataset") != std::string::npos, e.what());
        }
        const auto map = s.embedding_map(5);
        QVERIFY(!map.by_frequency);
        QVERIFY2(map.source.find("could not be read") != std::string::npos, map.source.c_str());
    }
    void resumeLeavesOutDamagedMetricsLines() {
        // Junk in metrics.csv (a damaged disk, another file copied over it) was kept on resume and appended to.
        const auto dir = twbtest::path(m_dir, "junk_metrics");
        run(config(10), dir.string(), false, 5);
        QVERIFY(!std::filesystem::exists(dir / "run.json"));
        {
            std::ofstream out(dir / "metrics.csv", std::ios::app | std::ios::binary);
            out << "\x01\x02garbage,with,commas\n" << std::string(40, '\xff') << "\n1e9,train\n";
        }
        std::vector<std::string> messages;
        TrainJob job;
        job.config = config(10);
        job.run_dir = dir.string();
        job.resume = true;
        TrainCallbacks cb;
        cb.on_message = [&](const std::string& m) { messages.push_back(m); };
        train(job, cb);
        const std::string text = read_file(dir / "metrics.csv");
        QVERIFY(text.find("garbage") == std::string::npos && text.find('\xff') == std::string::npos &&
                text.find("1e9,") == std::string::npos);
        const auto rows = read_metrics(dir / "metrics.csv");
        QCOMPARE(std::count_if(rows.begin(), rows.end(), [](auto& r) { return r.kind == "train"; }), 10l);
        QVERIFY(std::any_of(messages.begin(), messages.end(),
                            [](const std::string& m) { return m.find("3 damaged line(s)") != std::string::npos; }));
        QVERIFY(std::filesystem::exists(dir / "run.json"));  // the creation time kept before config.json's rewrite
    }
    void aDamagedOrMissingCheckpointSpoilsOnlyItself() {
        const auto dir = twbtest::path(m_dir, "damaged");
        run(config(20), dir.string());  // checkpoints at 10 and 20
        QCOMPARE(list_checkpoints(dir), (std::vector<int64_t>{10, 20}));
        // The newest one's state.json cut short: the run's kind still reads (eval, lens, attention and ablate
        // of step 10 refused, as they asked the newest checkpoint for it).
        std::filesystem::resize_file(dir / "checkpoints" / checkpoint_dir_name(20) / "state.json", 40);
        QVERIFY(!is_encoder_decoder_run(dir.string()));
        QCOMPARE(find_checkpoint(dir, "10"), dir / "checkpoints" / checkpoint_dir_name(10));
        // The best one deleted: the refusal says so and names the others.
        const int64_t best = parse_best_step(read_file(dir / "checkpoints" / "best.json"), "best.json");
        std::filesystem::remove_all(dir / "checkpoints" / checkpoint_dir_name(best));
        try {
            find_checkpoint(dir, "best");
            QFAIL("a deleted best checkpoint was not refused");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("best checkpoint (step " + std::to_string(best) +
                                                ", checkpoints/best.json) is gone") != std::string::npos,
                     e.what());
        }
        // A checkpoint without its weights is named as such, not as "no checkpoints here".
        const auto other = dir / "checkpoints" / checkpoint_dir_name(best == 10 ? 20 : 10);
        std::filesystem::remove(other / "model.safetensors");
        try {
            find_checkpoint(other);
            QFAIL("a checkpoint without weights was not refused");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("model.safetensors: missing") != std::string::npos, e.what());
        }
    }
    void finetuneFromAnotherRun() {
        const auto source = twbtest::path(m_dir, "ft_source").string();
        const auto learned = run(config(120), source);
        QVERIFY(learned.summary.best_val_loss < 1.0);
        TrainJob job;
        job.config = config(10);
        job.run_dir = twbtest::path(m_dir, "ft").string();
        job.init_from = source;
        double firstLoss = 0;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) {
            if (s.step == 1)
                firstLoss = s.loss;
            return true;
        };
        train(job, cb);
        QVERIFY2(firstLoss < 1.0, qPrintable(QString::number(firstLoss)));  // starts where "learn" ended
    }
    void traceAskedForNeverStopsTheRun() {
        // TWB_TRACE is a diagnostic: with Kineto (the torch wheel) the trace is written and the run says
        // so; without (Debian's libtorch 1.13, whose profiler cannot save) the run says why there is no
        // trace. Either way it trains to the end (the libtorch 1.13 build stopped with an error).
        const auto dir = twbtest::path(m_dir, "traced");
        const auto file = twbtest::path(m_dir, "trace.json");
        qputenv("TWB_TRACE", QByteArray::fromStdString(file.string()));
        qputenv("TWB_TRACE_STEPS", "2-3");
        std::vector<std::string> messages;
        TrainJob job;
        job.config = config(6);
        job.run_dir = dir.string();
        TrainCallbacks cb;
        int steps = 0;
        cb.on_step = [&](const StepReport&) { return ++steps > 0; };
        cb.on_message = [&](const std::string& m) { messages.push_back(m); };
        const TrainSummary summary = train(job, cb);
        qunsetenv("TWB_TRACE");
        qunsetenv("TWB_TRACE_STEPS");
        QCOMPARE(steps, 6);
        QCOMPARE(summary.final_step, int64_t(6));
        QVERIFY(!summary.stopped);
        const auto said = [&](const std::string& start) {
            return std::any_of(messages.begin(), messages.end(), [&](auto& m) { return m.rfind(start, 0) == 0; });
        };
        if (std::filesystem::exists(file)) {
            QVERIFY(said("traced steps 2 to 3 into "));
            std::ifstream in(file);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            QVERIFY(text.find("traceEvents") != std::string::npos);
        } else {
            QVERIFY2(said("could not write the trace "), messages.empty() ? "no message" : messages.back().c_str());
        }
    }
    void invalidConfigIsRefused() {
        auto cfg = config(10);
        cfg.n_head = 3;
        QVERIFY_THROWS_EXCEPTION(ConfigError, run(cfg, twbtest::path(m_dir, "bad").string()));
        cfg = config(10);
        cfg.block_size = 100000;
        QVERIFY_THROWS_EXCEPTION(ConfigError, run(cfg, twbtest::path(m_dir, "bad2").string()));
    }
    void schedules() {
        RunConfig c;
        c.learning_rate = 1.0;
        c.min_lr = 0.1;
        c.warmup_iters = 10;
        c.lr_decay_iters = 110;
        QCOMPARE(learning_rate_at(c, 0), 1.0 / 11);
        QCOMPARE(learning_rate_at(c, 10), 1.0);
        QVERIFY(std::abs(learning_rate_at(c, 60) - 0.55) < 1e-12);
        QCOMPARE(learning_rate_at(c, 500), 0.1);
        c.schedule = Schedule::InverseSqrt;
        QCOMPARE(learning_rate_at(c, 9), 1.0);  // peak at step = warmup
        QVERIFY(std::abs(learning_rate_at(c, 39) - 0.5) < 1e-12);
    }
    void flatAdamWMatchesTorchAdamW() {
        RunConfig c;
        c.weight_decay = 0.1;
        torch::manual_seed(0);
        auto w1 = torch::randn({4, 3}, torch::requires_grad()), b1 = torch::randn({3}, torch::requires_grad());
        auto w2 = w1.detach().clone().requires_grad_(), b2 = b1.detach().clone().requires_grad_();
        nn::FlatAdamW flat({{"w", w1}, {"b", b1}}, c);
        torch::optim::AdamW ref(
            {torch::optim::OptimizerParamGroup(
                 {w2}, std::make_unique<torch::optim::AdamWOptions>(
                           torch::optim::AdamWOptions(0.01).betas({0.9, 0.99}).weight_decay(0.1))),
             torch::optim::OptimizerParamGroup(
                 {b2}, std::make_unique<torch::optim::AdamWOptions>(
                           torch::optim::AdamWOptions(0.01).betas({0.9, 0.99}).weight_decay(0.0)))});
        auto x = torch::randn({5, 4});
        for (int i = 0; i < 5; ++i) {
            (x.matmul(w1) + b1).pow(2).sum().backward();
            flat.step(0.01);
            flat.zero_grad();
            ref.zero_grad();
            (x.matmul(w2) + b2).pow(2).sum().backward();
            ref.step();
        }
        QVERIFY(torch::allclose(w1, w2, 1e-5, 1e-6));
        QVERIFY(torch::allclose(b1, b2, 1e-5, 1e-6));
    }
};

TWB_APPLESS_MAIN(TestTrainer)
#include "tst_trainer.moc"
