// One training step against the definitions: the trainer's first step is recomputed here from the same
// initial weights and batches (the loss with label smoothing written out as its formula, the k
// micro-batches as one batch of k*B rows, the global norm, clipping to max_norm, AdamW's first update
// with its decay groups) and the checkpoint's weights must equal the result; and two steps, where Adam's
// update depends on the gradients' sizes, so clipping and the accumulation's scale show in the weights.
// Also: clipping on its own,
// bf16 autocast near float32, divergence that stops naming the step with the last checkpoint intact,
// checkpoint pruning with best.json, and "save a checkpoint now". And the GPU's queued steps (the host
// reading the loss and norm only at reports), run on the CPU: the same training, divergence still caught.
#include "core/data/token_file.h"
#include "nn/interchange/checkpoint.h"
#include "nn/models/model.h"
#include "nn/training/batcher.h"
#include "nn/training/optimizer.h"
#include "test_util.h"
#include "train_outcome.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/run_folder.h"
#include "twb/text.h"
#include "twb/training.h"

#include <cmath>

using namespace twb;

namespace {
/// Sets TWB_QUEUED_STEPS for its lifetime: the GPU's queued steps on the CPU.
struct QueuedSteps {
    QueuedSteps() { qputenv("TWB_QUEUED_STEPS", "1"); }
    ~QueuedSteps() { qunsetenv("TWB_QUEUED_STEPS"); }
    QueuedSteps(const QueuedSteps&) = delete;
    QueuedSteps& operator=(const QueuedSteps&) = delete;
};
}  // namespace

