// The fused bf16 CPU kernels (nn/models/fused_cpu.h) against float64 definitions: GELU, the causal
// softmax and the LayerNorm into bf16, forward and backward, at sizes that leave a partial vector; NaN
// stays NaN; and a GPT's bf16 loss and gradients with the kernels on against libtorch's own ops. They
// need a CPU with AVX-512 BF16: elsewhere each test checks instead that nothing takes them (CI lets no
// test skip).
#include "bf16_grads.h"
#include "nn/models/fused_cpu.h"
#include "nn/models/model.h"
#include "nn/training/evaluator.h"
#include "test_util.h"
#include "twb/config.h"
#include "twb/doctor.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace twb;
using namespace twb::nn;

namespace {
const torch::Device kCpu(torch::kCPU);

/// max |a - b| / (atol + rtol |b|) over the elements; <= 1 passes.
double worst(const torch::Tensor& a, const torch::Tensor& b, double atol, double rtol) {
    const auto x = a.to(torch::kFloat64), y = b.to(torch::kFloat64);
    return ((x - y).abs() / (y.abs() * rtol + atol)).max().item<double>();
}

/// Whether this CPU runs the kernels. Where it does not, checks that nothing would take them (libtorch's
/// ops serve every dtype there) and says so.
bool kernels_here() {
    set_fused_cpu(true);
    if (fused_cpu_enabled())
        return true;
    if (fused_gelu_serves(torch::zeros({4}, torch::kBFloat16)) ||
        causal_softmax_serves(torch::zeros({1, 4, 4}, torch::kBFloat16)))
        throw std::runtime_error("a fused kernel serves on a CPU without AVX-512 BF16");
    with_autocast(kCpu, true, [] {
        if (layer_norm_to_bf16_serves(torch::zeros({3, 8})))
            throw std::runtime_error("the fused LayerNorm serves on a CPU without AVX-512 BF16");
    });
    qInfo("this CPU has no AVX-512 BF16: libtorch's ops serve, the fused kernels are not taken");
    return false;
}
}  // namespace

