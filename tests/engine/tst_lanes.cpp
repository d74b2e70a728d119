// Training lanes (nn/training/lanes.h) beyond the step-against-definition checks in tst_train_step and
// the exact resume in tst_trainer: a lane's dropout draws from its own seeded generator (and from torch's
// outside a lane), a lane's kernels run single-threaded and the caller's thread count comes back, a bf16
// micro-batch of a new shape runs on the caller alone, and an error in one lane reaches the caller after
// every lane has ended, the pool staying usable.
#include "nn/models/dropout.h"
#include "nn/training/lanes.h"
#include "twb/errors.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

using namespace twb;
using namespace twb::nn;

namespace {
/// Just enough of a family for Lanes::run: a linear model over fixed rows, with a switch to fail a lane.
class StubFamily : public ModelFamily {
public:
    StubFamily() : m_linear(torch::nn::Linear(4, 3)) {}
    void adopt_dataset(const PreparedDataset&, RunConfig&, const TrainJob&) const override {}
    std::string subject(const RunConfig&) const override { return "stub"; }
    void open(const FamilyContext&, RunConfig&) override {}
    NamedWeights named_weights() const override {
        NamedWeights w;
        for (const auto& p : m_linear->named_parameters())
            w.emplace_back(p.key(), p.value());
        return w;
    }
    torch::nn::Module& module() override { return *m_linear; }
    uint64_t batcher_state() const override { return 0; }
    void set_batcher_state(uint64_t) override {}
    std::vector<std::pair<std::filesystem::path, std::filesystem::path>> tokenizer_folders(
        const std::filesystem::path&) const override {
        return {};
    }
    void start_probe(const std::filesystem::path&, bool) override {}
    void describe(TrainStartInfo&) const override {}
    TrainBatch next_batch() override { return {{torch::randn({6, 4}), torch::randint(0, 3, {6})}, 1}; }
    MicroBatch forward(const TrainBatch& rows) override {
        {
            std::lock_guard<std::mutex> g(m_mu);
            threadsSeen.push_back(at::get_num_threads());
            laneThreads.push_back(std::this_thread::get_id());
        }
        if (failRows >= 0 && rows.rows() == failRows)
            throw InputError("lane with " + std::to_string(failRows) + " rows failed");
        return {m_linear(rows.tensors[0]), rows.tensors[1], rows.rows()};
    }
    FamilyEval evaluate(int64_t) override { return {}; }

    std::vector<torch::Tensor> params() const {
        std::vector<torch::Tensor> p;
        for (auto& [n, t] : named_weights())
            p.push_back(t);
        return p;
    }
    int64_t failRows = -1;  // forward throws for a slice of this many rows
    std::vector<int> threadsSeen;
    std::vector<std::thread::id> laneThreads;

private:
    torch::nn::Linear m_linear;
    std::mutex m_mu;
};

torch::Tensor lane_dropout(uint64_t seed, const torch::Tensor& x) {
    Dropout d(0.5);
    d->train();
    LaneGenerator g(at::detail::createCPUGenerator(seed));
    return d(x);
}
}  // namespace

class TestLanes : public QObject {
    Q_OBJECT
private slots:
    void laneDropoutIsSeeded() {
        const auto x = torch::ones({4096});
        const auto a = lane_dropout(7, x), b = lane_dropout(7, x), c = lane_dropout(8, x);
        QVERIFY(torch::equal(a, b));
        QVERIFY(!torch::equal(a, c));
        // Kept values are scaled by 1/(1-p); about half are kept.
        QVERIFY(torch::logical_or(a == 0, a == 2).all().item<bool>());
        const double kept = (a > 0).to(torch::kFloat64).mean().item<double>();
        QVERIFY2(kept > 0.45 && kept < 0.55, qPrintable(QString::number(kept)));
        // Outside a lane: torch's own dropout and default generator, as before lanes existed.
        Dropout d(0.5);
        d->train();
        torch::manual_seed(3);
        const auto mine = d(x);
        torch::manual_seed(3);
        QVERIFY(torch::equal(mine, torch::dropout(x, 0.5, true)));
        QVERIFY(!lane_generator_active());
        d->eval();
        QVERIFY(torch::equal(d(x), x));
    }

    void lanesRunSingleThreadedAndRestoreTheCaller() {
        at::set_num_threads(2);
        StubFamily f;
        Lanes lanes(2);
        LaneSettings s;
        for (auto& p : f.params())
            p.mutable_grad() = torch::zeros_like(p);
        const auto batch = f.next_batch();
        const LanePass pass = lanes.run(f, batch, 3, s, f.params());
        QCOMPARE(f.threadsSeen, std::vector<int>({1, 1, 1}));
        QCOMPARE(at::get_num_threads(), 2);
        QCOMPARE(pass.tokens, int64_t(6));
        // The summed lane losses are the batch's mean loss.
        const auto whole = torch::nn::functional::cross_entropy(f.forward(batch).logits, batch.tensors[1]);
        QVERIFY(std::abs(pass.loss - whole.item<double>()) < 1e-6);
    }