class TestTrainStep : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_data;
    int m_vocab = 0;

    RunConfig config() const {
        RunConfig c;
        c.dtype = DType::Float32;  // pinned: auto would be bf16 on a CPU with AVX512-BF16
        c.data_dir = m_data.string();
        c.n_layer = 1;
        c.n_head = 2;
        c.n_embd = 16;
        c.block_size = 16;
        c.batch_size = 4;
        c.dropout = 0;
        c.max_iters = 1;
        c.eval_interval = 1;
        c.eval_iters = 1;
        c.log_interval = 1;
        c.schedule = Schedule::Constant;
        c.warmup_iters = 0;
        c.learning_rate = 1e-2;
        c.weight_decay = 0.1;
        c.threads = 1;
        c.seed = 42;
        return c;
    }
    std::filesystem::path fresh(const char* name) const { return twbtest::path(m_dir, name); }
    /// Two sane steps of c into dir (a checkpoint at step 2), then its first moment made finite but absurd
    /// (exp_avg = 1e30; resume refuses a NaN or negative state, so the damage must pass that check): the
    /// resumed run's first update throws every weight out of range. c is left to resume to step 10.
    void damage_after_two_steps(RunConfig& c, const std::filesystem::path& dir) const {
        c.max_iters = 2;
        c.eval_interval = 2;
        twbtest::run_training(c, dir);
        const auto optFile = nn::find_checkpoint(dir, "last") / "optimizer.safetensors";
        auto opt = nn::load_safetensors(optFile);
        QVERIFY(opt.tensors.count("exp_avg"));
        opt.tensors["exp_avg"].fill_(1e30);
        nn::save_safetensors(optFile, {opt.tensors.begin(), opt.tensors.end()}, opt.metadata);
        c.max_iters = 10;
    }

    struct ReferenceRun {
        std::vector<double> losses, norms;
        std::map<std::string, torch::Tensor> weights;  // float64, after the last step
    };
    /// Training steps by definition, in float64: the model built after seeding as the trainer does (the same
    /// initial weights) and the trainer's batches; each step's k micro-batches as one batch of k*B rows (the
    /// mean over all positions); label smoothing eps as (1 - eps) * NLL(target) + eps * mean over the
    /// vocabulary of -log p; the norm before clipping; AdamW with bias correction and decoupled decay for
    /// matrices (embeddings only when decay_embeddings), its moments carried from step to step (from step 2
    /// on Adam's update depends on the gradients' relative sizes, so scaling and clipping show in the
    /// weights). Gradients are scaled by grad_scale before clipping: what a trainer that got the scale
    /// wrong would see.
    ReferenceRun reference_steps(RunConfig c, int steps, double grad_scale = 1.0) const {
        c.vocab_size = m_vocab;
        torch::manual_seed(c.seed);
        nn::GPT model(c);
        const auto data = open_prepared(m_data);
        TokenFile train(m_data / "train.bin", data.dtype);
        nn::Batcher batcher(train, c.block_size, c.batch_size, c.seed);
        ReferenceRun out;
        std::map<std::string, torch::Tensor> m1, v1;
        for (int step = 0; step < steps; ++step) {
            model->zero_grad();
            std::vector<torch::Tensor> xs, ys;
            for (int i = 0; i < c.gradient_accumulation_steps; ++i) {
                auto [x, y] = batcher.next(torch::kCPU);
                xs.push_back(x);
                ys.push_back(y);
            }
            auto x = torch::cat(xs), y = torch::cat(ys).reshape({-1});
            auto logp = torch::log_softmax(model->forward(x).to(torch::kFloat64), -1).reshape({-1, c.vocab_size});
            const double eps = c.label_smoothing;
            auto loss = ((1 - eps) * -logp.gather(1, y.unsqueeze(1)).squeeze(1) + eps * -logp.mean(1)).mean();
            loss.backward();
            out.losses.push_back(loss.item<double>());
            double sq = 0;
            for (auto& p : model->parameters())
                sq += (p.grad().to(torch::kFloat64) * grad_scale).pow(2).sum().item<double>();
            const double norm = std::sqrt(sq);
            out.norms.push_back(norm);
            const double scale =
                grad_scale * (c.grad_clip > 0 && norm > c.grad_clip ? c.grad_clip / (norm + 1e-6) : 1.0);
            const double lr = c.learning_rate, t = step + 1;  // constant schedule
            const double bc1 = 1 - std::pow(c.beta1, t), bc2 = 1 - std::pow(c.beta2, t);
            torch::NoGradGuard ng;
            for (auto& item : model->named_parameters()) {
                const auto& name = item.key();
                const auto g = item.value().grad().to(torch::kFloat64) * scale;
                if (!out.weights.count(name)) {
                    out.weights[name] = item.value().detach().to(torch::kFloat64);
                    m1[name] = torch::zeros_like(g);
                    v1[name] = torch::zeros_like(g);
                }
                const bool emb = name.find("wte") != std::string::npos || name.find("wpe") != std::string::npos;
                const bool decay = item.value().dim() >= 2 && (c.decay_embeddings || !emb);
                m1[name] = c.beta1 * m1[name] + (1 - c.beta1) * g;
                v1[name] = c.beta2 * v1[name] + (1 - c.beta2) * g * g;
                auto& w = out.weights[name];
                w = w * (1 - (decay ? lr * c.weight_decay : 0.0)) -
                    lr / bc1 * m1[name] / (v1[name].sqrt() / std::sqrt(bc2) + 1e-8);
                item.value().copy_(w);
            }
        }
        return out;
    }

    void check_step(const RunConfig& c, const char* name) {
        const auto dir = fresh(name);
        const auto o = twbtest::run_training(c, dir);
        QCOMPARE(o.steps.size(), size_t(1));
        const ReferenceRun ref = reference_steps(c, 1);
        const auto& expect = ref.weights;
        QVERIFY2(std::abs(o.steps[0].loss - ref.losses[0]) < 1e-5,
                 qPrintable(QString("loss %1, by definition %2").arg(o.steps[0].loss).arg(ref.losses[0])));
        QVERIFY2(std::abs(o.steps[0].grad_norm - ref.norms[0]) < 1e-4 * ref.norms[0],
                 qPrintable(QString("norm %1, by definition %2").arg(o.steps[0].grad_norm).arg(ref.norms[0])));
        const auto ck = nn::read_checkpoint(nn::find_checkpoint(dir, "last"));
        QCOMPARE(ck.state.step, int64_t(1));
        QCOMPARE(ck.weights.tensors.size(), expect.size());
        for (auto& [key, value] : expect) {
            QVERIFY2(ck.weights.tensors.count(key), key.c_str());
            const double d = (ck.weights.tensors.at(key).to(torch::kFloat64) - value).abs().max().item<double>();
            // AdamW's first step moves each weight by about lr (lr g / |g|); float32 rounding of a gradient
            // that nearly cancels can turn a few of those by a little, so: within 1/2000 of a step.
            QVERIFY2(d < 5e-4 * c.learning_rate, qPrintable(QString("%1 differs by %2").arg(key.c_str()).arg(d)));
        }
    }

    static double max_weight_diff(const std::map<std::string, torch::Tensor>& a,
                                  const std::map<std::string, torch::Tensor>& b) {
        double d = 0;
        for (const auto& [name, w] : a)
            d = std::max(d, (w - b.at(name).to(torch::kFloat64)).abs().max().item<double>());
        return d;
    }
    /// Runs c for 2 steps and compares the checkpoint at step 2 with the reference's weights; returns the
    /// largest difference.
    double two_steps_against(const RunConfig& c, const char* name, const ReferenceRun& ref) {
        auto two = c;
        two.max_iters = 2;
        two.eval_interval = 2;
        const auto dir = fresh(name);
        const auto o = twbtest::run_training(two, dir);
        if (o.steps.size() != 2)
            return INFINITY;
        const auto ck = nn::read_checkpoint(nn::find_checkpoint(dir, "last"));
        if (ck.weights.tensors.size() != ref.weights.size() || ck.state.step != 2)
            return INFINITY;
        return max_weight_diff(ref.weights, ck.weights.tensors);
    }

