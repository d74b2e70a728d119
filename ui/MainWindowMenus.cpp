// MainWindow, its menus and what their own entries do: open a run (or a recent one), initialise from a run,
// export the model and the plots. The panels' actions come from the panels; composition and wiring are in
// MainWindow.cpp.
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/experiments/ExperimentsPanel.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/ExportDialog.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QListWidget>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New run"), QKeySequence::New, m_training, &TrainingPanel::newRun);
    file->addAction(tr("&Open run…"), QKeySequence::Open, this, &MainWindow::openRunDialog);
    m_recent = file->addMenu(tr("Recent runs"));
    rebuildRecent();
    file->addSeparator();
    file->addAction(tr("Set &workspace folder…"), this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Workspace folder"), Workspace::root());
        if (d.isEmpty())
            return;
        Workspace::setRoot(d);
        m_training->refreshDatasets();
        statusBar()->showMessage(tr("workspace: %1").arg(d), 5000);
    });
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
    run->addAction(tr("&Compare runs…"), this, &MainWindow::compareDialog);

    auto* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_nav->count(); ++i) {
        const QString name = m_nav->item(i)->text();
        view->addAction(name, QKeySequence(Qt::ALT | (Qt::Key_1 + i)), this, [this, name] { showPanel(name); });
    }
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Getting started"), QKeySequence::HelpContents, this, &MainWindow::gettingStarted);
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this,
                    &MainWindow::shortcutsHelp);
    help->addAction(tr("&About / runtime"), this, &MainWindow::about);
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
    if (m_training->openRun(d))
        showPanel(tr("Training"));
}

void MainWindow::initFromDialog() {
    const QString d =
        QFileDialog::getExistingDirectory(this, tr("Run whose weights start the new run"), Workspace::runsDir());
    if (!d.isEmpty())
        m_training->initialiseFromRun(d);
}

void MainWindow::exportModelDialog() {
    // Modeless: the export runs on the dialog's own thread while the rest of the window stays usable.
    auto* dlg = new ExportDialog(m_training->currentRun(), this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &ExportDialog::exported, this,
            [this](const QString& file) { statusBar()->showMessage(tr("Model exported to %1").arg(file), 8000); });
    dlg->show();
}

void MainWindow::exportPlots() {
    const QString f = QFileDialog::getSaveFileName(this, tr("Export plots"), QSettings().value("lastExport").toString(),
                                                   tr("PNG image (*.png);;SVG image (*.svg);;CSV data (*.csv)"));
    if (f.isEmpty())
        return;
    QSettings().setValue("lastExport", f);
    auto* plot = m_training->plot();
    const bool ok = f.endsWith(".svg") ? plot->saveSvg(f) : f.endsWith(".csv") ? plot->saveCsv(f) : plot->savePng(f);
    statusBar()->showMessage(ok ? tr("exported %1").arg(f) : tr("could not write %1").arg(f), 6000);
}
