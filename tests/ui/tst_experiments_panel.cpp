// The experiment features of the GUI driven offscreen: the Experiments panel turns axes into cells (a
// grid is the product of the axes' lengths, a random draw its N), a 2x2 sweep of a tiny model run from
// the panel fills the results table with 4 rows and the plot with 4 curves, a resumed finished sweep
// keeps every cell, a pending cell removed from the queue is left out, and compare tokenizers prepares
// a char and a BPE dataset of one text and sweeps them; the Training panel's range
// finder puts its suggestion into the form (listed in the jobs service while it searches) (its baselines:
// tst_training_status); the Sampling console's "Evaluate" tab gives one row per decoding setting. The first
// estimate is the form's current one and says it is a guess until measured (the sweep's plots alone:
// tst_sweep_plots). A running sweep is listed in the jobs service the panel is given, with progress, and
// its Cancel stops it.
#include "signal_wait.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/experiments.h"
#include "twb/run_folder.h"
#include "ui/Workspace.h"
#include "ui/experiments/AxesEditor.h"
#include "ui/experiments/ExperimentsPanel.h"
#include "ui/experiments/ResultsTable.h"
#include "ui/experiments/SweepPlots.h"
#include "ui/jobs/JobsService.h"
#include "ui/sampling/GenerationEvalView.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/LrFindDialog.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/Duration.h"
#include "ui/widgets/ElidingComboBox.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <qcustomplot.h>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFontMetrics>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTimer>

class TestExperimentsPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_data;

    /// A model that trains in well under a second a cell: one layer, width 16, 10 steps.
    twb::RunConfig tinyConfig() const {
        twb::RunConfig c = twb::preset_config("tiny");
        c.data_dir = m_data.toStdString();
        c.n_layer = 1;
        c.n_embd = 16;
        c.n_head = 2;
        c.block_size = 16;
        c.batch_size = 4;
        c.max_iters = 10;
        c.lr_decay_iters = 10;
        c.warmup_iters = 2;
        c.eval_interval = 5;
        c.eval_iters = 2;
        c.log_interval = 1;
        c.threads = 1;
        return c;
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

    void axesGiveTheNumberOfCells() {
        ExperimentsPanel p;
        p.setBaseConfig(tinyConfig());
        p.axes()->clear();
        p.axes()->addAxis("n_head", "1,2");
        p.axes()->addAxis("n_embd", "16,32");
        QCOMPARE(p.cellCount(), 4);  // 2 x 2
        // Each key shows the Training form's name for it; the axis is still written in the key.
        auto* first = qobject_cast<QComboBox*>(p.axes()->findChild<QTableWidget*>()->cellWidget(0, 0));
        QVERIFY(first);
        QCOMPARE(first->currentText(), QString("n_head — Heads"));
        QCOMPARE(p.axes()->texts().value(0), QString("n_head=1,2"));
        p.axes()->addAxis("learning_rate", "1e-3..1e-1 log 3");
        {
            // the field column fits "learning_rate — Learning rate" (it read "learning_rate — Lea") where the
            // values keep room for a range and half the table
            p.resize(1280, 720);
            p.show();
            auto* table = p.axes()->findChild<QTableWidget*>();
            auto* rate = qobject_cast<QComboBox*>(table->cellWidget(2, 0));
            const int range = table->fontMetrics().horizontalAdvance("1e-4..1e-1 log 4") + 24;
            QTRY_VERIFY2(table->columnWidth(0) >= rate->fontMetrics().horizontalAdvance(rate->currentText()) + 40 ||
                             table->columnWidth(0) >=
                                 std::max(table->viewport()->width() - range, table->viewport()->width() / 2) - 1,
                         qPrintable(QString("%1 of %2").arg(table->columnWidth(0)).arg(table->viewport()->width())));
            QVERIFY2(table->columnWidth(1) >= table->viewport()->width() / 4,
                     qPrintable(QString("%1 %2 %3")
                                    .arg(table->columnWidth(0))
                                    .arg(table->columnWidth(1))
                                    .arg(table->viewport()->width())));
            // Too narrow for the whole entry, the box shows the key (it read "learning_rate — Lea")
            auto* box = qobject_cast<ElidingComboBox*>(rate);
            QVERIFY(box);
            box->resize(box->fontMetrics().horizontalAdvance("learning_rate — Lea") + 40, box->height());
            QCOMPARE(box->shownText(), QString("learning_rate"));
            p.hide();
        }
        QString why;
        QVERIFY2(p.cellCount(&why) == 12, qPrintable(why));  // x 3 rates
        p.setRandomSamples(5);
        QCOMPARE(p.cellCount(), 5);  // 5 of the 12, drawn without repeats
        p.setRandomSamples(0);
        QVERIFY(p.estimatedSeconds() > 0);
        QVERIFY(p.findChild<QLabel*>("estimate")->text().contains("12 cells"));
        {
            // A new row takes a key a sweep varies that no row has (it took data_dir, the list's first, with
            // numbers for an example); data_dir's example is folders.
            AxesEditor more;
            more.addAxis("learning_rate", "1e-3");
            more.addAxis();
            QCOMPARE(more.texts().value(1), QString("n_layer="));
            auto* keys = qobject_cast<QComboBox*>(more.findChild<QTableWidget*>()->cellWidget(1, 0));
            keys->setCurrentIndex(keys->findData("data_dir"));
            auto* values = qobject_cast<QLineEdit*>(more.findChild<QTableWidget*>()->cellWidget(1, 1));
            QVERIFY2(values->placeholderText().contains("folders"), qPrintable(values->placeholderText()));
        }
        p.axes()->addAxis("no_such_key", "1");
        QCOMPARE(p.cellCount(&why), -1);
        QVERIFY2(why.contains("no_such_key"), qPrintable(why));
        p.axes()->removeAxis(3);
        p.axes()->addAxis("n_layer", "");
        QCOMPARE(p.cellCount(&why), -1);
        QVERIFY2(why.contains("n_layer") && why.contains("no values"), qPrintable(why));
        // seed report 000's grid: heads x head size, head size set apart from the width
        p.axes()->clear();
        p.axes()->addAxis("n_head", "1,4,8,16");
        p.axes()->addAxis("head_size", "16,32,64");
        QVERIFY2(p.cellCount(&why) == 12, qPrintable(why));
        // a cell that is not a valid config is named before anything runs: a rate below min_lr
        p.axes()->clear();
        p.axes()->addAxis("learning_rate", "1e-6,1e-3");
        QCOMPARE(p.cellCount(&why), -1);
        QVERIFY2(why.contains("cell 0") && why.contains("min_lr"), qPrintable(why));
    }

    void anAxisWithoutValuesMovesNoButton() {
        // Its error, a line shorter than the estimate it replaced, moved Start sweep and the rest up and back.
        ExperimentsPanel p;
        p.setBaseConfig(tinyConfig());
        p.resize(700, 720);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        p.axes()->clear();
        p.axes()->addAxis("learning_rate", "1e-3,3e-3");
        auto* estimate = p.findChild<QLabel*>("estimate");
        auto* start = p.findChild<QPushButton*>("startSweep");
        QTRY_VERIFY(estimate->text().contains("2 cells"));
        QApplication::processEvents();
        const int at = start->mapTo(&p, QPoint()).y();
        p.axes()->addAxis("n_layer", "");
        QTRY_VERIFY(estimate->text().contains("has no values"));
        QApplication::processEvents();
        QCOMPARE(start->mapTo(&p, QPoint()).y(), at);
    }

    void axesValuesKeepTheirRoomInLargerText() {
        // 150% text at 1280x720 gave the field's combo box the table and cut the values to "alu".
        // The row is added while the panel is hidden (as the panel's remembered axes are), the text size
        // changes while it is shown.
        for (int scale : {100, 150}) {
            const auto restore = qScopeGuard([] { TextScale::apply(100); });
            AxesEditor e;
            e.addAxis("learning_rate", "1e-3..1e-2 log 3");
            e.resize(scale == 100 ? 400 : 340, 200);
            e.show();
            QCoreApplication::processEvents();
            QCOMPARE(TextScale::apply(scale), scale);
            QCoreApplication::processEvents();
            auto* table = e.findChild<QTableWidget*>("axes");
            const QFontMetrics fm = table->fontMetrics();
            const int values = table->columnWidth(1), room = table->viewport()->width();
            QVERIFY2(values >= fm.horizontalAdvance("1e-3..1e-2 log 3"),
                     qPrintable(QString("at %1%: values %2 px of %3").arg(scale).arg(values).arg(room)));
            QVERIFY2(table->columnWidth(0) + values <= room, qPrintable(QString("at %1%: columns %2 + %3 px in %4")
                                                                            .arg(scale)
                                                                            .arg(table->columnWidth(0))
                                                                            .arg(values)
                                                                            .arg(room)));
            // The field's whole name is in its tooltip where the column elides it.
            auto* keys = qobject_cast<QComboBox*>(table->cellWidget(0, 0));
            QVERIFY(keys->toolTip().contains(keys->currentText()));
        }
        // The panel as the window shows it at 1280x720, 150% text from the start.
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        ExperimentsPanel p;
        p.axes()->clear();
        p.axes()->addAxis("learning_rate", "1e-3..1e-2 log 3");
        p.resize(1080, 640);
        p.show();
        auto* table = p.findChild<QTableWidget*>("axes");
        QTRY_VERIFY(table->isVisible());
        QCoreApplication::processEvents();
        QVERIFY2(table->columnWidth(1) >= table->fontMetrics().horizontalAdvance("1e-3..1e-2 log 3") &&
                     table->columnWidth(0) + table->columnWidth(1) <= table->viewport()->width(),
                 qPrintable(QString("columns %1 + %2 px in %3")
                                .arg(table->columnWidth(0))
                                .arg(table->columnWidth(1))
                                .arg(table->viewport()->width())));
    }
    void firstEstimateIsTheFormsOwnAndSaysItIsAGuess() {
        // The estimate shown when the panel comes up is for the Training form as it is then (the same as
        // retyping an axis gives), and before any sweep measured this machine it says it is a rough guess
        // rather than naming an assumed speed.
        QSettings().remove("experiments/flopsPerSecond");
        twb::RunConfig form = tinyConfig();
        ExperimentsPanel p;
        p.setBaseConfigProvider([&form] { return form; });
        p.axes()->clear();
        p.axes()->addAxis("learning_rate", "1e-3,3e-3");
        form.max_iters = 200000;  // the form changed while the panel was not shown
        form.lr_decay_iters = 200000;
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        auto* estimate = p.findChild<QLabel*>("estimate");
        const QString want = formatDuration(p.estimatedSeconds());
        QVERIFY2(estimate->text().contains(want), qPrintable(estimate->text() + " / " + want));
        QVERIFY2(!estimate->text().contains("assumed") && !estimate->text().contains("GFLOP"),
                 qPrintable(estimate->text()));
        QVERIFY2(estimate->text().contains("rough guess"), qPrintable(estimate->text()));
        // The base is named: which dataset and model, how many steps (it was "the Training panel's config and
        // dataset", to be looked up there)
        const QString base = p.findChild<QLabel*>("sweepBase")->text();
        QVERIFY2(base.contains("<b>" + QFileInfo(m_data).fileName() + "</b>, model 1×2×16 (layers × heads × width), " +
                               QLocale().toString(200000) + " steps"),
                 qPrintable(base));
        QSettings().setValue("experiments/flopsPerSecond", 5e9);  // as a sweep's first steps leave it
        p.axes()->addAxis("n_head", "1,2");
        QVERIFY2(estimate->text().contains("measured") && !estimate->text().contains("rough guess"),
                 qPrintable(estimate->text()));
        QVERIFY2(!estimate->text().contains("minimum"), qPrintable(estimate->text()));
        // A base whose decay ends half way (a run's Train more) is said, as the Training form says it
        form.lr_decay_iters = 100000;
        p.axes()->addAxis("seed", "1,2");
        QVERIFY2(estimate->text().contains(QString("reaches its minimum at step %1 of %2")
                                               .arg(QLocale().toString(100000), QLocale().toString(200000))),
                 qPrintable(estimate->text()));
        QSettings().remove("experiments/flopsPerSecond");
    }

    void tabWalksTheAxesAndLeaves() {
        // Tab went between a row's field and values for ever: Add axis, Start sweep and the rest were out of
        // the keyboard's reach.
        AxesEditor a;
        a.clear();
        a.addAxis("n_head", "1,2");
        a.addAxis("seed", "1,2");
        a.show();
        QVERIFY(QTest::qWaitForWindowActive(&a));
        auto* t = a.findChild<QTableWidget*>("axes");
        const auto at = [](QWidget* cell) {
            QWidget* f = QApplication::focusWidget();
            return f && (f == cell || cell->isAncestorOf(f));
        };
        t->cellWidget(0, 0)->setFocus();
        QVERIFY(at(t->cellWidget(0, 0)));
        for (auto [row, column] : {std::pair{0, 1}, {1, 0}, {1, 1}}) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QVERIFY2(at(t->cellWidget(row, column)), qPrintable(QString("%1,%2").arg(row).arg(column)));
        }
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), a.findChild<QPushButton*>("addAxis"));
        t->cellWidget(1, 0)->setFocus();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab);
        QVERIFY(at(t->cellWidget(0, 1)));
    }
    void theProposedFolderIsTheOneWritten() {
        // The folder field's proposal is where the sweep goes (it was renamed to the start's time behind
        // the user); once that folder holds a sweep, the next start proposes and uses another.
        ExperimentsPanel p;
        p.setBaseConfig(tinyConfig());
        p.axes()->clear();
        p.axes()->addAxis("seed", "1");
        p.setRandomSamples(0);
        const QString shown = p.sweepFolder();
        QVERIFY(!shown.isEmpty() && !QFileInfo::exists(shown));
        QSignalSpy finished(&p, &ExperimentsPanel::sweepFinished);
        p.start();
        QVERIFY(finished.wait(300000));
        QVERIFY(QFileInfo::exists(shown + "/sweep.json"));
        // Finished: the field already proposes the next sweep's folder (it kept the finished one).
        const QString next = p.sweepFolder();
        QVERIFY2(next != shown && !QFileInfo::exists(next), qPrintable(next));
        p.start();
        QVERIFY(finished.wait(300000));
        QVERIFY(QFileInfo::exists(next + "/sweep.json"));  // the proposal is where it went
    }
    void twoByTwoSweepFillsTheTableAndResumes() {
        const QString dir = m_ws.path() + "/sweeps/grid";
        {
            ExperimentsPanel p;
            p.setBaseConfig(tinyConfig());
            p.axes()->clear();
            p.axes()->addAxis("n_head", "1,2");
            p.axes()->addAxis("learning_rate", "1e-3,3e-3");
            p.setRandomSamples(0);
            p.setSweepFolder(dir);
            QSignalSpy finished(&p, &ExperimentsPanel::sweepFinished);
            p.start();
            QVERIFY(p.isBusy());
            QCOMPARE(p.queue()->count(), 4);
            QVERIFY(finished.wait(300000));
            QCOMPARE(finished.first().first().toBool(), true);
            QCOMPARE(p.results()->model()->rowCount(), 4);
            QCOMPARE(p.plots()->curveCount(), 4);
            QCOMPARE(p.plots()->curvesPlot()->graphCount(), 4);  // no training line left once the cells end
            QCOMPARE(p.plots()->trainingPoints(), 0);
            // every cell trained to its last step and is a run folder of its own
            for (const auto& r : p.results()->runs()) {
                QCOMPARE(r.steps, int64_t(10));
                QCOMPARE(r.status, std::string("finished"));
            }
            QVERIFY(QFileInfo::exists(dir + "/results.md"));
            // A cell is its number in the table (its swept values have columns of their own; the tooltip
            // names it whole) and its number and values in the loss plot's legend.
            const auto* curves = p.findChild<QCustomPlot*>("sweepCurves");
            QVERIFY(curves);
            QCOMPARE(curves->graphCount(), 4);
            for (int row = 0; row < 4; ++row) {
                const auto* model = p.results()->model();
                const QString number = model->index(row, 0).data().toString();
                QVERIFY2(QRegularExpression("^\\d{3}$").match(number).hasMatch(), qPrintable(number));
                QVERIFY(model->index(row, 0).data(Qt::ToolTipRole).toString().startsWith(number + "_n_head="));
                const QString head = model->index(row, 1).data().toString(),
                              rate = model->index(row, 2).data().toString();
                bool found = false;
                for (int g = 0; g < curves->graphCount(); ++g)
                    found |= curves->graph(g)->name() == number + ": " + head + ", " + rate;
                QVERIFY2(found, qPrintable(number + ": " + head + ", " + rate + " is not in the legend"));
            }
            // the table sorts numerically: by final val loss, ascending
            const int col = 4;  // cell, n_head, learning_rate, params, final val
            const auto* m = p.results()->model();
            QCOMPARE(m->headerData(1, Qt::Horizontal).toString(), QString("n_head"));
            QCOMPARE(m->headerData(2, Qt::Horizontal).toString(), QString("learning_rate"));
            QCOMPARE(m->headerData(col, Qt::Horizontal).toString(), QString("Final val loss"));
            p.results()->sortByColumn(col, Qt::AscendingOrder);
            for (int r = 1; r < 4; ++r)
                QVERIFY(m->index(r - 1, col).data().toDouble() <= m->index(r, col).data().toDouble());
            // the final loss shown is the cell's own, to four decimals
            const auto* first = p.results()->summary(p.results()->runAt(0));
            QVERIFY(first);
            QCOMPARE(m->index(0, col).data().toString(), QString::number(first->final_val_loss, 'f', 4));
        }
        // A new panel offers nothing to resume (every cell finished); resuming keeps all four.
        ExperimentsPanel p;
        QVERIFY(!p.findChild<QLabel*>("sweepOffer")->isVisibleTo(&p));
        QSignalSpy finished(&p, &ExperimentsPanel::sweepFinished);
        QVERIFY(p.resumeSweep(dir));
        QVERIFY(finished.wait(60000));
        for (int i = 0; i < 4; ++i)
            QVERIFY2(p.queue()->item(i)->text().startsWith("done (kept)"), qPrintable(p.queue()->item(i)->text()));
        QCOMPARE(p.results()->model()->rowCount(), 4);
        // Resume… opens at the sweep this panel ran (it opened the sweeps' folder, the sweep to look for)
        QString opened;
        QTimer::singleShot(0, [&opened] {
            if (auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                opened = d->directory().absolutePath();
                d->reject();
            }
        });
        for (auto* b : p.findChildren<QPushButton*>())
            if (b->text() == "Resume…")
                b->click();
        QCOMPARE(opened, QDir(dir).absolutePath());
        // A cell deleted in the Runs panel leaves the table and is marked in the queue (its row stayed)
        const QString cell = dir + "/" + p.queue()->item(1)->data(Qt::UserRole).toString();
        QVERIFY(QDir(cell).removeRecursively());
        p.runDeleted(cell);
        QCOMPARE(p.results()->model()->rowCount(), 3);
        QVERIFY2(p.queue()->item(1)->text().startsWith("removed"), qPrintable(p.queue()->item(1)->text()));
        p.runDeleted(m_ws.path() + "/runs/elsewhere");  // another folder's run changes nothing
        QCOMPARE(p.results()->model()->rowCount(), 3);
    }

    void aSweepIsAJobOfTheServiceItIsGiven() {
        // Listed in the main window's jobs service (the status bar) while it runs, with progress; its
        // Cancel stops the sweep as Stop does, resumable; nothing is listed once it has ended.
        JobsService jobs;
        ExperimentsPanel p(&jobs);
        twb::RunConfig c = tinyConfig();
        c.max_iters = c.lr_decay_iters = 100000;  // still running when the UI thread cancels it
        p.setBaseConfig(c);
        p.axes()->clear();
        p.axes()->addAxis("seed", "1,2");
        p.setRandomSamples(0);
        p.setSweepFolder(m_ws.path() + "/sweeps/listed");
        QSignalSpy finished(&p, &ExperimentsPanel::sweepFinished);
        p.start();
        QCOMPARE(jobs.running().size(), 1);
        Job* job = jobs.running().first();
        QVERIFY2(job->title().startsWith("Sweep listed"), qPrintable(job->title()));
        QVERIFY(job->isCancellable());
        QSignalSpy progressed(job, &Job::progressed);
        QVERIFY(progressed.wait(60000));
        QVERIFY(job->fraction() >= 0 && job->fraction() <= 1);
        // The running cell's curve is named as a finished cell's ("000: 1"), not by its folder's name.
        const auto* curves = p.findChild<QCustomPlot*>("sweepCurves");
        QTRY_VERIFY_WITH_TIMEOUT(curves->graphCount() >= 1, 60000);
        QCOMPARE(curves->graph(0)->name(), QString("000: 1"));
        // Its row follows its evaluations (it kept the figures read when the cell started).
        auto rowFigures = [&p] {
            const auto runs = p.results()->runs();
            return runs.empty() ? std::pair<int64_t, std::string>{0, ""}
                                : std::pair<int64_t, std::string>{runs[0].steps, runs[0].status};
        };
        QTRY_VERIFY_WITH_TIMEOUT(rowFigures().first >= 10, 60000);  // a second evaluation's step at least
        QCOMPARE(rowFigures().second, std::string("running"));
        job->cancel();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), false);
        // the stopped cell reads as stopped, not done, and counts as no finished cell
        QVERIFY2(p.queue()->item(0)->text().startsWith("stopped (resumable)"), qPrintable(p.queue()->item(0)->text()));
        QVERIFY(p.queue()->wordWrap() && p.queue()->item(0)->toolTip() == p.queue()->item(0)->text());  // never cut
        QVERIFY2(p.queue()->item(1)->text().startsWith("pending"), qPrintable(p.queue()->item(1)->text()));
        // and its row in the results says so beside its number (its losses are a stopped run's)
        const auto* results = p.results()->model();
        QTRY_VERIFY(results->rowCount() >= 1);
        QVERIFY2(results->index(0, 0).data().toString().endsWith("(stopped)"),
                 qPrintable(results->index(0, 0).data().toString()));
        QCOMPARE(p.findChild<QProgressBar*>("sweepProgress")->value(), 0);
        // Nothing listed in the status bar (a quiet job reading the table's rows after the last evaluation
        // may still be ending).
        const auto listed = jobs.running();
        QVERIFY(std::none_of(listed.begin(), listed.end(), [](const Job* j) { return !j->title().isEmpty(); }));
        QVERIFY(!p.isBusy());
    }

    void aFolderThatCannotBeMadeIsRefusedBeforeStarting() {
        // It showed "filesystem error: cannot create directories ..." under a queue of pending cells.
        ExperimentsPanel p;
        p.setBaseConfig(tinyConfig());
        p.axes()->clear();
        p.axes()->addAxis("seed", "1,2");
        p.setRandomSamples(0);
        p.setSweepFolder("/proc/nope/sweep");
        // As in a 1280x720 window: the error takes its lines from the queue, so Start does not move
        // (the axes table above it shrank and moved it up by a line).
        p.resize(1100, 620);
        p.show();
        auto* start = p.findChild<QPushButton*>("startSweep");
        QTRY_VERIFY(start->isVisible());
        const int startY = start->mapTo(&p, QPoint(0, 0)).y();
        p.start();
        QVERIFY(!p.isBusy());
        QVERIFY2(p.lastError().startsWith("Cannot create the folder /proc/nope/sweep"), qPrintable(p.lastError()));
        QCOMPARE(p.queue()->count(), 0);
        QTRY_VERIFY(p.findChild<ErrorLabel*>()->isVisible());
        QCoreApplication::processEvents();
        QCOMPARE(start->mapTo(&p, QPoint(0, 0)).y(), startY);
        // Too low for the controls (larger text on a small screen): the column scrolls; the axes table keeps
        // its height above its buttons (the buttons were drawn over it)
        p.resize(1100, 360);
        QCoreApplication::processEvents();
        auto* axes = p.findChild<QTableWidget*>("axes");
        auto* add = p.findChild<QPushButton*>("addAxis");
        QTRY_VERIFY(axes->height() >= axes->minimumHeight());
        QVERIFY2(axes->mapTo(&p, QPoint(0, axes->height())).y() <= add->mapTo(&p, QPoint(0, 0)).y(),
                 qPrintable(QString("table ends at %1, Add axis starts at %2")
                                .arg(axes->mapTo(&p, QPoint(0, axes->height())).y())
                                .arg(add->mapTo(&p, QPoint(0, 0)).y())));
    }
    void removedPendingCellIsLeftOut() {
        ExperimentsPanel p;
        p.setBaseConfig(tinyConfig());
        p.axes()->clear();
        p.axes()->addAxis("seed", "1,2,3");
        p.setRandomSamples(0);
        p.setSweepFolder(m_ws.path() + "/sweeps/removed");
        QSignalSpy finished(&p, &ExperimentsPanel::sweepFinished);
        p.start();
        // removed before the worker reaches it: two whole cells train before cell 2, and the removal
        // happens before the UI thread returns to its event loop
        p.queue()->setCurrentRow(2);
        p.removeSelectedCell();
        QVERIFY(p.queue()->item(2)->text().startsWith("removed"));
        QVERIFY(finished.wait(300000));
        QCOMPARE(p.results()->model()->rowCount(), 2);
        // the offer to resume names the sweep: one cell is still to run
        ExperimentsPanel again;
        auto* offer = again.findChild<QLabel*>("sweepOffer");
        QVERIFY(offer->isVisibleTo(&again));
        QVERIFY2(offer->text().contains("2 of 3"), qPrintable(offer->text()));
    }

    void compareTokenizersSweepsTheDatasets() {
        ExperimentsPanel p;
        p.setBaseConfig(tinyConfig());
        twb::TokenizerSpec bpe;
        bpe.kind = twb::TokenizerKind::Bpe;
        bpe.vocab_size = 400;  // sentencepiece needs room for the 256 byte pieces and the characters
        QSignalSpy finished(&p, &ExperimentsPanel::sweepFinished), prepared(&p, &ExperimentsPanel::datasetsPrepared);
        p.compareTokenizers({QString::fromStdString(twbtest::path(m_ws, "c.txt").string())},
                            {twb::TokenizerSpec{}, bpe});
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.first().first().toBool(), true);
        // The datasets are announced (MainWindow refreshes the Training and Datasets panels' lists with them).
        QCOMPARE(prepared.count(), 1);
        QStringList announced;
        for (const QString& d : prepared.first().first().toStringList())
            announced << QFileInfo(d).fileName();
        announced.sort();
        QCOMPARE(announced, (QStringList{"c-bpe400", "c-char"}));
        // one cell per prepared dataset, the same model config, compared in bits per character
        QCOMPARE(p.axes()->texts().size(), 1);
        QVERIFY(p.axes()->texts().first().startsWith("data_dir="));
        const auto& runs = p.results()->runs();
        QCOMPARE(runs.size(), size_t(2));
        QStringList datasets;
        for (const auto& r : runs) {
            QVERIFY(std::isfinite(r.bits_per_char) && r.bits_per_char > 0);
            QCOMPARE(r.config.at("n_embd"), std::string("16"));
            datasets << QFileInfo(QString::fromStdString(r.config.at("data_dir"))).fileName();
        }
        datasets.sort();
        QCOMPARE(datasets, (QStringList{"c-bpe400", "c-char"}));
        QCOMPARE(twb::open_prepared(Workspace::datasetsDir().toStdString() + "/c-bpe400").vocab_size, 400);
        // a size the text cannot give is refused with the engine's reason, and no sweep starts
        bpe.vocab_size = 120;
        finished.clear();
        p.compareTokenizers({QString::fromStdString(twbtest::path(m_ws, "c.txt").string())}, {bpe});
        QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000);
        QVERIFY2(p.findChild<ErrorLabel*>()->error().contains("vocab size 120"),
                 qPrintable(p.findChild<ErrorLabel*>()->error()));
        QCOMPARE(finished.count(), 0);
    }

    void rangeFinderFillsTheForm() {
        // At 150% text, as on a projector: the marks' labels lay on each other there.
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        JobsService jobs;
        TrainingPanel p(&jobs);
        p.setDataset(m_data);
        twb::RunConfig c = tinyConfig();
        c.learning_rate = 0.5;  // far from any suggestion
        p.form()->setConfig(c);
        LrFindDialog* d = p.findLearningRate();
        QVERIFY(d);
        d->setSteps(30);
        d->setBounds(1e-5, 1.0);
        // The bounds read as learning rates are written ("1e-05", not "0.000010000").
        QCOMPARE(d->findChild<QDoubleSpinBox*>("minLr")->text(), QString("1e-05"));
        QCOMPARE(d->findChild<QDoubleSpinBox*>("maxLr")->text(), QString("1"));
        // ... and the empty plot's axis spans them before the search.
        QVERIFY(std::abs(d->plot()->xAxis->range().lower - 1e-5) < 1e-12 && d->plot()->xAxis->range().upper == 1.0);
        // Upside down (from 0.5 to 0.001): said at once, and gone when set right.
        auto* status = d->findChild<QLabel*>("lrStatus");
        d->setBounds(0.5, 1e-3);
        QVERIFY2(status->text().contains("the first rate must be below the last"), qPrintable(status->text()));
        d->setBounds(1e-5, 1.0);
        QVERIFY(status->text().isEmpty());
        QSignalSpy found(p.experimentWorker(), &ExperimentWorker::lrFound);
        QSignalSpy points(p.experimentWorker(), &ExperimentWorker::lrPoint);
        d->start();
        // From the first point the rate axis is the search's whole range, in decades (fitted to the first
        // points it spanned a fraction of one, its labels run together)
        QVERIFY(twbtest::wait_for(points, 1, 120000));
        QTRY_VERIFY(d->plot()->graph(0)->dataCount() > 0);
        QVERIFY(std::abs(d->plot()->xAxis->range().lower - 1e-5) < 1e-12 && d->plot()->xAxis->range().upper == 1.0);
        // listed in the panel's jobs service while it searches, gone once it has found the rate
        QCOMPARE(jobs.running().size(), 1);
        QCOMPARE(jobs.running().first()->title(), QString("Finding the learning rate"));
        QVERIFY(twbtest::wait_for(found, 1, 120000));
        QTRY_VERIFY(!d->isRunning());
        QVERIFY(jobs.running().isEmpty());
        const double lr = d->result().suggested_lr;
        QVERIFY(lr >= 1e-5 && lr <= 1.0);
        QCOMPARE(d->plot()->graph(0)->dataCount(), int(d->result().curve.size()));
        QCOMPARE(d->plot()->itemCount(), 4);  // two marked suggestions, each a line and a label
        // The two labels never lie on each other, nor run past the plot's right edge.
        d->plot()->replot();
        QRectF labels[2];
        int found2 = 0;
        for (int i = 0; i < d->plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(d->plot()->item(i))) {
                const QPointF at = t->position->pixelPosition();
                const QFontMetrics fm(t->font());
                const double w = fm.horizontalAdvance(t->text());
                const double left = (t->positionAlignment() & Qt::AlignRight) ? at.x() - w : at.x();
                labels[found2++] = QRectF(left, at.y(), w, fm.height());
                QVERIFY2(left + w <= d->plot()->width(), qPrintable(t->text()));
            }
        QCOMPARE(found2, 2);
        QVERIFY(!labels[0].intersects(labels[1]));
        // A label lies clear of the other mark's line where a side has room (the red one lay across the green)
        QVERIFY(LrFindDialog::labelGoesLeft(300, 120, 350, 50, 600) &&
                !LrFindDialog::labelGoesLeft(300, 120, 250, 50, 600));
        QVERIFY(!LrFindDialog::labelGoesLeft(100, 120, 150, 50, 600));  // no room on the left: across it
        // The loss axis's title is whole beside the plot ("smoothed training los" in a short one: the dialog's
        // size at 1280x720).
        d->show();
        QVERIFY(QTest::qWaitForWindowExposed(d));
        d->resize(630, 470);
        QTRY_COMPARE(d->plot()->window()->width(), 630);
        d->plot()->replot();
        QVERIFY2(QFontMetrics(d->plot()->yAxis->labelFont()).horizontalAdvance(d->plot()->yAxis->label()) <=
                     d->plot()->axisRect()->height(),
                 qPrintable(d->plot()->yAxis->label()));
        // A bound's whole value shows in its field ("0.0011" read ".0011" at 150%).
        auto* lo = d->findChild<QDoubleSpinBox*>("minLr");
        lo->setValue(1.234e-4);
        QCOMPARE(lo->text(), QString("0.0001234"));
        auto* loEdit = lo->findChild<QLineEdit*>();
        QVERIFY2(loEdit->width() - 4 >= loEdit->fontMetrics().horizontalAdvance(lo->text()),
                 qPrintable(QString("%1 pixels for %2").arg(loEdit->width()).arg(lo->text())));
        d->useRate();
        // the form keeps the rate to its field's precision (8 significant digits here)
        QVERIFY2(std::abs(p.form()->config().learning_rate - lr) <= 1e-6 * lr,
                 qPrintable(QString::number(p.form()->config().learning_rate, 'g', 12)));
        QVERIFY(p.currentRun().isEmpty() || !QFileInfo::exists(p.currentRun()));  // no run was made
    }

    void generateEvalGivesARowPerSetting() {
        const QString run = twbtest::make_tiny_run(m_ws, "tiny-eval", 20);
        JobsService jobs;
        SamplingPanel p(nullptr, &jobs);
        p.picker()->refresh();
        p.picker()->setRun(run);
        auto* v = p.evaluation();
        v->setPrompts("the \nand so\n");
        v->setReferences("the cat\nand so on\n");
        v->setSettings({"greedy", "temperature=0.8,top_k=5", "beam=2"});
        v->setMaxTokens(6);
        QSignalSpy finished(v, &GenerationEvalView::finished);
        v->run();
        QVERIFY(v->isRunning());
        // listed in the service the panel was given while it runs, and no longer once it has finished
        QCOMPARE(jobs.running().size(), 1);
        QVERIFY2(jobs.running().first()->title().contains("3 decoding settings"),
                 qPrintable(jobs.running().first()->title()));
        QVERIFY(finished.wait(120000));
        QVERIFY(jobs.running().isEmpty());
        QCOMPARE(v->table()->rowCount(), 3);
        QCOMPARE(v->table()->item(0, 0)->text(), QString("greedy"));
        QCOMPARE(v->table()->item(2, 0)->text(), QString("beam=2"));
        // Each setting's first output beside it, wide enough to read at 1280x720 whatever the figures take.
        QCOMPARE(v->table()->horizontalHeaderItem(1)->text(), QString("first output"));
        QCOMPARE(v->table()->item(0, 1)->text(),
                 QString::fromStdString(v->rows().front().outputs.front()).simplified());
        QVERIFY(v->table()->columnWidth(1) >= 20 * v->table()->fontMetrics().averageCharWidth());
        for (const auto& r : v->rows()) {
            QCOMPARE(r.outputs.size(), size_t(2));  // one per prompt
            QCOMPARE(r.tokens, int64_t(12));        // 6 per prompt: a char model without an end token
            QVERIFY(std::isfinite(r.bleu));         // references were given
        }
        QVERIFY(v->markdown().contains("beam=2"));
        QCOMPARE(v->csv().count('\n') >= 4, true);  // a header and three rows
        // Another run: the table was this run's figures, so it is emptied rather than shown under its name.
        p.picker()->setRun(m_ws.path() + "/another");
        QCOMPARE(v->table()->rowCount(), 0);
        p.picker()->setRun(run);
        // references that do not pair with the prompts are refused before anything runs
        v->setReferences("only one\n");
        v->run();
        QVERIFY(!v->isRunning());
        QVERIFY(v->findChild<QLabel*>("evalStatus")->text().contains("one reference per prompt"));
    }
};

QTEST_MAIN(TestExperimentsPanel)
#include "tst_experiments_panel.moc"