private slots:
    void initTestCase() {
        twbtest::write(twbtest::path(m_dir, "c.txt"), twbtest::english_like(20000));
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "c.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        prepare_dataset(o);
        m_vocab = open_prepared(o.out).vocab_size;
        m_data = o.out;
    }

    void plainStepMatchesDefinition() {
        auto c = config();
        c.grad_clip = 0;
        c.decay_embeddings = true;
        check_step(c, "plain");
    }
    void clippedSmoothedAccumulatedStepMatchesDefinition() {
        auto c = config();
        c.grad_clip = 0.05;  // well below the first step's norm (asserted below), so clipping fires
        c.label_smoothing = 0.1;
        c.gradient_accumulation_steps = 3;
        c.decay_embeddings = false;
        check_step(c, "clipped");
        QVERIFY(reference_steps(c, 1).norms[0] > 10 * c.grad_clip);
    }
    void untiedLearnedStepMatchesDefinition() {
        auto c = config();
        c.position = Position::Learned;
        c.tie_embeddings = false;
        c.bias = false;
        c.grad_clip = 1e-3;
        c.decay_embeddings = false;
        check_step(c, "untied");
    }

    /// The same steps with the batch's rows cut into training lanes (threads > 1 on a CPU: lanes.h), the
    /// 4 rows as 2 + 2 and as 1 + 1 + 2: each lane's loss is its share of the batch's mean, the lanes'
    /// gradients are summed, so the step must still equal the definition.
    void stepsInLanesMatchDefinition_data() {
        QTest::addColumn<int>("threads");
        QTest::newRow("2 lanes") << 2;
        QTest::newRow("3 lanes") << 3;
    }
    void stepsInLanesMatchDefinition() {
        QFETCH(int, threads);
        auto c = config();
        c.threads = threads;
        c.grad_clip = 0;
        c.decay_embeddings = true;
        check_step(c, qPrintable(QString("lanes-plain-%1").arg(threads)));
        c.grad_clip = 0.05;
        c.label_smoothing = 0.1;
        c.gradient_accumulation_steps = 3;
        c.decay_embeddings = false;
        check_step(c, qPrintable(QString("lanes-clipped-%1").arg(threads)));
        c = config();
        c.threads = threads;
        c.gradient_accumulation_steps = 3;
        c.decay_embeddings = false;
        c.grad_clip = 0;
        const auto ref = reference_steps(c, 2);
        const double d = two_steps_against(c, qPrintable(QString("lanes-two-%1").arg(threads)), ref);
        QVERIFY2(d < 5e-4 * c.learning_rate, qPrintable(QString("weights differ from the reference by %1").arg(d)));
    }

    void clippingShowsInTheWeightsAfterTwoSteps() {
        // One AdamW step moves each weight by about lr * sign(g) whatever the gradient's scale, so a one-step
        // comparison cannot see clipping. Over two steps whose norms (far above max_norm: clipping fires on
        // both) differ, clipping changes the second update's mix of the two gradients: the checkpoint must
        // equal two AdamW steps on the clipped gradients, and those differ from two unclipped steps by far
        // more than the tolerance (so skipping the clipping would fail here).
        auto c = config();
        c.grad_clip = 0.02;
        c.decay_embeddings = false;
        const auto clipped = reference_steps(c, 2);
        QVERIFY(clipped.norms[0] > 20 * c.grad_clip && clipped.norms[1] > 20 * c.grad_clip);
        auto unclippedConfig = c;
        unclippedConfig.grad_clip = 0;
        // Float32 training against the float64 reference: Debian's 1.13 lands within 5e-6, the torch 2.11
        // wheel's kernels at 6.9e-6 (1.4e-5 with its explicit attention). Clipping moves the weights by
        // ~1.3e-2, so a tolerance of 2e-5 still tells the two apart 600 times over.
        const double tol = 2e-3 * c.learning_rate;
        const double gap = max_weight_diff(clipped.weights, reference_steps(unclippedConfig, 2).weights);
        QVERIFY2(gap > 20 * tol, qPrintable(QString("clipping moves the weights by only %1").arg(gap)));
        const double d = two_steps_against(c, "clip2", clipped);
        QVERIFY2(d < tol,
                 qPrintable(QString("weights differ from the clipped reference by %1 (clipping moves them by %2)")
                                .arg(d)
                                .arg(gap)));
    }
    void accumulationScaleShowsInTheWeightsAfterTwoSteps() {
        // 3 micro-batches, each loss divided by 3, are one batch of 3x the rows. A trainer that forgot the
        // division would see gradients 3 times as large: Adam alone cannot tell, but with max_norm between
        // the true norms and 3 times them, clipping fires only for the wrong scale, and with two steps of
        // different norms that shows in the weights. The checkpoint must equal the unclipped reference.
        auto c = config();
        c.gradient_accumulation_steps = 3;
        c.decay_embeddings = false;
        c.grad_clip = 0;
        const auto free = reference_steps(c, 2);
        c.grad_clip = 1.2 * std::max(free.norms[0], free.norms[1]);
        QVERIFY2(3 * std::min(free.norms[0], free.norms[1]) > 1.5 * c.grad_clip,
                 qPrintable(QString("norms %1 and %2").arg(free.norms[0]).arg(free.norms[1])));
        const auto right = reference_steps(c, 2), wrong = reference_steps(c, 2, 3.0);
        QCOMPARE(right.norms, free.norms);  // max_norm above both: no clipping
        const double tol = 5e-4 * c.learning_rate;
        const double gap = max_weight_diff(right.weights, wrong.weights);
        QVERIFY2(gap > 20 * tol, qPrintable(QString("the scale moves the weights by only %1").arg(gap)));
        const double d = two_steps_against(c, "accum2", right);
        QVERIFY2(d < tol, qPrintable(QString("weights differ from the reference by %1").arg(d)));
    }

    void clippingScalesToMaxNorm() {
        RunConfig c;
        auto a = torch::zeros({2, 2}), b = torch::zeros({3});
        nn::FlatAdamW opt({{"a", a}, {"b", b}}, c);
        // Gradients (3, 4 | 0, 0, 12, 0, 0): global norm sqrt(9 + 16 + 144) = 13.
        auto g = opt.flat_grads();
        g.zero_();
        g[0] = 3;
        g[1] = 4;
        g[4] = 12;
        QCOMPARE(opt.clip_grad_norm(0), 13.0);  // 0 = off: reports, does not scale
        QVERIFY(std::abs(g.norm().item<double>() - 13.0) < 1e-6);
        QVERIFY(std::abs(opt.clip_grad_norm(20.0) - 13.0) < 1e-6);  // below max_norm: untouched
        QVERIFY(std::abs(g.norm().item<double>() - 13.0) < 1e-6);
        QVERIFY(std::abs(opt.clip_grad_norm(1.0) - 13.0) < 1e-6);
        QVERIFY2(std::abs(g.norm().item<double>() - 1.0) < 1e-6, qPrintable(QString::number(g.norm().item<double>())));
        QVERIFY(std::abs(g[4].item<double>() - 12.0 / 13.0) < 1e-6);  // direction kept
    }

    void bf16LossIsNearFloat32() {
        // bf16 keeps 8 significant bits (relative error 2^-9 per rounding); through two small layers
        // the first loss (about ln V = 3.3 nats) stays within 2% of float32's.
        auto c = config();
        c.grad_clip = 0;
        const auto f = twbtest::run_training(c, fresh("f32"));
        c.dtype = DType::BFloat16;
        const auto b = twbtest::run_training(c, fresh("bf16"));
        QVERIFY(f.steps[0].loss != b.steps[0].loss);  // autocast did something
        QVERIFY2(std::abs(f.steps[0].loss - b.steps[0].loss) < 0.02 * f.steps[0].loss,
                 qPrintable(QString("%1 vs %2").arg(f.steps[0].loss).arg(b.steps[0].loss)));
    }

    void divergenceNamesStepAndKeepsLastCheckpoint() {
        // damage_after_two_steps: step 2's update throws every weight out of range, so step 3's loss is not
        // finite. The run must stop naming step 3 and the checkpoint of step 2, whose weights stay finite
        // and load.
        auto c = config();
        const auto dir = fresh("diverge");
        damage_after_two_steps(c, dir);
        if (QTest::currentTestFailed())
            return;
        try {
            twbtest::run_training(c, dir, true);
            QFAIL("training on NaN weights did not stop");
        } catch (const Error& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.find("diverged") != std::string::npos, e.what());
            QVERIFY2(msg.find("at step 3") != std::string::npos, e.what());
            QVERIFY2(msg.find("(step 2)") != std::string::npos, e.what());
        }
        QCOMPARE(nn::list_checkpoints(dir), (std::vector<int64_t>{2}));
        const auto ck = nn::read_checkpoint(nn::find_checkpoint(dir, "last"));
        QCOMPARE(ck.state.step, int64_t(2));
        for (auto& [name, t] : ck.weights.tensors)
            QVERIFY2(torch::isfinite(t).all().item<bool>(), name.c_str());
        auto model = nn::GPT([&] {
            auto k = c;
            k.vocab_size = m_vocab;
            return k;
        }());
        nn::load_weights(model, ck.weights, "step 2");
    }

    void queuedStepsTrainAsWaitedSteps() {
        // Clipping active (a norm above max_norm), reports every 2 steps, evaluations every 3: the queued
        // run reports the same steps with the same losses and norms, evaluates the same, ends with the
        // same weights. Only the clipping factor's rounding differs (float on the device, double on the host).
        auto c = config();
        c.max_iters = 7;
        c.eval_interval = 3;
        c.log_interval = 2;
        c.grad_clip = 0.5;
        const auto waited = twbtest::run_training(c, fresh("waited"));
        twbtest::TrainOutcome queued;
        {
            QueuedSteps on;
            queued = twbtest::run_training(c, fresh("queued"));
        }
        QCOMPARE(queued.steps.size(), waited.steps.size());
        QVERIFY(waited.steps[0].grad_norm > c.grad_clip);
        for (size_t i = 0; i < waited.steps.size(); ++i) {
            QCOMPARE(queued.steps[i].step, waited.steps[i].step);
            QVERIFY2(std::abs(queued.steps[i].loss - waited.steps[i].loss) < 1e-5 * waited.steps[i].loss,
                     qPrintable(QString("step %1: %2 vs %3")
                                    .arg(waited.steps[i].step)
                                    .arg(queued.steps[i].loss)
                                    .arg(waited.steps[i].loss)));
            QVERIFY(std::abs(queued.steps[i].grad_norm - waited.steps[i].grad_norm) < 1e-5 * waited.steps[i].grad_norm);
        }
        QCOMPARE(queued.evals.size(), waited.evals.size());
        for (size_t i = 0; i < waited.evals.size(); ++i)
            QVERIFY(std::abs(queued.evals[i].val_loss - waited.evals[i].val_loss) < 1e-5 * waited.evals[i].val_loss);
        QVERIFY(queued.summary.median_ms_per_step > 0);
        const auto a = nn::read_checkpoint(nn::find_checkpoint(fresh("waited"), "last")).weights.tensors;
        const auto b = nn::read_checkpoint(nn::find_checkpoint(fresh("queued"), "last")).weights.tensors;
        // Adam divides by the root of the gradients' squares: where a gradient is almost 0 (the keys' bias
        // gets none at all) the clipping factor's last bit moves the update by up to ~1e-4 of its size.
        for (const auto& [name, t] : a)
            QVERIFY2(torch::allclose(b.at(name), t, 1e-4, 1e-5),
                     qPrintable(QString("%1: %2 apart at most")
                                    .arg(name.c_str())
                                    .arg((b.at(name) - t).abs().max().item<double>())));
    }

    void queuedDivergenceIsCaughtAtTheNextRead() {
        // As divergenceNamesStepAndKeepsLastCheckpoint, with steps queued and read every 4: the run stops at
        // the read after the damage, naming the steps between the two reads, and writes no checkpoint of
        // the non-finite weights (the evaluation at step 4 would write one).
        auto c = config();
        const auto dir = fresh("diverge-queued");
        damage_after_two_steps(c, dir);
        if (QTest::currentTestFailed())
            return;
        c.log_interval = 4;
        QueuedSteps on;
        try {
            twbtest::run_training(c, dir, true);
            QFAIL("queued training on NaN weights did not stop");
        } catch (const Error& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.find("between step 2 and step 4") != std::string::npos, e.what());
            QVERIFY2(msg.find("(step 2)") != std::string::npos, e.what());
        }
        QCOMPARE(nn::list_checkpoints(dir), (std::vector<int64_t>{2}));
    }

    void pruningKeepsLastNAndBest() {
        // Four careful steps, then eight with a learning rate 500 times higher: the validation loss
        // rises again, so the best checkpoint is an old one, kept beside the newest keep_checkpoints.
        auto c = config();
        c.max_iters = 4;
        c.eval_interval = 2;
        c.keep_checkpoints = 2;
        c.learning_rate = 1e-3;
        const auto dir = fresh("prune");
        auto evals = twbtest::run_training(c, dir).evals;
        c.max_iters = 12;
        c.learning_rate = 0.5;
        const auto more = twbtest::run_training(c, dir, true).evals;
        evals.insert(evals.end(), more.begin(), more.end());
        auto best =
            std::min_element(evals.begin(), evals.end(), [](auto& a, auto& b) { return a.val_loss < b.val_loss; });
        QVERIFY2(best->step > 0 && best->step < 10, qPrintable(QString::number(best->step)));
        const auto j = nlohmann::json::parse(read_file(dir / "checkpoints" / "best.json"));
        QCOMPARE(j.at("step").get<int64_t>(), best->step);
        QCOMPARE(j.at("val_loss").get<double>(), best->val_loss);
        QCOMPARE(j.at("best_by").get<std::string>(), std::string("loss"));
        QCOMPARE(nn::list_checkpoints(dir), (std::vector<int64_t>{best->step, 10, 12}));
        const auto ck = nn::read_checkpoint(nn::find_checkpoint(dir, "best"));
        QCOMPARE(ck.state.step, best->step);
    }

    void checkpointNowWritesOneAtThatStep() {
        auto c = config();
        c.max_iters = 5;
        c.eval_interval = 100;  // evaluations at 0 and 5 only
        const auto dir = fresh("now");
        TrainControl ctl;
        TrainJob job;
        job.config = c;
        job.run_dir = dir.string();
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) {
            if (s.step == 2)
                ctl.request_checkpoint();
            return true;
        };
        train(job, cb, &ctl);
        QCOMPARE(nn::list_checkpoints(dir), (std::vector<int64_t>{2, 5}));
    }
};

TWB_APPLESS_MAIN(TestTrainStep)
#include "tst_train_step.moc"
