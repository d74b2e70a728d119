// The golden test, in llm.c's manner: a 2-layer model with a fixed seed trains for a few steps on a tiny
// built-in text, and its losses must equal the values the code gave when they were pinned (before the
// engine was restructured). Any change to the model's math, the data order, the optimiser or the
// schedule moves these numbers. The tolerance (1e-4 relative) absorbs a different BLAS kernel on
// another CPU, and nothing else: a planted bug moves the losses by far more.
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/training.h"

using namespace twb;

namespace {

/// Pinned losses: the 12 training losses, then the validation loss at step 12. One row per position kind.
struct Golden {
    const char* position;
    double losses[13];
};
const Golden kGolden[] = {
    {"rotary",
     {2.953993558883667, 2.8419861793518066, 2.7512953281402588, 2.6788837909698486, 2.5741870403289795,
      2.5401589870452881, 2.4648861885070801, 2.4174087047576904, 2.3947656154632568, 2.3548307418823242,
      2.3233189582824707, 2.3360462188720703, 2.3193957805633545}},
    {"learned",
     {2.9496331214904785, 2.8785486221313477, 2.8204410076141357, 2.7501590251922607, 2.6734771728515625,
      2.6613829135894775, 2.5524919033050537, 2.5455701351165771, 2.5151970386505127, 2.4571499824523926,
      2.4495828151702881, 2.4399867057800293, 2.394530177116394}},
    {"sinusoidal",
     {2.898026704788208, 2.8880510330200195, 2.8663196563720703, 2.8258616924285889, 2.790818452835083,
      2.7595798969268799, 2.7069368362426758, 2.6830790042877197, 2.6925184726715088, 2.6301436424255371,
      2.6666767597198486, 2.7101325988769531, 2.6496905088424683}},
};

/// A fixed text of about 6 KB: two alternating verses, so a small model has something to learn.
std::string golden_text() {
    std::string s;
    for (int i = 0; i < 120; ++i)
        s += (i % 3 == 0) ? "the cat sat on the mat.\n" : "a dog ran to the park!\n";
    return s;
}

}  // namespace

class TestGolden : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_data;

    std::vector<double> run(const char* position) {
        RunConfig c = preset_config("tiny");
        c.dtype = DType::Float32;  // pinned: auto would be bf16 on a CPU with AVX512-BF16
        c.data_dir = m_data.string();
        c.set(std::string("position=") + position);
        c.n_layer = 2;
        c.n_head = 2;
        c.n_embd = 32;
        c.block_size = 16;
        c.batch_size = 4;
        c.max_iters = 12;
        c.warmup_iters = 3;
        c.lr_decay_iters = 12;
        c.eval_interval = 12;
        c.eval_iters = 2;
        c.log_interval = 1;
        c.dropout = 0.0;
        c.threads = 1;
        c.seed = 42;
        TrainJob job;
        job.config = c;
        job.run_dir = twbtest::path(m_dir, position).string();
        std::vector<double> out;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& r) {
            out.push_back(r.loss);
            return true;
        };
        double val = 0;
        cb.on_eval = [&](const EvalReport& e) { val = e.val_loss; };
        train(job, cb);
        out.push_back(val);
        return out;
    }

private slots:
    void initTestCase() {
        twbtest::write(twbtest::path(m_dir, "golden.txt"), golden_text());
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "golden.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        prepare_dataset(o);
        m_data = o.out;
    }
    void lossesArePinned_data() {
        QTest::addColumn<int>("row");
        for (int i = 0; i < 3; ++i)
            QTest::newRow(kGolden[i].position) << i;
    }
    void lossesArePinned() {
        QFETCH(int, row);
        const Golden& g = kGolden[row];
        const auto got = run(g.position);
        QCOMPARE(got.size(), size_t(13));
        QString all;
        for (double v : got)
            all += QString::number(v, 'g', 17) + ", ";
        for (size_t i = 0; i < got.size(); ++i) {
            const double want = g.losses[i];
            QVERIFY2(std::abs(got[i] - want) <= 1e-4 * std::abs(want),
                     qPrintable(QString("loss %1: got %2, pinned %3 (all: %4)")
                                    .arg(i)
                                    .arg(got[i], 0, 'g', 17)
                                    .arg(want, 0, 'g', 17)
                                    .arg(all)));
        }
    }
};

TWB_APPLESS_MAIN(TestGolden)
#include "tst_golden.moc"
