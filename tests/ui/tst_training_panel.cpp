// The training panel driven offscreen: a tiny run starts, step and evaluation signals arrive, pause and
// resume (F6, or F5 while paused), stop writes a checkpoint (while paused, of the step the panel says it waits at), the
// run reopens with its curves, and an invalid config blocks Start with the reason beside the field. A dataset that does
// not fit the open run starts a new run; actions are enabled only when they can act; Browse refuses a folder that is
// not a prepared dataset; the wheel edits only a focused field. Initialise from a run whose tokenizer differs from the
// dataset's is refused with a message naming both. Start is off for a finished run and the preset's name returns with
// its values. A minus typed where a field takes none says why it went nowhere. (The plots' and the status line's
// layout: tst_metrics_plot.)
#include "signal_wait.h"
#include "test_util.h"
#include "twb/config_options.h"
#include "twb/dataset.h"
#include "twb/run_folder.h"
#include "twb/schedule.h"
#include "twb/text.h"
#include "twb/training.h"
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/NegativeHint.h"
#include "ui_fixture.h"

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QToolTip>
#include <QWheelEvent>
#include <nlohmann/json.hpp>

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
        twbtest::use_test_workspace(m_ws);
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
        QSettings().remove("experiments/flopsPerSecond");
        QCOMPARE(Workspace::trainingSpeed(), 0.0);
        start->click();
        QVERIFY(p.isBusy());
        QVERIFY(twbtest::wait_for(steps, 1, 60000));
        // Two lines while it trains, as before and after: the form under them stays where it was.
        const QString training = p.findChild<QLabel*>("runLabel")->text();
        QVERIFY2(training.contains("<br>") && training.contains("checkpoint"), qPrintable(training));
        QVERIFY(!p.startAction()->isEnabled());
        p.togglePause();
        QCOMPARE(p.findChild<QPushButton*>("pause")->text(), QString("Resume"));
        // F5 (the Run menu's "Start / continue") continues a paused run as F6 does: it did nothing
        QVERIFY(p.startAction()->isEnabled());
        p.startAction()->trigger();
        QCOMPARE(p.findChild<QPushButton*>("pause")->text(), QString("Pause"));
        QVERIFY(!p.startAction()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(steps.count(), 60);
        QCOMPARE(evals.count(), 7);  // steps 0, 10, ..., 60
        // The spy sees `finished` on the worker thread; the panel handles it once its queued event runs.
        QTRY_VERIFY(!p.isBusy());
        QVERIFY(p.plot()->trainPoints() == 60);
        // The speed it trained at is the Experiments panel's next time estimate (6 x parameters x tokens/s).
        QVERIFY(Workspace::trainingSpeed() > 0);
        const QString run = p.currentRun();
        const auto checkpoints = twb::list_checkpoints(run.toStdString());
        QVERIFY(!checkpoints.empty());
        // The label above the form counts them, as it does for a run opened (it named the folder alone).
        const QString label = p.findChild<QLabel*>("runLabel")->text();
        QVERIFY2(label.contains(QString("%1 checkpoint").arg(checkpoints.size())) &&
                     label.contains(QString("last at step %1").arg(checkpoints.back())),
                 qPrintable(label));

        TrainingPanel q;
        QVERIFY(q.openRun(run));
        // Opened again, its line says what the end of training said: the best loss (2.1710 then, 2.1709 now), the
        // step time (23.9 ms/step then, 24.0 now) and the training time
        const QString ended = p.findChild<QLabel*>("status")->text(), opened = q.findChild<QLabel*>("status")->text();
        QVERIFY2(ended.contains(" · best val loss ") && ended.contains(" · median ") && ended + "." == opened,
                 qPrintable(ended + " | " + opened));
        QCOMPARE(q.plot()->trainPoints(), 60);
        QCOMPARE(q.plot()->evalPoints(), 7);
        QCOMPARE(q.form()->config().max_iters, 60);
        // The last evaluation's line, as the live run showed it (an opened run had none).
        QCOMPARE(q.findChild<QLabel*>("evalReadout")->text().section(':', 0, 0), QString("Last evaluation (step 60)"));
        // comparing runs overlays each chosen run's validation loss as one more graph
        const int graphs = q.plot()->lossPlot()->graphCount();
        const QString other = run + "-copy";
        QVERIFY(QProcess::execute("cp", {"-r", run, other}) == 0);
        q.compareWith({other, run});  // the open run itself is not "another" run: drawn once
        QCOMPARE(q.plot()->lossPlot()->graphCount(), graphs + 1);
        QCOMPARE(q.plot()->lossPlot()->graph(graphs)->data()->size(), 7);
        QVERIFY2(q.findChild<QLabel*>("compareNote")->text().startsWith("Comparing 1 other run"),
                 qPrintable(q.findChild<QLabel*>("compareNote")->text()));
        // The open run's own validation curve says whose it is beside the others.
        auto validation = [&] {
            for (int i = 0; i < graphs; ++i)
                if (q.plot()->lossPlot()->graph(i)->name().startsWith("validation"))
                    return q.plot()->lossPlot()->graph(i)->name();
            return QString();
        };
        QCOMPARE(validation(), QString("validation (%1)").arg(Workspace::runName(run)));
        q.compareWith({});
        QCOMPARE(q.plot()->lossPlot()->graphCount(), graphs);
        QCOMPARE(validation(), QString("validation"));
        // The note's link ends a comparison, and a compared run deleted leaves the plot (its dashed curve
        // stayed, and nothing but another comparison took it away).
        auto* note = q.findChild<QLabel*>("compareNote");
        q.compareWith({other});
        QCOMPARE(q.plot()->lossPlot()->graphCount(), graphs + 1);
        emit note->linkActivated("end");
        QCOMPARE(q.plot()->lossPlot()->graphCount(), graphs);
        QVERIFY(note->isHidden());
        q.compareWith({other});
        QCOMPARE(q.plot()->lossPlot()->graphCount(), graphs + 1);
        QDir(other).removeRecursively();
        q.forgetRun(other);
        QCOMPARE(q.plot()->lossPlot()->graphCount(), graphs);
        QVERIFY(note->isHidden());
    }
    void stopWritesCheckpointAndResumeContinues() {
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 400);
        QSignalSpy steps(p.worker(), &TrainWorker::stepReported), done(p.worker(), &TrainWorker::finished);
        p.start();
        QVERIFY(twbtest::wait_for(steps, 1, 60000));
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
    /// Pause names the step the engine waits at, and Stop checkpoints that same step (it said "paused at
    /// 300" from the last step report and checkpointed 301, the step under way at Pause). No step report
    /// comes before the pause here (log_interval 1000), so the only way to know the step is to be told.
    void stopWhilePausedCheckpointsTheStepShown() {
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 3000);
        setSpin(p, "log_interval", 1000);
        QSignalSpy saved(p.worker(), &TrainWorker::checkpointWritten), done(p.worker(), &TrainWorker::finished);
        p.start();
        QTRY_VERIFY_WITH_TIMEOUT(!saved.isEmpty(), 60000);   // step 10's checkpoint: step 10 is under way
        QSignalSpy pause(&p, &TrainingPanel::pauseChanged);  // the Runs table's "paused" follows it
        p.togglePause();
        auto* status = p.findChild<QLabel*>("status");
        const QRegularExpression re("Paused at step (\\d+) of 3000");
        QTRY_VERIFY_WITH_TIMEOUT(re.match(status->text()).hasMatch(), 60000);
        const qint64 shown = re.match(status->text()).captured(1).toLongLong();
        QVERIFY2(shown > 10, qPrintable(status->text()));
        QCOMPARE(pause.count(), 1);
        QCOMPARE(pause.at(0).at(0).toString(), p.currentRun());
        QCOMPARE(pause.at(0).at(1).toBool(), true);
        p.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 60000);
        QTRY_VERIFY(pause.count() == 2 && !pause.at(1).at(1).toBool());  // ended: no longer paused
        const auto summary = done.takeFirst().at(0).value<twb::TrainSummary>();
        QVERIFY(summary.stopped);
        QCOMPARE(summary.final_step, shown);
        QCOMPARE(twb::list_checkpoints(p.currentRun().toStdString()).back(), shown);
        QTRY_VERIFY(!p.isBusy());
        // "of N", as the line says of the run opened again
        QVERIFY2(
            status->text().startsWith(QString("Stopped at step %1 of %2").arg(shown).arg(p.form()->config().max_iters)),
            qPrintable(status->text()));
    }
    void invalidConfigBlocksStart() {
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 10);
        setSpin(p, "n_head", 3);  // 32 is not divisible by 3
        auto* start = p.findChild<QPushButton*>("start");
        QVERIFY(!start->isEnabled());
        QVERIFY(start->toolTip().contains("divisible"));
        // the form's top line links to the fields the problem names (explained under one of them)
        const QString top = p.findChild<QLabel*>("configProblems")->text();
        QVERIFY2(top.contains("<a href=\"n_head\">Heads</a>") && top.contains("<a href=\"n_embd\">Width</a>"),
                 qPrintable(top));
        QVERIFY(!top.contains("divisible"));
        QVERIFY(!top.contains("head_size"));  // "(or set Head size ...)" is a way out, not a field at fault
        setSpin(p, "n_head", 2);
        QVERIFY(start->isEnabled());
    }
    void newRunStatusFollowsTheForm() {
        // The status of a new run says what it still needs, as the form changes (it said "choose a
        // dataset" with one chosen, and "Ready" while Start was off).
        TrainingPanel p;
        p.setDataset(m_data);
        auto* status = p.findChild<QLabel*>("status");
        QVERIFY(status);
        const QString name = QFileInfo(m_data).fileName();
        QVERIFY2(status->text().contains("Ready") && status->text().contains(name), qPrintable(status->text()));
        setSpin(p, "n_head", 3);  // the width is no multiple of 3
        QVERIFY2(status->text().startsWith("Not ready") && !p.startAction()->isEnabled(), qPrintable(status->text()));
        setSpin(p, "n_head", 4);
        QVERIFY2(status->text().contains("Ready"), qPrintable(status->text()));
    }
    void decayStepsFollowStepsWhileEqual() {
        // "Train longer" (Steps 500 → 3,000) left Decay steps at 500: the rest of the run at min_lr.
        TrainingPanel p;
        p.setDataset(m_data);
        p.form()->applyPreset("tiny");
        QCOMPARE(p.form()->config().max_iters, p.form()->config().lr_decay_iters);
        setSpin(p, "max_iters", 3000);
        QCOMPARE(p.form()->config().lr_decay_iters, 3000);
        setSpin(p, "lr_decay_iters", 2000);  // set apart by hand: it stays where it was put
        setSpin(p, "max_iters", 4000);
        QCOMPARE(p.form()->config().lr_decay_iters, 2000);
        p.form()->applyPreset("nanogpt-cpu");  // a preset's own pair, then tied again
        const int steps = p.form()->config().max_iters;
        QCOMPARE(p.form()->config().lr_decay_iters, steps);
        setSpin(p, "max_iters", steps + 100);
        QCOMPARE(p.form()->config().lr_decay_iters, steps + 100);
        // A run that has trained keeps its schedule when a larger Steps continues it.
        smallConfig(p, 4);
        p.start();
        QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000);
        const int decay = p.form()->config().lr_decay_iters;
        setSpin(p, "max_iters", p.form()->config().max_iters + 10);
        QCOMPARE(p.form()->config().lr_decay_iters, decay);
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
    void validationSpeaksTheFormsWordsBesideTheField() {
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 10);
        auto* start = p.findChild<QPushButton*>("start");
        auto note = [&](const char* key) { return p.form()->findChild<QLabel*>(QString(key) + "_problem"); };
        auto* heads = p.form()->findChild<QSpinBox*>("n_head");
        setSpin(p, "n_head", 5);  // width 32 does not divide by 5
        QVERIFY(!start->isEnabled());
        QVERIFY(!note("n_head")->isHidden());
        QCOMPARE(note("n_head")->text(),
                 QString("Width 32 must be divisible by Heads 5 (or set Head size to choose the head width)"));
        QVERIFY(heads->property("invalid").toBool());
        // said once, under the field changed; the other field it names is marked only
        auto* width = p.form()->findChild<QSpinBox*>("n_embd");
        QVERIFY(note("n_embd")->isHidden());
        QVERIFY(width->property("invalid").toBool());
        setSpin(p, "n_embd", 48);  // still not divisible: now explained under Width
        QVERIFY(note("n_head")->isHidden());
        QCOMPARE(note("n_embd")->text(),
                 QString("Width 48 must be divisible by Heads 5 (or set Head size to choose the head width)"));
        setSpin(p, "n_embd", 32);
        QCOMPARE(start->toolTip(),
                 QString("Width 32 must be divisible by Heads 5 (or set Head size to choose the head width)"));
        QVERIFY(note("n_layer")->isHidden());
        setSpin(p, "n_head", 2);
        QVERIFY(note("n_head")->isHidden());
        QVERIFY(!heads->property("invalid").toBool());
        QVERIFY(start->isEnabled());
        // zero steps is refused, not run as a long evaluation
        setSpin(p, "max_iters", 0);
        QVERIFY(!start->isEnabled());
        QCOMPARE(note("max_iters")->text(), QString("Steps must be at least 1"));
        setSpin(p, "max_iters", 10);
        // a typed context past the limit stays as typed and is explained, not cut to another number
        setSpin(p, "block_size", 100000);
        QCOMPARE(p.form()->findChild<QSpinBox*>("block_size")->value(), 100000);
        QVERIFY(note("block_size")->text().startsWith("Context can be at most 65"));
        QVERIFY(!start->isEnabled());
        setSpin(p, "block_size", 16);
        setSpin(p, "warmup_iters", 99999);  // beyond the decay steps (10)
        QCOMPARE(note("warmup_iters")->text(), QString("Decay steps (10) must be larger than Warmup (99999)"));
        QVERIFY(note("lr_decay_iters")->isHidden());
        QVERIFY(p.form()->findChild<QSpinBox*>("lr_decay_iters")->property("invalid").toBool());
        QVERIFY(!start->isEnabled());
    }
    void aDatasetThatDoesNotFitTheRunStartsANewRun() {
        // a run trained on the workspace dataset
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 5);
        QSignalSpy done(p.worker(), &TrainWorker::finished), failed(p.worker(), &TrainWorker::failed);
        p.start();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !failed.isEmpty(), 60000);
        QCOMPARE(failed.count(), 0);
        QTRY_VERIFY(!p.isBusy());
        const QString first = p.currentRun();
        QVERIFY(!first.isEmpty());
        // another dataset, with another vocabulary (digits only)
        std::string digits;
        for (int i = 0; i < 20000; ++i)
            digits += static_cast<char>('0' + (i * 7 + i / 13) % 10);
        twbtest::write(twbtest::path(m_ws, "digits.txt"), digits);
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_ws, "digits.txt").string()};
        o.out = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "digits";
        twb::prepare_dataset(o);
        const QString other = QString::fromStdString(o.out.string());
        QSignalSpy runChanged(&p, &TrainingPanel::runChanged);
        p.setDataset(other);
        QVERIFY(p.currentRun().isEmpty());  // "Train on it" turned to a new run
        QCOMPARE(runChanged.count(), 1);
        QVERIFY(p.findChild<QLabel*>("runLabel")->text().contains("New run"));
        QSignalSpy started(p.worker(), &TrainWorker::started);
        p.start();
        QTRY_VERIFY_WITH_TIMEOUT(!started.isEmpty() || !failed.isEmpty(), 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
        QCOMPARE(started.first().at(0).value<twb::TrainStartInfo>().start_step, 0);
        QVERIFY(p.currentRun() != first);
        QTRY_VERIFY_WITH_TIMEOUT(done.count() == 2, 60000);
        QTRY_VERIFY(!p.isBusy());
        // reopening the first run selects its own dataset and keeps the run
        QVERIFY(p.openRun(first));
        QCOMPARE(p.currentRun(), first);
        QVERIFY(twb::list_checkpoints(first.toStdString()).size() >= 1);
        QDir(other).removeRecursively();
    }
    void initialiseFromARunWithAnotherTokenizerIsRefused() {
        // A run on the workspace dataset (a char tokenizer of its text).
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 5);
        QSignalSpy done(p.worker(), &TrainWorker::finished), failed(p.worker(), &TrainWorker::failed);
        p.start();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !failed.isEmpty(), 60000);
        QCOMPARE(failed.count(), 0);
        QTRY_VERIFY(!p.isBusy());
        const QString source = p.currentRun();
        // The same text in capitals: as many characters, so the same vocabulary size and weight shapes, but
        // each id stands for another character. Only the fingerprint tells.
        std::string shifted = twbtest::english_like(20000);
        for (char& c : shifted)
            if (c >= 'a' && c <= 'z')
                c = static_cast<char>(c - 'a' + 'A');
        twbtest::write(twbtest::path(m_ws, "shifted.txt"), shifted);
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_ws, "shifted.txt").string()};
        o.out = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "shifted";
        twb::prepare_dataset(o);
        const QString other = QString::fromStdString(o.out.string());
        QCOMPARE(twb::open_prepared(o.out).vocab_size, twb::open_prepared(m_data.toStdString()).vocab_size);

        TrainingPanel q;
        q.setDataset(other);
        smallConfig(q, 5);
        q.initialiseFromRun(source);
        QSignalSpy started(q.worker(), &TrainWorker::started), refused(q.worker(), &TrainWorker::failed);
        q.start();
        QTRY_VERIFY_WITH_TIMEOUT(!started.isEmpty() || !refused.isEmpty(), 60000);
        QCOMPARE(started.count(), 0);
        QTRY_VERIFY(!q.isBusy());
        // The panel says why, naming both sides and how to prepare the data with the run's tokenizer.
        const QString e = q.lastError();
        QVERIFY2(e.contains("cannot initialise from") && e.contains(source) && e.contains(other) &&
                     e.contains("--tokenizer-from " + source),
                 qPrintable(e));
        QVERIFY(q.findChild<QPushButton*>("start")->isEnabled());  // nothing half-started is left behind
        QDir(other).removeRecursively();
    }
    void trainMoreExtendsAFinishedRun() {
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 5);
        QSignalSpy started(p.worker(), &TrainWorker::started), done(p.worker(), &TrainWorker::finished),
            failed(p.worker(), &TrainWorker::failed);
        auto* more = p.findChild<QWidget*>("trainMore");
        QVERIFY(!more->isVisibleTo(&p));  // nothing finished yet
        p.resize(1280, 680);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        auto* startButton = p.findChild<QPushButton*>("start");
        const int y = startButton->mapTo(&p, QPoint()).y();
        p.start();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !failed.isEmpty(), 60000);
        QTRY_VERIFY(!p.isBusy());
        QVERIFY(more->isVisibleTo(&p));
        QApplication::processEvents();
        QCOMPARE(startButton->mapTo(&p, QPoint()).y(), y);  // the row it brings had its room (Start moved up)
        const QString run = p.currentRun();
        p.trainMore(3);
        QTRY_VERIFY_WITH_TIMEOUT(done.count() == 2 || !failed.isEmpty(), 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
        QCOMPARE(started.at(1).at(0).value<twb::TrainStartInfo>().start_step, 5);
        QCOMPARE(done.at(1).at(0).value<twb::TrainSummary>().final_step, 8);
        QCOMPARE(p.currentRun(), run);  // the same run, extended
        QCOMPARE(twb::read_run_config(run.toStdString()).max_iters, 8);
        QTRY_VERIFY(!p.isBusy());  // New run does nothing while busy (CI's second pass caught it still busy)
        p.newRun();                // its settings in a new run decay over all 8 steps (they stayed flat after step 5)
        QCOMPARE(p.form()->config().lr_decay_iters, 8);
    }
    void actionsFollowThePanelsState() {
        QTemporaryDir empty;  // a workspace without any dataset
        const QString keep = Workspace::root();
        Workspace::setRoot(empty.path());
        {
            TrainingPanel p;
            for (QAction* a : {p.startAction(), p.pauseAction(), p.stopAction(), p.checkpointAction()})
                QVERIFY2(!a->isEnabled(), qPrintable(a->text()));
            QVERIFY(p.quickStartAction()->isEnabled());
            // F5 anyway (a disabled action does not trigger; the slot is called directly): a clear
            // message, no run named, no folder made
            p.start();
            QVERIFY2(p.lastError().startsWith("Choose a prepared dataset first"), qPrintable(p.lastError()));
            QVERIFY(p.currentRun().isEmpty());
            QCOMPARE(QDir(Workspace::runsDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 0);
        }
        Workspace::setRoot(keep);
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 10);
        QVERIFY(p.startAction()->isEnabled());
        QVERIFY(!p.pauseAction()->isEnabled() && !p.stopAction()->isEnabled() && !p.checkpointAction()->isEnabled());
        setSpin(p, "n_head", 3);
        QVERIFY(!p.startAction()->isEnabled());
    }
    void browseRefusesAFolderThatIsNotADataset() {
        TrainingPanel p;
        p.setDataset(m_data);
        QTemporaryDir notData;
        QSignalSpy wantDatasets(&p, &TrainingPanel::datasetsPanelRequested);
        QVERIFY(!p.chooseDatasetFolder(notData.path()));
        // The user stays here and reads the whole reason beside the field.
        QCOMPARE(wantDatasets.count(), 0);
        auto* why = p.findChild<QLabel*>("datasetError");
        QVERIFY(why && why->isVisibleTo(&p));
        QVERIFY2(why->text().contains("no meta.json") && why->text().contains(notData.path()), qPrintable(why->text()));
        QVERIFY(why->text().contains("Datasets panel"));
        QCOMPARE(p.form()->config().vocab_size > 0, true);  // the chosen dataset stays
        QVERIFY(p.chooseDatasetFolder(m_data));
        QVERIFY(!why->isVisibleTo(&p));
        QVERIFY(p.lastError().isEmpty());
        // The refusal goes as soon as the box's own dataset is set again (Quick start and an opened run set
        // it to the one it already showed, so the box does not change), or training starts: it stayed
        // above the form through a whole run.
        QVERIFY(!p.chooseDatasetFolder(notData.path()));
        QVERIFY(why->isVisibleTo(&p));
        p.setDataset(m_data);
        QVERIFY(!why->isVisibleTo(&p));
    }
    void startIsOffForAFinishedRun() {
        // A run trained to its last step: Start cannot add anything and says why; Train more (or a
        // larger max_iters) can. No "median 0.0 ms/step" of a run that trained no step.
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 4);
        QSignalSpy started(p.worker(), &TrainWorker::started), done(p.worker(), &TrainWorker::finished);
        p.start();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 60000);
        QTRY_VERIFY(!p.isBusy());
        auto* start = p.findChild<QPushButton*>("start");
        QVERIFY(!start->isEnabled() && !p.startAction()->isEnabled());
        QVERIFY2(start->toolTip().contains("finished") && start->toolTip().contains("Train more"),
                 qPrintable(start->toolTip()));
        p.start();  // F5 anyway: nothing is started, the reason is shown
        QVERIFY(!p.isBusy());
        QCOMPARE(started.count(), 1);
        QVERIFY2(p.lastError().contains("finished"), qPrintable(p.lastError()));
        const QString run = p.currentRun();
        TrainingPanel q;
        QVERIFY(q.openRun(run));
        QVERIFY(!q.findChild<QPushButton*>("start")->isEnabled());
        setSpin(q, "max_iters", 6);  // asking for more steps: Start continues the run
        QVERIFY(q.findChild<QPushButton*>("start")->isEnabled());
        for (auto* l : p.findChildren<QLabel*>())
            QVERIFY2(!l->text().contains("0.0 ms/step"), qPrintable(l->text()));
    }
    void presetNameReturnsWithItsValues() {
        TrainingPanel p;
        p.form()->applyPreset("tiny");
        auto* preset = p.form()->findChild<QComboBox*>("preset");
        QCOMPARE(preset->currentData().toString(), QString("tiny"));
        const int layers = p.form()->config().n_layer;
        setSpin(p, "n_layer", layers + 1);
        QVERIFY(preset->currentData().toString().isEmpty());  // Custom
        setSpin(p, "n_layer", layers);                        // back to exactly the preset's values
        QCOMPARE(preset->currentData().toString(), QString("tiny"));
        // Threads is the machine's, not the preset's: still Tiny, and kept when a preset is chosen
        setSpin(p, "threads", 1);
        QCOMPARE(preset->currentData().toString(), QString("tiny"));
        p.form()->applyPreset("default");
        QCOMPARE(p.form()->config().threads, 1);
    }
    void formRowsComeFromTheOptionTable() {
        // Every key with a form label is a field named by its key, its tooltip the table's help and range,
        // shown for the model families the table names; qk_norm, added as one table row, is one of them.
        ConfigForm f;
        int rows = 0;
        for (const auto& o : twb::config_options()) {
            auto* w = f.findChild<QWidget*>(QString::fromStdString(o.key));
            if (o.label.empty()) {
                QVERIFY2(!w, o.key.c_str());
                continue;
            }
            ++rows;
            QVERIFY2(w, o.key.c_str());
            QVERIFY2(w->toolTip().startsWith(QString::fromStdString(o.help)), o.key.c_str());
            QCOMPARE(f.isFieldShown(QString::fromStdString(o.key)), o.applies_to(twb::ModelKind::Decoder));
        }
        QVERIFY(rows >= 40);
        auto* qk = f.findChild<QCheckBox*>("qk_norm");
        QVERIFY(qk && !qk->isChecked());
        qk->setChecked(true);
        QVERIFY(f.config().qk_norm);
        // the limits are the engine's: 2000 heads is past n_head's range of 1 to 1024
        f.findChild<QSpinBox*>("n_head")->setValue(2000);
        QVERIFY(f.problemSummary().startsWith("Heads can be at most 1"));
        QCOMPARE(f.findChild<QSpinBox*>("ffn_hidden")->specialValueText(), QString("4 * Width"));
    }
    void wheelEditsOnlyTheFocusedField() {
        QScrollArea area;
        auto* form = new ConfigForm;
        area.setWidget(form);
        area.setWidgetResizable(true);
        area.resize(400, 300);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        auto* steps = form->findChild<QSpinBox*>("max_iters");
        auto wheel = [&] {
            QWheelEvent e(QPointF(5, 5), steps->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(steps, &e);
        };
        const int before = steps->value();
        QVERIFY(!steps->hasFocus());
        wheel();
        QCOMPARE(steps->value(), before);                 // scrolling past the field leaves it alone
        QCOMPARE(steps->focusPolicy(), Qt::StrongFocus);  // and the wheel does not focus it
        area.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&area));
        steps->setFocus();
        QTRY_VERIFY(steps->hasFocus());
        wheel();
        QCOMPARE(steps->value(), before + 1);  // one notch, one single step
    }
    void aTypedMinusSaysWhyItWentNowhere() {
        // "-5" typed into Steps became "5" without a word (the field takes nothing below 1).
        NegativeHint hint;
        qApp->installEventFilter(&hint);
        ConfigForm form;
        form.show();
        QVERIFY(QTest::qWaitForWindowExposed(&form));
        form.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&form));
        auto* steps = form.findChild<QSpinBox*>("max_iters");
        auto* lr = form.findChild<QDoubleSpinBox*>("learning_rate");
        QVERIFY(steps && lr);
        QToolTip::hideText();
        steps->setFocus();
        QTRY_VERIFY(steps->hasFocus());
        steps->selectAll();
        QTest::keyClicks(steps, "-5");
        QCOMPARE(steps->text(), QString("5"));  // Qt's own handling stays: the minus is dropped
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), tr("This field takes no negative numbers: %1 to %2.")
                                       .arg(steps->minimum())
                                       .arg(QLocale().toString(steps->maximum())));
        // An exponent's minus is part of the number, and says nothing.
        QToolTip::hideText();
        QTRY_VERIFY(!QToolTip::isVisible());
        lr->setFocus();
        QTRY_VERIFY(lr->hasFocus());
        lr->selectAll();
        QTest::keyClicks(lr, "1e-4");
        QVERIFY(!QToolTip::isVisible());
        QCOMPARE(lr->value(), 1e-4);
        // Nor does a field that takes negative numbers.
        QSpinBox offset;
        offset.setRange(-10, 10);
        QVERIFY(NegativeHint::textFor(&offset).isEmpty());
        QVERIFY(!NegativeHint::textFor(steps).isEmpty());
        qApp->removeEventFilter(&hint);
    }
    void aScheduleThatEndsEarlyOrLateIsSaid() {
        // Steps 800 and Decay steps 300 (a run's Train more, carried into a new run): 500 steps at the
        // minimum rate, which nothing showed.
        TrainingPanel p;
        p.setDataset(m_data);
        smallConfig(p, 800);
        auto* summary = p.form()->findChild<QLabel*>("configSummary");
        QVERIFY(!summary->text().contains("reaches its minimum"));  // decay over the whole run
        setSpin(p, "lr_decay_iters", 300);
        QVERIFY2(summary->text().contains("reaches its minimum at step 300 of 800 (Decay steps): the last 500 steps"),
                 qPrintable(summary->text()));
        // ...and one that ends well after it (Decay steps 1,000 for 800 steps): the run never reaches the minimum
        setSpin(p, "lr_decay_iters", 1000);
        twb::RunConfig c = p.form()->config();
        const QString still = QLocale().toString(twb::learning_rate_at(c, 799), 'g', 3);
        QVERIFY(twb::learning_rate_at(c, 799) > 1.5 * c.min_lr);
        QVERIFY2(summary->text().contains("Training ends at step 800 of the cosine's " + QLocale().toString(1000) +
                                          " (Decay steps): the learning rate is still " + still + " there"),
                 qPrintable(summary->text()));
    }
    void aStopBeforeAnyBestNamesNoBest() {
        // Stopped before an evaluation at a checkpoint: the end line named "best val loss nan at step -1".
        TrainingPanel p;
        twb::TrainSummary s;
        s.final_step = 174;
        s.stopped = true;
        s.elapsed_s = 12;
        s.median_ms_per_step = 58.6;
        emit p.worker()->finished(s);
        const QString text = p.findChild<QLabel*>("status")->text();
        QVERIFY2(text.startsWith("Stopped at step 174 · median 58.6 ms/step"), qPrintable(text));
        s.best_step = 100;
        s.best_val_loss = 2.5;
        emit p.worker()->finished(s);
        QVERIFY(p.findChild<QLabel*>("status")->text().contains("best val loss 2.5000 at step 100"));
    }
    void quickStartAgainOffersTheEarlierRun() {
        // Pressed again, the Quick start would train the same model again: it offers the earlier run first.
        QTemporaryDir ws;
        const QString keep = Workspace::root();
        const QString run = twbtest::make_tiny_run(ws, "quick", 20);  // points the workspace at ws
        QSettings().setValue("training/quickStartRun", run);
        const auto runs = [] { return QDir(Workspace::runsDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot); };
        {
            TrainingPanel p;
            auto* offer = p.findChild<QLabel*>("resumeOffer");
            p.quickStart();
            QVERIFY(!p.isBusy());  // nothing prepared or trained
            QVERIFY(!offer->isHidden());
            QVERIFY2(offer->text().contains("already trained <b>quick</b> (20 steps)"), qPrintable(offer->text()));
            QCOMPARE(runs(), QStringList{"quick"});
            emit offer->linkActivated("open");
            QVERIFY(offer->isHidden());
            QCOMPARE(p.currentRun(), run);
            QVERIFY(!p.isBusy());  // opened, not trained further
        }
        {
            // Stopped before its end: offered for resuming.
            auto cfg = twb::read_run_config(run.toStdString());
            cfg.max_iters = 30;
            twb::write_file_atomic(run.toStdString() + "/config.json", nlohmann::json(cfg).dump(2));
            TrainingPanel p;
            p.quickStart();
            const QString text = p.findChild<QLabel*>("resumeOffer")->text();
            QVERIFY2(text.contains("stopped at step 20 of 30") && text.contains("href=\"resume\""), qPrintable(text));
        }
        Workspace::setRoot(keep);
    }
};

QTEST_MAIN(TestTrainingPanel)
#include "tst_training_panel.moc"
