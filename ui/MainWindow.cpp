#include "ui/MainWindow.h"

#include "twb/devices.h"
#include "twb/doctor.h"
#include "twb/run_folder.h"
#include "twb/run_info.h"
#include "ui/Workspace.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/datasets/DatasetsPanel.h"
#include "ui/embeddings/EmbeddingsPanel.h"
#include "ui/experiments/ExperimentsPanel.h"
#include "ui/jobs/JobsService.h"
#include "ui/jobs/JobsStatus.h"
#include "ui/runs/RunsPanel.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/NegativeHint.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/RunsTable.h"
#include "ui/widgets/RunsTableModel.h"
#include "ui/widgets/RuntimeLabel.h"
#include "ui/widgets/TabWalk.h"
#include "ui/widgets/WheelGuard.h"
#include "ui/workers/ModelThread.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QListWidget>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    Q_INIT_RESOURCE(resources);  // the resources live in the static twb_ui library
    setWindowTitle(tr("Transformer Workbench"));
    setWindowIcon(QIcon(":/icons/transformer-workbench.svg"));
    buildPanels();
    buildCentral();
    buildStatusBar();
    wirePanels();
    buildMenus();
    fitTabBars();
    restoreLayout();
    restoreLastRun();
}

void MainWindow::fitTabBars() {
    // Every tab in sight, its title shortened where the bar is too narrow for all (150% text at 1280x720):
    // scroll arrows hid the Sampling panel's first tab behind them ("ate") and Datasets' last.
    for (QTabBar* bar : findChildren<QTabBar*>()) {
        bar->setUsesScrollButtons(false);
        bar->setElideMode(Qt::ElideRight);
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabToolTip(i).isEmpty())
                bar->setTabToolTip(i, bar->tabText(i).remove('&'));  // the whole title, where it is shortened
    }
}

void MainWindow::buildPanels() {
    m_nav = new QListWidget;
    m_nav->setObjectName("navigation");
    m_nav->setIconSize(QSize(22, 22));
    m_nav->setFrameShape(QFrame::NoFrame);
    m_nav->setSpacing(2);
    // The current panel stands out also while the list has no focus (the inactive highlight is faint).
    m_nav->setStyleSheet(
        "QListWidget#navigation { background: palette(window); }"
        "QListWidget#navigation::item { padding: 8px 4px; border-radius: 4px; }"
        "QListWidget#navigation::item:selected { background: palette(highlight); color: palette(highlighted-text); }");
    m_stack = new QStackedWidget;
    m_jobs = new JobsService(this);  // before the panels, which run their work on it
    m_training = new TrainingPanel(m_jobs);
    // A panel's key (its English name) finds it whatever the interface's language: showPanel("Sampling"),
    // --panel, the saved window/panel.
    auto add = [&](const char* key, const QString& name, QStyle::StandardPixmap icon, const QString& tip, QWidget* w) {
        auto* item = new QListWidgetItem(style()->standardIcon(icon), name, m_nav);
        item->setData(Qt::UserRole, QString(key));
        item->setToolTip(tip);
        m_stack->addWidget(w);
    };
    m_datasets = new DatasetsPanel(m_jobs);
    add("Datasets", tr("Datasets"), QStyle::SP_DirIcon, tr("Import, clean and tokenize text (Alt+1)"), m_datasets);
    add("Training", tr("Training"), QStyle::SP_MediaPlay, tr("Train a model and watch it learn (Alt+2)"), m_training);
    m_model = std::make_unique<ModelThread>();
    m_attention = new AttentionPanel(m_model.get(), m_jobs);
    add("Attention", tr("Attention"), QStyle::SP_FileDialogContentsView,
        tr("Look inside a run's attention heads (Alt+3)"), m_attention);
    m_sampling = new SamplingPanel(m_model.get(), m_jobs);
    add("Sampling", tr("Sampling"), QStyle::SP_FileDialogDetailedView, tr("Generate text from a run (Alt+4)"),
        m_sampling);
    m_experiments = new ExperimentsPanel(m_jobs);
    add("Experiments", tr("Experiments"), QStyle::SP_FileDialogInfoView,
        tr("Sweeps over the config with a results table; compare tokenizers (Alt+5)"), m_experiments);
    m_runs = new RunsPanel(m_jobs);
    add("Runs", tr("Runs"), QStyle::SP_FileDialogListView,
        tr("Every run of the workspace: name, notes, results; open, duplicate, compare, delete (Alt+6)"), m_runs);
    connect(m_nav, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);
    connect(m_nav, &QListWidget::currentRowChanged, this, [this](int row) {
        // A panel's message spoke of that panel ("Choose both files…" stayed up over Training).
        if (m_statusFrom && m_statusFrom != m_stack->widget(row))
            withdrawStatus(m_statusText);
    });
    WheelGuard::protect(m_stack);  // no panel's spin box or combo box changes under a scrolling wheel
    // A minus typed into a field that takes none says why it went nowhere (dialogs' fields too).
    qApp->installEventFilter(new NegativeHint(this));
}

