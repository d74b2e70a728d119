// The CUDA path on a real GPU (label `cuda`; bench/gpu_check.sh runs it on a GPU machine; where no GPU
// is seen every function skips and says so, and scripts/test.sh leaves the label out): dtype=auto picks
// bf16 from compute capability 8.0 and says why; float32 training on the GPU follows the CPU's losses;
// a run that prunes checkpoints and resumes exactly, with dropout too; greedy generation with the KV cache on the GPU
// gives the text of greedy generation without it; evaluation is float32 unless asked; the training
// steps queued without the host waiting train as the waited ones; the decoding step recorded as a CUDA
// graph gives the eager step's logits exactly, and the growing cache's closely; so does the training step
// recorded as a CUDA graph; twb's own decoding kernels give the model's logits for every model kind they
// serve; its fused bf16 LayerNorm matches the float64 definition, sums its gradients the same every time,
// and a model trains with it as with libtorch's ops.
#include "bf16_grads.h"
#include "core/util/cuda_driver.h"
#include "nn/decoding/cuda_decoder.h"
#include "nn/decoding/fixed_step.h"
#include "nn/device.h"
#include "nn/models/fused_cuda.h"
#include "nn/models/model.h"
#include "nn/training/evaluator.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/session.h"
#include "twb/training.h"

#include <torch/torch.h>

#include <algorithm>

using namespace twb;

namespace {
/// max |a - b| / (atol + rtol |b|) over the elements, on the CPU in float64; <= 1 passes.
double off_by(const torch::Tensor& a, const torch::Tensor& b, double atol, double rtol) {
    const auto x = a.cpu().to(torch::kFloat64), y = b.cpu().to(torch::kFloat64);
    return ((x - y).abs() / (y.abs() * rtol + atol)).max().item<double>();
}
}  // namespace

class TestCuda : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_data;

    RunConfig config(const std::string& device) const {
        RunConfig c = preset_config("tiny");
        c.data_dir = m_data;
        c.device = device;
        c.dtype = DType::Float32;
        c.n_layer = 2;
        c.n_head = 2;
        c.n_embd = 64;
        c.block_size = 32;
        c.batch_size = 8;
        c.dropout = 0;
        c.max_iters = 40;
        c.lr_decay_iters = 40;
        c.eval_interval = 10;
        c.eval_iters = 2;
        c.keep_checkpoints = 1;  // four evaluations: pruning runs three times
        c.seed = 7;
        c.threads = 1;
        return c;
    }
    /// A freshly initialised GPT of config c on `device`, in eval mode.
    static nn::GPT eval_model_on(const torch::Device& device, const RunConfig& c) {
        nn::GPT model(c);
        model->to(device);
        model->eval();
        return model;
    }
    std::vector<double> train_losses(const RunConfig& c, const std::string& dir) const {
        std::vector<double> losses;
        TrainJob job;
        job.config = c;
        job.run_dir = dir;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) {
            losses.push_back(s.loss);
            return true;
        };
        train(job, cb);
        return losses;
    }