class TestFusedCpu : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { set_fused_cpu(true); }

    void theSwitchTurnsThemOff() {
        set_fused_cpu(false);
        QVERIFY(!fused_cpu_enabled());
        QVERIFY(QString::fromStdString(run_doctor(1, false).fused_kernels).startsWith("off: "));
        QVERIFY(!fused_gelu_serves(torch::zeros({4}, torch::kBFloat16)));
        QVERIFY(!causal_softmax_serves(torch::zeros({1, 4, 4}, torch::kBFloat16)));
        if (!kernels_here())
            return;
        QVERIFY(QString::fromStdString(run_doctor(1, false).fused_kernels).startsWith("on "));
        QVERIFY(fused_gelu_serves(torch::zeros({4}, torch::kBFloat16)));
        QVERIFY(!fused_gelu_serves(torch::zeros({4})));  // float32 keeps libtorch's kernel
        QVERIFY(!fused_gelu_serves(torch::zeros({4, 4}, torch::kBFloat16).t()));
        QVERIFY(causal_softmax_serves(torch::zeros({2, 5, 5}, torch::kBFloat16)));
        QVERIFY(!causal_softmax_serves(torch::zeros({2, 5, 6}, torch::kBFloat16)));
        QVERIFY(!layer_norm_to_bf16_serves(torch::zeros({3, 8})));  // no autocast: the norm stays float32
        with_autocast(kCpu, true, [] { QVERIFY(layer_norm_to_bf16_serves(torch::zeros({3, 8}))); });
    }

    void geluMatchesItsDefinition() {
        if (!kernels_here())
            return;
        torch::manual_seed(1);
        // 1000 values (not a multiple of 16) from deep in the negative tail to large positives.
        auto x = torch::cat({torch::linspace(-12, 12, 500), torch::randn({500}) * 2}).to(torch::kBFloat16);
        auto xr = x.clone().requires_grad_(true);
        auto y = fused_gelu(xr);
        QCOMPARE(y.scalar_type(), torch::kBFloat16);
        auto x64 = x.to(torch::kFloat64).requires_grad_(true);
        auto ref = torch::gelu(x64);
        // One bf16 rounding (2^-9 relative) plus the erf approximation's 2.5e-5.
        QVERIFY2(worst(y, ref, 1e-4, 4.0 / 512) <= 1.0, "GELU's forward is off");
        auto gy = torch::randn({1000}).to(torch::kBFloat16);
        y.backward(gy);
        ref.backward(gy.to(torch::kFloat64));
        // The derivative is kept in bf16 and multiplied by a bf16 gradient: two roundings.
        QVERIFY2(worst(xr.grad(), x64.grad(), 1e-3, 6.0 / 512) <= 1.0, "GELU's gradient is off");
        // Without gradients the same values.
        torch::NoGradGuard ng;
        QVERIFY(torch::equal(fused_gelu(x), y.detach()));
    }

    void causalSoftmaxMatchesTheMaskedSoftmax() {
        if (!kernels_here())
            return;
        torch::manual_seed(2);
        const int64_t N = 3, T = 21;  // rows of 1..21 valid columns: whole and partial vectors
        const double scale = 0.3;
        auto s = (torch::randn({N, T, T}) * 4).to(torch::kBFloat16);
        auto sr = s.clone().requires_grad_(true);
        auto y = causal_softmax(sr, scale);
        const auto mask = torch::full({T, T}, -std::numeric_limits<double>::infinity(), torch::kFloat64).triu(1);
        auto s64 = s.to(torch::kFloat64).requires_grad_(true);
        auto ref = torch::softmax(s64 * scale + mask, -1);
        QVERIFY2(worst(y, ref, 1e-4, 4.0 / 512) <= 1.0, "the softmax is off");
        // Above the diagonal exactly 0; each row sums to 1 within bf16 rounding.
        QCOMPARE(y.to(torch::kFloat32).triu(1).abs().sum().item<float>(), 0.0f);
        QVERIFY((y.to(torch::kFloat64).sum(-1) - 1).abs().max().item<double>() < 0.02);
        auto gy = torch::randn({N, T, T}).to(torch::kBFloat16);
        y.backward(gy);
        ref.backward(gy.to(torch::kFloat64));
        QVERIFY2(worst(sr.grad(), s64.grad(), 2e-3, 8.0 / 512) <= 1.0, "the softmax's gradient is off");
        QCOMPARE(sr.grad().to(torch::kFloat32).triu(1).abs().sum().item<float>(), 0.0f);
    }

    void layerNormMatchesItsDefinition() {
        if (!kernels_here())
            return;
        torch::manual_seed(3);
        const int64_t C = 40;  // two whole vectors and a half
        auto x = torch::randn({7, C}) * 3 + 1;
        auto w = torch::randn({C}), b = torch::randn({C});
        auto xr = x.clone().requires_grad_(true), wr = w.clone().requires_grad_(true),
             br = b.clone().requires_grad_(true);
        torch::Tensor y;
        with_autocast(kCpu, true, [&] { y = layer_norm_to_bf16(xr, wr, br, 1e-5); });
        QCOMPARE(y.scalar_type(), torch::kBFloat16);
        auto x64 = x.to(torch::kFloat64).requires_grad_(true), w64 = w.to(torch::kFloat64).requires_grad_(true),
             b64 = b.to(torch::kFloat64).requires_grad_(true);
        auto ref = torch::layer_norm(x64, {C}, w64, b64, 1e-5);
        QVERIFY2(worst(y, ref, 1e-3, 2.0 / 512) <= 1.0, "the norm is off");
        auto gy = torch::randn({7, C}).to(torch::kBFloat16);
        y.backward(gy);
        ref.backward(gy.to(torch::kFloat64));
        QCOMPARE(xr.grad().scalar_type(), torch::kFloat32);
        // The float32 sums see the same bf16 gradient: float32 rounding only.
        QVERIFY2(worst(xr.grad(), x64.grad(), 1e-4, 1e-4) <= 1.0, "dx is off");
        QVERIFY2(worst(wr.grad(), w64.grad(), 1e-4, 1e-4) <= 1.0, "dw is off");
        QVERIFY2(worst(br.grad(), b64.grad(), 1e-4, 1e-4) <= 1.0, "db is off");
        // No bias (nanoGPT's bias=False).
        with_autocast(kCpu, true, [&] { y = layer_norm_to_bf16(x, w, torch::Tensor(), 1e-5); });
        QVERIFY(worst(y, torch::layer_norm(x64.detach(), {C}, w64.detach()), 1e-3, 2.0 / 512) <= 1.0);
    }

    void nanStaysNan() {
        if (!kernels_here())
            return;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        auto x = torch::tensor({1.0, nan, -2.0}).to(torch::kBFloat16);
        QVERIFY(std::isnan(fused_gelu(x)[1].item<float>()));
        auto s = torch::zeros({1, 3, 3}, torch::kBFloat16);
        s[0][2][1] = nan;
        auto y = causal_softmax(s, 1.0);
        QVERIFY(torch::isnan(y[0][2]).all().item<bool>());                // the row that saw the NaN
        QCOMPARE(y[0][1].to(torch::kFloat32).sum().item<float>(), 1.0f);  // the others are untouched
    }

    void aModelTrainsTheSameWithThem() {
        if (!kernels_here())
            return;
        RunConfig c;
        c.vocab_size = 50;
        c.block_size = 24;
        c.n_layer = 2;
        c.n_head = 2;
        c.n_embd = 48;
        c.dropout = 0;
        torch::manual_seed(4);
        GPT m(c);
        m->train();
        auto idx = torch::randint(0, 50, {3, 24}, torch::kLong);
        auto targets = torch::randint(0, 50, {3, 24}, torch::kLong);
        set_fused_cpu(false);
        const auto off = twbtest::bf16_loss_and_grads(m, idx, targets, kCpu);
        set_fused_cpu(true);
        const auto on = twbtest::bf16_loss_and_grads(m, idx, targets, kCpu);
        QVERIFY2(on.loss != off.loss, "the kernels did not run (the same loss to the last bit)");
        const QString off_by = twbtest::bf16_disagreement(on, off);
        QVERIFY2(off_by.isEmpty(), qPrintable(off_by));
    }
};

TWB_APPLESS_MAIN(TestFusedCpu)
#include "tst_fused_cpu.moc"