void MainWindow::buildCentral() {
    auto* central = new QWidget;
    auto* row = new QHBoxLayout(central);
    row->setContentsMargins(4, 4, 4, 4);
    // The side bar is as tall as its entries; the space below says where help is instead of staying empty.
    auto* side = new QVBoxLayout;
    m_nav->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_nav->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    fitNavigation();
    side->addWidget(m_nav);
    side->addStretch(1);
    auto* hint = new QLabel(tr("F1: getting started\nCtrl+/: shortcuts"));
    hint->setObjectName("navigationHint");
    hint->setStyleSheet("color: palette(mid);");
    hint->setWordWrap(true);
    side->addWidget(hint);
    row->addLayout(side);
    row->addWidget(m_stack, 1);
    setCentralWidget(central);
}

void MainWindow::fitNavigation() {
    // Exactly as tall as its entries (padding and spacing included): never a scroll bar in the side bar.
    int navHeight = 2 * m_nav->frameWidth() + 4;
    for (int i = 0; i < m_nav->count(); ++i)
        navHeight += m_nav->sizeHintForRow(i) + 2 * m_nav->spacing();
    m_nav->setFixedHeight(navHeight);
    // As wide as its longest name in the interface's language (Bokmål's "Oppmerksomhet"), never narrower
    // than the English side bar at 100%: never a scroll bar across it either.
    constexpr int kEnglishWidth = 132;
    m_nav->setFixedWidth(
        std::max(kEnglishWidth, m_nav->sizeHintForColumn(0) + 2 * (m_nav->frameWidth() + m_nav->spacing())));
}

void MainWindow::changeEvent(QEvent* e) {
    // View → Larger / Smaller text changed the application's font: the side bar fits its names again.
    if (e->type() == QEvent::FontChange && m_nav)
        QTimer::singleShot(0, this, &MainWindow::fitNavigation);  // once every child has its new font
    QMainWindow::changeEvent(e);
}

void MainWindow::buildStatusBar() {
    m_runtime = new RuntimeLabel;
    m_jobsStatus = new JobsStatus(m_jobs);
    statusBar()->addPermanentWidget(m_jobsStatus);
    statusBar()->addPermanentWidget(m_runtime);
    // A job that starts (or whose line grows) takes room from the message shown: cut it again, for the
    // time it has left (a job's progress must not keep it up).
    connect(m_jobs, &JobsService::changed, this, [this] {
        if (!statusBar()->currentMessage().isEmpty())
            fitStatus(false);
    });
    connect(m_jobs, &JobsService::unhandledError, this, [this](const QString& title, const QString& error) {
        showStatus(tr("%1 failed: %2").arg(title.isEmpty() ? tr("A background job") : title, error));
    });
    // Runtime facts come from the engine off the UI thread (loading BLAS and timing a matmul take a moment).
    // Quiet: the runtime label says "checking runtime…" meanwhile.
    auto doctor = [](JobContext&) { return twb::run_doctor(0, true); };
    m_jobs->run(QString(), doctor, this, [this](const twb::DoctorReport& r) {
        m_doctorText = QString::fromStdString(twb::format_doctor(r));
        // A GPU by its name and memory ("cuda:0 (NVIDIA H200, 139.8 GiB)"); the CPU's model is in the tooltip.
        const std::string device = r.device.rfind("cuda", 0) == 0 ? twb::describe_device(r.device) : r.device;
        m_runtime->setMachine(
            QString::fromStdString(device), r.threads, QString::fromStdString(r.precision),
            r.reference_blas ? QString() : QFileInfo(QString::fromStdString(r.blas_library)).fileName(), m_doctorText);
    });
    // While this window trains, the line gives the run's threads and precision.
    connect(m_training->worker(), &TrainWorker::started, m_runtime,
            [this](const twb::TrainStartInfo& i) { m_runtime->setRun(i.threads, QString::fromStdString(i.dtype)); });
    connect(m_training->worker(), &TrainWorker::finished, m_runtime, &RuntimeLabel::clearRun);
    connect(m_training->worker(), &TrainWorker::failed, m_runtime, &RuntimeLabel::clearRun);
}

