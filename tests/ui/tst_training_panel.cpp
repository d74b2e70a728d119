// The training panel driven offscreen: a tiny run starts, step and evaluation signals arrive, pause and
// resume, stop writes a checkpoint, the run reopens with its curves, and an invalid config blocks Start.
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/run_folder.h"
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>

class TestTrainingPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_data;

    void setSpin(TrainingPanel& p, const char* name, int v) {
        auto* s = p.form()->findChild<QSpinBox*>(name);
        QVERIFY2(s, name);
        s->setValue(v);
    }
    void smallConfig(TrainingPanel& p, int iters) {
        p.form()->applyPreset("tiny");
        setSpin(p, "n_layer", 1);
        setSpin(p, "n_embd", 32);
        setSpin(p, "n_head", 2);
        setSpin(p, "block_size", 16);
        setSpin(p, "batch_size", 4);
        setSpin(p, "max_iters", iters);
        setSpin(p, "lr_decay_iters", iters);
        setSpin(p, "warmup_iters", 2);
        setSpin(p, "eval_interval", 10);
        setSpin(p, "eval_iters", 2);
        setSpin(p, "log_interval", 1);
        setSpin(p, "threads", 1);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        Workspace::setRoot(m_ws.path());
        twbtest::write(twbtest::path(m_ws, "c.txt"), twbtest::english_like(20000));
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_ws, "c.txt").string()};
        o.out = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "small";
        twb::prepare_dataset(o);
        m_data = QString::fromStdString(o.out.string());
    }
    void trainPauseResumeFinishAndReopen() {
        TrainingPanel p;
        QCOMPARE(p.form()->config().vocab_size > 0, true);  // the workspace dataset was picked up
        p.setDataset(m_data);
        smallConfig(p, 60);
        auto* start = p.findChild<QPushButton*>("start");
        QVERIFY(start->isEnabled());
        QSignalSpy steps(p.worker(), &TrainWorker::stepReported), evals(p.worker(), &TrainWorker::evaluated),
            done(p.worker(), &TrainWorker::finished), failed(p.worker(), &TrainWorker::failed);
        start->click();
        QVERIFY(p.isBusy());
        QVERIFY(steps.wait(60000));
        p.togglePause();
        QCOMPARE(p.findChild<QPushButton*>("pause")->text(), QString("Resume"));
        p.togglePause();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(steps.count(), 60);
        QCOMPARE(evals.count(), 7);  // steps 0, 10, ..., 60
        // The spy sees `finished` on the worker thread; the panel handles it once its queued event runs.
        QTRY_VERIFY(!p.isBusy());
        QVERIFY(p.plot()->trainPoints() == 60);
        const QString run = p.currentRun();
        QVERIFY(!twb::list_checkpoints(run.toStdString()).empty());

        TrainingPanel q;
        QVERIFY(q.openRun(run));
        QCOMPARE(q.plot()->trainPoints(), 60);
        QCOMPARE(q.plot()->evalPoints(), 7);
        QCOMPARE(q.form()->config().max_iters, 60);
        // comparing runs overlays each chosen run's validation loss as one more graph
        const int graphs = q.plot()->lossPlot()->graphCount();
        q.compareWith({run, run});
        QCOMPARE(q.plot()->lossPlot()->graphCount(), graphs + 2);
        QCOMPARE(q.plot()->lossPlot()->graph(graphs)->data()->size(), 7);
        q.compareWith({});
        QCOMPARE(q.plot()->lossPlot()->graphCount(), graphs);
    }
    void stopWritesCheckpointAndResumeContinues() {
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 400);
        QSignalSpy steps(p.worker(), &TrainWorker::stepReported), done(p.worker(), &TrainWorker::finished);
        p.start();
        QVERIFY(steps.wait(60000));
        p.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 60000);
        const auto summary = done.takeFirst().at(0).value<twb::TrainSummary>();
        QVERIFY(summary.stopped);
        const auto cks = twb::list_checkpoints(p.currentRun().toStdString());
        QCOMPARE(cks.back(), summary.final_step);
        QTRY_VERIFY(!p.isBusy());  // the panel has handled `finished` (Start is ignored while busy)
        // continue the same run
        QSignalSpy started(p.worker(), &TrainWorker::started), failed(p.worker(), &TrainWorker::failed);
        p.start();
        // QSignalSpy::wait only sees signals emitted after it is called; the worker may be faster than that.
        QTRY_VERIFY_WITH_TIMEOUT(!started.isEmpty() || !failed.isEmpty(), 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
        QCOMPARE(started.takeFirst().at(0).value<twb::TrainStartInfo>().start_step, summary.final_step);
        p.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 60000);
    }
    void invalidConfigBlocksStart() {
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 10);
        setSpin(p, "n_head", 3);  // 32 is not divisible by 3
        auto* start = p.findChild<QPushButton*>("start");
        QVERIFY(!start->isEnabled());
        QVERIFY(start->toolTip().contains("divisible"));
        QVERIFY(p.findChild<QLabel*>("configProblems")->text().contains("divisible"));
        setSpin(p, "n_head", 2);
        QVERIFY(start->isEnabled());
    }
    void architectureFieldsEditTheConfig() {
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 10);
        auto* start = p.findChild<QPushButton*>("start");
        auto* summary = p.findChild<QLabel*>("configSummary");
        const QString before = summary->text();
        auto* norm = p.form()->findChild<QComboBox*>("norm");
        QVERIFY(norm);
        norm->setCurrentText("rmsnorm");  // the combo lists the engine's spellings
        QCOMPARE(p.form()->config().norm, twb::NormKind::RmsNorm);
        QVERIFY(summary->text() != before);  // RMSNorm drops the norms' biases: the count follows
        QCOMPARE(summary->text().section(' ', 0, 0).remove(QRegularExpression("[^0-9]")).toLongLong(),
                 static_cast<qlonglong>(p.form()->config().parameter_count()));
        setSpin(p, "n_head", 3);  // 32 is not divisible by 3 ...
        QVERIFY(!start->isEnabled());
        setSpin(p, "head_size", 5);  // ... which head_size allows, but rotary needs an even one
        QVERIFY(start->toolTip().contains("even head size"));
        setSpin(p, "head_size", 6);
        QVERIFY(start->isEnabled());
        QCOMPARE(p.form()->config().head_dim(), 6);
    }
};

QTEST_MAIN(TestTrainingPanel)
#include "tst_training_panel.moc"
