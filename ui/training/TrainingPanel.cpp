#include "ui/training/TrainingPanel.h"

#include "twb/catalogue.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "ui/Workspace.h"
#include "ui/datasets/DatasetPreparation.h"
#include "ui/jobs/JobsService.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/LrFindDialog.h"
#include "ui/training/MetricsPlot.h"
#include "ui/widgets/SteadyLabel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>

TrainingPanel::TrainingPanel(JobsService* jobs, QWidget* parent) : PanelBase(jobs, parent) {
    m_worker = new TrainWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(this, &TrainingPanel::trainRequested, m_worker, &TrainWorker::train, Qt::QueuedConnection);
    m_thread.setObjectName("training");
    m_thread.start();
    m_expWorker = new ExperimentWorker;
    m_expWorker->moveToThread(&m_expThread);
    connect(&m_expThread, &QThread::finished, m_expWorker, &QObject::deleteLater);
    m_expThread.setObjectName("lr-find");
    m_expThread.start();

    auto* left = m_left = buildLeft();
    createActions();
    auto* right = buildRight();
    auto* split = new QSplitter;
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({380, 900});
    auto* outer = new QHBoxLayout(this);
    outer->addWidget(split);

    connectWorker();
    connect(this, &TrainingPanel::runChanged, this, &TrainingPanel::updateMoreRow);
    connect(this, &TrainingPanel::runChanged, this, &TrainingPanel::updateStartEnabled);  // a finished run
    // A new run's Decay steps follow its Steps; a run that has started keeps its schedule.
    connect(this, &TrainingPanel::runChanged, this,
            [this](const QString& run) { m_form->setDecayFollowsSteps(run.isEmpty()); });
    refreshDatasets();
    newRun();
    setBusy(false);
}

void TrainingPanel::showIdleStatus() {
    showNewRunStatus();
    m_evalLabel->clear();
    m_lastEval.clear();
}

void TrainingPanel::showNewRunStatus() {
    // What a new run still needs, as the form and the dataset box change (it said "choose a dataset" with
    // one chosen, and "Ready" while Start was off).
    const QString dataset = m_dataset->currentData().toString();
    const QString why = startBlocker();
    m_status->setText(m_dataset->count() == 0
                          ? tr("No prepared dataset yet: press <b>Quick start</b> (Ctrl+R) to prepare Debian's "
                               "fortune cookies and train a small model in under a minute.")
                      : dataset.isEmpty() ? tr("Choose a dataset, then press <b>Start</b> (F5).")
                      : why.isEmpty()     ? tr("Ready: a new run on <b>%1</b>; press <b>Start</b> (F5).")
                                            .arg(QFileInfo(dataset).fileName().toHtmlEscaped())
                                      : tr("Not ready: %1.").arg(why.toHtmlEscaped()));
}

QString TrainingPanel::pausedText() const {
    // The engine finishes the step under way before it waits; until it says where, no step is named.
    if (m_pausedAt < 0)
        return tr("Pausing after the step under way…");
    return tr("Paused at step %1 of %2: Resume (F6) continues, Stop (Shift+F5) ends with a checkpoint of "
              "step %1.")
        .arg(m_pausedAt)
        .arg(m_maxIters);
}

void TrainingPanel::offerResume(const QString& dir) {
    const auto steps = twb::list_checkpoints(dir.toStdString());
    if (steps.empty())
        return;
    m_offerRun = dir;
    // Said of a Stop as well as of a crash or a closed window: "interrupted" read as a fault after a Stop.
    int total = 0;
    try {
        total = twb::read_run_config(dir.toStdString()).max_iters;
    } catch (const std::exception&) {
    }
    m_offer->setText(tr("Run <b>%1</b> stopped at step %2 of %3. <a href=\"resume\">Resume it</a> · "
                        "<a href=\"dismiss\">Dismiss</a>")
                         .arg(Workspace::runName(dir).toHtmlEscaped())
                         .arg(steps.back())
                         .arg(total));
    m_offer->show();
}

void TrainingPanel::updateMoreRow() {
    // Offered for a finished run only: an interrupted one continues with Start.
    bool finished = false;
    if (!isBusy() && !m_runDir.isEmpty())
        try {
            const auto steps = twb::list_checkpoints(m_runDir.toStdString());
            finished = !steps.empty() && steps.back() >= twb::read_run_config(m_runDir.toStdString()).max_iters;
        } catch (const std::exception&) {
        }
    m_moreRow->setVisible(finished && !m_noDataOfItsOwn);  // an imported model has no dataset to go on with
}