void MainWindow::wirePanels() {
    connect(m_training, &TrainingPanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_training, &TrainingPanel::statusWithdrawn, this, &MainWindow::withdrawStatus);
    connect(m_training, &TrainingPanel::runChanged, this, [this](const QString& dir) {
        updateTitle(dir);
        rebuildRecent();
        // A run is offered to the other panels once its folder exists (a failed start leaves none).
        for (RunPicker* p : {m_sampling->picker(), m_attention->picker()}) {
            p->refresh();
            if (!dir.isEmpty() && QFileInfo::exists(dir + "/config.json"))
                p->setRun(dir);
        }
    });
    connect(m_training->worker(), &TrainWorker::started, this, [this] {
        rebuildRecent();
        for (RunPicker* p : {m_sampling->picker(), m_attention->picker()}) {
            p->refresh();
            p->setRun(m_training->currentRun());
        }
    });
    connect(m_training, &TrainingPanel::datasetsPanelRequested, this, [this] { showPanel("Datasets"); });
    connect(m_training->worker(), &TrainWorker::checkpointWritten, m_sampling->picker(), &RunPicker::refresh);
    connect(m_training->worker(), &TrainWorker::checkpointWritten, this,
            [this] { m_attention->runUpdated(m_training->currentRun()); });
    connect(m_datasets, &DatasetsPanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_datasets, &DatasetsPanel::statusWithdrawn, this, &MainWindow::withdrawStatus);
    connect(m_datasets, &DatasetsPanel::datasetPrepared, m_training, &TrainingPanel::refreshDatasets);
    // the Quick start prepares fortunes on the training side: the Datasets panel lists it at once
    connect(m_training, &TrainingPanel::datasetPrepared, m_datasets, &DatasetsPanel::refreshPrepared);
    connect(m_datasets, &DatasetsPanel::useForTraining, this, [this](const QString& dir) {
        m_training->setDataset(dir);
        showPanel("Training");
    });
    connect(m_datasets, &DatasetsPanel::finetuneRequested, this, [this](const QString& run, const QString& dir) {
        m_training->initialiseFromRun(run);
        m_training->setDataset(dir);
        showPanel("Training");
    });
    connect(m_attention, &AttentionPanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_attention, &AttentionPanel::statusWithdrawn, this, &MainWindow::withdrawStatus);
    connect(m_experiments, &ExperimentsPanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_experiments, &ExperimentsPanel::statusWithdrawn, this, &MainWindow::withdrawStatus);
    // Compare tokenizers' datasets: the Training form's Dataset box missed them until refreshed.
    connect(m_experiments, &ExperimentsPanel::datasetsPrepared, m_training, &TrainingPanel::refreshDatasets);
    connect(m_experiments, &ExperimentsPanel::datasetsPrepared, m_datasets, &DatasetsPanel::refreshPrepared);
    // A sweep's cells start from what the Training panel would train now.
    m_experiments->setBaseConfigProvider([this] { return m_training->runConfig(); });
    connect(m_experiments, &ExperimentsPanel::openRunRequested, this, [this](const QString& dir, const QString& panel) {
        if (panel == "Training") {
            if (m_training->openRun(dir))
                showPanel("Training");
            return;
        }
        RunPicker* p = panel == "Attention" ? m_attention->picker() : m_sampling->picker();
        p->setRun(dir);
        showPanel(panel);
    });
    connect(m_sampling, &SamplingPanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_sampling, &SamplingPanel::statusWithdrawn, this, &MainWindow::withdrawStatus);
    wireRunsPanel();
}

void MainWindow::restoreLayout() {
    QSettings s;
    restoreGeometry(s.value("window/geometry").toByteArray());
    restoreState(s.value("window/state").toByteArray());
    // Open within the screen (a 1280x720 laptop included), also when the saved size came from a larger one.
    const QRect avail = screen() ? screen()->availableGeometry() : QRect(0, 0, 1280, 720);
    setMinimumSize(QSize(900, 560).boundedTo(avail.size()));
    if (!s.contains("window/geometry") || !avail.contains(frameGeometry()))
        setGeometry(initialGeometry(avail));
    showPanel(s.value("window/panel", "Training").toString());
}

