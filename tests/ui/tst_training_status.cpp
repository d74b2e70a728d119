// What the training panel's status line says of a run beyond its steps: a dataset whose validation split
// is shorter than a block is evaluated on its training split, and the line says so at start and finish
// instead of calling training-data figures "val loss". The baselines are lines on the loss plot, their labels
// whole and apart at any text size and scale. A run folder that is not there is said so; a found
// learning rate goes to a new run, never into one that has trained.
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/experiments.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "twb/runs_table.h"
#include "twb/text.h"
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/Duration.h"
#include "ui/widgets/SteadyLabel.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <nlohmann/json.hpp>

#include <qcustomplot.h>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTimer>

class TestTrainingStatus : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;

private slots:
    void initTestCase() { twbtest::use_test_workspace(m_ws); }

    void aValidationSplitShorterThanABlockIsSaid() {
        twbtest::write(twbtest::path(m_ws, "c.txt"), twbtest::english_like(5000));
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_ws, "c.txt").string()};
        o.val_fraction = 0.004;  // 20 characters: less than a block of 32
        o.out = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "short-val";
        const auto prepared = twb::prepare_dataset(o);
        QVERIFY(prepared.val_tokens > 0 && prepared.val_tokens < 32);
        TrainingPanel p;
        p.setDataset(QString::fromStdString(o.out.string()));
        p.form()->applyPreset("tiny");
        for (auto [name, v] : {std::pair{"n_layer", 1},
                               {"n_embd", 32},
                               {"n_head", 2},
                               {"block_size", 32},
                               {"batch_size", 4},
                               {"max_iters", 10},
                               {"lr_decay_iters", 10},
                               {"warmup_iters", 2},
                               {"eval_interval", 5},
                               {"eval_iters", 2},
                               {"threads", 1}})
            twbtest::set_spin(p.form(), name, v);
        QSignalSpy done(p.worker(), &TrainWorker::finished);
        // In Bokmål the figures take its decimal comma, as the plots and fields do (they had dots).
        QLocale::setDefault(QLocale(QLocale::NorwegianBokmal, QLocale::Norway));
        p.findChild<QPushButton*>("start")->click();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        QTRY_VERIFY(!p.isBusy());
        QLocale::setDefault(QLocale::c());
        const QString status = p.findChild<SteadyLabel*>("status")->text();
        QVERIFY2(
            status.contains("no validation split") && status.contains("best loss") && !status.contains("best val loss"),
            qPrintable(status));
        const QString eval = p.findChild<SteadyLabel*>("evalReadout")->text();
        QVERIFY2(QRegularExpression("val loss \\d+,\\d{4} ").match(eval).hasMatch(), qPrintable(eval));
    }

    void aRunThatCannotContinueIsSaidBeforeItsCurvesGo() {
        // A run whose checkpoints were deleted read "No checkpoint yet", and Start replaced its metrics.csv
        // without a word; a run whose folder was moved turned into a new run showing the old curves.
        const QString run = twbtest::make_tiny_run(m_ws, "no-checkpoints", 20);
        Workspace::setRoot(m_ws.path());
        QVERIFY(QDir(run + "/checkpoints").removeRecursively());
        const std::string before = twb::read_file((run + "/metrics.csv").toStdString());
        TrainingPanel p;
        QVERIFY(p.openRun(run));
        const QString status = p.findChild<SteadyLabel*>("status")->text();
        QVERIFY2(status.startsWith("No checkpoint left to continue from"), qPrintable(status));
        QString asked;
        QTimer::singleShot(0, this, [&asked] {  // the question is modal: answer No
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(w)) {
                    asked = box->text();
                    box->button(QMessageBox::No)->click();
                }
        });
        p.start();
        QVERIFY2(QRegularExpression("replaces what metrics.csv logged \\([1-9]\\d* steps\\)").match(asked).hasMatch(),
                 qPrintable(asked));
        QVERIFY(!p.isBusy());
        QCOMPARE(twb::read_file((run + "/metrics.csv").toStdString()), before);

        const QString moved = twbtest::make_tiny_run(m_ws, "moved", 20);
        Workspace::setRoot(m_ws.path());
        QVERIFY(p.openRun(moved));
        QVERIFY(QDir().rename(moved, moved + "-elsewhere"));
        p.trainMore(10);
        QVERIFY2(p.lastError().contains("is gone (moved or deleted)"), qPrintable(p.lastError()));
        QCOMPARE(p.currentRun(), moved);  // still the run it was, not a new one
        p.start();
        QVERIFY2(p.lastError().contains("is gone (moved or deleted)"), qPrintable(p.lastError()));
        QVERIFY(!QFileInfo::exists(moved));
    }

    void aFailureNamesTheLastCheckpointNotTheStepItWasWriting() {
        // A full disk while step 60's checkpoint was written left "step 60 / 60" on the bar, step 40 the last
        // checkpoint on disk.
        const QString run = twbtest::make_tiny_run(m_ws, "failed", 20);
        Workspace::setRoot(m_ws.path());
        TrainingPanel p;
        QVERIFY(p.openRun(run));
        // The evaluation before the failed checkpoint was the best so far; its checkpoint never came.
        twb::EvalReport e;
        e.step = 40;
        e.val_loss = 1.5;
        e.is_best = true;
        emit p.worker()->evaluated(e);
        auto* eval = p.findChild<SteadyLabel*>("evalReadout");
        QVERIFY2(eval->text().contains("(best so far)"), qPrintable(eval->text()));
        emit p.worker()->failed("checkpoint: write failed (disk full?)");
        const QString status = p.findChild<SteadyLabel*>("status")->text();
        QVERIFY2(status.contains("its last checkpoint is step 20"), qPrintable(status));
        QCOMPARE(p.findChild<QProgressBar*>("progress")->value(), 20);
        QVERIFY2(p.lastError().contains("disk full"), qPrintable(p.lastError()));
        QVERIFY2(eval->text().startsWith("Last evaluation (step 40)") && !eval->text().contains("best so far") &&
                     eval->text().contains("no checkpoint of this step on disk"),
                 qPrintable(eval->text()));
    }

    void whyStartIsOffIsSaidUnderIt() {
        // Start was greyed out with the reason in its tooltip only: Steps lowered below the step the run
        // stands at, and the dataset's Browse… stayed on while training (a folder chosen there made the
        // running run a new one).
        const QString run = twbtest::make_tiny_run(m_ws, "lowered", 20);
        auto cfg = twb::read_run_config(run.toStdString());
        cfg.max_iters = 40;  // stopped at step 20 of 40
        twb::write_file_atomic(run.toStdString() + "/config.json", nlohmann::json(cfg).dump(2));
        Workspace::setRoot(m_ws.path());
        TrainingPanel p;
        QVERIFY(p.openRun(run));
        auto* start = p.findChild<QPushButton*>("start");
        auto* why = p.findChild<QLabel*>("startWhy");
        QVERIFY(start->isEnabled());
        QVERIFY(!why->isVisibleTo(&p));
        twbtest::set_spin(p.form(), "max_iters", 15);
        QVERIFY(!start->isEnabled());
        QVERIFY2(why->isVisibleTo(&p) && why->text().contains("Steps (15) is not above step 20"),
                 qPrintable(why->text()));
        QVERIFY(!p.findChild<QWidget*>("trainMore")->isVisibleTo(&p));  // not finished: no Train more to point to
        twbtest::set_spin(p.form(), "max_iters", 30);
        QVERIFY(start->isEnabled());
        QVERIFY(!why->isVisibleTo(&p));
        QSignalSpy done(p.worker(), &TrainWorker::finished), failed(p.worker(), &TrainWorker::failed);
        p.start();
        QVERIFY(p.isBusy());
        QVERIFY(!p.findChild<QComboBox*>("dataset")->isEnabled());
        for (auto* b : p.findChildren<QPushButton*>())
            if (b->text() == "Browse…")
                QVERIFY(!b->isEnabled());
        QVERIFY(!why->isVisibleTo(&p));
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !failed.isEmpty(), 60000);
        QTRY_VERIFY(!p.isBusy());
        // Finished at its own Steps: the reason points to Train more, which is there.
        QVERIFY(p.findChild<QWidget*>("trainMore")->isVisibleTo(&p));
        QVERIFY2(why->text().contains("Train more"), qPrintable(why->text()));
    }
    void thePlotsEnlargeOverThePanel() {
        // At 1280x720 with 175% text the loss plot was 60 px high beside the settings: Enlarge, or a double-click
        // on a plot, sets the settings aside (and the line on why Start is off, which points into them); Esc
        // gives them back.
        const QString run = twbtest::make_tiny_run(m_ws, "enlarged", 20);
        Workspace::setRoot(m_ws.path());
        TrainingPanel p;
        p.resize(1052, 590);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        QVERIFY(p.openRun(run));
        auto* enlarge = p.findChild<QPushButton*>("enlargePlot");
        auto* why = p.findChild<QLabel*>("startWhy");
        QCustomPlot* loss = p.findChild<MetricsPlot*>()->lossPlot();
        QVERIFY(enlarge && why && why->isVisible());  // finished: "Train more (below) continues it"
        QTRY_VERIFY(loss->width() > 0);
        const int before = loss->width();
        enlarge->click();
        QVERIFY(p.plotEnlarged() && !p.form()->isVisible() && !why->isVisible());
        QTRY_VERIFY2(loss->width() > before * 3 / 2,
                     qPrintable(QString("%1 px wide from %2").arg(loss->width()).arg(before)));
        QTest::keyClick(enlarge, Qt::Key_Escape);
        QVERIFY(!p.plotEnlarged() && p.form()->isVisible() && why->isVisible());
        QTRY_COMPARE(loss->width(), before);
        QTest::mouseDClick(loss, Qt::LeftButton, Qt::NoModifier, loss->rect().center());
        QVERIFY(p.plotEnlarged() && enlarge->isChecked());
        QTest::mouseDClick(loss, Qt::LeftButton, Qt::NoModifier, loss->rect().center());
        QVERIFY(!p.plotEnlarged());
    }
    void aRunWithoutCurvesSaysWhy() {
        // An emptied metrics.csv (a full disk) showed empty plots and "Finished at step 20." only.
        const QString run = twbtest::make_tiny_run(m_ws, "no-curves", 20);
        Workspace::setRoot(m_ws.path());
        QVERIFY(QFile(run + "/metrics.csv").resize(0));
        TrainingPanel p;
        QVERIFY(p.openRun(run));
        const QString status = p.findChild<SteadyLabel*>("status")->text();
        QVERIFY2(status.contains("Its metrics.csv is empty, so no curves are shown"), qPrintable(status));
        QVERIFY(QFile::remove(run + "/metrics.csv"));
        QVERIFY(p.openRun(run));
        QVERIFY2(p.findChild<SteadyLabel*>("status")->text().contains("Its metrics.csv is missing"),
                 qPrintable(p.findChild<SteadyLabel*>("status")->text()));
    }

    void aRunFolderThatIsNotThereIsSaidSo() {
        // "nope: no config.json; is this a run folder" for a folder that does not exist at all (a typo on the
        // command line); a file given as the run is named a file
        TrainingPanel p;
        const QString gone = m_ws.filePath("no-such-run");
        QVERIFY(!p.openRun(gone));
        QVERIFY2(p.lastError().contains(gone + ": no such folder"), qPrintable(p.lastError()));
        QFile file(m_ws.filePath("a-file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY(!p.openRun(file.fileName()));
        QVERIFY2(p.lastError().contains("a file, not a run folder"), qPrintable(p.lastError()));
        // A run given relative to the working folder is kept by its whole path (File → Recent runs held
        // "ws/runs/shakes", which a start from elsewhere could not open)
        const QString run = twbtest::make_tiny_run(m_ws, "relative", 20);
        Workspace::setRoot(m_ws.path());
        const QString here = QDir::currentPath();
        QDir::setCurrent(QFileInfo(run).absolutePath());
        const bool opened = p.openRun("./" + QFileInfo(run).fileName());
        QDir::setCurrent(here);
        QVERIFY(opened);
        QCOMPARE(p.currentRun(), QFileInfo(run).absoluteFilePath());
        QCOMPARE(Workspace::recentRuns().value(0), QFileInfo(run).absoluteFilePath());
    }

    void anImportedModelCannotBeContinuedWithTheDatasetLeftInTheBox() {
        // An imported run has no dataset: Start was on, continued it on the dataset the box still showed, and
        // failed blaming that dataset ("it was trained with vocab_size=113 ... prepared again").
        const QString run = twbtest::make_tiny_run(m_ws, "imported", 20);
        auto cfg = twb::read_run_config(run.toStdString());
        cfg.data_dir.clear();
        twb::write_file_atomic(run.toStdString() + "/config.json", nlohmann::json(cfg).dump(2));
        TrainingPanel p;
        p.setDataset(QString::fromStdString(
            twb::read_run_config(twbtest::make_tiny_run(m_ws, "other", 10).toStdString()).data_dir));
        QVERIFY(p.openRun(run));
        auto* start = p.findChild<QPushButton*>("start");
        QVERIFY(!start->isEnabled());
        QVERIFY2(start->toolTip().contains("Initialise from run"), qPrintable(start->toolTip()));
        QVERIFY(!p.findChild<QPushButton*>("trainMore")->isVisibleTo(&p));  // nor Train more, on that dataset
        p.newRun();  // a new run on the dataset: Start is on again
        QVERIFY(start->isEnabled());
    }

    void aFoundRateGoesToANewRunNotToOneThatTrained() {
        // "Use this rate" then F5 continued the open run with the rate written into its config.json, a rate its
        // steps never trained at.
        const QString run = twbtest::make_tiny_run(m_ws, "rate-kept", 20);
        const double before = twb::read_run_config(run.toStdString()).learning_rate;
        TrainingPanel p;
        QVERIFY(p.openRun(run));
        // opened, its line names its best evaluation, as it did when the run ended here ("Finished at step 20." alone)
        const auto summary = twb::collect_runs(run.toStdString()).front();
        const QString status = p.findChild<SteadyLabel*>("status")->text();
        QVERIFY2(status.startsWith(QString("Finished at step 20 · best val loss %1 at step %2 · ")
                                       .arg(QLocale().toString(summary.best_val_loss, 'f', 4))
                                       .arg(summary.best_step)),
                 qPrintable(status));
        // ...and its step time and training time, as it did then (they were missing)
        std::vector<double> ms;
        double elapsed = 0;
        for (const auto& r : twb::read_metrics(run.toStdString() + "/metrics.csv")) {
            if (r.kind == "train")
                ms.push_back(r.ms_per_step);
            elapsed = std::isnan(r.elapsed_s) ? elapsed : r.elapsed_s;
        }
        QVERIFY(ms.size() >= 2 && elapsed > 0);
        std::sort(ms.begin(), ms.end());
        const QString timing = QString(" · median %1 ms/step · %2 of training.")
                                   .arg(QLocale().toString(ms[ms.size() / 2], 'f', 1), formatDuration(elapsed));
        QVERIFY2(status.endsWith(timing), qPrintable(status + " | " + timing));
        p.setLearningRate(0.0123);
        QVERIFY(p.currentRun().isEmpty());  // a new run of these settings
        QCOMPARE(p.form()->config().learning_rate, 0.0123);
        QCOMPARE(p.form()->config().n_layer, twb::read_run_config(run.toStdString()).n_layer);
        QCOMPARE(twb::read_run_config(run.toStdString()).learning_rate, before);
    }

    void epochsAreOfferedForAnEncoderDecoderOnly() {
        // "x in: epochs" did nothing for a decoder LM (its curves stay in steps): the choice shows for the
        // encoder-decoder only.
        TrainingPanel p;
        auto* x = p.findChild<QComboBox*>("xAxis");
        QVERIFY(!x->isVisibleTo(&p));
        p.form()->applyPreset("multi30k");
        QVERIFY(x->isVisibleTo(&p));
        p.form()->applyPreset("tiny");
        QVERIFY(!x->isVisibleTo(&p));
    }
    void baselinesAreLinesOnTheLossPlot() {
        twbtest::write(twbtest::path(m_ws, "b.txt"), twbtest::english_like(20000));
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_ws, "b.txt").string()};
        o.out = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "baselines";
        twb::prepare_dataset(o);
        const QString data = QString::fromStdString(o.out.string());
        TrainingPanel p;
        p.setDataset(data);
        p.baselinesToggle()->setChecked(false);
        QCOMPARE(p.plot()->baselineCount(), 0);
        p.baselinesToggle()->setChecked(true);
        QTRY_COMPARE_WITH_TIMEOUT(p.plot()->baselineCount(), 3, 60000);  // uniform, unigram, bigram
        // drawn at the engine's values: a line and a label each
        const auto expected = twb::evaluate_baselines(data.toStdString());
        QCOMPARE(p.plot()->lossPlot()->itemCount(), 6);
        auto* label = qobject_cast<QCPItemText*>(p.plot()->lossPlot()->item(5));
        QVERIFY(label);
        QCOMPARE(label->text(), QString("bigram %1").arg(expected[2].loss, 0, 'f', 3));
        // each label whole inside the plot, above its line (uniform's was cut in half at the top)
        p.resize(1280, 720);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        for (int step = 0; step < 20; ++step) {  // a loss that starts at uniform's: the axis ends there
            twb::StepReport r;
            r.step = step;
            r.loss = expected[0].loss - 0.1 * step;
            r.lr = 1e-3;
            p.plot()->addStep(r);
        }
        auto* plot = p.plot()->lossPlot();
        // Each label whole inside the plot, above or under its line, and no two on each other (unigram's and
        // bigram's overlapped in a short plot).
        auto inside = [plot] {
            std::vector<QRectF> placed;
            for (int i = 1; i < plot->itemCount(); i += 2) {
                auto* t = qobject_cast<QCPItemText*>(plot->item(i));
                const QPointF at = t->position->pixelPosition();
                const QFontMetrics fm(t->font());
                const double h = fm.height(), w = fm.horizontalAdvance(t->text());
                const QRectF r(at.x() - w, t->positionAlignment() & Qt::AlignBottom ? at.y() - h : at.y(), w, h);
                if (r.top() < plot->axisRect()->top() || r.bottom() > plot->axisRect()->bottom() ||
                    r.left() < plot->axisRect()->left())
                    return false;
                for (const QRectF& other : placed)
                    if (other.intersects(r))
                        return false;
                placed.push_back(r);
            }
            return true;
        };
        QTRY_VERIFY(inside());
        // At 150% text the loss plot is short: on a log scale, making room for the labels raised its axis to
        // 10000; now the range ends near the uniform line.
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        p.plot()->setLogScale(true);
        const auto diagnosis = [&] {  // what the plot shows, should it fail
            QString why = QString("axis %1..%2, uniform %3, rect %4x%5:")
                              .arg(plot->yAxis->range().lower)
                              .arg(plot->yAxis->range().upper)
                              .arg(expected[0].loss)
                              .arg(plot->axisRect()->width())
                              .arg(plot->axisRect()->height());
            for (int i = 1; i < plot->itemCount(); i += 2) {
                auto* t = qobject_cast<QCPItemText*>(plot->item(i));
                why += QString(" [%1 at %2,%3 %4]")
                           .arg(t->text())
                           .arg(t->position->pixelPosition().x())
                           .arg(t->position->pixelPosition().y())
                           .arg(t->positionAlignment() & Qt::AlignBottom ? "above" : "under");
            }
            return why.toUtf8();
        };
        // (A log axis may end at its next decade: 10 above a uniform 4.2 is right, 10000 was not.)
        QTRY_VERIFY2(plot->yAxis->range().upper < expected[0].loss * 3 && inside(), diagnosis().constData());
        p.plot()->setLogScale(false);
        p.baselinesToggle()->setChecked(false);
        QCOMPARE(p.plot()->baselineCount(), 0);
        QCOMPARE(p.plot()->lossPlot()->itemCount(), 0);
    }
};

QTEST_MAIN(TestTrainingStatus)
#include "tst_training_status.moc"