private slots:
    void initTestCase() {
        if (!torch::cuda::is_available())
            QSKIP("no CUDA GPU seen by this libtorch: the cuda tests run on a GPU machine (bench/gpu_check.sh)");
        twbtest::write(twbtest::path(m_dir, "c.txt"), twbtest::english_like(60000));
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "c.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        prepare_dataset(o);
        m_data = o.out.string();
    }

    void autoPicksBf16FromComputeCapability8() {
        const CudaDeviceInfo gpu = cuda_device_info(0);
        QVERIFY2(gpu.ok, gpu.error.c_str());
        const PrecisionChoice p = nn::resolve_precision(DType::Auto, torch::Device(torch::kCUDA, 0));
        QCOMPARE(p.dtype, gpu.major >= 8 ? DType::BFloat16 : DType::Float32);
        QVERIFY2(p.reason.find("compute capability " + std::to_string(gpu.major)) != std::string::npos,
                 p.reason.c_str());
        QVERIFY(!gpu.name.empty());
        QVERIFY(gpu.memory > (1ull << 30));
    }

    void float32TrainingFollowsTheCpu() {
        const auto gpu = train_losses(config("cuda"), twbtest::path(m_dir, "gpu").string());
        const auto cpu = train_losses(config("cpu"), twbtest::path(m_dir, "cpu").string());
        QCOMPARE(gpu.size(), cpu.size());
        // The same initial weights and batches; the kernels round differently, so allow a little drift.
        for (size_t i = 0; i < gpu.size(); ++i)
            QVERIFY2(std::abs(gpu[i] - cpu[i]) < 2e-3 * std::max(1.0, std::abs(cpu[i])),
                     qPrintable(QString("step %1: %2 on the GPU, %3 on the CPU").arg(i).arg(gpu[i]).arg(cpu[i])));
        // Pruning ran (keep 1 + best): at most two checkpoint folders are left.
        int kept = 0;
        for (const auto& e : std::filesystem::directory_iterator(twbtest::path(m_dir, "gpu") / "checkpoints"))
            kept += e.is_directory() && e.path().filename().string().rfind("step_", 0) == 0;
        QVERIFY2(kept >= 1 && kept <= 2, qPrintable(QString::number(kept)));
    }

    void resumeOnTheGpuIsExact_data() {
        QTest::addColumn<double>("dropout");
        QTest::newRow("no dropout") << 0.0;
        QTest::newRow("dropout (the GPU's own generator, kept in the checkpoint)") << 0.1;
    }
    void resumeOnTheGpuIsExact() {
        QFETCH(double, dropout);
        const std::string whole_dir = dropout > 0 ? "whole-dropout" : "whole",
                          half_dir = dropout > 0 ? "half-dropout" : "half";
        RunConfig c = config("cuda");
        c.dropout = dropout;
        const auto whole = train_losses(c, twbtest::path(m_dir, whole_dir.c_str()).string());
        c.max_iters = 20;
        train_losses(c, twbtest::path(m_dir, half_dir.c_str()).string());
        RunConfig more = config("cuda");
        more.dropout = dropout;
        TrainJob job;
        job.config = more;
        job.run_dir = twbtest::path(m_dir, half_dir.c_str()).string();
        job.resume = true;
        std::vector<double> rest;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) {
            rest.push_back(s.loss);
            return true;
        };
        train(job, cb);
        QVERIFY(!rest.empty());
        QCOMPARE(rest.back(), whole.back());
    }

    void greedyWithTheCacheIsGreedyWithout() {
        // On the GPU: the KV cache must not change a greedy text (a wrong position offset or a stale cache
        // row would).
        ModelSession s;
        s.open(twbtest::path(m_dir, "gpu").string(), "last");
        QCOMPARE(QString::fromStdString(s.config().device), QString("cuda"));
        SamplingOptions o;
        o.temperature = 0;
        o.max_new_tokens = 60;  // past block_size 32: the window slides
        const auto prompt = s.encode("the quick");
        const auto cached = s.generate(prompt, o).tokens.at(0);
        o.use_kv_cache = false;
        const auto fresh = s.generate(prompt, o).tokens.at(0);
        QCOMPARE(cached, fresh);
        QCOMPARE(cached.size(), size_t(60));
    }

    void queuedStepsTrainAsWaitedSteps() {
        RunConfig c = config("cuda");
        c.grad_clip = 0.5;  // clipping on the device as well
        const auto queued = train_losses(c, twbtest::path(m_dir, "queued").string());
        qputenv("TWB_QUEUED_STEPS", "0");
        const auto waited = train_losses(c, twbtest::path(m_dir, "waited").string());
        qunsetenv("TWB_QUEUED_STEPS");
        QCOMPARE(queued.size(), waited.size());
        for (size_t i = 0; i < queued.size(); ++i)
            QVERIFY2(std::abs(queued[i] - waited[i]) < 1e-4 * std::abs(waited[i]),
                     qPrintable(QString("report %1: %2 queued, %3 waited").arg(i).arg(queued[i]).arg(waited[i])));
    }

    void recordedTrainingStepsAreTheEagerSteps() {
        // The step recorded as a CUDA graph and replayed against TWB_CUDA_GRAPHS=0 (every operation
        // launched): no dropout, so the same kernels give the same losses; the run says it recorded.
        RunConfig c = config("cuda");
        std::vector<std::string> messages;
        TrainJob job;
        job.config = c;
        job.run_dir = twbtest::path(m_dir, "graph").string();
        std::vector<double> graph;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) {
            graph.push_back(s.loss);
            return true;
        };
        cb.on_message = [&](const std::string& m) { messages.push_back(m); };
        train(job, cb);
        qputenv("TWB_CUDA_GRAPHS", "0");
        const auto eager = train_losses(c, twbtest::path(m_dir, "eager").string());
        qunsetenv("TWB_CUDA_GRAPHS");
        QVERIFY2(std::find(messages.begin(), messages.end(),
                           "the training step is recorded as a CUDA graph and replayed") != messages.end(),
                 messages.empty() ? "no message" : messages.back().c_str());
        QCOMPARE(graph.size(), eager.size());
        for (size_t i = 0; i < graph.size(); ++i)
            QVERIFY2(std::abs(graph[i] - eager[i]) < 1e-5 * std::abs(eager[i]),
                     qPrintable(QString("report %1: %2 replayed, %3 eager").arg(i).arg(graph[i]).arg(eager[i])));
    }

    void graphStepIsTheEagerStep() {
        // A 2x2x64 model of block 32 on the GPU: 40 tokens one by one (the cache fills past half) through a
        // step recorded as a CUDA graph, the same step eagerly, and the growing cache of the ordinary path.
        torch::manual_seed(3);
        RunConfig c = config("cuda");
        c.vocab_size = 50;
        nn::GPT model(c);
        model->to(torch::Device(torch::kCUDA, 0));
        model->eval();
        torch::NoGradGuard ng;
        nn::FixedStep graph(model, torch::Device(torch::kCUDA, 0));
        qputenv("TWB_CUDA_GRAPHS", "0");
        nn::FixedStep eager(model, torch::Device(torch::kCUDA, 0));
        std::vector<nn::LayerCache> growing(static_cast<size_t>(c.n_layer));
        for (int64_t t = 0; t < 30; ++t) {
            const int64_t token = (t * 7) % 50;
            const auto g = graph.step(token).cpu(), e = eager.step(token).cpu();
            nn::ForwardOptions fo;
            fo.cache = &growing;
            fo.pos_offset = t;
            const auto idx = torch::full({1, 1}, token, torch::kInt64).to(torch::kCUDA);
            const auto want = model->forward(idx, fo).view({1, -1}).cpu();
            QVERIFY2(torch::equal(g, e), qPrintable(QString("token %1").arg(t)));
            QVERIFY2(torch::allclose(g, want, 1e-4, 1e-5), qPrintable(QString("token %1").arg(t)));
        }
        qunsetenv("TWB_CUDA_GRAPHS");
        QVERIFY2(graph.replaying(), graph.eager_reason().c_str());
        QVERIFY(!eager.replaying());
    }

    void cudaKernelsDecodeAsTheModel_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("split");
        QTest::addColumn<QByteArray>("env");  // one of the decoder's switches, NAME=VALUE (none when empty)
        for (bool split : {true, false}) {
            const char* how = split ? ", attention split over blocks" : ", attention in one block a head";
            QTest::newRow(qPrintable(QString("learned, LayerNorm, GELU, biases, tied") + how))
                << 0 << split << QByteArray();
            QTest::newRow(qPrintable(QString("sinusoidal, post-norm, ReLU, no biases") + how))
                << 1 << split << QByteArray();
            QTest::newRow(qPrintable(QString("rotary, RMSNorm, SiLU, untied head") + how))
                << 2 << split << QByteArray();
            QTest::newRow(qPrintable(QString("learned, tanh GELU, 3 heads of 20") + how)) << 3 << split << QByteArray();
        }
        // The linear layers' inputs normalised by every block in shared memory (what inputs wider than
        // 1536 take) instead of by every warp in its registers; in registers with the norm's weights
        // loaded before the wait (inputs up to 512 wide, when asked); and the embedding and the greedy pick
        // fused into the first and the last linear layer (when asked).
        for (const char* env : {"TWB_CUDA_WARP_NORM=0", "TWB_CUDA_NORM_AHEAD=1", "TWB_CUDA_FUSE_ENDS=1"}) {
            const QString how = QString(", ") + env;
            QTest::newRow(qPrintable("learned, LayerNorm, GELU, biases, tied" + how)) << 0 << true << QByteArray(env);
            QTest::newRow(qPrintable("rotary, RMSNorm, SiLU, untied head" + how)) << 2 << true << QByteArray(env);
        }
        QTest::newRow("sinusoidal, post-norm, ReLU, no biases, TWB_CUDA_FUSE_ENDS=1")
            << 1 << true << QByteArray("TWB_CUDA_FUSE_ENDS=1");
    }
    void cudaKernelsDecodeAsTheModel() {
        // 90 tokens one by one through twb's kernels against the model's own forward with its growing
        // cache, on the GPU in float32; then the same tokens fed at once (a prompt) give the last logits
        // exactly, and the step was replayed as a CUDA graph. block_size 100: the split attention's
        // blocks of 32 positions fill one after the other, the fourth never.
        QFETCH(int, kind);
        QFETCH(bool, split);
        QFETCH(QByteArray, env);
        const QByteArray name = env.left(env.indexOf('=')), value = env.mid(env.indexOf('=') + 1);
        torch::manual_seed(5);
        RunConfig c = config("cuda");
        c.vocab_size = 50;
        c.block_size = 100;
        const int64_t T = 90;
        c.position = Position::Learned;
        if (kind == 1) {
            c.position = Position::Sinusoidal;
            c.norm_position = NormPosition::Post;
            c.activation = Activation::Relu;
            c.bias = false;
        } else if (kind == 2) {
            c.position = Position::Rotary;
            c.norm = NormKind::RmsNorm;
            c.activation = Activation::Silu;
            c.tie_embeddings = false;
        } else if (kind == 3) {
            c.activation = Activation::GeluTanh;
            c.n_head = 3;
            c.n_embd = 60;
        }
        const torch::Device gpu(torch::kCUDA, 0);
        nn::GPT model = eval_model_on(gpu, c);
        torch::NoGradGuard ng;
        QVERIFY2(nn::CudaDecoder::unavailable(model, gpu).empty(), nn::CudaDecoder::unavailable(model, gpu).c_str());
        if (!split)
            qputenv("TWB_CUDA_ATTEND_SPLIT", "0");
        if (!env.isEmpty())
            qputenv(name.constData(), value);
        nn::CudaDecoder dec(model, gpu);
        qunsetenv("TWB_CUDA_ATTEND_SPLIT");
        if (!env.isEmpty())
            qunsetenv(name.constData());
        std::vector<nn::LayerCache> growing(static_cast<size_t>(c.n_layer));
        std::vector<int32_t> tokens;
        torch::Tensor last;
        for (int64_t t = 0; t < T; ++t) {
            tokens.push_back(static_cast<int32_t>((t * 7 + 3) % 50));
            last = dec.feed(&tokens.back(), 1);
            nn::ForwardOptions fo;
            fo.cache = &growing;
            fo.pos_offset = t;
            const auto idx = torch::full({1, 1}, tokens.back(), torch::kInt64).to(gpu);
            const auto want = model->forward(idx, fo).view({1, -1}).cpu();
            const double err = (last - want).abs().max().item<double>();
            QVERIFY2(err < 1e-4, qPrintable(QString("token %1: logits differ by %2").arg(t).arg(err)));
        }
        QVERIFY(dec.replaying());
        QCOMPARE(dec.length(), T);
        dec.reset();
        QVERIFY(torch::equal(dec.feed(tokens.data(), T), last));
    }

    void cudaGreedyLookaheadKeepsTheLogits() {
        // A decoder that launches each next step on its own greedy guess against one that does not, fed
        // the same tokens: the argmax twice, then another token (a wrong guess), up to block_size (where
        // nothing may be launched ahead), a reset there, a prompt again, and a reset with a step launched
        // ahead still in flight, then the prompt once more. The logits are the same to the bit (also with
        // the embedding and the pick fused into the linear layers), and the steps launched ahead served
        // exactly the argmax tokens (the device's pick is torch's argmax).
        torch::manual_seed(9);
        RunConfig c = config("cuda");
        c.vocab_size = 50;
        const torch::Device gpu(torch::kCUDA, 0);
        nn::GPT model = eval_model_on(gpu, c);
        torch::NoGradGuard ng;
        nn::CudaDecoder ahead(model, gpu), plain(model, gpu);
        qputenv("TWB_CUDA_PDL", "0");
        nn::CudaDecoder serial(model, gpu);  // every kernel launched after the one before has ended
        qunsetenv("TWB_CUDA_PDL");
        qputenv("TWB_CUDA_FUSE_ENDS", "1");
        nn::CudaDecoder fused(model, gpu);  // the embedding and the pick in the linear layers beside them
        qunsetenv("TWB_CUDA_FUSE_ENDS");
        fused.expect_greedy(true);  // launched ahead on the head's own pick
        QVERIFY(!serial.dependent_launch());
        qInfo("programmatic dependent launches: %s", plain.dependent_launch() ? "on" : "off (before Hopper)");
        ahead.expect_greedy(true);
        std::vector<int32_t> prompt = {3, 14, 15, 9, 26};
        auto got = ahead.feed(prompt.data(), 5), want = plain.feed(prompt.data(), 5);
        QVERIFY(torch::equal(serial.feed(prompt.data(), 5), want));
        QVERIFY(torch::equal(fused.feed(prompt.data(), 5), want));
        int64_t argmaxes = 0;
        for (int64_t t = 5; t < c.block_size; ++t) {
            QVERIFY2(torch::equal(got, want), qPrintable(QString("position %1: the logits differ").arg(t)));
            auto next = static_cast<int32_t>(want.argmax().item<int64_t>());
            if (t % 3 == 0)
                next = (next + 1) % 50;
            else
                ++argmaxes;
            got = ahead.feed(&next, 1);
            want = plain.feed(&next, 1);
            QVERIFY2(torch::equal(serial.feed(&next, 1), want),
                     qPrintable(QString("position %1: the dependent launches change the logits").arg(t)));
            QVERIFY2(torch::equal(fused.feed(&next, 1), want),
                     qPrintable(QString("position %1: the fused embedding or pick change the logits").arg(t)));
        }
        QVERIFY(torch::equal(got, want));
        QCOMPARE(ahead.lookahead_hits(), argmaxes);
        QCOMPARE(fused.lookahead_hits(), argmaxes);  // its pick is the argmax too
        QCOMPARE(ahead.length(), c.block_size);
        ahead.reset();
        plain.reset();
        QVERIFY(torch::equal(ahead.feed(prompt.data(), 3), plain.feed(prompt.data(), 3)));
        const int32_t next = static_cast<int32_t>(plain.feed(prompt.data() + 3, 1).argmax().item<int64_t>());
        (void)ahead.feed(prompt.data() + 3, 1);
        const int64_t hits = ahead.lookahead_hits();
        QVERIFY(torch::equal(ahead.feed(&next, 1), plain.feed(&next, 1)));
        QCOMPARE(ahead.lookahead_hits(), hits + 1);
        // That feed launched the step after it on its argmax: reset while it may still run.
        ahead.reset();
        plain.reset();
        QVERIFY(torch::equal(ahead.feed(prompt.data(), 5), plain.feed(prompt.data(), 5)));
        QCOMPARE(ahead.lookahead_hits(), hits + 1);
    }

    void cudaLayerNormMatchesItsDefinition_data() {
        QTest::addColumn<int>("C");
        QTest::addColumn<bool>("bias");
        QTest::newRow("384 wide, no bias (the bench model)") << 384 << false;
        QTest::newRow("384 wide, with bias") << 384 << true;
        QTest::newRow("70 wide (a partial warp)") << 70 << true;
        QTest::newRow("1000 wide (the widest kind)") << 1000 << false;
    }
    void cudaLayerNormMatchesItsDefinition() {
        // 150 rows (three backward blocks, the last partial) against float64 on the same bf16 gradient.
        QFETCH(int, C);
        QFETCH(bool, bias);
        const torch::Device gpu(torch::kCUDA, 0);
        const auto f = torch::TensorOptions().dtype(torch::kFloat32).device(gpu);
        torch::manual_seed(11);
        nn::set_fused_cuda(true);
        const auto x = torch::randn({3, 50, C}, f) * 2 + 0.5, w = torch::randn({C}, f) + 1;
        const auto b = bias ? torch::randn({C}, f) : torch::Tensor();
        QVERIFY(!nn::cuda_layer_norm_to_bf16_serves(x));  // no autocast: the norm stays float32
        auto xr = x.clone().requires_grad_(true), wr = w.clone().requires_grad_(true);
        auto br = bias ? b.clone().requires_grad_(true) : torch::Tensor();
        torch::Tensor y;
        nn::with_autocast(gpu, true, [&] {
            QVERIFY(nn::cuda_layer_norm_to_bf16_serves(xr));
            y = nn::cuda_layer_norm_to_bf16(xr, wr, br, 1e-5);
        });
        QCOMPARE(y.scalar_type(), torch::kBFloat16);
        auto x64 = x.to(torch::kFloat64).requires_grad_(true), w64 = w.to(torch::kFloat64).requires_grad_(true);
        auto b64 = bias ? b.to(torch::kFloat64).requires_grad_(true) : torch::Tensor();
        auto ref = torch::layer_norm(x64, {C}, w64, b64, 1e-5);
        QVERIFY2(off_by(y, ref, 1e-3, 2.0 / 512) <= 1.0, "the norm is off");
        const auto gy = torch::randn({3, 50, C}, f).to(torch::kBFloat16);
        y.backward(gy);
        ref.backward(gy.to(torch::kFloat64));
        QCOMPARE(xr.grad().scalar_type(), torch::kFloat32);
        QVERIFY2(off_by(xr.grad(), x64.grad(), 1e-4, 1e-4) <= 1.0, "dx is off");
        QVERIFY2(off_by(wr.grad(), w64.grad(), 1e-4, 1e-4) <= 1.0, "dw is off");
        if (bias)
            QVERIFY2(off_by(br.grad(), b64.grad(), 1e-4, 1e-4) <= 1.0, "db is off");
        // The same gradients to the last bit a second time: the sums have a fixed order.
        const auto dw = wr.grad().clone(), dx = xr.grad().clone();
        wr.mutable_grad() = torch::Tensor();
        xr.mutable_grad() = torch::Tensor();
        nn::with_autocast(gpu, true, [&] { y = nn::cuda_layer_norm_to_bf16(xr, wr, br, 1e-5); });
        y.backward(gy);
        QVERIFY(torch::equal(wr.grad(), dw));
        QVERIFY(torch::equal(xr.grad(), dx));
    }

    void bf16TrainingWithTheFusedNormIsLibtorchs() {
        // A GPT's bf16 loss and gradients on the GPU with the fused LayerNorm and with libtorch's ops: the
        // kernels ran (some gradient differs in its last bits: the norms' weights are summed in another
        // order; the bf16 forward rounds to the same values) and agree within bf16's rounding.
        RunConfig c = config("cuda");
        c.vocab_size = 50;
        c.position = Position::Learned;
        c.bias = false;
        const torch::Device gpu(torch::kCUDA, 0);
        torch::manual_seed(4);
        nn::GPT m(c);
        m->to(gpu);
        m->train();
        const auto idx = torch::randint(0, 50, {4, 32}, torch::kLong).to(gpu);
        const auto targets = torch::randint(0, 50, {4, 32}, torch::kLong).to(gpu);
        nn::set_fused_cuda(false);
        const auto off = twbtest::bf16_loss_and_grads(m, idx, targets, gpu);
        nn::set_fused_cuda(true);
        const auto on = twbtest::bf16_loss_and_grads(m, idx, targets, gpu);
        const QString off_by = twbtest::bf16_disagreement(on, off);
        QVERIFY2(off_by.isEmpty(), qPrintable(off_by));
        bool differs = false;
        for (size_t i = 0; i < on.grads.size(); ++i)
            differs = differs || !torch::equal(on.grads[i], off.grads[i]);
        QVERIFY2(differs, "the kernels did not run (every gradient the same to the last bit)");
    }

    void evaluationIsFloat32UnlessAsked() {
        ModelSession s;
        s.open(twbtest::path(m_dir, "gpu").string(), "last");
        EvalOptions o;
        o.max_tokens = 2048;
        QCOMPARE(QString::fromStdString(s.evaluate(o).precision), QString("float32"));
        o.precision = DType::BFloat16;
        QCOMPARE(QString::fromStdString(s.evaluate(o).precision), QString("bfloat16"));
    }
};

TWB_APPLESS_MAIN(TestCuda)
#include "tst_cuda.moc"