namespace {
/// "" while the open run's folder is there; else why Start or Train more cannot go on (they said "no
/// checkpoints here; is this a run folder", and the panel turned into a new run showing the old curves).
QString goneRun(const QString& dir) {
    if (dir.isEmpty() || QFileInfo::exists(dir + "/config.json"))
        return {};
    return QObject::tr(
               "The run folder %1 is gone (moved or deleted): open it where it is now (File → Open run, "
               "Ctrl+O), or start a new run (Ctrl+N).")
        .arg(dir);
}

/// Logged steps of a run that has no checkpoint left to continue from: what starting it again replaces.
int loggedSteps(const QString& dir) {
    try {
        const auto rows = twb::read_metrics((dir + "/metrics.csv").toStdString());
        return static_cast<int>(
            std::count_if(rows.begin(), rows.end(), [](const twb::MetricsRow& r) { return r.kind != "eval"; }));
    } catch (const std::exception&) {
        return 0;
    }
}
}  // namespace

void TrainingPanel::trainMore(int steps) {
    if (isBusy() || m_runDir.isEmpty() || steps < 1)
        return;
    if (const QString gone = goneRun(m_runDir); !gone.isEmpty())
        return showError(gone);
    twb::RunConfig c = m_form->config();
    // From the step the run ended at: an encoder-decoder's epochs may have ended it before max_iters.
    // lr_decay_iters stays: past it the cosine schedule holds min_lr.
    const auto done = twb::list_checkpoints(m_runDir.toStdString());
    c.max_iters = static_cast<int>(done.empty() ? c.max_iters : done.back()) + steps;
    c.max_epochs = 0;  // the epochs are spent: the extra training is counted in steps
    m_form->setConfig(c);
    m_trainedMore = true;
    emit statusMessage(tr("training %1 more steps, to step %2").arg(steps).arg(c.max_iters));
    resumeRun();
}

void TrainingPanel::forgetUnstartedRun() {
    // A run that failed before its folder was written does not exist: do not name it anywhere.
    if (m_runDir.isEmpty() || QFileInfo::exists(m_runDir + "/config.json"))
        return;
    m_runDir.clear();
    m_plot->setRunName({});
    m_runLabel->setText(
        tr("<b>New run</b> (a folder under %1 is made on Start)").arg(Workspace::runsDir().toHtmlEscaped()));
    emit runChanged({});
}

TrainingPanel::~TrainingPanel() {
    if (m_control)
        m_control->request_stop();
    if (m_trainJob)
        m_trainJob->abandon();
    for (auto* d : findChildren<LrFindDialog*>())
        d->cancel();
    m_thread.quit();
    m_thread.wait();
    m_expThread.quit();
    m_expThread.wait();
}

twb::RunConfig TrainingPanel::runConfig() const {
    twb::RunConfig c = m_form->config();
    c.data_dir = m_dataset->currentData().toString().toStdString();
    return c;
}

LrFindDialog* TrainingPanel::findLearningRate() {
    showError({});
    const twb::RunConfig c = runConfig();
    if (c.data_dir.empty()) {
        showError(tr("choose a dataset first: the range finder trains on it"));
        return nullptr;
    }
    if (const QString p = m_form->problemSummary(); !p.isEmpty()) {
        showError(p);
        return nullptr;
    }
    for (auto* d : findChildren<LrFindDialog*>())
        if (d->isRunning()) {
            d->raise();
            return d;
        }
    auto* dlg = new LrFindDialog(m_expWorker, jobs(), c, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &LrFindDialog::rateChosen, this, &TrainingPanel::setLearningRate);
    connect(dlg, &QDialog::finished, dlg, &LrFindDialog::cancel);
    dlg->show();
    return dlg;
}

void TrainingPanel::setLearningRate(double lr) {
    if (isBusy())
        return showError(tr("Training is running: use the rate once it has stopped, for a new run."));
    // A run that has trained keeps the rate it trained at: continued with another, its config.json named a rate
    // its steps never used (past its decay they train at min_lr). The rate goes to a new run of these settings.
    const bool trained = !m_runDir.isEmpty() && !twb::list_checkpoints(m_runDir.toStdString()).empty();
    if (trained)
        newRun();
    twb::RunConfig c = m_form->config();
    c.learning_rate = lr;
    m_form->setConfig(c);
    // four significant digits, as the field shows it ("0.00739" beside 0.007391)
    emit statusMessage(trained
                           ? tr("learning rate set to %1 for a new run: the open run keeps its own").arg(lr, 0, 'g', 4)
                           : tr("learning rate set to %1").arg(lr, 0, 'g', 4));
}

