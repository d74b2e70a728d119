// The Runs view driven offscreen over a workspace with real runs: it lists every run with its status
// (finished, interrupted, running while another process holds the run lock) and its best validation
// loss; a name and notes typed in persist in run.json; delete asks first, does nothing on Cancel,
// refuses a running run and removes the folder on Delete; Duplicate config fills the Training panel's
// form for a new run; Compare selected opens the first run and overlays the others; the Run menu's Compare runs
// offers the sweeps' cells too, under a heading; the table sorts by number and remembers its sort and widths by
// column (not position), and its columns fit the rows until widths are remembered (never narrower than their titles, at
// any text size), and a BLEU column shows only beside a translation run; a comparison's bits per character end with the
// comparison; the filter shows the runs holding every word typed; Export to TensorBoard writes a run's tb/ on the jobs
// service and shows why a folder that is no run cannot.
#include "test_util.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "twb/run_info.h"
#include "twb/tensorboard.h"
#include "twb/text.h"
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/embeddings/EmbeddingsPanel.h"
#include "ui/experiments/ResultsTable.h"
#include "ui/runs/RunsPanel.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/RunsTable.h"
#include "ui/widgets/RunsTableModel.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <nlohmann/json.hpp>

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QFile>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTimer>
#include <QVBoxLayout>

#include <filesystem>

namespace {
/// The lowest validation loss in a run's metrics.csv: the definition of "best", computed here.
double bestLoss(const QString& run) {
    double best = INFINITY;
    for (const auto& r : twb::read_metrics((run + "/metrics.csv").toStdString()))
        if (r.kind == "eval")
            best = std::min(best, r.val_loss);
    return best;
}

/// Answers the next modal message box with this button.
void answerNextMessageBox(QMessageBox::StandardButton answer, QString* text = nullptr) {
    QTimer::singleShot(0, [answer, text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box);
        if (text)
            *text = box->text();
        box->button(answer)->click();
    });
}

QString cell(RunsTable* t, const QString& run, int column) {
    return t->model()
        ->index(t->rowOf(run), t->tableModel()->columnOf(RunsTableModel::Column(column)))
        .data()
        .toString();
}
}  // namespace

class TestRunsPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_finished, m_interrupted;

    /// A copy of the finished run as a sweep's cell, in the Experiments panel's folder layout
    /// (sweeps/<sweep>/<cell>/): sweeps/lr-sweep/000_learning_rate=1e-3.
    QString makeSweepCell() {
        const QString sweep = m_ws.path() + "/sweeps/lr-sweep", cellRun = sweep + "/000_learning_rate=1e-3";
        std::filesystem::create_directories(sweep.toStdString());
        std::filesystem::copy(m_finished.toStdString(), cellRun.toStdString(),
                              std::filesystem::copy_options::recursive);
        return cellRun;
    }

    static void refreshed(RunsPanel& p) {
        QSignalSpy spy(&p, &RunsPanel::refreshed);
        p.refresh();
        QVERIFY(spy.wait(20000));
    }

