// The GUI's training side of translation, offscreen: the config form's model kind shows the fields that
// kind uses and the config it produces carries them; the Multi30k preset is the engine's preset; the
// Training panel picks the kind from the dataset and refuses a mismatch (and Sequences for chat data); the metrics
// plot's BLEU series holds a metrics.csv's val_bleu (at its step, or its epoch); the Datasets panel's Translation pairs
// tab prepares a parallel dataset the engine opens as parallel; and a tiny encoder-decoder trained from the panel
// writes val_bleu into metrics.csv, and "Train more" extends one that stopped at its epochs.
#include "signal_wait.h"
#include "test_util.h"
#include "twb/chat.h"
#include "twb/dataset.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "ui/Workspace.h"
#include "ui/datasets/DatasetsPanel.h"
#include "ui/datasets/ParallelTab.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui_fixture.h"

#include <qcustomplot.h>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabWidget>

#include <fstream>

namespace {
const char* kWords[] = {"alpha", "beta", "gamma", "delta", "eps"};
/// 40 line-aligned pairs over five words: the target a word-for-word function of the source.
void writePairs(const std::filesystem::path& src, const std::filesystem::path& tgt, int n = 40) {
    std::string s, t;
    for (int i = 0; i < n; ++i) {
        s += std::string(kWords[i % 5]) + " " + kWords[(i * 3) % 5] + "\n";
        t += std::string(kWords[(i * 2) % 5]) + "\n";
    }
    twbtest::write(src, s);
    twbtest::write(tgt, t);
}
}  // namespace

class TestTranslationTraining : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_pairs;   // a parallel dataset (the engine's prepare_parallel)
    QString m_stream;  // a token-stream dataset

    static void choose(ConfigForm& f, const char* key, const char* value) {
        auto* c = f.findChild<QComboBox*>(key);
        QVERIFY2(c, key);
        const int i = c->findData(value);
        QVERIFY2(i >= 0, value);
        c->setCurrentIndex(i);
    }
    static void setInt(QWidget& w, const char* key, int v) {
        auto* s = w.findChild<QSpinBox*>(key);
        QVERIFY2(s, key);
        s->setValue(v);
    }
    static void setDouble(QWidget& w, const char* key, double v) {
        auto* s = w.findChild<QDoubleSpinBox*>(key);
        QVERIFY2(s, key);
        s->setValue(v);
    }