void TrainingPanel::updateBaselines() {
    if (!m_baselines || !m_plot)
        return;  // during construction
    const QString data = m_dataset->currentData().toString();
    if (!m_baselines->isChecked() || data.isEmpty()) {
        m_plot->setBaselines({});
        return;
    }
    // In the unit the loss plot shows: nats per token, or bits per character.
    const auto& cache = m_plot->bitsPerChar() ? m_baselineBpcCache : m_baselineCache;
    const auto it = cache.find(data);
    if (it != cache.end()) {
        m_plot->setBaselines(it->second);
        return;
    }
    m_plot->setBaselines({});
    if (!m_baselinesPending.isEmpty())
        return;  // one at a time; the answer calls back here
    m_baselinesPending = data;
    QMetaObject::invokeMethod(m_expWorker, "computeBaselines", Qt::QueuedConnection, Q_ARG(QString, data));
}

void TrainingPanel::busyChanged(bool busy) {
    m_pause->setEnabled(busy && m_control);
    m_stop->setEnabled(busy && m_control);
    m_save->setEnabled(busy && m_control);
    m_pauseAct->setEnabled(m_pause->isEnabled());
    m_stopAct->setEnabled(m_stop->isEnabled());
    m_saveAct->setEnabled(m_save->isEnabled());
    m_quick->setEnabled(!busy);
    m_quickAct->setEnabled(!busy);
    m_dataset->setEnabled(!busy);
    m_browseData->setEnabled(!busy);  // a folder chosen while training made the running run a new one
    m_form->setEnabled(!busy);
    m_pause->setText(tr("Pause"));
    updateMoreRow();  // first: what Start says of a finished run depends on whether Train more is offered
    updateStartEnabled();
}

void TrainingPanel::quickStart() {
    if (isBusy())
        return;
    // Pressed again, it would train the same settings into the same model: the earlier run is offered first.
    const QString last = QSettings().value("training/quickStartRun").toString();
    const auto steps = last.isEmpty() ? std::vector<int64_t>{} : twb::list_checkpoints(last.toStdString());
    if (steps.empty())
        return quickStartAgain();
    int total = 0;
    try {
        total = twb::read_run_config(last.toStdString()).max_iters;
    } catch (const std::exception&) {
        return quickStartAgain();
    }
    m_offerRun = last;
    const QString name = Workspace::runName(last).toHtmlEscaped();
    m_offer->setText(steps.back() >= total
                         ? tr("The Quick start already trained <b>%1</b> (%2 steps); the same settings would train "
                              "the same model. <a href=\"open\">Open it</a> · <a href=\"again\">Train another</a> · "
                              "<a href=\"dismiss\">Dismiss</a>")
                               .arg(name)
                               .arg(total)
                         : tr("The Quick start's run <b>%1</b> stopped at step %2 of %3. <a href=\"resume\">Resume "
                              "it</a> · <a href=\"again\">Train another</a> · <a href=\"dismiss\">Dismiss</a>")
                               .arg(name)
                               .arg(steps.back())
                               .arg(total));
    m_offer->show();
}

void TrainingPanel::quickStartAgain() {
    if (isBusy())
        return;
    m_offer->hide();
    showError({});
    m_form->applyPreset("tiny");
    newRun();
    const QString dir = Workspace::datasetsDir() + "/fortunes";
    if (QFileInfo::exists(dir + "/meta.json")) {
        setDataset(dir);
        m_quickStarting = true;
        start();
        m_quickStarting = false;
        return;
    }
    twb::PrepareOptions options;
    try {
        options = twb::fortunes_preset(dir.toStdString());
    } catch (const std::exception& e) {
        return showError(QString::fromStdString(e.what()));
    }
    m_control.reset();
    setBusy(true);
    emit statusMessage(tr("preparing the fortunes corpus…"));
    // The same route into the engine as the Datasets panel's Prepare.
    Job* job = jobs()->run(
        tr("Preparing fortunes"), [options](JobContext& ctx) { return DatasetPreparation::prepare(options, ctx); },
        this, [this](const DatasetPreparation::Prepared& prepared) { quickStartPrepared(prepared.dir); },
        [this](const QString& e) {
            forgetUnstartedRun();
            showError(e);
        });
    job->setCancelText(tr("preparation cancelled"));
    connect(job, &Job::ended, this, [this] { setBusy(false); });
    connect(job, &Job::progressed, this, [this](double f, const QString& stage) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(static_cast<int>(std::max(0.0, f) * 1000));
        m_progress->setFormat(tr("preparing: %1 %p%").arg(stage));
    });
}

