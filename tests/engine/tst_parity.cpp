// Parity with an independent implementation: the same small GPT written in plain PyTorch
// (tests/python/reference.py, Debian's python3-torch) from the weights this engine exports. Logits and
// attention weights of every position kind, with and without bias, tied and untied, must agree to 1e-5
// in float32; one training step (label smoothing, accumulation, clipping, AdamW with its decay groups)
// must leave the same weights, loss and gradient norm. The reference writes its results as
// safetensors with its own writer, so reading another tool's files is checked too. Without
// python3-torch the test says so and skips (scripts/setup.sh installs it; CI always runs it).
#include "core/data/token_file.h"
#include "nn/interchange/checkpoint.h"
#include "nn/interchange/safetensors.h"
#include "nn/models/model.h"
#include "nn/training/batcher.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/training.h"

#include <QProcess>

using namespace twb;
namespace fs = std::filesystem;

namespace {

QString python() {
    const QByteArray env = qgetenv("TWB_PYTHON");
    if (!env.isEmpty())
        return QString::fromLocal8Bit(env);
    return QFile::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";  // Debian's, not a pyenv shim
}

/// Empty when python3 with torch runs, else why not.
QString python_problem() {
    QProcess p;
    p.start(python(), {"-c", "import torch, numpy"});
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return python() + " cannot import torch (install python3-torch: scripts/setup.sh): " +
               QString::fromLocal8Bit(p.readAllStandardError()).trimmed().right(200);
    return {};
}

/// Runs reference.py ACTION on the case folders; returns its error output when it fails.
QString run_reference(const QString& action, const std::vector<fs::path>& cases) {
    QStringList args{QString::fromStdString((twbtest::source_dir() / "tests/python/reference.py").string()), action};
    for (auto& c : cases)
        args << QString::fromStdString(c.string());
    QProcess p;
    p.start(python(), args);
    if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return "reference.py failed: " + QString::fromLocal8Bit(p.readAllStandardError());
    return {};
}

const char* position_name(Position p) {
    return p == Position::Learned ? "learned" : p == Position::Sinusoidal ? "sinusoidal" : "rotary";
}

nlohmann::json model_json(const RunConfig& c) {
    return {{"n_layer", c.n_layer}, {"n_head", c.n_head},
            {"n_embd", c.n_embd},   {"position", position_name(c.position)},
            {"bias", c.bias},       {"tie_embeddings", c.tie_embeddings}};
}

double max_diff(const torch::Tensor& a, const torch::Tensor& b) {
    return (a.to(torch::kFloat64) - b.to(torch::kFloat64)).abs().max().item<double>();
}

}  // namespace

class TestParity : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_data;
    int m_vocab = 0;
    QString m_skip;

