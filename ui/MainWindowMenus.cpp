// MainWindow, its menus and what their own entries do: open a run (or a recent one), initialise from a run,
// import a model, export the model and the plots, choose the interface's language. The panels' actions come from the
// panels; composition and wiring are in MainWindow.cpp.
#include "ui/Language.h"
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/datasets/DatasetsPanel.h"
#include "ui/experiments/ExperimentsPanel.h"
#include "ui/runs/RunsPanel.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/ExportDialog.h"
#include "ui/widgets/FigureFile.h"
#include "ui/widgets/ImportDialog.h"
#include "ui/widgets/TextScale.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New run"), QKeySequence::New, m_training, &TrainingPanel::newRun);
    file->addAction(tr("&Open run…"), QKeySequence::Open, this, &MainWindow::openRunDialog);
    m_recent = file->addMenu(tr("Recent runs"));
    rebuildRecent();
    connect(file, &QMenu::aboutToShow, this, &MainWindow::rebuildRecent);  // a panel may have opened one
    file->addSeparator();
    file->addAction(tr("Set &workspace folder…"), this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Workspace folder"), Workspace::root());
        if (d.isEmpty())
            return;
        Workspace::setRoot(d);
        workspaceChanged();
        statusBar()->showMessage(tr("workspace: %1").arg(d), 5000);
    });
    file->addAction(tr("&Import model…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I), this,
                    &MainWindow::importModelDialog);
    file->addAction(tr("&Export plots…"), this, &MainWindow::exportPlots);
    file->addAction(tr("Export &model…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this,
                    &MainWindow::exportModelDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), this, &QWidget::close);

    auto* run = menuBar()->addMenu(tr("&Run"));
    // The panel's own actions: each is enabled only when it can act (no F5 while Start is disabled).
    run->addAction(m_training->quickStartAction());
    run->addAction(m_training->startAction());
    run->addAction(m_training->pauseAction());
    run->addAction(m_training->stopAction());
    run->addAction(m_training->checkpointAction());
    run->addAction(m_training->lrFindAction());
    run->addSeparator();
    run->addAction(m_experiments->startAction());
    run->addAction(m_experiments->stopAction());
    run->addSeparator();
    run->addAction(tr("&Initialise from run (finetune)…"), this, &MainWindow::initFromDialog);
    run->addAction(tr("Co&mpare runs…"), this, &MainWindow::compareDialog);  // C is Save &checkpoint

    auto* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_nav->count(); ++i) {
        const QString name = m_nav->item(i)->text(), key = m_nav->item(i)->data(Qt::UserRole).toString();
        view->addAction(name, QKeySequence(Qt::ALT | (Qt::Key_1 + i)), this, [this, key] {
            QWidget* before = m_stack->currentWidget();
            showPanel(key);
            // Another panel, or this one from the side bar: its home; this one's own control keeps the focus.
            if (m_stack->currentWidget() != before || !before->isAncestorOf(QApplication::focusWidget()))
                focusPanel();
        });
    }
    view->addSeparator();
    buildTextSizeActions(view);
    view->addSeparator();
    buildLanguageMenu(view->addMenu(tr("Lan&guage")));  // L is &Larger text
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Getting started"), QKeySequence::HelpContents, this, &MainWindow::gettingStarted);
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this,
                    &MainWindow::shortcutsHelp);
    help->addAction(tr("&About / runtime"), this, &MainWindow::about);
}

void MainWindow::buildTextSizeActions(QMenu* view) {
    // For a projector or a small screen: the whole interface's text, plots included, at once; remembered.
    auto set = [this](int percent) {
        statusBar()->showMessage(tr("Text size %1%").arg(TextScale::apply(percent)), 3000);
    };
    // Ctrl++ as well as Ctrl+=: on most keyboards + is shifted =. Both on the action, so the shortcuts
    // list names the menu (a window QShortcut was listed as "Window → Larger text").
    QAction* larger = view->addAction(tr("&Larger text"), this, [set] { set(TextScale::larger()); });
    larger->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    view->addAction(tr("&Smaller text"), QKeySequence(Qt::CTRL | Qt::Key_Minus), this,
                    [set] { set(TextScale::smaller()); });
    view->addAction(tr("&Normal text size"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [set] { set(100); });
    QAction* full = view->addAction(tr("&Full screen"));
    full->setShortcut(QKeySequence(Qt::Key_F11));
    full->setCheckable(true);
    connect(full, &QAction::toggled, this, [this](bool on) {
        setWindowState(on ? windowState() | Qt::WindowFullScreen : windowState() & ~Qt::WindowFullScreen);
    });
}

void MainWindow::buildLanguageMenu(QMenu* menu) {
    // The choice is remembered and applies at the next start (the panels are built in one language).
    menu->setObjectName("languageMenu");
    auto* group = new QActionGroup(menu);
    const Language::Choice now = Language::saved();
    const std::pair<Language::Choice, QString> choices[] = {{Language::Choice::System, tr("&System default")},
                                                            {Language::Choice::English, tr("&English")},
                                                            {Language::Choice::Bokmal, tr("Norsk &bokmål")}};
    for (const auto& [choice, text] : choices) {
        QAction* a = menu->addAction(text);
        a->setCheckable(true);
        a->setChecked(choice == now);
        a->setData(Language::key(choice));
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, choice = choice] {
            if (choice == Language::saved())
                return;
            Language::save(choice);
            // Said in the language chosen too (it was only in the one being left), with a restart at hand
            // (its buttons as well: "Restart now / Start på nytt nå").
            auto both = [chosen = Language::resolve(choice)](const char* source, const QString& sep) {
                const QString now = tr(source), then = Language::translated(chosen, "MainWindow", source);
                return then == now ? now : now + sep + then;
            };
            const QString text =
                both(QT_TR_NOOP("The interface's language changes when Transformer Workbench starts again."), "\n\n");
            QMessageBox box(QMessageBox::Information, tr("Language"), text, QMessageBox::NoButton, this);
            QPushButton* restart = box.addButton(both(QT_TR_NOOP("Restart now"), " / "), QMessageBox::AcceptRole);
            box.addButton(both(QT_TR_NOOP("Later"), " / "), QMessageBox::RejectRole);
            box.exec();
            if (box.clickedButton() == restart && close())  // close() asks first about running training
                QProcess::startDetached(QCoreApplication::applicationFilePath(), restartArguments());
        });
    }
}