void TrainingPanel::quickStartPrepared(const QString& dir) {
    m_progress->setFormat(tr("step %v / %m"));
    refreshDatasets();
    setDataset(dir);
    emit datasetPrepared(dir);
    m_quickStarting = true;
    start();
    m_quickStarting = false;
}

void TrainingPanel::start() {
    if (isBusy()) {
        // F5, the menu's "Start / continue", continues a paused run as F6 does (it did nothing)
        if (m_control && m_control->paused())
            togglePause();
        return;
    }
    m_datasetError->hide();  // training starts on the dataset the box shows, not on a folder refused before
    if (const QString why = startBlocker(); !why.isEmpty()) {
        showError(why);
        return;
    }
    if (const QString gone = goneRun(m_runDir); !gone.isEmpty())
        return showError(gone);
    const bool continuing = !m_runDir.isEmpty() && !twb::list_checkpoints(m_runDir.toStdString()).empty();
    if (continuing) {
        resumeRun();
        return;
    }
    // A run whose checkpoints were deleted starts again from step 0 in its folder: its logged curves go.
    if (const int logged = m_runDir.isEmpty() ? 0 : loggedSteps(m_runDir);
        logged > 0 &&
        QMessageBox::question(this, tr("Start again"),
                              tr("This run has no checkpoint to continue from, so Start trains it again from step "
                                 "0 and replaces what metrics.csv logged (%1). Start again?")
                                  .arg(logged == 1 ? tr("1 step") : tr("%1 steps").arg(logged)),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
        return;
    startJob(false);
}

void TrainingPanel::resumeRun() {
    if (isBusy() || m_runDir.isEmpty())
        return;
    startJob(true);
}

void TrainingPanel::startJob(bool resume) {
    const auto problems = m_form->problems();
    if (!problems.empty()) {
        showError(QString::fromStdString(problems.front()));
        return;
    }
    TrainRequest req;
    req.job.config = m_form->config();
    req.job.config.data_dir = m_dataset->currentData().toString().toStdString();
    if (m_runDir.isEmpty())
        m_runDir = Workspace::newRunPath();
    if (m_quickStarting)
        QSettings().setValue("training/quickStartRun", m_runDir);
    req.job.run_dir = m_runDir.toStdString();
    m_plot->setRunName(Workspace::runName(m_runDir));
    req.job.resume = resume;
    req.job.init_from = m_initFrom.toStdString();
    m_control = std::make_shared<twb::TrainControl>();
    req.control = m_control;
    if (!resume)
        m_plot->clear();
    showError({});
    // Two lines while it trains, as before and after (the checkpoints, or where its weights came from): a
    // line that went at Start and came back at Stop moved the form under the mouse.
    m_runLabel->setText(tr("<b>Run</b> %1<br>%2")
                            .arg(runLabelText(m_runDir),
                                 m_initFrom.isEmpty() ? checkpointsLine(twb::list_checkpoints(m_runDir.toStdString()))
                                                      : tr("initialised from %1").arg(m_initFrom.toHtmlEscaped())));
    setBusy(true);
    m_trainJob = jobs()->track(tr("Training %1").arg(Workspace::runName(m_runDir)), [this] { stop(); });
    m_trainJob->setCancelQuestion(tr("Stop training? A checkpoint is written first; Start continues the run."));
    emit runChanged(m_runDir);
    emit trainRequested(req);
}

void TrainingPanel::togglePause() {
    if (!m_control || !isBusy())
        return;
    if (m_control->paused()) {
        m_control->resume();
        if (m_pausedSince.isValid())
            m_pausedSeconds += m_pausedSince.elapsed() / 1000.0;
        m_pausedSince.invalidate();
        m_pausedAt = -1;
        m_pause->setText(tr("Pause"));
        m_status->setText(tr("Resumed at step %1").arg(m_lastStep));
        emit pauseChanged(m_runDir, false);
        emit statusMessage(tr("resumed"));
    } else {
        m_pausedAt = -1;
        m_control->pause();
        m_pausedSince.start();
        m_pause->setText(tr("Resume"));
        m_status->setText(pausedText());
        emit statusMessage(tr("paused"));
    }
    updateStartEnabled();  // F5 continues while paused
}

void TrainingPanel::stop() {
    if (m_control && isBusy()) {
        m_control->request_stop();
        m_status->setText(m_pausedAt >= 0 ? tr("Stopping at step %1 after a checkpoint…").arg(m_pausedAt)
                                          : tr("Stopping after a checkpoint…"));
    }
}

void TrainingPanel::saveCheckpointNow() {
    if (m_control && isBusy())
        m_control->request_checkpoint();
}