private slots:
    void initTestCase() {
        m_skip = python_problem();
        twbtest::write(twbtest::path(m_dir, "c.txt"), twbtest::english_like(20000));
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "c.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        prepare_dataset(o);
        m_vocab = open_prepared(o.out).vocab_size;
        m_data = o.out;
    }

    void forwardMatchesPyTorch() {
        if (!m_skip.isEmpty())
            TWB_SKIP_OR_FAIL(m_skip);
        // Twelve models: every position kind, with and without bias, tied and untied head. Weights are
        // drawn with std 0.5 so attention is sharp and any difference in the maths shows.
        struct Case {
            RunConfig cfg;
            nn::GPT model{nullptr};
            torch::Tensor ids;
            fs::path dir;
        };
        std::vector<Case> cases;
        std::vector<fs::path> dirs;
        for (Position pos : {Position::Learned, Position::Sinusoidal, Position::Rotary})
            for (bool bias : {true, false})
                for (bool tie : {true, false}) {
                    Case k;
                    k.cfg.vocab_size = 13;
                    k.cfg.n_layer = 2;
                    k.cfg.n_head = 2;
                    k.cfg.n_embd = 16;
                    k.cfg.block_size = 10;
                    k.cfg.dropout = 0;
                    k.cfg.position = pos;
                    k.cfg.bias = bias;
                    k.cfg.tie_embeddings = tie;
                    torch::manual_seed(static_cast<uint64_t>(cases.size()) + 1);
                    k.model = nn::GPT(k.cfg);
                    {
                        torch::NoGradGuard ng;
                        for (auto& p : k.model->parameters())
                            p.normal_(0.0, 0.5);
                    }
                    k.model->eval();
                    k.ids = torch::randint(0, k.cfg.vocab_size, {2, k.cfg.block_size}, torch::kInt64);
                    k.dir = twbtest::path(m_dir, ("fwd" + std::to_string(cases.size())).c_str());
                    fs::create_directories(k.dir);
                    auto tensors = k.model->named_weights();
                    tensors.emplace_back("ids", k.ids);
                    nn::save_safetensors(k.dir / "weights.safetensors", tensors);
                    twbtest::write(k.dir / "config.json", model_json(k.cfg).dump());
                    dirs.push_back(k.dir);
                    cases.push_back(std::move(k));
                }
        const QString err = run_reference("forward", dirs);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        torch::NoGradGuard ng;
        for (auto& k : cases) {
            const QString what = QString("%1 bias=%2 tied=%3")
                                     .arg(position_name(k.cfg.position))
                                     .arg(k.cfg.bias)
                                     .arg(k.cfg.tie_embeddings);
            const auto ref = nn::load_safetensors(k.dir / "out.safetensors");  // written by Python
            QCOMPARE(ref.metadata.at("writer"), std::string("tests/python/reference.py"));
            std::vector<torch::Tensor> att;
            nn::ForwardOptions fo;
            fo.attention = &att;
            const auto logits = k.model->forward(k.ids, fo);
            QCOMPARE(ref.tensors.at("logits").sizes().vec(), logits.sizes().vec());
            QVERIFY(ref.tensors.at("logits").abs().max().item<double>() > 1.0);
            const double d = max_diff(logits, ref.tensors.at("logits"));
            QVERIFY2(d < 1e-5, qPrintable(what + ": logits differ by " + QString::number(d)));
            for (size_t l = 0; l < att.size(); ++l) {
                const double da = max_diff(att[l], ref.tensors.at("att." + std::to_string(l)));
                QVERIFY2(da < 1e-5, qPrintable(what + ": attention differs by " + QString::number(da)));
            }
        }
    }

    void trainingStepMatchesPyTorch_data() {
        QTest::addColumn<int>("position");
        QTest::addColumn<bool>("tie");
        QTest::addColumn<double>("clip");
        QTest::addColumn<double>("smoothing");
        QTest::addColumn<int>("accumulation");
        QTest::addColumn<bool>("decayEmbeddings");
        QTest::newRow("rotary plain") << int(Position::Rotary) << true << 0.0 << 0.0 << 1 << true;
        QTest::newRow("rotary clip smooth accumulate") << int(Position::Rotary) << true << 0.05 << 0.1 << 3 << false;
        QTest::newRow("learned untied clip") << int(Position::Learned) << false << 0.05 << 0.0 << 2 << false;
        QTest::newRow("sinusoidal smooth") << int(Position::Sinusoidal) << true << 1.0 << 0.2 << 1 << true;
    }
    void trainingStepMatchesPyTorch() {
        if (!m_skip.isEmpty())
            TWB_SKIP_OR_FAIL(m_skip);
        QFETCH(int, position);
        QFETCH(bool, tie);
        QFETCH(double, clip);
        QFETCH(double, smoothing);
        QFETCH(int, accumulation);
        QFETCH(bool, decayEmbeddings);
        RunConfig c;
        c.dtype = DType::Float32;  // pinned: auto would be bf16 on a CPU with AVX512-BF16
        c.data_dir = m_data.string();
        c.vocab_size = m_vocab;
        c.n_layer = 1;
        c.n_head = 2;
        c.n_embd = 16;
        c.block_size = 16;
        c.batch_size = 4;
        c.dropout = 0;
        c.position = static_cast<Position>(position);
        c.tie_embeddings = tie;
        c.max_iters = 1;
        c.eval_interval = 1;
        c.eval_iters = 1;
        c.schedule = Schedule::Constant;
        c.learning_rate = 1e-3;
        c.weight_decay = 0.1;
        c.grad_clip = clip;
        c.label_smoothing = smoothing;
        c.gradient_accumulation_steps = accumulation;
        c.decay_embeddings = decayEmbeddings;
        c.threads = 1;
        c.seed = 99;
        const auto dir = twbtest::path(m_dir, qPrintable("step_" + QString(QTest::currentDataTag()).replace(' ', '_')));
        fs::create_directories(dir);

        // The trainer seeds torch, then builds the model: the same initial weights here.
        torch::manual_seed(c.seed);
        nn::GPT init(c);
        nn::save_safetensors(dir / "weights.safetensors", init->named_weights());
        const auto data = open_prepared(m_data);
        TokenFile train(m_data / "train.bin", data.dtype);
        nn::Batcher batcher(train, c.block_size, c.batch_size, c.seed);
        std::vector<std::pair<std::string, torch::Tensor>> batches;
        for (int i = 0; i < accumulation; ++i) {
            auto [x, y] = batcher.next(torch::kCPU);
            batches.emplace_back("x." + std::to_string(i), x);
            batches.emplace_back("y." + std::to_string(i), y);
        }
        nn::save_safetensors(dir / "batches.safetensors", batches);
        auto j = model_json(c);
        j["learning_rate"] = c.learning_rate;
        j["beta1"] = c.beta1;
        j["beta2"] = c.beta2;
        j["weight_decay"] = c.weight_decay;
        j["decay_embeddings"] = c.decay_embeddings;
        j["grad_clip"] = c.grad_clip;
        j["label_smoothing"] = c.label_smoothing;
        twbtest::write(dir / "config.json", j.dump());
        const QString err = run_reference("step", {dir});
        QVERIFY2(err.isEmpty(), qPrintable(err));

        TrainJob job;
        job.config = c;
        job.run_dir = (dir / "run").string();
        StepReport first;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) {
            first = s;
            return true;
        };
        twb::train(job, cb);
        const auto ref = nn::load_safetensors(dir / "out.safetensors");
        const double refLoss = ref.tensors.at("loss").item<double>(),
                     refNorm = ref.tensors.at("grad_norm").item<double>();
        QVERIFY2(std::abs(first.loss - refLoss) < 1e-5,
                 qPrintable(QString("loss %1 vs %2").arg(first.loss).arg(refLoss)));
        QVERIFY2(std::abs(first.grad_norm - refNorm) < 1e-5 * std::max(1.0, refNorm),
                 qPrintable(QString("norm %1 vs %2").arg(first.grad_norm).arg(refNorm)));
        if (clip > 0 && clip < 1)
            QVERIFY(refNorm > clip);  // the case exercises clipping
        const auto ck = nn::read_checkpoint(nn::find_checkpoint(dir / "run", "last"));
        for (auto& [name, t] : ck.weights.tensors) {
            QVERIFY2(ref.tensors.count(name), name.c_str());
            // One AdamW step moves a weight by at most about lr = 1e-3; 1e-6 is a thousandth of that.
            const double d = max_diff(t, ref.tensors.at(name));
            QVERIFY2(d < 1e-6, qPrintable(QString("%1 differs by %2").arg(name.c_str()).arg(d)));
        }
    }
};

TWB_APPLESS_MAIN(TestParity)
#include "tst_parity.moc"
