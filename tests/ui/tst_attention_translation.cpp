// The attention viewer over a tiny encoder-decoder run trained here: the kind selector turns on, the
// cross-attention heatmap is (target tokens x source tokens) and shows exactly the engine's capture,
// decoder self-attention stays causal, rollout is refused for cross-attention, the probe timeline
// scrubs through the engine's cross-attention frames, the kind is remembered, a decoder LM run
// still gets the LM view, and an LM prompt left in the box gives way to a validation source, at once
// when the run changes (even one too long for the translation model). A model whose cross-attention is
// still uniform in every head is pointed out, with what trains it. The Head ablation page covers the
// three attentions' heads with the engine's figures, and their costs are the grid's score for each.
#include "tiny_translation.h"
#include "twb/dataset.h"
#include "twb/probe.h"
#include "twb/training.h"
#include "twb/translation.h"
#include "twb/translation_attention.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/attention/HeadGrid.h"
#include "ui/attention/Heatmap.h"
#include "ui/inspection/HeadAblationView.h"
#include "ui/widgets/RunPicker.h"
#include "ui/workers/ModelThread.h"
#include "ui_fixture.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QSlider>
#include <QTableWidget>

class TestAttentionTranslation : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_run, m_lm, m_untrained;

    static void waitIdle(AttentionPanel& p) { QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000); }