void MainWindow::workspaceChanged() {
    // Runs listed the old workspace's runs until Refresh, Datasets its datasets, and Experiments would
    // have put the next sweep in the old folder.
    m_training->refreshDatasets();
    m_datasets->refreshPrepared();
    m_runs->refresh();
    m_experiments->workspaceChanged();
}

void MainWindow::rebuildRecent() {
    if (!m_recent)
        return;
    m_recent->clear();
    for (const auto& r : Workspace::recentRuns())
        if (QFileInfo::exists(r + "/config.json"))
            m_recent->addAction(r, this, [this, r] { m_training->openRun(r); });
    m_recent->setEnabled(!m_recent->isEmpty());
}

void MainWindow::openRunDialog() {
    const QString d = QFileDialog::getExistingDirectory(
        this, tr("Open run folder"), QSettings().value("lastRunDir", Workspace::runsDir()).toString());
    if (d.isEmpty())
        return;
    QSettings().setValue("lastRunDir", QFileInfo(d).path());
    m_training->openRun(d);
    showPanel(tr("Training"));  // the run, or why it cannot be opened (the status bar cut that short)
}

void MainWindow::initFromDialog() {
    const QString d =
        QFileDialog::getExistingDirectory(this, tr("Run whose weights start the new run"), Workspace::runsDir());
    if (!d.isEmpty())
        m_training->initialiseFromRun(d);
}

void MainWindow::exportModelDialog() {
    // Modeless: the export runs as a job (listed in the status bar) while the rest of the window stays usable.
    auto* dlg = new ExportDialog(m_training->currentRun(), m_jobs, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &ExportDialog::exported, this,
            [this](const QString& file) { statusBar()->showMessage(tr("Model exported to %1").arg(file), 8000); });
    dlg->show();
}

void MainWindow::importModelDialog() {
    // Modeless, like the export: the import runs as a job; the run it makes opens in the Training panel.
    auto* dlg = new ImportDialog(m_jobs, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &ImportDialog::imported, this, [this](const QString& run) {
        runsChanged();
        if (m_training->openRun(run))
            showPanel(tr("Training"));
        statusBar()->showMessage(tr("Model imported into %1").arg(run), 8000);
    });
    dlg->show();
}

void MainWindow::exportPlots() {
    // Named after the run, in the folder of the last export (the open run's folder the first time; it opened in
    // whatever folder the program started in, with no name)
    const QString run = m_training->currentRun();
    const QString last = QSettings().value("lastExport").toString();
    const QString folder = !last.isEmpty() ? QFileInfo(last).absolutePath() : !run.isEmpty() ? run : Workspace::root();
    const QString name = run.isEmpty() ? QStringLiteral("curves.png") : QFileInfo(run).fileName() + "-curves.png";
    const QString filters = tr("PNG image (*.png);;SVG image (*.svg);;CSV data (*.csv)");
    QString chosen;
    const QString f = withChosenExtension(
        QFileDialog::getSaveFileName(this, tr("Export plots"), QDir(folder).filePath(name), filters, &chosen), chosen,
        filters);
    if (f.isEmpty())
        return;
    QSettings().setValue("lastExport", f);
    auto* plot = m_training->plot();
    const bool ok = f.endsWith(".svg", Qt::CaseInsensitive)   ? plot->saveSvg(f)
                    : f.endsWith(".csv", Qt::CaseInsensitive) ? plot->saveCsv(f)
                                                              : plot->savePng(f);
    statusBar()->showMessage(ok ? tr("exported %1").arg(f) : tr("could not write %1").arg(f), 6000);
}
