// The CUDA path on a real GPU (label `cuda`; bench/gpu_check.sh runs it on a GPU machine; where no GPU
// is seen every function skips and says so, and scripts/test.sh leaves the label out): dtype=auto picks
// bf16 from compute capability 8.0 and says why; float32 training on the GPU follows the CPU's losses;
// a run that prunes checkpoints and resumes exactly; greedy generation with the KV cache on the GPU
// gives the text of greedy generation without it; evaluation is float32 unless asked.
#include "core/util/cuda_driver.h"
#include "nn/device.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/session.h"
#include "twb/training.h"

#include <torch/torch.h>

using namespace twb;

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

    void resumeOnTheGpuIsExact() {
        RunConfig c = config("cuda");
        const auto whole = train_losses(c, twbtest::path(m_dir, "whole").string());
        c.max_iters = 20;
        train_losses(c, twbtest::path(m_dir, "half").string());
        RunConfig more = config("cuda");
        TrainJob job;
        job.config = more;
        job.run_dir = twbtest::path(m_dir, "half").string();
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
