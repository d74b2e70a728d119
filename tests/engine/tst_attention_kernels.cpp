// The explicit attention path (matmul + masked softmax, the only one under libtorch 1.13 and the one that
// returns the weights) against its definition written out here, and the kernel name each libtorch gets.
// The comparisons of at::scaled_dot_product_attention with it are tst_attention_sdpa, built only
// against libtorch >= 2 (where SDPA exists), so that no build skips a test.
#include "attention_kernel_test.h"
#include "twb/config.h"
#include "twb/doctor.h"

using namespace attention_test;

class TestAttentionKernels : public QObject {
    Q_OBJECT
private slots:
    void init() { set_explicit_attention(false); }
    void cleanup() { set_explicit_attention(false); }

    void kernelNameFollowsVersion() {
        QCOMPARE(QString(attention_kernel_name()), QString(TORCH_VERSION_MAJOR >= 2 ? "sdpa" : "explicit"));
        QCOMPARE(QString::fromStdString(run_doctor(1, false).attention_kernel), QString(attention_kernel_name()));
        set_explicit_attention(true);
        QCOMPARE(QString(attention_kernel_name()), QString("explicit"));
        QVERIFY(!sdpa_available());
    }

    void explicitMatchesDefinition() {
        torch::NoGradGuard ng;
        auto m = layer();
        auto x = torch::randn({kB, kT, kC});
        close(run(m, x, true), reference(m, x));
    }
};

TWB_APPLESS_MAIN(TestAttentionKernels)
#include "tst_attention_kernels.moc"