    void lowSharesSendTheLanesToTheCallerForAWhile() {
        LaneLoad load;
        for (int i = 0; i < 100; ++i)
            load.report(0.9, false);  // every lane had its core
        QVERIFY(!load.solo());
        // Low shares must come in a row: two, then one that is not low, starts over.
        load.report(0.5, false);
        load.report(0.5, false);
        load.report(0.8, false);
        load.report(0.5, false);
        load.report(0.5, false);
        QVERIFY(!load.solo());
        // The third in a row: alone for kSoloFirst micro-batches, then the helpers are tried again.
        int64_t expected = LaneLoad::kSoloFirst;
        for (int round = 0; round < 7; ++round) {
            load.report(0.5, false);
            int64_t alone = 0;
            while (load.solo() && alone < 10 * LaneLoad::kSoloMost) {
                load.report(1.0, true);
                ++alone;
            }
            QCOMPARE(alone, expected);  // twice as long after each try that was still low, up to the most
            expected = std::min(LaneLoad::kSoloMost, 2 * expected);
            for (int i = 0; i < LaneLoad::kLowInARow - 1; ++i) {
                QVERIFY(!load.solo());
                load.report(0.4, false);
            }
        }
        // A try that is not low starts over at the first length.
        load.report(0.5, false);
        while (load.solo())
            load.report(1.0, true);
        load.report(0.95, false);
        for (int i = 0; i < LaneLoad::kLowInARow; ++i)
            load.report(0.3, false);
        int64_t alone = 0;
        for (; load.solo(); ++alone)
            load.report(1.0, true);
        QCOMPARE(alone, LaneLoad::kSoloFirst);
    }

    void lanesAloneOnTheCallerGiveTheSameGradients() {
        StubFamily f;
        Lanes lanes(2);
        LaneSettings s;
        const auto batch = f.next_batch();
        const auto gradsOf = [&] {
            for (auto& p : f.params())
                p.mutable_grad() = torch::zeros_like(p);
            const LanePass pass = lanes.run(f, batch, 3, s, f.params());
            std::vector<torch::Tensor> g;
            for (auto& p : f.params())
                g.push_back(p.grad().clone());
            return std::make_pair(pass.loss, g);
        };
        const auto pooled = gradsOf();
        for (int i = 0; i < LaneLoad::kLowInARow; ++i)
            lanes.load().report(0.1, false);
        QVERIFY(lanes.load().solo());
        f.laneThreads.clear();
        const auto alone = gradsOf();
        QCOMPARE(f.laneThreads, std::vector<std::thread::id>(3, std::this_thread::get_id()));
        QCOMPARE(alone.first, pooled.first);
        for (size_t i = 0; i < pooled.second.size(); ++i)
            QVERIFY(torch::equal(alone.second[i], pooled.second[i]));
    }

    void aBf16BatchOfANewShapeRunsOnTheCallerFirst() {
        // oneDNN makes a shape's bf16 kernels at its first use, which two threads must not do at once.
        StubFamily f;
        Lanes lanes(2);
        LaneSettings s;
        s.bf16 = true;
        const auto runOnce = [&](const TrainBatch& batch) {
            for (auto& p : f.params())
                p.mutable_grad() = torch::zeros_like(p);
            f.laneThreads.clear();
            lanes.run(f, batch, 3, s, f.params());
            return f.laneThreads;
        };
        const auto caller = std::this_thread::get_id();
        const auto six = f.next_batch();
        QCOMPARE(runOnce(six), std::vector<std::thread::id>(3, caller));
        // The same shape again runs on the pool: a helper takes a lane (within a few micro-batches, as the
        // helper wakes).
        bool helped = false;
        for (int i = 0; i < 200 && !helped; ++i) {
            const auto seen = runOnce(f.next_batch());
            helped = std::any_of(seen.begin(), seen.end(), [&](std::thread::id t) { return t != caller; });
        }
        QVERIFY(helped);
        // Another shape: on the caller alone once more.
        const TrainBatch eight{{torch::randn({8, 4}), torch::randint(0, 3, {8})}, 1};
        QCOMPARE(runOnce(eight), std::vector<std::thread::id>(3, caller));
    }

    void anErrorInALaneReachesTheCaller() {
        StubFamily f;
        Lanes lanes(2);
        LaneSettings s;
        for (auto& p : f.params())
            p.mutable_grad() = torch::zeros_like(p);
        const auto batch = f.next_batch();  // 6 rows in 3 lanes of 2
        f.failRows = 2;
        bool threw = false;
        try {
            lanes.run(f, batch, 3, s, f.params());
        } catch (const InputError& e) {
            threw = QString(e.what()).contains("lane with 2 rows failed");
        }
        QVERIFY(threw);
        f.failRows = -1;  // the pool still works
        QCOMPARE(lanes.run(f, batch, 2, s, f.params()).tokens, int64_t(6));
    }
};

QTEST_GUILESS_MAIN(TestLanes)
#include "tst_lanes.moc"