private slots:
    void initTestCase() {
        twbtest::use_test_workspace(m_ws);
        writePairs(twbtest::path(m_ws, "s.txt"), twbtest::path(m_ws, "t.txt"));
        twb::ParallelPrepareOptions o;
        o.source = twbtest::path(m_ws, "s.txt").string();
        o.target = twbtest::path(m_ws, "t.txt").string();
        o.tokenizer.kind = twb::TokenizerKind::Word;
        o.val_fraction = 0.2;
        o.out = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "pairs";
        twb::prepare_parallel(o);
        m_pairs = QString::fromStdString(o.out.string());
        twbtest::write(twbtest::path(m_ws, "c.txt"), twbtest::english_like(5000));
        twb::PrepareOptions p;
        p.corpus.inputs = {twbtest::path(m_ws, "c.txt").string()};
        p.out = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "stream";
        twb::prepare_dataset(p);
        m_stream = QString::fromStdString(p.out.string());
    }

    void modelKindShowsItsFieldsAndConfigCarriesThem() {
        ConfigForm f;
        const QStringList edOnly = {"n_encoder_layer", "n_decoder_layer", "batch_tokens",
                                    "max_epochs",      "bleu_pairs",      "best_by"};
        const QStringList lmOnly = {"sequences", "embeddings_from"};
        const QStringList both = {"n_layer", "ffn_hidden", "norm_position", "schedule", "label_smoothing", "n_embd"};
        QCOMPARE(f.modelKind(), twb::ModelKind::Decoder);
        for (const auto& k : edOnly)
            QVERIFY2(!f.isFieldShown(k), qPrintable(k));
        for (const auto& k : lmOnly + both)
            QVERIFY2(f.isFieldShown(k), qPrintable(k));

        choose(f, "model_kind", "encoder_decoder");
        for (const auto& k : edOnly + both)
            QVERIFY2(f.isFieldShown(k), qPrintable(k));
        for (const auto& k : lmOnly)
            QVERIFY2(!f.isFieldShown(k), qPrintable(k));
        setInt(f, "n_encoder_layer", 3);
        setInt(f, "n_decoder_layer", 2);
        setInt(f, "ffn_hidden", 384);
        setInt(f, "batch_tokens", 1500);
        setDouble(f, "max_epochs", 2.5);
        setInt(f, "bleu_pairs", 17);
        setDouble(f, "label_smoothing", 0.1);
        choose(f, "best_by", "bleu");
        choose(f, "schedule", "noam");
        choose(f, "norm_position", "post");
        const twb::RunConfig c = f.config();
        QCOMPARE(c.model_kind, twb::ModelKind::EncoderDecoder);
        QCOMPARE(c.n_encoder_layer, 3);
        QCOMPARE(c.n_decoder_layer, 2);
        QCOMPARE(c.ffn_hidden, 384);
        QCOMPARE(c.batch_tokens, 1500);
        QCOMPARE(c.max_epochs, 2.5);
        QCOMPARE(c.bleu_pairs, 17);
        QCOMPARE(c.label_smoothing, 0.1);
        QCOMPARE(c.best_by, twb::BestBy::Bleu);
        QCOMPARE(c.schedule, twb::Schedule::Noam);
        QCOMPARE(c.norm_position, twb::NormPosition::Post);
        // The JSON the run folder gets names the kind by the engine's word.
        QCOMPARE(nlohmann::json(c).at("model_kind").get<std::string>(), std::string("encoder_decoder"));

        // Back to the LM: its fields again, and no BLEU choice left behind that a decoder cannot have.
        f.setModelKind(twb::ModelKind::Decoder);
        for (const auto& k : edOnly)
            QVERIFY2(!f.isFieldShown(k), qPrintable(k));
        QVERIFY(f.isFieldShown("sequences"));
        QCOMPARE(f.config().best_by, twb::BestBy::Loss);
        QVERIFY2(f.problems().empty(), f.problems().empty() ? "" : f.problems().front().c_str());
    }

    void translationPresetsAreTheEngines() {
        for (const char* name : {"multi30k", "tatoeba"}) {
            ConfigForm f;
            auto* preset = f.findChild<QComboBox*>("preset");
            QVERIFY(preset->findData(name) >= 0);
            f.applyPreset(name);
            QCOMPARE(preset->currentData().toString(), QString(name));
            nlohmann::json mine = f.config(), theirs = twb::preset_config(name);
            for (auto* j : {&mine, &theirs}) {
                j->erase("vocab_size");  // the dataset's, not the preset's
                j->erase("data_dir");
            }
            QCOMPARE(QString::fromStdString(mine.dump()), QString::fromStdString(theirs.dump()));
            QCOMPARE(f.modelKind(), twb::ModelKind::EncoderDecoder);
            QVERIFY(f.isFieldShown("bleu_pairs"));
        }
    }

    void panelTakesTheKindFromTheDataset() {
        TrainingPanel p;
        p.setDataset(m_stream);
        p.form()->applyPreset("tiny");
        p.setDataset(m_pairs);
        QCOMPARE(p.form()->modelKind(), twb::ModelKind::EncoderDecoder);
        QVERIFY(!p.kindNote()->isHidden());
        QVERIFY(p.kindNote()->text().contains("parallel"));
        QVERIFY(p.startBlocker().isEmpty());
        // The user insists on a decoder LM for pairs: Start is refused, saying why.
        p.form()->setModelKind(twb::ModelKind::Decoder);
        QVERIFY(p.startBlocker().contains("parallel dataset"));
        QVERIFY(p.kindNote()->isHidden());  // the note no longer says what the form shows
        QVERIFY(!p.findChild<QPushButton*>("start")->isEnabled());
        // A token-stream dataset turns the kind back.
        p.form()->setModelKind(twb::ModelKind::EncoderDecoder);
        p.setDataset(m_stream);
        QCOMPARE(p.form()->modelKind(), twb::ModelKind::Decoder);
        QVERIFY(p.kindNote()->text().contains("Decoder LM"));
        p.form()->applyPreset("multi30k");  // an encoder-decoder preset on a stream: refused
        QVERIFY(p.startBlocker().contains("token-stream"));
    }

    void aChatDatasetSetsDocumentSequences() {
        // The form showed "stream" for chat data, whose runs train as documents (config.json said so).
        std::string jsonl;
        for (int i = 0; i < 40; ++i)
            jsonl += "{\"instruction\": \"hi\", \"output\": \"hello there\"}\n";
        twbtest::write(twbtest::path(m_ws, "chat.jsonl"), jsonl);
        twb::ChatPrepareOptions o;
        o.inputs = {twbtest::path(m_ws, "chat.jsonl").string()};
        o.tokenizer.kind = twb::TokenizerKind::Byte;
        o.out = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "chat-data";
        twb::prepare_chat(o);
        TrainingPanel p;
        p.setDataset(m_stream);
        QCOMPARE(p.form()->config().sequences, twb::Sequences::Stream);
        p.setDataset(QString::fromStdString(o.out.string()));
        QCOMPARE(p.form()->config().sequences, twb::Sequences::Documents);
        QVERIFY2(p.kindNote()->text().contains("Sequences set to <b>documents</b>"), qPrintable(p.kindNote()->text()));
        QVERIFY(!p.kindNote()->isHidden());
        p.form()->applyPreset("tiny");  // a preset chosen for chat data keeps it (it showed "stream")
        QCOMPARE(p.form()->config().sequences, twb::Sequences::Documents);
        p.setDataset(m_stream);  // set for the chat data, not by hand: back to a stream
        QCOMPARE(p.form()->config().sequences, twb::Sequences::Stream);
    }

    void bitsPerCharacterIsForLanguageModels() {
        // Pairs have no bits-per-character curve: the unit is offered for a stream only, and a stream
        // brings the remembered choice back.
        TrainingPanel p;
        auto* unit = p.findChild<QComboBox*>("lossUnit");
        auto* units = qobject_cast<QStandardItemModel*>(unit->model());
        p.setDataset(m_stream);
        unit->setCurrentIndex(1);
        QVERIFY(p.plot()->bitsPerChar());
        p.setDataset(m_pairs);
        QCOMPARE(unit->currentIndex(), 0);
        QVERIFY(!p.plot()->bitsPerChar());
        QVERIFY(!units->item(1)->isEnabled());
        p.setDataset(m_stream);
        QVERIFY(units->item(1)->isEnabled());
        QCOMPARE(unit->currentIndex(), 1);
        QVERIFY(p.plot()->bitsPerChar());
        unit->setCurrentIndex(0);
    }

    void plotShowsBleuOfMetricsCsv() {
        // metrics.csv as another tool might write it: only some columns, in its own order.
        const auto csv = twbtest::path(m_ws, "metrics.csv");
        twbtest::write(csv,
                       "step,kind,train_loss,val_loss,val_accuracy,lr,val_bleu,epoch\n"
                       "5,train,3.5,,,0.001,,0.25\n"
                       "10,train,3.0,,,0.001,,0.5\n"
                       "10,eval,,2.75,0.3,,4.25,0.5\n"
                       "20,train,2.5,,,0.001,,1\n"
                       "20,eval,,2.25,0.4,,12.5,1\n");
        MetricsPlot plot;
        plot.loadRows(twb::read_metrics(csv));
        QCOMPARE(plot.bleuPoints(), 2);
        QCOMPARE(plot.bleuPoint(0), QPointF(10, 4.25));
        QCOMPARE(plot.bleuPoint(1), QPointF(20, 12.5));
        QVERIFY(!plot.showingEpochs());
        plot.setEpochAxis(true);  // the same points at their epochs
        QVERIFY(plot.showingEpochs());
        QCOMPARE(plot.bleuPoint(0), QPointF(0.5, 4.25));
        QCOMPARE(plot.bleuPoint(1), QPointF(1.0, 12.5));
        QCOMPARE(plot.trainPoints(), 3);
        QCOMPARE(plot.evalPoints(), 2);
        QCOMPARE(plot.lossPlot()->xAxis->label(), QString("epoch"));
        // Live, as the worker's reports arrive.
        twb::EvalReport e;
        e.step = 30;
        e.val_loss = 2.0;
        e.val_bleu = 20.0;
        e.epoch = 1.5;
        plot.addEval(e);
        QCOMPARE(plot.bleuPoints(), 3);
        QCOMPARE(plot.bleuPoint(2), QPointF(1.5, 20.0));
        // A decoder LM's rows have no BLEU and no epoch: nothing on the BLEU axis, x stays in steps.
        plot.loadRows({twb::metrics_row(twb::EvalReport{})});
        QCOMPARE(plot.bleuPoints(), 0);
        QVERIFY(!plot.showingEpochs());
    }

    void xAxisChoiceIsRemembered() {
        {
            TrainingPanel p;
            p.xAxisChoice()->setCurrentIndex(1);
            QVERIFY(p.plot()->epochAxis());
        }
        TrainingPanel again;
        QCOMPARE(again.xAxisChoice()->currentIndex(), 1);
        QVERIFY(again.plot()->epochAxis());
        again.xAxisChoice()->setCurrentIndex(0);
    }

    void datasetsPanelPreparesPairs() {
        writePairs(twbtest::path(m_ws, "gs.txt"), twbtest::path(m_ws, "gt.txt"));
        DatasetsPanel p;
        ParallelTab* tab = p.parallelTab();
        tab->setFiles(QString::fromStdString(twbtest::path(m_ws, "gs.txt").string()),
                      QString::fromStdString(twbtest::path(m_ws, "gt.txt").string()));
        tab->setLanguages("xx", "yy");
        tab->setTokenizer("word", 0);
        tab->setDatasetName("gui-pairs");
        tab->setFractions(0.1, 0.1);  // 4 of 40 for validation, 4 for test
        QSignalSpy done(&p, &DatasetsPanel::datasetPrepared);
        p.prepareParallel();
        QVERIFY(p.isBusy());
        QVERIFY(done.wait(60000));
        const QString dir = done.first().first().toString();
        const auto d = twb::open_prepared(dir.toStdString());
        QVERIFY(d.parallel);
        QCOMPARE(d.train_pairs + d.val_pairs + d.test_pairs, uint64_t(40));
        QCOMPARE(d.val_pairs, uint64_t(4));
        QCOMPARE(d.test_pairs, uint64_t(4));
        QCOMPARE(d.source_lang, std::string("xx"));
        QCOMPARE(d.target_lang, std::string("yy"));
        QVERIFY(tab->resultText().contains("train 32"));
        QVERIFY(!p.preparedList()->findItems("gui-pairs (xx→yy)", Qt::MatchExactly).isEmpty());
        QCOMPARE(d.source_vocab_size, 0);  // one shared vocabulary unless asked

        // One vocabulary per language: the box reaches the engine, the result says both sizes.
        auto* separate = tab->findChild<QCheckBox*>("separateVocab");
        QVERIFY(separate);
        separate->setChecked(true);
        tab->setDatasetName("gui-pairs-sep");
        QSignalSpy done2(&p, &DatasetsPanel::datasetPrepared);
        p.prepareParallel();
        QVERIFY(done2.wait(60000));
        const auto sep = twb::open_prepared(done2.first().first().toString().toStdString());
        QVERIFY(sep.source_vocab_size > 0);
        QVERIFY(
            tab->resultText().contains(QString("source %1, target %2").arg(sep.source_vocab_size).arg(sep.vocab_size)));
        separate->setChecked(false);

        // Unaligned files: the engine's message, nothing written.
        twbtest::write(twbtest::path(m_ws, "short.txt"), "alpha\nbeta\n");
        tab->setFiles(QString::fromStdString(twbtest::path(m_ws, "gs.txt").string()),
                      QString::fromStdString(twbtest::path(m_ws, "short.txt").string()));
        tab->setDatasetName("bad-pairs");
        p.prepareParallel();
        QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000);
        QVERIFY(!p.lastError().isEmpty());
        QVERIFY(!QFileInfo::exists(Workspace::datasetsDir() + "/bad-pairs"));
        // A missing target file is said before anything runs.
        tab->setFiles(QString::fromStdString(twbtest::path(m_ws, "gs.txt").string()), QString());
        p.prepareParallel();
        QVERIFY(!p.isBusy());
        QVERIFY(p.lastError().contains("target"));
        // With the tab in view, the refusal goes once the file is chosen (it stayed, as it did after a switch to
        // one TSV file, which has no such fields)
        p.findChild<QTabWidget*>()->setCurrentWidget(tab);
        p.prepareParallel();
        QVERIFY(p.lastError().contains("target"));
        tab->setFiles(QString::fromStdString(twbtest::path(m_ws, "gs.txt").string()),
                      QString::fromStdString(twbtest::path(m_ws, "gt.txt").string()));
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
    }

    /// A tiny encoder-decoder on m_pairs in the panel's form, evaluated every 6 steps.
    void tinyForm(TrainingPanel& p) {
        p.setDataset(m_pairs);
        p.form()->applyPreset("tatoeba");
        setInt(*p.form(), "n_layer", 1);
        setInt(*p.form(), "n_embd", 32);
        setInt(*p.form(), "n_head", 2);
        setInt(*p.form(), "ffn_hidden", 64);
        setInt(*p.form(), "block_size", 16);
        setInt(*p.form(), "batch_tokens", 128);
        setDouble(*p.form(), "max_epochs", 0);
        setInt(*p.form(), "max_iters", 12);
        setInt(*p.form(), "warmup_iters", 2);
        setInt(*p.form(), "eval_interval", 6);
        setInt(*p.form(), "eval_iters", 1);
        setInt(*p.form(), "log_interval", 1);
        setInt(*p.form(), "bleu_pairs", 4);
        setInt(*p.form(), "threads", 1);
    }
    void tinyEncoderDecoderTrainsFromThePanel() {
        TrainingPanel p;
        tinyForm(p);
        QVERIFY2(p.startBlocker().isEmpty(), qPrintable(p.startBlocker()));
        QSignalSpy done(p.worker(), &TrainWorker::finished), failed(p.worker(), &TrainWorker::failed);
        p.start();
        QVERIFY(twbtest::wait_for(done, 1, 120000));
        QCOMPARE(failed.count(), 0);
        QTRY_VERIFY(!p.isBusy());  // the panel has handled the worker's queued reports
        const auto rows = twb::read_metrics((p.currentRun() + "/metrics.csv").toStdString());
        std::ifstream in((p.currentRun() + "/metrics.csv").toStdString());
        std::string header;
        std::getline(in, header);
        QVERIFY(QString::fromStdString(header).split(',').contains("val_bleu"));
        int evals = 0;
        for (const auto& r : rows)
            if (r.kind == "eval") {
                ++evals;
                QVERIFY(!std::isnan(r.val_bleu));
                QVERIFY(r.val_bleu >= 0 && r.val_bleu <= 100);
            }
        QCOMPARE(evals, 3);                   // steps 0, 6 and 12 (the loop evaluates at the start too)
        QCOMPARE(p.plot()->bleuPoints(), 3);  // the live plot got them as they came
        const QString readout = p.findChild<QLabel*>("evalReadout")->text();
        QVERIFY2(readout.contains("BLEU") && !readout.contains("nan"), qPrintable(readout));
        // The tatoeba preset keeps the best by BLEU: the finished line names the best BLEU, not a "loss".
        const QString status = p.findChild<QLabel*>("status")->text();
        QVERIFY2(status.contains("best val BLEU") && !status.contains("best val loss -"), qPrintable(status));
        // Reopened, the run shows the same BLEU points.
        const QString run = p.currentRun();
        TrainingPanel again;
        QVERIFY(again.openRun(run));
        QCOMPARE(again.plot()->bleuPoints(), 3);
        QCOMPARE(again.form()->modelKind(), twb::ModelKind::EncoderDecoder);
    }
    void trainMoreGoesPastTheEpochBudget() {
        // A run that stopped at its epochs: "Train more" adds steps instead of stopping at once.
        TrainingPanel p;
        tinyForm(p);
        setDouble(*p.form(), "max_epochs", 1);
        setInt(*p.form(), "max_iters", 1000);
        QSignalSpy done(p.worker(), &TrainWorker::finished), failed(p.worker(), &TrainWorker::failed);
        p.start();
        QVERIFY(twbtest::wait_for(done, 1, 120000));
        QCOMPARE(failed.count(), 0);
        const int64_t epochEnd = done.at(0).at(0).value<twb::TrainSummary>().final_step;
        QVERIFY(epochEnd > 0 && epochEnd < 1000);  // the epoch, not max_iters, ended it
        QTRY_VERIFY(p.findChild<QWidget*>("trainMore")->isVisibleTo(&p));
        // Start would train nothing: it is off, and says why, here and when the run is opened again.
        auto* start = p.findChild<QPushButton*>("start");
        QTRY_VERIFY(!p.isBusy());
        QVERIFY(!start->isEnabled());
        QVERIFY2(start->toolTip().contains("finished its epochs"), qPrintable(start->toolTip()));
        setDouble(*p.form(), "max_epochs", 2);  // more passes: Start would continue the run
        QVERIFY(start->isEnabled());
        setDouble(*p.form(), "max_epochs", 1);
        QVERIFY(!start->isEnabled());
        TrainingPanel reopened;  // its config.json holds the steps the epochs came to
        QVERIFY(reopened.openRun(p.currentRun()));
        QVERIFY(!reopened.findChild<QPushButton*>("start")->isEnabled());
        p.trainMore(3);
        QTRY_VERIFY_WITH_TIMEOUT(done.count() == 2 || !failed.isEmpty(), 120000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
        QCOMPARE(done.at(1).at(0).value<twb::TrainSummary>().final_step, epochEnd + 3);
        const auto c = twb::read_run_config(p.currentRun().toStdString());
        QCOMPARE(c.max_iters, static_cast<int>(epochEnd + 3));
        QCOMPARE(c.max_epochs, 0.0);
    }
};

QTEST_MAIN(TestTranslationTraining)
#include "tst_translation_training.moc"