void MainWindow::restoreLastRun() {
    // The last run used opens again, with its dataset, settings and curves (a restart showed a new run on
    // fortunes with the default preset); when it stopped before its last step (a Stop, a crash, a closed
    // window) it is offered for resuming. Neither while another process trains it.
    const QStringList recent = Workspace::recentRuns();
    if (recent.isEmpty() || !QFileInfo::exists(recent.first() + "/config.json"))
        return;
    const QString run = recent.first();
    try {
        if (!twb::run_holder(run.toStdString()).empty() || !m_training->openRun(run))
            return;
        const auto steps = twb::list_checkpoints(run.toStdString());
        if (!steps.empty() && steps.back() < twb::read_run_config(run.toStdString()).max_iters)
            m_training->offerResume(run);
    } catch (const std::exception&) {
    }
}

MainWindow::~MainWindow() {
    // The panels go first: they cancel their generations, so the shared model thread can then be joined.
    delete takeCentralWidget();
}

QRect MainWindow::initialGeometry(const QRect& available) {
    // Leave room for the window frame and title bar, which geometry() does not include.
    const QSize frame(16, 48);
    const QSize size = QSize(1400, 860).boundedTo(available.size() - frame);
    QRect r(QPoint(0, 0), size);
    r.moveCenter(available.center());
    r.moveTop(std::max(available.top() + frame.height() - 8, r.top()));
    return r;
}

void MainWindow::wireRunsPanel() {
    connect(m_runs, &RunsPanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_runs, &RunsPanel::statusWithdrawn, this, &MainWindow::withdrawStatus);
    auto busyRefusal = [this] {
        if (!m_training->isBusy())
            return false;
        m_runs->refuseWhileTraining(m_training->currentRun(),
                                    tr("Training is running: stop it (Shift+F5) before opening another run."));
        return true;
    };
    connect(m_runs, &RunsPanel::openRequested, this, [this, busyRefusal](const QString& dir) {
        if (busyRefusal())
            return;
        if (m_training->openRun(dir))
            showPanel("Training");
    });
    connect(m_runs, &RunsPanel::duplicateRequested, this, [this, busyRefusal](const QString& dir) {
        if (busyRefusal())
            return;
        m_training->duplicateRun(dir);
        showPanel("Training");
    });
    connect(m_runs, &RunsPanel::compareRequested, this, [this, busyRefusal](const QStringList& dirs) {
        // The first selected run is opened; the others are drawn over it.
        if (dirs.isEmpty() || busyRefusal())
            return;
        if (m_training->currentRun() != dirs.first() && !m_training->openRun(dirs.first()))
            return;
        m_training->compareWith(dirs.mid(1));
        showPanel("Training");
    });
    // A run this window has paused reads "paused" in the Runs table, not "running"
    connect(m_training, &TrainingPanel::pauseChanged, this, [this](const QString& run, bool paused) {
        m_runs->table()->tableModel()->setPausedRun(paused ? run : QString());
    });
    connect(m_runs, &RunsPanel::runEdited, this, [this](const QString& dir) {
        if (m_training->currentRun() == dir) {
            m_training->refreshRunName();
            updateTitle(dir);  // it kept the name before
        }
        runsChanged();
    });
    connect(m_runs, &RunsPanel::runDeleted, this, [this](const QString& dir) {
        if (m_training->currentRun() == dir && !m_training->isBusy())
            m_training->newRun();
        m_training->forgetRun(dir);      // compared, its dashed curve stayed on the plot
        m_experiments->runDeleted(dir);  // a sweep cell's row stayed in the results table
        runsChanged();
    });
    // The table follows training: a run appears as running when it starts, and its figures when it ends.
    connect(m_training->worker(), &TrainWorker::started, m_runs, &RunsPanel::refresh);
    connect(m_training->worker(), &TrainWorker::finished, m_runs, &RunsPanel::refresh);
    connect(m_training->worker(), &TrainWorker::failed, m_runs, &RunsPanel::refresh);
    connect(m_training->worker(), &TrainWorker::evaluated, m_runs, [this] {  // its steps and best loss, as it goes
        if (m_runs->isVisible())
            m_runs->refresh();
    });
}