private slots:
    void initTestCase() {
        m_finished = twbtest::make_tiny_run(m_ws, "finished", 20);
        // A run stopped before its end: trained to 20 of 30 steps (its config asks for 30).
        m_interrupted = twbtest::make_tiny_run(m_ws, "interrupted", 20);
        auto cfg = twb::read_run_config(m_interrupted.toStdString());
        cfg.max_iters = 30;
        twb::write_file_atomic(m_interrupted.toStdString() + "/config.json", nlohmann::json(cfg).dump(2));
    }
    void listsRunsWithStatusAndBestLoss() {
        RunsPanel p;
        refreshed(p);
        RunsTable* t = p.table();
        QCOMPARE(t->runs().size(), size_t(2));
        QCOMPARE(cell(t, m_finished, RunsTableModel::Status), QString("finished"));
        QCOMPARE(cell(t, m_interrupted, RunsTableModel::Status), QString("stopped"));
        QCOMPARE(cell(t, m_interrupted, RunsTableModel::Steps), QString("20 of 30"));
        // The steps are never cut, even where a narrower width was remembered (it read "166 of …").
        // Nor the model's size (it read "4×4×1…").
        const int steps = t->tableModel()->columnOf(RunsTableModel::Steps);
        const int model = t->tableModel()->columnOf(RunsTableModel::Model);
        t->setColumnWidth(steps, 20);
        t->setColumnWidth(model, 20);
        refreshed(p);
        const int text = t->fontMetrics().horizontalAdvance("20 of 30");
        QVERIFY2(t->columnWidth(steps) > text, qPrintable(QString("%1 <= %2").arg(t->columnWidth(steps)).arg(text)));
        QVERIFY(t->columnWidth(model) > t->fontMetrics().horizontalAdvance("2×2×32"));
        QCOMPARE(cell(t, m_finished, RunsTableModel::Model), QString("2×2×32"));  // layers × heads × width
        QCOMPARE(cell(t, m_finished, RunsTableModel::Dataset), QString("small"));
        QCOMPARE(cell(t, m_finished, RunsTableModel::BestValLoss), QString::number(bestLoss(m_finished), 'f', 4));
        QVERIFY(cell(t, m_finished, RunsTableModel::BitsPerChar).toDouble() > 0);
        // Another process writing a run (flock(1) takes the same lock a trainer takes): shown as running,
        // and it cannot be deleted.
        QProcess holder;
        holder.start("flock", {"-x", m_interrupted + "/.lock", "cat"});
        QVERIFY(holder.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(!twb::run_holder(m_interrupted.toStdString()).empty(), 20000);
        refreshed(p);
        QCOMPARE(cell(t, m_interrupted, RunsTableModel::Status), QString("running"));
        t->tableModel()->setPausedRun(m_interrupted);  // this window's training, paused
        QCOMPARE(cell(t, m_interrupted, RunsTableModel::Status), QString("paused"));
        t->tableModel()->setPausedRun({});
        QCOMPARE(cell(t, m_interrupted, RunsTableModel::Status), QString("running"));
        QVERIFY(!p.deleteRun(m_interrupted));  // refused before any question
        QVERIFY(p.lastError().contains("stop its training"));
        QVERIFY(QFileInfo::exists(m_interrupted + "/config.json"));
        holder.closeWriteChannel();
        QVERIFY(holder.waitForFinished(20000));
        refreshed(p);
        QCOMPARE(cell(t, m_interrupted, RunsTableModel::Status), QString("stopped"));
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));  // the refusal went with the training
    }
    void anEncoderDecoderShowsBothStacks() {
        // A translation run read "3×4×96" as if it were a language model of three blocks.
        twb::RunSummary lm, mt;
        lm.config = {{"model_kind", "decoder"}, {"n_layer", "4"}, {"n_head", "4"}, {"n_embd", "128"}};
        mt.config = {{"model_kind", "encoder_decoder"}, {"n_layer", "3"}, {"n_encoder_layer", "0"},
                     {"n_decoder_layer", "2"},          {"n_head", "4"},  {"n_embd", "96"}};
        QCOMPARE(RunsTableModel::modelShape(lm), QString("4×4×128"));
        QCOMPARE(RunsTableModel::modelShape(mt), QString("3+2×4×96"));
        QCOMPARE(RunsTableModel::modelShape(twb::RunSummary{}), QString());  // a damaged run's read "××"
    }
    void theBleuColumnShowsWhereATranslationRunIsListed() {
        // A translation run's best BLEU had no place in the table; a language model has none to show.
        twb::RunSummary lm, mt;
        lm.dir = "/ws/lm";
        mt.dir = "/ws/mt";
        mt.best_bleu = 31.5;
        RunsTable t;
        const int c = t.tableModel()->columnOf(RunsTableModel::BestBleu);
        QVERIFY(c >= 0);
        QVERIFY(t.isColumnHidden(c));  // an empty table (a sweep's results before its first cell showed it)
        ResultsTable results;
        QVERIFY(results.isColumnHidden(results.tableModel()->columnOf(RunsTableModel::BestBleu)));
        t.setRuns({lm});
        QVERIFY(t.isColumnHidden(c));
        t.setRuns({lm, mt});
        QVERIFY(!t.isColumnHidden(c));
        QCOMPARE(t.model()->index(t.rowOf("/ws/mt"), c).data().toString(), QString("31.50"));
        QCOMPARE(t.model()->headerData(c, Qt::Horizontal).toString(), QString("Best BLEU"));
        t.setRuns({lm});
        QVERIFY(t.isColumnHidden(c));
    }
    void sortsByNumberAndRemembersTheSort() {
        {
            RunsPanel p;
            refreshed(p);
            const int loss = p.table()->tableModel()->columnOf(RunsTableModel::BestValLoss);
            p.table()->sortByColumn(loss, Qt::AscendingOrder);
            const double first = p.table()->model()->index(0, loss).data().toDouble();
            const double second = p.table()->model()->index(1, loss).data().toDouble();
            QVERIFY(first <= second);
        }
        RunsPanel again;
        QCOMPARE(again.table()->horizontalHeader()->sortIndicatorSection(),
                 again.table()->tableModel()->columnOf(RunsTableModel::BestValLoss));
        QCOMPARE(again.table()->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
    }
    void widthsAreKeptByColumnNotPosition() {
        // A sweep's results with one swept key, then another sweep's with two: each figure keeps the width chosen
        // for it (remembered by position, every width moved one column along, onto another figure).
        const QString key = "test/byColumn";
        QSettings().remove(key);
        const int finalLoss = 173, lr = 131;
        {
            RunsTable t;
            t.setColumnLayout(RunsTableModel::Layout::SweepResults);
            t.setSettingsKey(key);
            t.setExtraColumns({"learning_rate"});
            t.setColumnWidth(t.tableModel()->columnOf(RunsTableModel::FinalValLoss), finalLoss);
            t.setColumnWidth(t.tableModel()->columnOf(RunsTableModel::Extra), lr);
            t.sortByColumn(t.tableModel()->columnOf(RunsTableModel::FinalValLoss), Qt::DescendingOrder);
        }
        RunsTable again;
        again.setColumnLayout(RunsTableModel::Layout::SweepResults);
        again.setSettingsKey(key);
        again.setExtraColumns({"n_head", "learning_rate"});
        const RunsTableModel* m = again.tableModel();
        QCOMPARE(again.columnWidth(m->columnOf(RunsTableModel::FinalValLoss)), finalLoss);
        QCOMPARE(again.columnWidth(m->columnOfId("key:learning_rate")), lr);
        QVERIFY(again.columnWidth(m->columnOfId("key:n_head")) != lr);  // a new column: its own default
        QCOMPARE(again.horizontalHeader()->sortIndicatorSection(), m->columnOf(RunsTableModel::FinalValLoss));
        QCOMPARE(again.horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        QSettings().remove(key);
    }
    void aCellsStateIsNeverCut() {
        // A sweep's stopped cell read "000 (stopp…" in a Cell column as wide as "000" had needed.
        const QString key = "test/cellWidth";
        QSettings().remove(key);
        {
            RunsTable t;
            t.setColumnLayout(RunsTableModel::Layout::SweepResults);
            t.setSettingsKey(key);
            t.setColumnWidth(t.tableModel()->columnOf(RunsTableModel::Name), 30);
        }
        RunsTable t;
        t.setColumnLayout(RunsTableModel::Layout::SweepResults);
        t.setSettingsKey(key);
        twb::RunSummary cell;
        cell.name = "000_learning_rate=0.001";
        cell.status = "stopped";
        t.setRuns({cell});
        const int c = t.tableModel()->columnOf(RunsTableModel::Name);
        const QString text = t.model()->index(0, c).data().toString();  // "000 (stopped)"
        QVERIFY2(t.columnWidth(c) > t.fontMetrics().horizontalAdvance(text) + 6,
                 qPrintable(QString("'%1' in %2 px").arg(text).arg(t.columnWidth(c))));
        QSettings().remove(key);
    }
    void columnTitlesStayWholeInLargerText() {
        // Widths nobody chose are never narrower than the titles, and follow View → Larger text: at 150%
        // the empty table's "Best val loss" read "est val los".
        RunsTable t;
        t.setSettingsKey("test/columnTitlesWhole");  // nothing remembered under it
        t.show();
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        auto whole = [&t] {
            for (int c = 0; c < t.model()->columnCount(); ++c)
                if (t.columnWidth(c) < t.horizontalHeader()->sectionSizeHint(c))
                    return false;
            return true;
        };
        QTRY_VERIFY(whole());
        QVERIFY(t.horizontalHeader()->sectionSizeHint(t.tableModel()->columnOf(RunsTableModel::BestValLoss)) >
                95);  // wider than before
        // Widths remembered at 100% (a user's, or the defaults saved on a resize) widen to their titles too,
        // when read back at 150% and when the text grows while shown: "3est val loss" in both.
        QCOMPARE(TextScale::apply(100), 100);
        {
            RunsTable narrow;
            narrow.setSettingsKey("test/remembered");
            for (int c = 0; c < narrow.model()->columnCount(); ++c)
                narrow.setColumnWidth(c, 40);  // saved as the user's
        }
        QCOMPARE(TextScale::apply(150), 150);
        RunsTable reopened;
        reopened.setSettingsKey("test/remembered");
        reopened.show();
        auto wholeIn = [](RunsTable& table) {
            for (int c = 0; c + 1 < table.model()->columnCount(); ++c)  // the last one stretches
                if (table.columnWidth(c) < table.horizontalHeader()->sectionSizeHint(c))
                    return false;
            return true;
        };
        QTRY_VERIFY(wholeIn(reopened));
        QCOMPARE(TextScale::apply(100), 100);
        RunsTable growing;
        growing.setSettingsKey("test/remembered");
        growing.show();
        QCOMPARE(TextScale::apply(150), 150);
        QTRY_VERIFY(wholeIn(growing));
    }
    void theStatusIsInSightAt150Percent() {
        // Last of the columns, the status ("running", "stopped") was scrolled out of sight at 1280x720 with
        // 150% text: it stands beside the steps.
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        RunsPanel p;
        p.resize(1110, 640);  // the panel's room in a 1280x720 window
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        refreshed(p);
        RunsTable* t = p.table();
        const int status = t->tableModel()->columnOf(RunsTableModel::Status);
        QTRY_VERIFY2(t->columnViewportPosition(status) + t->columnWidth(status) <= t->viewport()->width(),
                     qPrintable(QString("the status at %1-%2 px of %3")
                                    .arg(t->columnViewportPosition(status))
                                    .arg(t->columnViewportPosition(status) + t->columnWidth(status))
                                    .arg(t->viewport()->width())));
        QCOMPARE(t->tableModel()->columnOf(RunsTableModel::Steps) + 1, status);
    }
    void theButtonsKeepTheirTitlesWholeOrShort() {
        // At 175% text the row's buttons were squeezed below their titles ("xport to TensorBoar"): where the
        // whole titles do not fit, the short ones do.
        for (int scale : {100, 175}) {
            QCOMPARE(TextScale::apply(scale), scale);
            const auto restore = qScopeGuard([] { TextScale::apply(100); });
            QWidget window;  // as the main window holds it: no wider than its room, whatever its row asks
            window.setFixedSize(scale == 100 ? 1110 : 1052, 640);  // its room in a 1280x720 window (the sidebar grows)
            auto* p = new RunsPanel;
            (new QVBoxLayout(&window))->addWidget(p);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto* tensorBoard = p->findChild<QPushButton*>("exportTensorBoard");
            QVERIFY(tensorBoard);
            QTRY_COMPARE(tensorBoard->text(),
                         scale == 100 ? QString("Export to TensorBoard") : QString("TensorBoard…"));
            QTRY_VERIFY(tensorBoard->width() > 0);
            for (auto* b : p->findChildren<QPushButton*>())
                if (b->isVisible() && b->parentWidget() == tensorBoard->parentWidget())
                    QVERIFY2(b->width() >= b->sizeHint().width(), qPrintable(QString("at %1%: %2 is %3 px of %4")
                                                                                 .arg(scale)
                                                                                 .arg(b->text())
                                                                                 .arg(b->width())
                                                                                 .arg(b->sizeHint().width())));
        }
    }
    void figuresStayWholeWhenTheTextGrows() {
        // At 125% the steps read "85…60" for "85 of 560", the dataset "tato…n-nb" and the date "2026-…03:39":
        // the widths the rows had set at 100% stayed.
        RunsTable t;
        t.setSettingsKey("test/figuresWhole");
        t.show();
        twb::RunSummary r;
        r.dir = r.name = r.display_name = "run-20261201-033953";
        r.status = "stopped";
        r.steps = 85;
        r.created = "2026-12-01T03:39:53Z";
        r.config = {{"max_iters", "560"}, {"data_dir", "/data/tatoeba-en-nb"}, {"n_layer", "3"}};
        t.setRuns({r});
        for (const auto figure :
             {RunsTableModel::Steps, RunsTableModel::Dataset, RunsTableModel::Created})  // as a user left them
            if (const int c = t.tableModel()->columnOf(figure); c >= 0)
                t.setColumnWidth(c, t.fontMetrics().horizontalAdvance(t.model()->index(0, c).data().toString()) + 12);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        const qreal before = t.font().pointSizeF();
        QCOMPARE(TextScale::apply(150), 150);
        auto whole = [&t] {
            for (const auto figure : {RunsTableModel::Steps, RunsTableModel::Dataset, RunsTableModel::Created})
                if (const int c = t.tableModel()->columnOf(figure);
                    t.columnWidth(c) <= t.fontMetrics().horizontalAdvance(t.model()->index(0, c).data().toString()))
                    return false;
            return true;
        };
        QTRY_VERIFY(t.font().pointSizeF() > 1.4 * before);  // the larger text has come
        QTRY_VERIFY(whole());
        QCOMPARE(t.model()->index(0, t.tableModel()->columnOf(RunsTableModel::Steps)).data().toString(),
                 QString("85 of 560"));
    }
    void nameAndNotesPersist() {
        {
            RunsPanel p;
            refreshed(p);
            QVERIFY(p.table()->selectRun(m_finished));
            p.notesEdit()->setPlainText("lr 1e-3, no dropout");
            QSignalSpy done(&p, &RunsPanel::refreshed);
            p.nameEdit()->setText("fortunes baseline");
            QTest::keyClick(p.nameEdit(), Qt::Key_Return);  // Enter saves name and notes
            QVERIFY(done.wait(20000));
            QCOMPARE(cell(p.table(), m_finished, RunsTableModel::Name), QString("fortunes baseline"));
        }
        const auto info = twb::read_run_info(m_finished.toStdString());
        QCOMPARE(info.name, std::string("fortunes baseline"));
        QCOMPARE(info.notes, std::string("lr 1e-3, no dropout"));
        RunsPanel later;  // a new session reads them back
        refreshed(later);
        QVERIFY(later.table()->selectRun(m_finished));
        QCOMPARE(later.nameEdit()->text(), QString("fortunes baseline"));
        QCOMPARE(later.notesEdit()->toPlainText(), QString("lr 1e-3, no dropout"));
        QVERIFY(later.renameRun(m_finished, "baseline 2"));
        QCOMPARE(twb::read_run_info(m_finished.toStdString()).name, std::string("baseline 2"));
    }
    void aDamagedRunJsonIsSaidAndNotTypedInto() {
        // A damaged run.json read as "unnamed" without a word; a name typed there was refused only at Save.
        const std::string info = m_interrupted.toStdString() + "/run.json";
        twb::write_file_atomic(info, "{bad");
        RunsPanel p;
        refreshed(p);
        QVERIFY(p.table()->selectRun(m_interrupted));
        QVERIFY2(p.lastError().contains("run.json is damaged (not valid JSON)"), qPrintable(p.lastError()));
        QVERIFY(!p.nameEdit()->isEnabled() && !p.notesEdit()->isEnabled());
        QVERIFY2(!p.nameEdit()->placeholderText().contains("unnamed"), qPrintable(p.nameEdit()->placeholderText()));
        QCOMPARE(twb::read_file(info), std::string("{bad"));  // kept as it was
        QVERIFY(p.table()->selectRun(m_finished));            // another run: its own details, no word of the other's
        QVERIFY(p.lastError().isEmpty());
        QVERIFY(p.nameEdit()->isEnabled());
        QVERIFY(QFile::remove(QString::fromStdString(info)));
    }
    void savingByKeyKeepsTheFocusInTheName() {
        // Enter (or Ctrl+Return) saved, and the refresh after it left the focus elsewhere (on the side bar in
        // the window): the name field, disabled while the table was refilled, had lost it.
        RunsPanel p;
        p.resize(1000, 600);
        p.show();
        QVERIFY(QTest::qWaitForWindowActive(&p));
        refreshed(p);
        QVERIFY(p.table()->selectRun(m_interrupted));
        p.nameEdit()->setFocus();
        p.nameEdit()->setText("by keyboard");
        QSignalSpy done(&p, &RunsPanel::refreshed);
        QTest::keyClick(p.nameEdit(), Qt::Key_Return);
        QVERIFY(done.wait(20000));
        QCOMPARE(twb::read_run_info(m_interrupted.toStdString()).name, std::string("by keyboard"));
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(p.nameEdit()));
        QVERIFY(QFile::remove(m_interrupted + "/run.json"));
    }
    void theFilterShowsTheRunsHoldingEveryWord() {
        // A workspace of many runs had no way to find one but scrolling.
        RunsPanel p;
        p.resize(1000, 600);
        p.show();
        QVERIFY(QTest::qWaitForWindowActive(&p));
        refreshed(p);
        const auto summary = [&p] { return p.findChild<QLabel*>("runsSummary")->text(); };
        QVERIFY(p.table()->selectRun(m_finished));
        QTest::keyClick(&p, Qt::Key_F, Qt::ControlModifier);  // Ctrl+F: to the filter
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(p.filterEdit()));
        QTest::keyClicks(p.filterEdit(), "STOPPED inter");  // the status and the folder, in any case and order
        QCOMPARE(p.table()->shownRuns(), 1);
        QCOMPARE(p.table()->runAt(0), m_interrupted);
        // The selected run was hidden: the one shown is selected, and its details are shown
        QCOMPARE(p.table()->selectedRuns(), QStringList{m_interrupted});
        QVERIFY2(p.nameEdit()->placeholderText().contains("(interrupted)"),
                 qPrintable(p.nameEdit()->placeholderText()));
        QVERIFY2(summary().contains("1 of 2 shown"), qPrintable(summary()));
        p.filterEdit()->setText("small finished");  // the dataset and the status
        QCOMPARE(p.table()->shownRuns(), 1);
        QCOMPARE(p.table()->runAt(0), m_finished);
        p.filterEdit()->setText("inter");
        refreshed(p);  // a refresh keeps the filter
        QCOMPARE(p.table()->shownRuns(), 1);
        p.filterEdit()->setText("no-such-run");
        QCOMPARE(p.table()->shownRuns(), 0);
        QVERIFY2(summary().contains("none matches “no-such-run”"), qPrintable(summary()));
        QVERIFY(p.table()->selectedRuns().isEmpty());
        QCOMPARE(p.findChildren<QPushButton*>().first()->text(), QString("Open"));
        QVERIFY(!p.findChildren<QPushButton*>().first()->isEnabled());  // nothing to open
        QTest::keyClick(p.table(), Qt::Key_Escape);                     // Escape clears it, also from the table
        QVERIFY(p.filterEdit()->text().isEmpty());
        QCOMPARE(p.table()->shownRuns(), 2);
        QVERIFY2(!summary().contains("shown"), qPrintable(summary()));
        // A name saved that the filter no longer matches: the row goes, and the name went into that run (the
        // saved message named no run: the fields' run had changed under the save)
        QVERIFY(p.table()->selectRun(m_interrupted));
        p.notesEdit()->setPlainText("probe");
        p.saveDetails();
        refreshed(p);  // a listing begun before the save gives way to one after it
        QCOMPARE(p.table()->summary(m_interrupted)->notes, std::string("probe"));
        p.filterEdit()->setText("probe");  // its notes
        QCOMPARE(p.table()->selectedRuns(), QStringList{m_interrupted});
        QSignalSpy said(&p, &PanelBase::statusMessage);
        QSignalSpy edited(&p, &RunsPanel::runEdited);
        p.notesEdit()->setPlainText("other");
        p.nameEdit()->setText("lr test");
        p.saveDetails();
        QCOMPARE(p.table()->shownRuns(), 0);
        QCOMPARE(twb::read_run_info(m_interrupted.toStdString()).name, std::string("lr test"));
        QCOMPARE(edited.value(0).value(0).toString(), m_interrupted);
        QVERIFY(!said.isEmpty());
        QVERIFY2(said.first().value(0).toString().endsWith("of interrupted"),
                 qPrintable(said.first().value(0).toString()));
        QVERIFY(QFile::remove(m_interrupted + "/run.json"));
        // With the selected run hidden, the first run shown is selected (the neighbour the table moved to was)
        p.filterEdit()->clear();
        refreshed(p);
        QVERIFY(p.table()->selectRun(p.table()->runAt(1)));
        p.filterEdit()->setText(QFileInfo(p.table()->runAt(0)).fileName());
        QCOMPARE(p.table()->shownRuns(), 1);
        QCOMPARE(p.table()->selectedRuns(), QStringList{p.table()->runAt(0)});
        p.filterEdit()->clear();
    }
    void aLongNameIsCutInTheComparisonLegend() {
        // A 300-character label took the legend: the other entries were left a letter each.
        MetricsPlot plot;
        const QString longName = QString("very long label ").repeated(19);
        plot.setRunName(longName);
        plot.addComparison(longName, {});
        for (int i = 0; i < plot.lossPlot()->graphCount(); ++i)
            QVERIFY2(plot.lossPlot()->graph(i)->name().size() <= 45, qPrintable(plot.lossPlot()->graph(i)->name()));
        QVERIFY(plot.lossPlot()->graph(plot.lossPlot()->graphCount() - 1)->name().endsWith(QChar(0x2026)));
    }
    void typedDetailsAreKeptWithoutEnter() {
        // Typed and not saved, a name and notes were dropped by a refresh, another run or another panel.
        RunsPanel p;
        refreshed(p);
        QVERIFY(p.table()->selectRun(m_finished));
        p.nameEdit()->clear();
        QTest::keyClicks(p.nameEdit(), "typed name");
        {
            QSignalSpy spy(&p, &RunsPanel::refreshed);
            p.findChild<QPushButton*>("refreshRuns")->click();  // Refresh (Ctrl+Shift+L)
            QVERIFY(spy.wait(20000));
        }
        QCOMPARE(p.nameEdit()->text(), QString("typed name"));
        QCOMPARE(twb::read_run_info(m_finished.toStdString()).name, std::string("typed name"));
        p.notesEdit()->clear();
        QTest::keyClicks(p.notesEdit(), "typed notes");
        const std::string notes = p.notesEdit()->toPlainText().toStdString();
        QVERIFY(p.table()->selectRun(m_interrupted));  // another run chosen
        QCOMPARE(twb::read_run_info(m_finished.toStdString()).notes, notes);
        // Back on it before any refresh: the fields and the table show what was kept, and a save keeps the
        // name (the fields showed the table's old, empty one, and Save wrote it over the kept name)
        QVERIFY(p.table()->selectRun(m_finished));
        QCOMPARE(p.nameEdit()->text(), QString("typed name"));
        QCOMPARE(p.notesEdit()->toPlainText().toStdString(), notes);
        QCOMPARE(p.table()->summary(m_finished)->display_name, std::string("typed name"));
        p.saveDetails();
        QCOMPARE(twb::read_run_info(m_finished.toStdString()).name, std::string("typed name"));
        QVERIFY(p.table()->selectRun(m_interrupted));
        QTest::keyClicks(p.nameEdit(), "x");
        p.show();
        p.hide();  // another panel
        QCOMPARE(twb::read_run_info(m_interrupted.toStdString()).name, p.nameEdit()->text().toStdString());
        QVERIFY(!p.nameEdit()->text().isEmpty());
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
    }
    void aRenameReachesEveryRunChooser() {
        // The Embeddings tab's chooser kept the old name after a rename in the Runs view.
        MainWindow w;
        RunsPanel* p = w.runsPanel();
        refreshed(*p);
        QVERIFY(w.trainingPanel()->openRun(m_finished));
        QCOMPARE(w.windowTitle(), Workspace::runName(m_finished) + " — Transformer Workbench");
        QVERIFY(p->renameRun(m_finished, "renamed everywhere"));
        const std::initializer_list<RunPicker*> pickers = {w.samplingPanel()->picker(), w.attentionPanel()->picker(),
                                                           w.attentionPanel()->embeddings()->picker()};
        // named, it keeps its folder and dataset, as the unnamed runs beside it show theirs (it dropped them)
        for (RunPicker* picker : pickers) {
            auto* box = picker->findChild<QComboBox*>("runCombo");
            QCOMPARE(box->itemText(box->findData(m_finished)), QString("renamed everywhere (finished · small)"));
        }
        QCOMPARE(w.windowTitle(), QString("renamed everywhere — Transformer Workbench"));  // it kept "finished"
        // the name is whole in the table (it read "renamed ev…" in the width the first rows had set)
        RunsTable* t = p->table();
        const int name = t->tableModel()->columnOf(RunsTableModel::Name);
        t->setColumnWidth(name, 40);
        refreshed(*p);
        const int whole = static_cast<QAbstractItemView*>(t)->sizeHintForColumn(name);  // public there
        QVERIFY2(t->columnWidth(name) >= std::min(whole, 260),
                 qPrintable(QString("%1 < %2").arg(t->columnWidth(name)).arg(whole)));
        QVERIFY(p->renameRun(m_finished, ""));
    }
    void duplicateFillsTheFormAndCompareOverlays() {
        MainWindow w;
        RunsPanel* p = w.runsPanel();
        refreshed(*p);
        TrainingPanel* tp = w.trainingPanel();
        QVERIFY(p->table()->selectRun(m_interrupted));
        tp->form()->applyPreset("tiny");  // something else in the form first
        p->findChild<QPushButton*>("duplicateConfig")->click();
        const auto want = twb::read_run_config(m_interrupted.toStdString());
        QCOMPARE(tp->form()->config().n_embd, want.n_embd);
        QCOMPARE(tp->form()->config().n_layer, want.n_layer);
        QCOMPARE(tp->form()->config().max_iters, want.max_iters);
        QVERIFY(tp->currentRun().isEmpty());  // a new run: nothing of the old one is continued
        QCOMPARE(tp->findChild<QComboBox*>("dataset")->currentData().toString(), QString::fromStdString(want.data_dir));
        // Compare selected: the first selected run opens, the second is drawn over it.
        p->table()->selectAll();
        QCOMPARE(p->table()->selectedRuns().size(), 2);
        emit p->compareRequested(p->table()->selectedRuns());
        QCOMPARE(tp->currentRun(), p->table()->selectedRuns().first());
        QVERIFY(tp->plot()->comparisonPoints(0) > 0);
        // The same tokenizer: nats per token stay; bits per character can be chosen and holds other values.
        const double nats = tp->plot()->comparisonValue(0, 0);
        tp->plot()->setBitsPerChar(true);
        QVERIFY(tp->plot()->comparisonValue(0, 0) != nats);
        // The training curves (per token) go, and the plot says why; the note goes with them back.
        QVERIFY(tp->plot()->findChild<QCPTextElement*>("bpcNote"));
        tp->plot()->setBitsPerChar(false);
        QCOMPARE(tp->plot()->comparisonValue(0, 0), nats);
        QVERIFY(!tp->plot()->findChild<QCPTextElement*>("bpcNote"));
    }
    void sweepCellsCanBeListed() {
        // Sweep cells were in no runs table but their own sweep's: ticked, they are listed by sweep and cell.
        const QString cellRun = makeSweepCell();
        auto cleanup =
            qScopeGuard([this] { std::filesystem::remove_all((m_ws.path() + "/sweeps/lr-sweep").toStdString()); });
        RunsPanel p;
        p.setShowSweepCells(false);
        refreshed(p);
        QCOMPARE(p.table()->rowOf(cellRun), -1);
        p.setShowSweepCells(true);
        refreshed(p);
        QVERIFY(p.table()->rowOf(cellRun) >= 0);
        QCOMPARE(cell(p.table(), cellRun, p.table()->tableModel()->columnOf(RunsTableModel::Name)),
                 QString("lr-sweep / 000_learning_rate=1e-3"));
        const QString summary = p.findChild<QLabel*>("runsSummary")->text();
        QVERIFY2(summary.startsWith(QString("%1 run").arg(p.table()->model()->rowCount() - 1)) &&
                     summary.contains(" · 1 sweep cell"),
                 qPrintable(summary));
        QVERIFY(p.table()->rowOf(m_finished) >= 0);  // beside the runs
        p.setShowSweepCells(false);
    }
    void sweepCellsAreOfferedForComparison() {
        const QString cellRun = makeSweepCell();
        auto cleanup =
            qScopeGuard([this] { std::filesystem::remove_all((m_ws.path() + "/sweeps/lr-sweep").toStdString()); });
        QCOMPARE(Workspace::sweepCells(), QStringList{cellRun});
        MainWindow w;
        TrainingPanel* tp = w.trainingPanel();
        QVERIFY(tp->openRun(m_interrupted));
        QAction* compare = nullptr;
        for (auto* a : w.findChildren<QAction*>())
            if (a->text().remove('&') == QString("Compare runs…"))
                compare = a;
        QVERIFY(compare);
        QStringList labels;
        bool headingInert = false;
        QTimer::singleShot(0, [&] {
            auto* dlg = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            QVERIFY(dlg);
            auto* list = dlg->findChild<QListWidget*>("compareRuns");
            QVERIFY(list);
            for (int i = 0; i < list->count(); ++i) {
                QListWidgetItem* it = list->item(i);
                labels << it->text();
                if (it->text() == "Sweep cells")
                    headingInert = !(it->flags() & (Qt::ItemIsUserCheckable | Qt::ItemIsSelectable));
                if (it->data(Qt::UserRole).toString() == cellRun)
                    it->setCheckState(Qt::Checked);
            }
            dlg->accept();
        });
        compare->trigger();
        // the workspace's other run, then the sweep's cell under its heading, named by sweep and cell
        QCOMPARE(labels.size(), 3);
        QVERIFY2(labels[0].startsWith("finished"), qPrintable(labels.join(" | ")));
        QCOMPARE(labels[1], QString("Sweep cells"));
        QCOMPARE(labels[2], QString("lr-sweep / 000_learning_rate=1e-3"));
        QVERIFY(headingInert);
        // the checked cell's validation loss is drawn over the open run's
        QVERIFY(tp->plot()->comparisonPoints(0) > 0);
        for (const auto& r : twb::read_metrics((cellRun + "/metrics.csv").toStdString()))
            if (r.kind == "eval") {
                QCOMPARE(tp->plot()->comparisonValue(0, 0), r.val_loss);
                break;
            }
    }
    void deleteAsksAndRemoves() {
        // A third run, to delete.
        const QString doomed = twbtest::make_tiny_run(m_ws, "doomed", 10);
        QSettings().remove("runsView/table");  // no remembered sort: newest first
        RunsPanel p;
        refreshed(p);
        QVERIFY(p.table()->selectRun(doomed));
        QString question;
        answerNextMessageBox(QMessageBox::Cancel, &question);
        p.deleteSelected();
        QVERIFY2(question.contains("doomed"), qPrintable(question));
        QVERIFY(QFileInfo::exists(doomed + "/config.json"));  // Cancel keeps it
        // Sorted so that the doomed run is not the first row: after the delete the run that takes its
        // place (the one after it, or before it at the end) is selected, not the table's first (it jumped there).
        int nameColumn = -1;
        for (int c = 0; c < p.table()->model()->columnCount(); ++c)
            if (p.table()->model()->headerData(c, Qt::Horizontal).toString() == "Name")
                nameColumn = c;
        QVERIFY(nameColumn >= 0);
        // No widths remembered: the columns fit the rows (short names here), not fixed defaults (220 px).
        QVERIFY2(p.table()->columnWidth(nameColumn) < 200,
                 qPrintable(QString::number(p.table()->columnWidth(nameColumn))));
        p.table()->sortByColumn(nameColumn, Qt::DescendingOrder);
        if (p.table()->rowOf(doomed) == 0)
            p.table()->sortByColumn(nameColumn, Qt::AscendingOrder);
        const int row = p.table()->rowOf(doomed), rows = p.table()->model()->rowCount();
        QVERIFY(row >= 1 && rows == 3);
        const QString next =
            p.table()->model()->index(row + 1 < rows ? row + 1 : row - 1, 0).data(RunsTableModel::DirRole).toString();
        QVERIFY(p.table()->selectRun(doomed));
        QSignalSpy deleted(&p, &RunsPanel::runDeleted);
        answerNextMessageBox(QMessageBox::Yes);
        p.deleteSelected();
        QCOMPARE(deleted.count(), 1);
        QVERIFY(!QFileInfo::exists(doomed));
        QSignalSpy done(&p, &RunsPanel::refreshed);
        QVERIFY(done.wait(20000));
        QCOMPARE(p.table()->rowOf(doomed), -1);
        QCOMPARE(p.table()->selectedRuns(), QStringList{next});
        // Nothing half-deleted is left beside the runs.
        QCOMPARE(QDir(Workspace::runsDir()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 (QStringList{"finished", "interrupted"}));
    }
    void exportsToTensorBoardOffTheUiThread() {
        // Training writes tb/ itself; a run without one (tensorboard=false, or made before) gets it here.
        twb::remove_tensorboard(m_finished.toStdString());
        RunsPanel p;
        refreshed(p);
        QVERIFY(p.table()->selectRun(m_finished));
        auto* button = p.findChild<QPushButton*>("exportTensorBoard");
        QVERIFY(button && button->isEnabled());
        QSignalSpy done(&p, &RunsPanel::tensorBoardExported);
        button->click();
        QVERIFY(!button->isEnabled());  // while the job runs
        QVERIFY(done.wait(20000));
        const QStringList files = done.first().first().toStringList();
        QCOMPARE(files.size(), 1);
        QVERIFY2(files[0].startsWith(m_finished + "/tb/events.out.tfevents."), qPrintable(files[0]));
        QVERIFY(QFile::exists(files[0]));
        QVERIFY(button->isEnabled());
        // The command that shows them stays on the panel, whole (the status bar cut it before its folder).
        auto* note = p.findChild<QLabel*>("tensorBoardNote");
        QVERIFY(note && note->isVisibleTo(&p));
        QVERIFY2(note->text().endsWith("tensorboard --logdir " + m_finished + "/tb"), qPrintable(note->text()));
        // Not a run: the panel says why.
        QTemporaryDir notRun;
        p.exportTensorBoard({notRun.path()});
        auto* error = p.findChild<ErrorLabel*>();
        QTRY_VERIFY_WITH_TIMEOUT(error->error().contains("is not a run"), 20000);
        QVERIFY(!QFile::exists(notRun.path() + "/tb"));
    }
    void compareInBitsPerCharacterIsForTheComparisonOnly() {
        // Runs with different tokenizers are compared in bits per character; the next single run (opened,
        // or a new one with Ctrl+N) shows the unit it had before, and the remembered choice is untouched.
        QTemporaryDir elsewhere;
        twbtest::write(twbtest::path(elsewhere, "c.txt"), twbtest::english_like(20000));
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(elsewhere, "c.txt").string()};
        o.tokenizer.kind = twb::TokenizerKind::Byte;
        o.out = twbtest::path(elsewhere, "bytes");
        twb::prepare_dataset(o);
        twb::TrainJob job;
        job.config = twb::read_run_config(m_finished.toStdString());
        job.config.data_dir = o.out.string();
        job.config.vocab_size = twb::open_prepared(o.out).vocab_size;
        job.config.max_iters = job.config.lr_decay_iters = job.config.eval_interval = 5;
        job.run_dir = twbtest::path(elsewhere, "byte-run").string();
        twb::train(job);
        const QString byteRun = QString::fromStdString(job.run_dir);

        MainWindow w;
        TrainingPanel* tp = w.trainingPanel();
        auto* unit = tp->findChild<QComboBox*>("lossUnit");
        QVERIFY(tp->openRun(m_finished));
        unit->setCurrentIndex(0);
        emit w.runsPanel()->compareRequested({m_finished, byteRun});
        QCOMPARE(unit->currentIndex(), 1);  // different tokenizers: bits per character
        QVERIFY(tp->plot()->bitsPerChar());
        QVERIFY(tp->openRun(m_interrupted));  // one run again
        QCOMPARE(unit->currentIndex(), 0);
        QVERIFY(!tp->plot()->bitsPerChar());
        emit w.runsPanel()->compareRequested({m_finished, byteRun});
        QCOMPARE(unit->currentIndex(), 1);
        tp->newRun();  // Ctrl+N
        QCOMPARE(unit->currentIndex(), 0);
        QCOMPARE(QSettings().value("plotLossUnit", 0).toInt(), 0);
    }
};

QTEST_MAIN(TestRunsPanel)
#include "tst_runs_panel.moc"
