// The main window composes the five panels, offers the documented shortcuts and remembers its panel; it
// opens within a 1280x720 screen, and the Run menu's actions follow the training panel's state. At
// start-up an interrupted run is offered for resuming, and resuming continues that run to its end. Its jobs
// service runs work off the UI thread, shows it in the status bar with Cancel, and turns a throw into an error;
// a status message is cut to the room a running job's line leaves it, and goes in its time while the job runs.
#include "test_util.h"
#include "twb/run_folder.h"
#include "twb/text.h"
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/datasets/DatasetsPanel.h"
#include "ui/datasets/ImportTab.h"
#include "ui/experiments/ExperimentsPanel.h"
#include "ui/jobs/JobsService.h"
#include "ui/jobs/JobsStatus.h"
#include "ui/runs/RunsPanel.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/ColumnScroll.h"
#include "ui/widgets/RunsTable.h"
#include "ui/widgets/RuntimeLabel.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <nlohmann/json.hpp>

#include <qcustomplot.h>
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScopeGuard>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
private slots:
    void initTestCase() { twbtest::use_test_workspace(m_ws); }
    void aWorkspaceThatIsGoneIsSaidNotMadeAgain() {
        const QString gone = m_ws.path() + "/unmounted/drive";
        QSettings().setValue("workspace", gone);
        QVERIFY(Workspace::problemAtStart().contains("does not exist"));
        QVERIFY(!QFileInfo::exists(gone));  // asking created nothing
        const QString file = m_ws.path() + "/a-file";
        twbtest::write(file.toStdString(), "x");
        QSettings().setValue("workspace", file);
        QVERIFY(Workspace::problemAtStart().contains("is a file"));
        Workspace::setRoot(m_ws.path());
        QCOMPARE(Workspace::problemAtStart(), QString());
    }
    void panelsFollowANewWorkspace() {
        // File → Set workspace folder left Runs listing the old workspace's runs until Refresh, Datasets its
        // datasets, and Experiments proposing a sweep folder in the old one.
        QTemporaryDir before, after;
        twbtest::make_tiny_run(before, "old", 10);
        MainWindow w;
        QSignalSpy listed(w.runsPanel(), &RunsPanel::refreshed);
        w.runsPanel()->refresh();
        QVERIFY(listed.wait(20000));
        QCOMPARE(w.runsPanel()->table()->runs().size(), size_t(1));
        QVERIFY(w.experimentsPanel()->sweepFolder().startsWith(before.path()));
        QVERIFY(w.datasetsPanel()->preparedList()->count() > 0);
        Workspace::setRoot(after.path());
        w.workspaceChanged();
        QVERIFY(listed.wait(20000));
        QCOMPARE(w.runsPanel()->table()->runs().size(), size_t(0));
        QVERIFY2(w.experimentsPanel()->sweepFolder().startsWith(after.path()),
                 qPrintable(w.experimentsPanel()->sweepFolder()));
        QCOMPARE(w.datasetsPanel()->preparedList()->count(), 0);
        Workspace::setRoot(m_ws.path());
    }
    void folderNamesKeepEveryScriptsLetters() {
        // Every name in a script other than Latin became "-": one dataset replaced another.
        QCOMPARE(Workspace::folderName("文字"), QString("文字"));
        QVERIFY(Workspace::folderName("日本") != Workspace::folderName("文字"));
        QCOMPARE(Workspace::folderName(" sp ace ünïcødé 文字 "), QString("sp-ace-ünïcødé-文字"));
        QCOMPARE(Workspace::folderName("Bokmål/nynorsk"), QString("Bokmål-nynorsk"));
        QCOMPARE(Workspace::folderName("../x"), QString("x"));
        QCOMPARE(Workspace::folderName("..."), QString());
        QCOMPARE(Workspace::folderName("?!"), QString());
        QCOMPARE(Workspace::folderName(QString(200, 'a')).size(), 80);
    }
    void composesPanelsAndShortcuts() {
        MainWindow w;
        auto* nav = w.findChild<QListWidget*>("navigation");
        QVERIFY(nav);
        QStringList names;
        for (int i = 0; i < nav->count(); ++i)
            names << nav->item(i)->text();
        QCOMPARE(names, (QStringList{"Datasets", "Training", "Attention", "Sampling", "Experiments", "Runs"}));
        QVERIFY(w.trainingPanel());
        // each navigation entry shows its panel
        auto* stack = w.findChild<QStackedWidget*>();
        QCOMPARE(stack->widget(0), static_cast<QWidget*>(w.datasetsPanel()));
        QCOMPARE(stack->widget(1), static_cast<QWidget*>(w.trainingPanel()));
        QCOMPARE(stack->widget(2), static_cast<QWidget*>(w.attentionPanel()));
        QCOMPARE(stack->widget(3), static_cast<QWidget*>(w.samplingPanel()));
        QCOMPARE(stack->widget(4), static_cast<QWidget*>(w.experimentsPanel()));
        QCOMPARE(stack->widget(5), static_cast<QWidget*>(w.runsPanel()));
        QStringList shortcuts;
        for (auto* top : w.menuBar()->actions())
            if (top->menu())
                for (auto* a : top->menu()->actions())
                    shortcuts << a->shortcut().toString();
        for (auto s : {"Ctrl+N", "Ctrl+O", "Ctrl+Q", "F5", "F6", "Shift+F5", "Ctrl+S", "Ctrl+R", "F1", "Ctrl+/",
                       "Alt+5", "Alt+6", "Ctrl+L", "Ctrl+Shift+R", "Ctrl+Shift+E"})
            QVERIFY2(shortcuts.contains(s), qPrintable(shortcuts.join(" ")));
        QVERIFY(w.showPanel("Sampling"));
        QCOMPARE(w.findChild<QStackedWidget*>()->currentIndex(), 3);
        QVERIFY(w.showPanel("datasets"));  // --panel datasets was ignored
        QCOMPARE(w.findChild<QStackedWidget*>()->currentIndex(), 0);
        QVERIFY(!w.showPanel("Sampler"));
        QCOMPARE(w.findChild<QStackedWidget*>()->currentIndex(), 0);
        QVERIFY(w.showPanel("Sampling"));
        w.close();
        QCOMPARE(QSettings().value("window/panel").toString(), QString("Sampling"));
    }
    /// A panel's own key that a menu also binds does nothing where that panel is shown: Qt finds two and
    /// reports an "ambiguous shortcut overload" (the Runs panel's Ctrl+S and Ctrl+Shift+R did, against the Run
    /// menu's Save checkpoint and Start sweep). No panel may bind a key of the menus.
    void panelKeysLeaveTheMenusTheirs() {
        MainWindow w;
        QList<QAction*> inMenus;
        QStringList menuKeys;
        for (auto* top : w.menuBar()->actions())
            if (top->menu())
                for (auto* a : top->menu()->actions()) {
                    inMenus << a;
                    for (const auto& k : a->shortcuts())
                        menuKeys << k.toString();
                }
        QVERIFY(menuKeys.contains("Ctrl+S") && menuKeys.contains("Ctrl+Shift+R"));
        auto* stack = w.findChild<QStackedWidget*>();
        QVERIFY(stack);
        QStringList clashes;
        for (int i = 0; i < stack->count(); ++i) {
            QWidget* panel = stack->widget(i);
            QList<QKeySequence> keys;
            for (auto* s : panel->findChildren<QShortcut*>())
                keys << s->key();
            for (auto* a : panel->findChildren<QAction*>())
                if (!inMenus.contains(a))
                    keys << a->shortcuts();
            for (auto* b : panel->findChildren<QAbstractButton*>())
                keys << b->shortcut();
            for (const auto& k : keys)
                if (!k.isEmpty() && menuKeys.contains(k.toString()))
                    clashes << QString("%1: %2").arg(panel->metaObject()->className(), k.toString());
        }
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(", ")));
    }
    /// What a walk with the keyboard only met: Tab typed tabs into the prompts, walked every cell of a table
    /// and wrapped (the Runs and Embeddings tables, the sweep's axes: the controls after them unreachable),
    /// two entries of one menu shared a mnemonic (Alt+R, C only highlighted), and Alt+1..6 left the focus on
    /// the side bar, where the panel's own keys (F2, Ctrl+D in Runs) did nothing.
    void theKeyboardIsNotTrapped() {
        MainWindow w;
        const QStringList clashes = twbtest::mnemonic_clashes(w.menuBar());
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join("; ")));
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QStringList traps;  // every panel's, the hidden ones' too
        for (auto* e : w.findChildren<QPlainTextEdit*>())
            if (!e->tabChangesFocus())
                traps << e->objectName() + " types tabs";
        for (auto* v : w.findChildren<QAbstractItemView*>())
            if (v->tabKeyNavigation())
                traps << QString("%1 %2 walks its cells").arg(v->metaObject()->className(), v->objectName());
        QVERIFY2(traps.isEmpty(), qPrintable(traps.join(", ")));
        w.findChild<QListWidget*>("navigation")->setFocus();
        for (auto* top : w.menuBar()->actions())
            if (top->menu())
                for (auto* a : top->menu()->actions())
                    if (a->shortcut() == QKeySequence(Qt::ALT | Qt::Key_6))
                        a->trigger();
        QCOMPARE(w.findChild<QStackedWidget*>()->currentWidget(), static_cast<QWidget*>(w.runsPanel()));
        QVERIFY2(w.runsPanel()->isAncestorOf(QApplication::focusWidget()),
                 QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "no focus");
        for (auto* top : w.menuBar()->actions())  // Alt+4: the prompt, where typing starts
            if (top->menu())
                for (auto* a : top->menu()->actions())
                    if (a->shortcut() == QKeySequence(Qt::ALT | Qt::Key_4))
                        a->trigger();
        QCOMPARE(QApplication::focusWidget()->objectName(), QString("prompt"));
    }
    /// Help → Keyboard shortcuts lists every key the window binds: each QAction's, QShortcut's and button's
    /// found in it (it listed the menus' only: Ctrl+Return, Esc, F2, Del, Ctrl+E, Ctrl+M were missing).
    void shortcutsDialogListsEveryBoundKey() {
        MainWindow w;
        QStringList bound;
        for (auto* a : w.findChildren<QAction*>())
            if (!a->shortcut().isEmpty())
                bound << a->shortcut().toString(QKeySequence::NativeText);
        for (auto* s : w.findChildren<QShortcut*>())
            if (!s->key().isEmpty())
                bound << s->key().toString(QKeySequence::NativeText);
        for (auto* b : w.findChildren<QAbstractButton*>())
            if (!b->shortcut().isEmpty())
                bound << b->shortcut().toString(QKeySequence::NativeText);
        bound.removeDuplicates();
        for (auto k : {"Ctrl+Return", "Esc", "F2", "Del", "Ctrl+E", "Ctrl+M"})
            QVERIFY2(bound.contains(k), k);  // the keys the issue found missing are bound somewhere
        QString text;
        QSize boxSize, screenSize;
        int labelWidth = 0, labelHeight = 0, textHeight = 0, viewWidth = 0;
        QTimer::singleShot(0, &w, [&] {
            auto* box = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (box) {
                if (auto* l = box->findChild<QLabel*>("shortcutsText")) {
                    text = l->text();
                    labelWidth = l->width();
                    labelHeight = l->height();
                    textHeight = l->heightForWidth(l->width());
                    viewWidth = l->parentWidget()->width();  // the scroll area's viewport
                }
                boxSize = box->size();
                screenSize = box->screen()->availableGeometry().size();
                box->reject();
            }
        });
        QAction* help = nullptr;
        for (auto* a : w.findChildren<QAction*>())
            if (a->text().remove('&') == "Keyboard shortcuts")
                help = a;
        QVERIFY(help);
        help->trigger();  // the modal box: read and closed by the timer above
        QVERIFY(!text.isEmpty());
        for (const QString& k : bound)
            QVERIFY2(text.contains("<b>" + k.toHtmlEscaped() + "</b>"), qPrintable(k + " is not listed"));
        // It fits the screen (it scrolls where the list is longer).
        QVERIFY2(boxSize.height() <= screenSize.height() && boxSize.width() <= screenSize.width(),
                 qPrintable(QString("%1x%2 on %3x%4")
                                .arg(boxSize.width())
                                .arg(boxSize.height())
                                .arg(screenSize.width())
                                .arg(screenSize.height())));
        // Never sideways: the rows wrap to the dialog's width (150% text at 1280x720 scrolled both ways);
        // up and down the label is as tall as its wrapped text.
        QVERIFY2(labelWidth <= viewWidth, qPrintable(QString("list %1 px wide in %2").arg(labelWidth).arg(viewWidth)));
        QVERIFY2(labelHeight >= textHeight,
                 qPrintable(QString("list %1 px high, its text %2").arg(labelHeight).arg(textHeight)));
    }
    void aTextSizeChangeKeepsTheFormWhereItWas() {
        // Each Ctrl+= or Ctrl+- showed another section of the Training form (the scroll kept its pixels).
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showPanel("Training");
        auto* steps = w.trainingPanel()->form()->findChild<QWidget*>("max_iters");
        QScrollArea* scroll = nullptr;
        for (QWidget* p = steps; p && !scroll; p = p->parentWidget())
            scroll = qobject_cast<QScrollArea*>(p);
        QVERIFY(steps && scroll);
        const auto topOfView = [&] { return steps->mapTo(scroll->viewport(), QPoint()).y(); };
        scroll->verticalScrollBar()->setValue(steps->mapTo(scroll->widget(), QPoint()).y());
        QCOMPARE(topOfView(), 0);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        for (int scale : {150, 100, 125}) {
            const int before = scroll->widget()->height();
            QCOMPARE(TextScale::apply(scale), scale);
            QTRY_VERIFY(scroll->widget()->height() != before);  // the column laid out at the new size
            QCoreApplication::processEvents();
            QVERIFY2(std::abs(topOfView()) <= steps->height(),
                     qPrintable(QString("at %1%: Steps %2 px from the top").arg(scale).arg(topOfView())));
        }
    }
    void aControlMovedOutOfTheColumnDuringATextSizeChangeIsLetGo() {
        // The control at the view's top is kept to scroll back to once the column is laid out at the new
        // size; moved out of the column meanwhile, scrolling to it walked QWidget::mapTo up to a null parent.
        auto* column = new QWidget;
        auto* rows = new QVBoxLayout(column);
        QList<QLabel*> labels;
        for (int i = 0; i < 40; ++i)
            rows->addWidget(labels.emplace_back(new QLabel(QString("row %1").arg(i))));
        ColumnScroll scroll(column);
        scroll.resize(300, 200);
        scroll.show();
        QVERIFY(QTest::qWaitForWindowExposed(&scroll));
        scroll.verticalScrollBar()->setValue(labels[20]->mapTo(column, QPoint()).y() + 1);
        QVERIFY(scroll.verticalScrollBar()->value() > 0);
        QWidget elsewhere;
        QFont bigger = column->font();
        bigger.setPointSizeF(bigger.pointSizeF() * 1.5);
        column->setFont(bigger);  // the anchor is taken now (the FontChange), the scroll waits for the layout
        for (QLabel* l : labels)
            l->setParent(&elsewhere);  // the column rebuilt: its rows are another widget's
        QCoreApplication::processEvents();
        QCOMPARE(labels[20]->parentWidget(), &elsewhere);
        QVERIFY(scroll.isVisible());  // and the program is still here
    }
    void everyTabIsInSightInLargerText() {
        // At 150% text on 1280x720 the Sampling panel's first tab scrolled out of its bar ("ate") and the
        // Datasets panel's last one too: every tab stays in its bar, its title shortened where needed (the Sampling
        // console's are short enough to stay whole).
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        int bars = 0;
        for (const QString panel : {"Datasets", "Attention", "Sampling"}) {
            w.showPanel(panel);
            QCoreApplication::processEvents();
            for (QTabBar* bar : w.findChildren<QTabBar*>()) {
                if (!bar->isVisible())
                    continue;
                ++bars;
                // Every title whole or in its short form: the Sampling console's were cut ("Gener…", "Hist…",
                // "Ch…"), the Datasets panel's ("Import & cl…", "Catalo…") and Attention's ("Va…", "Posisjo…")
                for (int i = 0; i < bar->count(); ++i)
                    QVERIFY2(bar->tabRect(i).width() > bar->fontMetrics().horizontalAdvance(bar->tabText(i)) + 8,
                             qPrintable(QString("'%1' in %2 px").arg(bar->tabText(i)).arg(bar->tabRect(i).width())));
                for (int i = 0; i < bar->count(); ++i)
                    QVERIFY2(bar->rect().contains(bar->tabRect(i)),
                             qPrintable(QString("%1: tab '%2' at x %3..%4 of a bar %5 wide")
                                            .arg(panel, bar->tabText(i))
                                            .arg(bar->tabRect(i).left())
                                            .arg(bar->tabRect(i).right())
                                            .arg(bar->width())));
            }
        }
        QVERIFY(bars >= 3);
        // Import's before/after preview one above the other, not side by side in two strips of 125 px
        QCOMPARE(w.findChild<ImportTab*>()->previewOrientation(), Qt::Vertical);
        // Tokenize's options and inspector never lie on each other (at 150% in Bokmål the inspector covered
        // the options' right half): side by side where both fit, else one above the other
        w.showPanel("Datasets");
        auto* tabs = w.datasetsPanel()->findChild<QTabWidget*>();
        tabs->setCurrentIndex(1);
        auto* options = tabs->currentWidget()->findChild<QWidget*>("tokenizeOptions");
        auto* inspector = tabs->currentWidget()->findChild<QWidget*>("tokenizeInspector");
        QTRY_VERIFY(options->isVisible() && inspector->isVisible());
        QVERIFY2(!options->geometry().intersects(inspector->geometry()),
                 qPrintable(QString("options %1 px from x %2, inspector from x %3")
                                .arg(options->width())
                                .arg(options->x())
                                .arg(inspector->x())));
        // "Or reuse" has room for a folder's name (it read "tra…" beside its label and Choose…)
        auto* reuse = tabs->currentWidget()->findChild<QLineEdit*>("tokenizerFrom");
        QVERIFY2(reuse->width() >= 10 * reuse->fontMetrics().averageCharWidth(),
                 qPrintable(QString("%1 px").arg(reuse->width())));
    }
    void shortcutsDialogWrapsInLargerText() {
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        shortcutsDialogListsEveryBoundKey();
    }
    void jobsRunOffTheUiThreadWithProgressCancelAndErrors() {
        MainWindow w;
        JobsService* jobs = w.jobs();
        auto* status = w.findChild<JobsStatus*>("jobsStatus");
        QVERIFY(status);
        QThread* ui = QThread::currentThread();
        // A result comes back on the UI thread; the work ran elsewhere.
        QThread* ranOn = nullptr;
        int result = 0;
        QPointer<Job> done = jobs->run(
            QStringLiteral("adding"),
            [&ranOn](JobContext& ctx) {
                ranOn = QThread::currentThread();
                ctx.setProgress(0.5, "half");
                return 42;
            },
            &w, [&result](int r) { result = r; });
        QTRY_COMPARE(result, 42);
        QVERIFY(ranOn && ranOn != ui);
        QTRY_VERIFY(!done);  // deleted once over
        // A job that waits for Cancel is listed in the status bar; its Cancel ends it with the cancel text.
        QString error;
        bool succeeded = false;
        Job* waiting = jobs->run(
            QStringLiteral("waiting"),
            [](JobContext& ctx) {
                while (!ctx.cancelled())
                    QThread::msleep(5);
                return 0;
            },
            &w, [&succeeded](int) { succeeded = true; }, [&error](const QString& e) { error = e; });
        waiting->setCancelText("stopped on request");
        QVERIFY(jobs->running().contains(waiting));
        QCOMPARE(status->shownJob(), waiting);
        QVERIFY(!status->isHidden());
        auto* cancel = status->findChild<QToolButton*>("jobsCancel");
        QVERIFY(!cancel->isHidden());
        // A job that cannot stop part-way (an export) is listed without a Cancel, and cancel() leaves it be.
        Job* writing =
            jobs->track(QStringLiteral("writing"), [] { QFAIL("a job that is not cancellable was cancelled"); });
        writing->setCancellable(false);
        QCOMPARE(status->shownJob(), writing);
        QVERIFY(cancel->isHidden());
        writing->cancel();
        QVERIFY(writing->isRunning());
        writing->succeed();
        QCOMPARE(status->shownJob(), waiting);
        QVERIFY(!cancel->isHidden());
        // Long work asks first (one click beside the status message stopped a training run): No keeps it.
        waiting->setCancelQuestion(QStringLiteral("Stop waiting?"));
        auto answer = [](QMessageBox::StandardButton b, QString* asked) {
            QTimer::singleShot(0, [b, asked] {
                if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                    *asked = box->text();
                    box->button(b)->click();
                }
            });
        };
        QString asked;
        answer(QMessageBox::No, &asked);
        cancel->click();
        QCOMPARE(asked, QString("Stop waiting?"));
        QVERIFY(waiting->isRunning());
        answer(QMessageBox::Yes, &asked);
        cancel->click();
        QTRY_COMPARE(error, QString("stopped on request"));
        QVERIFY(!succeeded);
        QVERIFY(status->isHidden());
        // A throw becomes the job's error, shown by nobody else: the service reports it.
        QSignalSpy unhandled(jobs, &JobsService::unhandledError);
        jobs->run(
            QStringLiteral("throwing"), [](JobContext&) -> int { throw std::runtime_error("bad input"); }, &w,
            [](int) {});
        QTRY_COMPARE(unhandled.count(), 1);
        QCOMPARE(unhandled.first().at(1).toString(), QString("bad input"));
    }
    void aStatusMessageMakesRoomForAJob() {
        // A message shown before a job starts is cut again to the room the job's line leaves it (the
        // training panel's "...recorded as a CUDA graph" ran under the job's line), so is one shown while
        // it runs, and a long job line is cut itself, its title before its own text (a run's step and loss).
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString longText = QString("the training step is recorded as a CUDA graph and replayed; ").repeated(6);
        emit w.trainingPanel()->statusMessage(longText);
        const QString alone = w.statusBar()->currentMessage();
        QVERIFY2(alone.endsWith(QChar(0x2026)), qPrintable(alone));  // cut to the bar's width, with an ellipsis
        Job* job = w.jobs()->track(QString("Training run-20261128-214935 with a name as long as a sentence"), [] {});
        job->setProgress(0.1, QString("step 50 / 400 · loss 0.8670"));
        auto* status = w.findChild<JobsStatus*>("jobsStatus");
        QTRY_VERIFY(status->isVisible());
        auto* jobLine = status->findChild<QLabel*>();
        QVERIFY2(jobLine->text().endsWith(": step 50 / 400 · loss 0.8670"), qPrintable(jobLine->text()));
        QVERIFY2(status->sizeHint().width() < w.statusBar()->width() / 2,
                 qPrintable(QString::number(status->sizeHint().width())));
        // The bar draws its message from x = 6 to 2 pixels before its first permanent widget.
        const auto fits = [&] {
            w.statusBar()->layout()->activate();
            const QString shown = w.statusBar()->currentMessage();
            const int end = 6 + w.statusBar()->fontMetrics().horizontalAdvance(shown);
            return std::make_pair(
                end <= status->x() - 2,
                QString("'%1' ends at %2, the job's line starts at %3").arg(shown).arg(end).arg(status->x()));
        };
        QVERIFY(w.statusBar()->currentMessage().size() < alone.size());
        QVERIFY2(fits().first, qPrintable(fits().second));
        emit w.trainingPanel()->statusMessage(longText);  // a message while the job runs
        QVERIFY2(fits().first, qPrintable(fits().second));
        // It goes after its 8 seconds though the job reports progress all the while (each report showed
        // it anew, which kept it up as long as training ran).
        QTimer reports;
        int step = 80;
        connect(&reports, &QTimer::timeout, job, [&] { job->setProgress(0.2, QString("step %1 / 400").arg(++step)); });
        reports.start(100);
        QTRY_VERIFY_WITH_TIMEOUT(w.statusBar()->currentMessage().isEmpty(), 12000);
        QVERIFY(step > 100);  // the reports came
        job->succeed();
    }
    void aClearedErrorLeavesTheStatusBar() {
        // A panel's error repeated in the status bar goes with the error (it stayed up to 8 seconds after
        // the problem was fixed); a later message is not taken with it.
        {
            ExperimentsPanel p;  // no dataset: Start is refused, then another action clears the error
            QSignalSpy shown(&p, &PanelBase::statusMessage), withdrawn(&p, &PanelBase::statusWithdrawn);
            p.start();
            QCOMPARE(shown.count(), 1);
            QVERIFY(!p.lastError().isEmpty());
            const QString first = p.lastError();
            p.compareTokenizers({}, {});  // clears the error first, then refuses with its own
            QCOMPARE(withdrawn.count(), 1);
            QCOMPARE(withdrawn.first().at(0).toString(), first);
        }
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        emit w.experimentsPanel()->statusMessage("no dataset: choose one");
        QCOMPARE(w.statusBar()->currentMessage(), QString("no dataset: choose one"));
        emit w.experimentsPanel()->statusWithdrawn("no dataset: choose one");
        QCOMPARE(w.statusBar()->currentMessage(), QString());
        emit w.datasetsPanel()->statusMessage("Prepared data/x");
        emit w.experimentsPanel()->statusWithdrawn("no dataset: choose one");
        QCOMPARE(w.statusBar()->currentMessage(), QString("Prepared data/x"));
        w.showPanel("Datasets");
        w.showPanel("Training");  // the Datasets panel's message goes with it
        QCOMPARE(w.statusBar()->currentMessage(), QString());
        emit w.trainingPanel()->statusMessage("Training started");
        w.showPanel("Training");
        QCOMPARE(w.statusBar()->currentMessage(), QString("Training started"));
    }
    void fitsSmallScreens() {
        // 1280x720 less a 30-pixel panel; the frame (title bar, borders) must fit as well
        const QRect laptop(0, 30, 1280, 690);
        const QRect g = MainWindow::initialGeometry(laptop);
        QVERIFY(laptop.contains(g.adjusted(-8, -40, 8, 8)));
        QCOMPARE(MainWindow::initialGeometry(QRect(0, 0, 1920, 1080)).size(), QSize(1400, 860));
        // every panel can be laid out in that space: nothing is forced larger than the window
        MainWindow w;
        for (const QString name : {"Datasets", "Training", "Attention", "Sampling", "Runs"}) {
            w.showPanel(name);
            const QSize need = w.minimumSizeHint().expandedTo(w.minimumSize());
            QVERIFY2(need.width() <= g.width() && need.height() <= g.height(),
                     qPrintable(QString("%1 needs %2x%3").arg(name).arg(need.width()).arg(need.height())));
        }
    }
    void everyPanelFitsAt150PercentOn1280x720() {
        // "Even 150% at 1280x720 cuts nothing" (docs/gui.md): each panel, shown, asks for no more width than
        // the window gives it; where one asked for more, its widgets were laid out below their least and ran
        // into each other (Import's preview over its cleaning options at 175% in Bokmål)
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        MainWindow w;
        w.setGeometry(MainWindow::initialGeometry(QRect(0, 30, 1280, 690)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const std::pair<QString, QWidget*> panels[] = {
            {"Datasets", w.datasetsPanel()}, {"Training", w.trainingPanel()},       {"Attention", w.attentionPanel()},
            {"Sampling", w.samplingPanel()}, {"Experiments", w.experimentsPanel()}, {"Runs", w.runsPanel()}};
        for (const auto& [name, panel] : panels) {
            w.showPanel(name);
            QTRY_VERIFY(panel->isVisible());
            QCoreApplication::processEvents();
            QVERIFY2(panel->minimumSizeHint().width() <= panel->width(),
                     qPrintable(QString("%1 asks for %2 px of %3")
                                    .arg(name)
                                    .arg(panel->minimumSizeHint().width())
                                    .arg(panel->width())));
        }
    }
    void sideBarAndFormShowEverythingAt1280x720() {
        MainWindow w;
        w.setGeometry(MainWindow::initialGeometry(QRect(0, 30, 1280, 690)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // every side-bar entry is visible without scrolling
        auto* nav = w.findChild<QListWidget*>("navigation");
        const QRect last = nav->visualItemRect(nav->item(nav->count() - 1));
        QVERIFY2(last.bottom() <= nav->viewport()->height(),
                 qPrintable(QString("%1 > %2").arg(last.bottom()).arg(nav->viewport()->height())));
        w.showPanel("Datasets");  // at 100%, Import's before and after side by side
        QTRY_COMPARE(w.findChild<ImportTab*>()->previewOrientation(), Qt::Horizontal);
        // the config form is never wider than its scroll area's viewport, so no field runs under the bar,
        // whatever the preset puts into the fields
        w.showPanel("Training");
        ConfigForm* form = w.trainingPanel()->form();
        auto* scroll = qobject_cast<QScrollArea*>(form->parentWidget()->parentWidget());
        QVERIFY(scroll);
        for (const QString preset : {"tiny", "default", "baby-gpt", "multi30k"}) {
            form->applyPreset(preset);
            QTRY_VERIFY2(form->width() <= scroll->viewport()->width(),
                         qPrintable(QString("%1: form %2 > viewport %3")
                                        .arg(preset)
                                        .arg(form->width())
                                        .arg(scroll->viewport()->width())));
        }
    }
    /// View → Larger text (Ctrl+=) for a projector: every widget's text and every plot's fonts grow by the
    /// same step at once, the side bar fits its names, the config form still fits at 1280x720; Normal text
    /// size brings every font back exactly; the choice is remembered.
    void largerTextScalesWidgetsAndPlots() {
        MainWindow w;
        w.setGeometry(MainWindow::initialGeometry(QRect(0, 30, 1280, 690)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QMap<QString, QAction*> view;
        for (auto* top : w.menuBar()->actions())
            if (top->menu())
                for (auto* a : top->menu()->actions())
                    view[a->text().remove('&')] = a;
        QVERIFY(view.contains("Larger text") && view.contains("Smaller text") && view.contains("Normal text size"));
        QCOMPARE(view["Larger text"]->shortcut().toString(), QString("Ctrl+="));
        QCOMPARE(view["Smaller text"]->shortcut().toString(), QString("Ctrl+-"));
        QCOMPARE(view["Normal text size"]->shortcut().toString(), QString("Ctrl+0"));
        QVERIFY(view.contains("Full screen"));
        w.showPanel("Training");
        auto* plot = w.trainingPanel()->findChild<QCustomPlot*>();
        QVERIFY(plot && plot->legend);
        const double app = QApplication::font().pointSizeF(), ticks = plot->xAxis->tickLabelFont().pointSizeF(),
                     legend = plot->legend->font().pointSizeF();
        QVERIFY(app > 0 && ticks > 0 && legend > 0);
        auto* formScroll = qobject_cast<QScrollArea*>(w.trainingPanel()->form()->parentWidget()->parentWidget());
        auto* runs = w.runsPanel()->findChild<QTableView*>();
        QVERIFY(formScroll && runs);
        const int formWidth = formScroll->minimumWidth(), rowHeight = runs->verticalHeader()->defaultSectionSize();

        view["Larger text"]->trigger();
        view["Larger text"]->trigger();  // 100 → 110 → 125
        QCOMPARE(TextScale::current(), 125);
        QCOMPARE(QSettings().value("view/textScale").toInt(), 125);
        QVERIFY(std::abs(QApplication::font().pointSizeF() - 1.25 * app) < 1e-6);
        QTRY_VERIFY2(std::abs(w.trainingPanel()->font().pointSizeF() - 1.25 * app) < 1e-6,
                     qPrintable(QString("%1 at %2").arg(w.trainingPanel()->font().pointSizeF()).arg(app)));
        QVERIFY(std::abs(plot->xAxis->tickLabelFont().pointSizeF() - 1.25 * ticks) < 1e-6);
        QVERIFY(std::abs(plot->legend->font().pointSizeF() - 1.25 * legend) < 1e-6);
        for (int i = 0; i < plot->legend->itemCount(); ++i)  // once, not twice (the legend sets its items)
            QCOMPARE(plot->legend->item(i)->font().pointSizeF(), plot->legend->font().pointSizeF());
        auto* nav = w.findChild<QListWidget*>("navigation");
        QTRY_VERIFY(nav->sizeHintForColumn(0) <= nav->viewport()->width());
        QTRY_VERIFY(nav->visualItemRect(nav->item(nav->count() - 1)).bottom() <= nav->viewport()->height());
        ConfigForm* form = w.trainingPanel()->form();
        auto* scroll = qobject_cast<QScrollArea*>(form->parentWidget()->parentWidget());
        QTRY_VERIFY2(form->width() <= scroll->viewport()->width(),
                     qPrintable(QString("form %1 > viewport %2").arg(form->width()).arg(scroll->viewport()->width())));

        QTRY_VERIFY(runs->verticalHeader()->defaultSectionSize() > rowHeight);  // the rows grow with the text
        view["Normal text size"]->trigger();
        QCOMPARE(TextScale::current(), 100);
        QCOMPARE(QApplication::font().pointSizeF(), app);
        // ... and come back, as the form's width does (it kept the larger size's).
        QTRY_COMPARE(runs->verticalHeader()->defaultSectionSize(), rowHeight);
        QTRY_COMPARE(formScroll->minimumWidth(), formWidth);
        QVERIFY(std::abs(plot->xAxis->tickLabelFont().pointSizeF() - ticks) < 1e-6);
        QVERIFY(std::abs(plot->legend->font().pointSizeF() - legend) < 1e-6);
        view["Smaller text"]->trigger();
        QCOMPARE(TextScale::current(), 90);
        view["Normal text size"]->trigger();
        QCOMPARE(QSettings().value("view/textScale").toInt(), 100);
    }
    /// Help → About shows the runtime report and copies it with one click (for a bug report).
    void aboutCopiesTheRuntimeReport() {
        MainWindow w;
        QAction* about = nullptr;
        for (auto* top : w.menuBar()->actions())
            if (top->menu())
                for (auto* a : top->menu()->actions())
                    if (a->text().remove('&').startsWith("About"))
                        about = a;
        QVERIFY(about);
        QApplication::clipboard()->clear();
        QString shown;
        bool wraps = false;
        QTimer::singleShot(0, [&] {
            auto* box = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            QVERIFY(box);
            auto* report = box->findChild<QPlainTextEdit*>("runtimeReport");
            QVERIFY(report);
            shown = report->toPlainText();
            // Every line readable at any text size: wrapped to the box, which scrolls (a message box's
            // <pre> ran off its edge at 150%).
            wraps = report->lineWrapMode() == QPlainTextEdit::WidgetWidth &&
                    box->width() <= box->screen()->availableGeometry().width();
            for (auto* b : box->findChildren<QPushButton*>())
                if (b->text() == "Copy report")
                    b->click();
        });
        about->trigger();
        const QString copied = QApplication::clipboard()->text();
        QVERIFY2(!copied.isEmpty() && shown == copied, qPrintable(copied));
        QVERIFY(wraps);
    }
    void theRuntimeLineGivesTheRunsThreadsWhileItTrains() {
        // The status bar said the machine's "2 threads" while a run trained on one.
        MainWindow w;
        auto* runtime = w.findChild<RuntimeLabel*>("runtime");
        QVERIFY(runtime);
        QTRY_VERIFY_WITH_TIMEOUT(runtime->text().contains(" threads · "), 60000);  // the doctor's answer
        const QString machine = runtime->text();
        twb::TrainStartInfo info;
        info.threads = 1;
        info.dtype = "float32";
        emit w.trainingPanel()->worker()->started(info);
        const QString run = runtime->text();
        const int cores = machine.section(" · ", 1, 1).section(' ', 0, 0).toInt();
        QVERIFY(cores >= 1);
        QCOMPARE(run.section(" · ", 1, 2),
                 cores == 1 ? QString("1 threads · float32") : QString("1 of %1 threads · float32").arg(cores));
        QVERIFY(runtime->toolTip().startsWith("The training uses 1 thread(s) and float32"));
        emit w.trainingPanel()->worker()->finished(twb::TrainSummary{});
        QCOMPARE(runtime->text(), machine);
    }
    void runActionsFollowState() {
        MainWindow w;  // the workspace has no dataset: nothing to start, nothing running
        QMap<QString, bool> enabled;
        for (auto* top : w.menuBar()->actions())
            if (top->menu())
                for (auto* a : top->menu()->actions())
                    enabled[a->shortcut().toString()] = a->isEnabled();
        QCOMPARE(enabled.value("F5", true), false);
        QCOMPARE(enabled.value("F6", true), false);
        QCOMPARE(enabled.value("Shift+F5", true), false);
        QCOMPARE(enabled.value("Ctrl+S", true), false);
        QCOMPARE(enabled.value("Ctrl+R", false), true);
    }
    void aRestartComesBackWhereItWas() {
        // View → Language's restart reopened the run the program had been started with, not the one open.
        const QString run = twbtest::make_tiny_run(m_ws, "restart", 10);
        MainWindow w;
        QVERIFY(w.trainingPanel()->openRun(run));
        w.showPanel("Sampling");
        QCOMPARE(w.restartArguments(), QStringList({run, "--panel", "Sampling"}));
        w.trainingPanel()->newRun();
        w.showPanel("Experiments");
        QCOMPARE(w.restartArguments(), QStringList({"--panel", "Experiments"}));
    }
    void startUpOpensTheLastRunAndOffersToResumeIt() {
        // Last: the fixture resets the settings. A run stopped at step 20 of 30, the last one used.
        const QString run = twbtest::make_tiny_run(m_ws, "cut", 20);
        auto cfg = twb::read_run_config(run.toStdString());
        cfg.max_iters = 30;
        twb::write_file_atomic(run.toStdString() + "/config.json", nlohmann::json(cfg).dump(2));
        Workspace::addRecentRun(run);
        MainWindow w;
        // Open again, with its settings (a restart showed a new run on fortunes, the default preset)
        QCOMPARE(w.trainingPanel()->currentRun(), run);
        QCOMPARE(w.trainingPanel()->form()->config().max_iters, 30);
        auto* offer = w.trainingPanel()->findChild<QLabel*>("resumeOffer");
        QVERIFY(offer && !offer->isHidden());
        QVERIFY2(offer->text().contains("cut") && offer->text().contains("stopped at step 20 of 30"),
                 qPrintable(offer->text()));
        QString otherRun;
        {
            // A run opened (the program's argument, File → Open run) answers the offer: it goes.
            MainWindow other;
            QVERIFY(!other.trainingPanel()->findChild<QLabel*>("resumeOffer")->isHidden());
            otherRun = twbtest::make_tiny_run(m_ws, "other", 10);
            QVERIFY(other.trainingPanel()->openRun(otherRun));
            QVERIFY(other.trainingPanel()->findChild<QLabel*>("resumeOffer")->isHidden());
            Workspace::addRecentRun(run);  // the interrupted run is the last one used again
        }
        QSignalSpy started(w.trainingPanel()->worker(), &TrainWorker::started),
            done(w.trainingPanel()->worker(), &TrainWorker::finished),
            failed(w.trainingPanel()->worker(), &TrainWorker::failed);
        emit offer->linkActivated("resume");  // the offer's "Resume it" link
        QVERIFY(w.trainingPanel()->isBusy());
        // Open in the Runs panel while it trains: refused in the panel itself (the status bar's line was
        // covered by the next checkpoint's at once, so Open seemed to do nothing), until training ends.
        emit w.runsPanel()->openRequested(otherRun);
        QVERIFY2(w.runsPanel()->lastError().contains("Shift+F5"), qPrintable(w.runsPanel()->lastError()));
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !failed.isEmpty(), 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
        QCOMPARE(w.trainingPanel()->currentRun(), run);  // the same run continued, no new folder
        QCOMPARE(started.first().at(0).value<twb::TrainStartInfo>().start_step, int64_t(20));
        QCOMPARE(twb::list_checkpoints(run.toStdString()).back(), int64_t(30));
        QTRY_VERIFY(!w.trainingPanel()->isBusy());
        QTRY_VERIFY2(w.runsPanel()->lastError().isEmpty(), qPrintable(w.runsPanel()->lastError()));
        // Finished now: the next start-up opens it and offers nothing.
        MainWindow again;
        QCOMPARE(again.trainingPanel()->currentRun(), run);
        QVERIFY(again.trainingPanel()->findChild<QLabel*>("resumeOffer")->isHidden());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