void MainWindow::runsChanged() {
    rebuildRecent();
    // every run chooser: a renamed run reads its new name everywhere (the Embeddings tab kept the old one)
    for (RunPicker* p : {m_sampling->picker(), m_attention->picker(), m_attention->embeddings()->picker()})
        p->refresh();
}

QStringList MainWindow::restartArguments() const {
    QStringList args;
    if (!m_training->currentRun().isEmpty())
        args << m_training->currentRun();
    if (const QListWidgetItem* shown = m_nav->currentItem())
        args << "--panel" << shown->data(Qt::UserRole).toString();
    return args;
}

bool MainWindow::showPanel(const QString& name) {
    // In any case ("--panel datasets" was ignored without a word), by its English or shown name.
    for (int i = 0; i < m_nav->count(); ++i)
        if (m_nav->item(i)->data(Qt::UserRole).toString().compare(name, Qt::CaseInsensitive) == 0 ||
            m_nav->item(i)->text().compare(name, Qt::CaseInsensitive) == 0) {
            m_nav->setCurrentRow(i);
            return true;
        }
    return false;
}

void MainWindow::focusPanel() {
    QWidget* panel = m_stack->currentWidget();
    if (!panel)
        return;
    // A panel names where typing starts (Sampling's prompt) with its focus proxy; else its first control.
    if (QWidget* home = panel->focusProxy(); home && home->isVisibleTo(panel) && home->isEnabled())
        return home->setFocus(Qt::ShortcutFocusReason);
    if (QWidget* first = TabWalk::stop(panel, true, [panel](const QWidget* w) { return panel->isAncestorOf(w); }))
        first->setFocus(Qt::ShortcutFocusReason);
}

void MainWindow::showStatus(const QString& text) {
    // One line, cut to the room left of the running jobs and the runtime facts; the whole text stays in
    // the tooltip.
    m_statusText = text.simplified();
    m_statusFrom = sender();  // a panel, or none (the window's own messages stay when the panel changes)
    m_statusExpiry.setRemainingTime(8000);
    statusBar()->setToolTip(m_statusText);
    fitStatus(true);
}

void MainWindow::withdrawStatus(const QString& text) {
    if (m_statusText.isEmpty() || m_statusText != text.simplified())
        return;
    m_statusText.clear();
    statusBar()->setToolTip({});
    statusBar()->clearMessage();
}

void MainWindow::fitStatus(bool always) {
    // The bar draws its message from x = 6 up to its first visible permanent widget (QStatusBar's own
    // message rectangle): that widget's place once the layout has taken in a job shown a moment ago.
    if (statusBar()->layout())
        statusBar()->layout()->activate();
    QWidget* first = m_jobsStatus->isVisible() ? static_cast<QWidget*>(m_jobsStatus) : m_runtime;
    const int right = first->isVisible() && first->x() > 0 ? first->x() - 2 : statusBar()->width() - 12;
    const int room = std::max(100, right - 6 - statusBar()->fontMetrics().averageCharWidth());
    const QString line = statusBar()->fontMetrics().elidedText(m_statusText, Qt::ElideRight, room);
    if (always || line != statusBar()->currentMessage())
        statusBar()->showMessage(line, static_cast<int>(std::max<qint64>(1, m_statusExpiry.remainingTime())));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (m_training->isBusy() &&
        QMessageBox::question(this, tr("Training is running"),
                              tr("Stop training (a checkpoint is written) and quit?")) != QMessageBox::Yes) {
        e->ignore();
        return;
    }
    if (m_experiments->isBusy() &&
        QMessageBox::question(
            this, tr("A sweep is running"),
            tr("Stop the sweep (the running cell writes a checkpoint; Resume continues it) and quit?")) !=
            QMessageBox::Yes) {
        e->ignore();
        return;
    }
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    s.setValue("window/panel",
               m_nav->currentItem() ? m_nav->currentItem()->data(Qt::UserRole).toString() : QString("Training"));
    if (m_training->isBusy())
        m_training->stop();
    e->accept();
}

void MainWindow::updateTitle(const QString& run) {
    // The run by its name (run.json), or its folder's when it has none
    setWindowTitle(run.isEmpty() ? tr("Transformer Workbench")
                                 : tr("%1 — Transformer Workbench").arg(Workspace::runName(run)));
}