private slots:
    void initTestCase() {
        m_lm = twbtest::make_tiny_run(m_ws, "lm", 10);  // also points the workspace and settings at m_ws
        // The copy task on letters a..h: "c a f" -> "c a f"; 20 steps, evaluations at 0, 10 and 20.
        std::mt19937 rng(3);
        std::string src;
        for (int i = 0; i < 200; ++i) {
            const int n = 3 + static_cast<int>(rng() % 4);
            for (int k = 0; k < n; ++k)
                src += std::string(1, static_cast<char>('a' + rng() % 8)) + (k + 1 < n ? " " : "\n");
        }
        twbtest::write(twbtest::path(m_ws, "s.txt"), src);
        twb::ParallelPrepareOptions o;
        o.source = o.target = twbtest::path(m_ws, "s.txt").string();
        o.val_fraction = 0.1;
        o.tokenizer.kind = twb::TokenizerKind::Word;
        o.out = twbtest::path(m_ws, "pairs");
        twb::prepare_parallel(o);
        twb::RunConfig c = twbtest::small_seq2seq_config(o.out.string());
        c.n_layer = 2;
        c.max_iters = 20;
        c.warmup_iters = 2;
        c.eval_interval = 10;
        c.threads = 1;
        twb::TrainJob job;
        job.config = c;
        job.run_dir = twbtest::path(m_ws, "s2s").string();
        twb::train(job);
        m_run = QString::fromStdString(job.run_dir);
        // The same model after one step at a negligible rate: its cross-attention is still uniform.
        job.config.max_iters = 1;
        job.config.eval_interval = 1;
        job.config.learning_rate = 1e-9;
        job.config.warmup_iters = 0;
        job.run_dir = twbtest::path(m_ws, "s2s_untrained").string();
        twb::train(job);
        m_untrained = QString::fromStdString(job.run_dir);
    }

    /// The panel says when a translation model ignores its source (every cross-attention head about
    /// uniform) and what trains it; it says nothing of the kind when some head looks somewhere.
    void uniformCrossAttentionIsPointedOut() {
        auto warning = [](AttentionPanel& p) {
            for (auto* l : p.findChildren<QLabel*>())
                if (l->text().contains("Cross-attention is still uniform"))
                    return l->text();
            return QString();
        };
        for (const QString& run : {m_untrained, m_run}) {
            AttentionPanel p;
            p.setRun(run);
            p.picker()->setCheckpoint("last");
            p.setPrompt("a b c d e");
            p.setTarget("a b c d e");
            p.setKind(AttentionPanel::Kind::Cross);
            p.showPrompt();
            waitIdle(p);
            QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
            QCOMPARE(p.capture().kind, twb::AttentionKind::Cross);
            const auto scores = twb::head_scores(p.capture());
            const float lowest = *std::min_element(scores.entropy.begin(), scores.entropy.end());
            if (run == m_untrained)
                QVERIFY2(lowest > 0.99f, qPrintable(QString::number(lowest)));  // the case to point out
            const QString said = warning(p);
            QCOMPARE(!said.isEmpty(), lowest >= 0.95f);
            if (!said.isEmpty()) {
                QVERIFY2(said.contains("more steps") && said.contains("multi30k"), qPrintable(said));
                p.setView(AttentionPanel::View::LayerMean);  // every view of the capture says it
                QVERIFY(!warning(p).isEmpty());
                p.setKind(AttentionPanel::Kind::EncoderSelf);  // not a cross-attention view
                QVERIFY(warning(p).isEmpty());
                p.setView(AttentionPanel::View::Head);  // both are remembered: leave them as found
                p.setKind(AttentionPanel::Kind::Cross);
            }
        }
    }

    void crossHeatmapIsTheEngineCapture() {
        AttentionPanel p;
        p.setRun(m_run);
        p.picker()->setCheckpoint("last");
        QVERIFY(!p.kindBox()->isEnabled());  // nothing captured yet
        p.setPrompt("a b c");
        p.setTarget("a b c");
        p.setKind(AttentionPanel::Kind::Cross);
        p.showPrompt();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QVERIFY(p.isTranslation());
        QVERIFY(p.kindBox()->isEnabled());
        twb::Translator t;
        t.open(m_run.toStdString(), "last");
        const auto ref = t.attention("a b c", "a b c");
        const auto& c = p.capture();
        QCOMPARE(c.kind, twb::AttentionKind::Cross);
        QCOMPARE(c.weights, ref.cross.weights);
        p.select(1, 1);
        auto* h = p.heatmap();
        QCOMPARE(h->rows(), 4);  // target tokens a b c and <eos>, down
        QCOMPARE(h->cols(), 4);  // source tokens a b c and <eos>, across
        for (int q = 0; q < 4; ++q)
            for (int k = 0; k < 4; ++k)
                QCOMPARE(h->value(q, k), ref.cross.at(1, 1, q, k));  // no masked cells
        // Cross-attention has no rollout: the map is cleared and the panel says why.
        p.setView(AttentionPanel::View::Rollout);
        QCOMPARE(h->rows(), 0);
        p.setView(AttentionPanel::View::Head);
        // Decoder self-attention: <bos> a b c both ways, the future masked.
        p.setKind(AttentionPanel::Kind::DecoderSelf);
        QCOMPARE(p.capture().kind, twb::AttentionKind::DecoderSelf);
        QCOMPARE(h->rows(), 4);
        QVERIFY(std::isnan(h->value(0, 1)));
        QCOMPARE(h->value(2, 1), ref.decoder.at(1, 1, 2, 1));
        // Encoder self-attention: a b c <eos>, every key seen.
        p.setKind(AttentionPanel::Kind::EncoderSelf);
        QCOMPARE(p.capture().weights, ref.encoder.weights);
        QVERIFY(!std::isnan(h->value(0, 3)));
    }

    /// The Head ablation page takes a translation run: every head of its three attentions in the engine's
    /// table, the text compared is the source translated with and without the heads, and the costs are
    /// the grid's score for the attention shown.
    void ablationCoversTheThreeAttentions() {
        AttentionPanel p;
        p.setRun(m_run);
        p.picker()->setCheckpoint("last");
        HeadAblationView* v = p.ablation();
        v->setHeads("cross.1.*");
        v->setMaxTokens(256);
        v->measureEveryHead();
        QTRY_VERIFY_WITH_TIMEOUT(!v->isBusy(), 60000);
        QVERIFY2(v->lastError().isEmpty(), qPrintable(v->lastError()));
        twb::Translator t;
        t.open(m_run.toStdString(), "last");
        twb::AblationOptions o;
        o.max_tokens = 256;
        o.heads = twb::parse_heads("cross.1.*", t.head_layout());
        o.every_head = true;
        const auto ref = t.ablation_table(o);
        QCOMPARE(v->result().every_head.size(), size_t{(2 + 2 + 2) * 2});
        QCOMPARE(v->table()->rowCount(), 2 + 12);  // none, the set, every head
        QCOMPARE(v->result().set_loss, ref.set_loss);
        for (size_t i = 0; i < ref.every_head.size(); ++i)
            QCOMPARE(v->result().every_head[i].cost, ref.every_head[i].cost);
        QCOMPARE(v->table()->findItems("enc.1.0", Qt::MatchExactly).size(), 1);
        QCOMPARE(v->table()->findItems("cross.0.1", Qt::MatchExactly).size(), 1);
        // The source translated greedily, with every head and with the set off.
        v->setPrompt("a b c");
        v->compareText();
        QTRY_VERIFY_WITH_TIMEOUT(!v->isBusy(), 60000);
        QVERIFY2(v->lastError().isEmpty(), qPrintable(v->lastError()));
        QCOMPARE(v->withText(), QString::fromStdString(t.translate({"a b c"}).front()));
        t.set_ablated_heads(o.heads);
        QCOMPARE(v->withoutText(), QString::fromStdString(t.translate({"a b c"}).front()));
        // The costs on the grid: the cross-attention's when it is shown, the encoder's when that is.
        p.setPrompt("a b c");
        p.setTarget("a b c");
        p.setKind(AttentionPanel::Kind::Cross);
        p.showPrompt();
        waitIdle(p);
        p.setScore(4);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 2; ++h)
                QCOMPARE(p.grid()->scores()[static_cast<size_t>(l * 2 + h)],
                         static_cast<float>(ref.cost(l, h, twb::HeadStack::Cross)));
        p.setKind(AttentionPanel::Kind::EncoderSelf);
        QCOMPARE(p.grid()->scores()[3], static_cast<float>(ref.cost(1, 1, twb::HeadStack::Encoder)));
        v->setHeads("enc.2.0");  // the encoder has 2 layers: one message, nothing run
        v->measureSet();
        QVERIFY(!v->isBusy());
        QVERIFY2(v->lastError().contains("encoder layer 2 does not exist"), qPrintable(v->lastError()));
        // A language model's prompt and a source sentence are kept apart, each back with its kind of run
        auto* prompt = v->findChild<QLineEdit*>("ablationPrompt");
        v->setRun(m_lm, "last");
        v->setPrompt("The meaning of life is");
        v->setRun(m_run, "last");
        QCOMPARE(prompt->text(), QString("a b c"));
        v->setRun(m_lm, "last");
        QCOMPARE(prompt->text(), QString("The meaning of life is"));
    }

    /// The Positions tab shows a translation run's own scheme (it kept the run before's rotary map, and
    /// Show positions failed: ModelSession opens language models only).
    void positionsOfATranslationRun() {
        AttentionPanel p;
        p.setRun(m_lm);
        p.loadPositions();
        waitIdle(p);
        QCOMPARE(p.positionMap()->cols(), 8);  // the LM's rotary pairs
        p.setRun(m_run);
        QCOMPARE(p.positionMap()->rows(), 0);  // the run before's map goes with it
        p.loadPositions();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        twb::Translator t;
        t.open(m_run.toStdString(), "best");
        const auto ref = t.positions();
        QCOMPARE(ref.kind, twb::Position::Sinusoidal);
        QCOMPARE(p.positionMap()->rows(), static_cast<int>(ref.rows));
        QCOMPARE(p.positionMap()->cols(), 32);  // n_embd
        QCOMPARE(p.positionMap()->value(3, 5), ref.values[3 * 32 + 5]);
    }

    void emptyTargetIsTheModelsTranslation() {
        AttentionPanel p;
        p.setRun(m_run);
        p.setPrompt("a b c");
        p.setTarget("");
        p.showPrompt();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QVERIFY(p.pairCapture().target_from_model);
        twb::Translator t;
        t.open(m_run.toStdString(), "best");
        QCOMPARE(p.pairCapture().target, t.translate({"a b c"})[0]);
        QCOMPARE(p.pairCapture().cross.length, static_cast<int64_t>(p.pairCapture().decoder.length));
    }

    void aTimelineFrameSaysWhatItsStepRead() {
        // A frame of the probe timeline is the model at that step: the warning spoke of the run as it is
        // now ("Train it for more steps, or start a run from the multi30k preset") at step 0 of any run.
        AttentionPanel p;
        p.setRun(m_untrained);
        p.showTimeline();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        p.timelineSlider()->setValue(0);
        QString said;
        for (auto* l : p.findChildren<QLabel*>())
            if (l->text().contains("still uniform"))
                said = l->text();
        QVERIFY2(said.contains("At step 0 cross-attention was still uniform") && !said.contains("Train it"),
                 qPrintable(said));
    }
    void timelineScrubsCrossFrames() {
        AttentionPanel p;
        p.setRun(m_run);
        p.showTimeline();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const auto t = twb::read_cross_probe(m_run.toStdString());
        QCOMPARE(t.steps, (std::vector<int64_t>{0, 10, 20}));
        QCOMPARE(p.timeline().steps, t.steps);
        QCOMPARE(p.kindBox()->currentIndex(), static_cast<int>(AttentionPanel::Kind::Cross));
        auto* slider = p.timelineSlider();
        for (int i : {0, 1}) {
            slider->setValue(i);
            QCOMPARE(p.shownStep(), static_cast<qint64>(t.steps[static_cast<size_t>(i)]));
            const auto frame = t.at(static_cast<size_t>(i));
            QCOMPARE(p.capture().weights, frame.weights);
            p.select(0, 1);
            QCOMPARE(p.heatmap()->rows(), static_cast<int>(t.length));
            QCOMPARE(p.heatmap()->cols(), static_cast<int>(t.key_length));
            QCOMPARE(p.heatmap()->value(1, 0), frame.at(0, 1, 1, 0));
        }
        QVERIFY(t.at(0).weights != t.at(2).weights);
        // The timeline holds cross-attention only: other kinds are refused with a message.
        p.setKind(AttentionPanel::Kind::EncoderSelf);
        QCOMPARE(p.kindBox()->currentIndex(), static_cast<int>(AttentionPanel::Kind::Cross));
        QVERIFY(!p.lastError().isEmpty());
    }

    void kindIsRemembered() {
        {
            AttentionPanel p;
            p.setKind(AttentionPanel::Kind::DecoderSelf);
        }
        AttentionPanel q;
        QCOMPARE(q.kindBox()->currentIndex(), static_cast<int>(AttentionPanel::Kind::DecoderSelf));
        q.setKind(AttentionPanel::Kind::Cross);
    }

    void decoderRunKeepsTheLmView() {
        AttentionPanel p;
        p.setRun(m_lm);
        p.setTarget("");
        p.setPrompt("the cat");
        p.showPrompt();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QVERIFY(!p.isTranslation());
        QVERIFY(!p.kindBox()->isEnabled());
        QCOMPARE(p.capture().kind, twb::AttentionKind::Decoder);
        QCOMPARE(p.heatmap()->rows(), p.heatmap()->cols());
    }

    void leftoverLmPromptGivesWayToASource() {
        // A translation run shown with the LM prompt left in the box (nothing typed) takes a validation
        // pair's source instead; each kind of run gets its own prompt back, and both are remembered.
        QSettings().setValue("attention/prompt", "First Citizen: speak");
        QSettings().remove("attention/source");
        QString source;
        {
            AttentionPanel p;
            auto* prompt = p.findChild<QPlainTextEdit*>("attentionPrompt");
            p.setRun(m_run);
            p.setTarget("");
            p.showPrompt();
            waitIdle(p);
            QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
            QVERIFY(p.isTranslation());
            source = prompt->toPlainText().trimmed();
            QVERIFY2(QRegularExpression("^[a-h]( [a-h])*$").match(source).hasMatch(), qPrintable(source));
            QCOMPARE(QString::fromStdString(p.pairCapture().source).trimmed(), source);
            p.setRun(m_lm);
            p.showPrompt();
            waitIdle(p);
            QVERIFY(!p.isTranslation());
            QCOMPARE(prompt->toPlainText(), QString("First Citizen: speak"));
            p.setRun(m_run);
            p.showPrompt();
            waitIdle(p);
            QVERIFY(p.isTranslation());
            QCOMPARE(prompt->toPlainText().trimmed(), source);
        }
        QCOMPARE(QSettings().value("attention/prompt").toString(), QString("First Citizen: speak"));
        QCOMPARE(QSettings().value("attention/source").toString().trimmed(), source);
    }

    void switchingRunsSwapsALongLmPromptAtOnce() {
        // An LM prompt longer than the translation model takes (16 words; block_size 12) left in the box:
        // choosing the translation run swaps it for a validation source and, the panel being on screen,
        // shows that pair's attention at once, with no complaint about the source's length. Back on the
        // LM run the LM prompt returns and is captured.
        const QString lmPrompt = "a b c d e f g h a b c d e f g h";
        QSettings().setValue("attention/prompt", lmPrompt);
        QSettings().remove("attention/source");
        AttentionPanel p;
        auto* prompt = p.findChild<QPlainTextEdit*>("attentionPrompt");
        p.setTarget("");
        p.setRun(m_lm);
        p.showPrompt();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QVERIFY(!p.isTranslation());
        p.resize(1000, 700);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        p.setRun(m_run);  // nothing pressed after this
        QTRY_VERIFY_WITH_TIMEOUT(p.isTranslation() && !p.isBusy() && !p.pairCapture().source.empty(), 60000);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const QString source = prompt->toPlainText().trimmed();
        QVERIFY2(QRegularExpression("^[a-h]( [a-h])*$").match(source).hasMatch(), qPrintable(source));
        QVERIFY(source != lmPrompt);
        QCOMPARE(QString::fromStdString(p.pairCapture().source).trimmed(), source);
        p.setRun(m_lm);
        QTRY_VERIFY_WITH_TIMEOUT(!p.isTranslation() && !p.isBusy(), 60000);
        QCOMPARE(prompt->toPlainText(), lmPrompt);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QCOMPARE(p.capture().kind, twb::AttentionKind::Decoder);
    }
};

QTEST_MAIN(TestAttentionTranslation)
#include "tst_attention_translation.moc"
