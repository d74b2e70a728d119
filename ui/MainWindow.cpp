#include "ui/MainWindow.h"

#include "twb/doctor.h"
#include "ui/Workspace.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/datasets/DatasetsPanel.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/RunPicker.h"
#include "ui/workers/ModelThread.h"

#include <QAction>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>
#include <QtConcurrent>

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    Q_INIT_RESOURCE(resources);  // the resources live in the static twb_ui library
    setWindowTitle(tr("Transformer Workbench"));
    setWindowIcon(QIcon(":/icons/transformer-workbench.svg"));
    m_nav = new QListWidget;
    m_nav->setObjectName("navigation");
    m_nav->setFixedWidth(130);
    m_nav->setIconSize(QSize(20, 20));
    m_stack = new QStackedWidget;
    m_training = new TrainingPanel;
    auto add = [&](const QString& name, QWidget* w) {
        m_nav->addItem(name);
        m_stack->addWidget(w);
    };
    m_datasets = new DatasetsPanel;
    add(tr("Datasets"), m_datasets);
    add(tr("Training"), m_training);
    m_model = std::make_unique<ModelThread>();
    m_attention = new AttentionPanel(m_model.get());
    add(tr("Attention"), m_attention);
    m_sampling = new SamplingPanel(m_model.get());
    add(tr("Sampling"), m_sampling);
    connect(m_nav, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);
    auto* central = new QWidget;
    auto* row = new QHBoxLayout(central);
    row->setContentsMargins(4, 4, 4, 4);
    row->addWidget(m_nav);
    row->addWidget(m_stack, 1);
    setCentralWidget(central);

    m_runtime = new QLabel(tr("checking runtime…"));
    statusBar()->addPermanentWidget(m_runtime);
    connect(m_training, &TrainingPanel::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    connect(m_training, &TrainingPanel::runChanged, this, [this](const QString& dir) {
        setWindowTitle(dir.isEmpty() ? tr("Transformer Workbench")
                                     : tr("%1 — Transformer Workbench").arg(QFileInfo(dir).fileName()));
        rebuildRecent();
        for (RunPicker* p : {m_sampling->picker(), m_attention->picker()}) {
            p->refresh();
            if (!dir.isEmpty())
                p->setRun(dir);
        }
    });
    connect(m_training->worker(), &TrainWorker::checkpointWritten, m_sampling->picker(), &RunPicker::refresh);
    connect(m_training->worker(), &TrainWorker::checkpointWritten, this,
            [this] { m_attention->runUpdated(m_training->currentRun()); });
    connect(m_datasets, &DatasetsPanel::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    connect(m_datasets, &DatasetsPanel::datasetPrepared, m_training, &TrainingPanel::refreshDatasets);
    connect(m_datasets, &DatasetsPanel::useForTraining, this, [this](const QString& dir) {
        m_training->setDataset(dir);
        showPanel("Training");
    });
    connect(m_attention, &AttentionPanel::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    connect(m_sampling, &SamplingPanel::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    // Runtime facts come from the engine off the UI thread (loading BLAS and timing a matmul take a moment).
    connect(&m_doctor, &QFutureWatcher<twb::DoctorReport>::finished, this, [this] {
        const auto r = m_doctor.result();
        m_doctorText = QString::fromStdString(twb::format_doctor(r));
        m_runtime->setText(tr("%1 · %2 threads · %3")
                               .arg(QString::fromStdString(r.device))
                               .arg(r.threads)
                               .arg(r.reference_blas ? tr("reference BLAS (slow!)")
                                                     : QFileInfo(QString::fromStdString(r.blas_library)).fileName()));
        m_runtime->setToolTip(m_doctorText);
    });
    m_doctor.setFuture(QtConcurrent::run([] { return twb::run_doctor(0, true); }));

    buildMenus();
    QSettings s;
    restoreGeometry(s.value("window/geometry").toByteArray());
    restoreState(s.value("window/state").toByteArray());
    if (!s.contains("window/geometry"))
        resize(1400, 860);
    showPanel(s.value("window/panel", "Training").toString());
}

MainWindow::~MainWindow() {
    // The panels go first: they cancel their generations, so the shared model thread can then be joined.
    delete takeCentralWidget();
}

void MainWindow::showPanel(const QString& name) {
    for (int i = 0; i < m_nav->count(); ++i)
        if (m_nav->item(i)->text() == name)
            m_nav->setCurrentRow(i);
}

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
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), this, &QWidget::close);

    auto* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Quick start on fortunes"), QKeySequence(Qt::CTRL | Qt::Key_R), m_training,
                   &TrainingPanel::quickStart);
    run->addAction(tr("&Start / continue"), QKeySequence(Qt::Key_F5), m_training, &TrainingPanel::start);
    run->addAction(tr("&Pause / resume"), QKeySequence(Qt::Key_F6), m_training, &TrainingPanel::togglePause);
    run->addAction(tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5), m_training, &TrainingPanel::stop);
    run->addAction(tr("Save &checkpoint now"), QKeySequence::Save, m_training, &TrainingPanel::saveCheckpointNow);
    run->addSeparator();
    run->addAction(tr("&Initialise from run (finetune)…"), this, &MainWindow::initFromDialog);
    run->addAction(tr("&Compare runs…"), this, &MainWindow::compareDialog);

    auto* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_nav->count(); ++i) {
        const QString name = m_nav->item(i)->text();
        view->addAction(name, QKeySequence(Qt::ALT | (Qt::Key_1 + i)), this, [this, name] { showPanel(name); });
    }
    auto* help = menuBar()->addMenu(tr("&Help"));
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

void MainWindow::compareDialog() {
    QDialog dlg(this);
    dlg.setWindowTitle(tr("Compare runs"));
    auto* v = new QVBoxLayout(&dlg);
    v->addWidget(new QLabel(tr("Overlay the validation loss of:")));
    auto* list = new QListWidget;
    for (const auto& r : Workspace::runs()) {
        auto* it = new QListWidgetItem(QFileInfo(r).fileName());
        it->setData(Qt::UserRole, r);
        it->setFlags(it->flags() | Qt::ItemIsUserCheckable);
        it->setCheckState(Qt::Unchecked);
        list->addItem(it);
    }
    v->addWidget(list);
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(bb, &QDialogButtonBox::accepted, &dlg, &QDialog::accept);
    connect(bb, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    v->addWidget(bb);
    if (dlg.exec() != QDialog::Accepted)
        return;
    QStringList chosen;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            chosen << list->item(i)->data(Qt::UserRole).toString();
    m_training->compareWith(chosen);
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

void MainWindow::about() {
    QMessageBox::about(
        this, tr("About Transformer Workbench"),
        tr("<h3>Transformer Workbench 0.1</h3><p>Train small transformer language models on your own "
           "text, watch them learn, look inside.</p><pre>%1</pre>")
            .arg((m_doctorText.isEmpty() ? tr("(runtime check still running)") : m_doctorText).toHtmlEscaped()));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (m_training->isBusy() &&
        QMessageBox::question(this, tr("Training is running"),
                              tr("Stop training (a checkpoint is written) and quit?")) != QMessageBox::Yes) {
        e->ignore();
        return;
    }
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    s.setValue("window/panel", m_nav->currentItem() ? m_nav->currentItem()->text() : QString("Training"));
    if (m_training->isBusy())
        m_training->stop();
    e->accept();
}
