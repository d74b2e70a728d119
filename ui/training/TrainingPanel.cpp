#include "ui/training/TrainingPanel.h"

#include "twb/catalogue.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/MetricsPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QVBoxLayout>

namespace {
QString duration(double s) {
    const int t = static_cast<int>(s + 0.5);
    return t >= 3600
               ? QString("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QChar('0')).arg(t % 60, 2, 10, QChar('0'))
               : QString("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QChar('0'));
}
int datasetVocab(const QString& dir) {
    try {
        return twb::open_prepared(dir.toStdString()).vocab_size;
    } catch (const std::exception&) {
        return 0;
    }
}
}  // namespace

TrainingPanel::TrainingPanel(QWidget* parent) : PanelBase(parent) {
    m_worker = new TrainWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(this, &TrainingPanel::trainRequested, m_worker, &TrainWorker::train, Qt::QueuedConnection);
    connect(this, &TrainingPanel::prepareRequested, m_worker, &TrainWorker::prepare, Qt::QueuedConnection);
    m_thread.setObjectName("training");
    m_thread.start();

    // Left: dataset, config, controls.
    auto* left = new QWidget;
    auto* lv = new QVBoxLayout(left);
    m_runLabel = new QLabel;
    m_runLabel->setWordWrap(true);
    m_runLabel->setObjectName("runLabel");
    lv->addWidget(m_runLabel);
    auto* dsRow = new QHBoxLayout;
    m_dataset = new QComboBox;
    m_dataset->setObjectName("dataset");
    m_dataset->setToolTip(tr("A prepared dataset (twb prepare, or the Quick start's fortunes)"));
    auto* browse = new QPushButton(tr("Browse…"));
    dsRow->addWidget(new QLabel(tr("Dataset")));
    dsRow->addWidget(m_dataset, 1);
    dsRow->addWidget(browse);
    lv->addLayout(dsRow);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d =
            QFileDialog::getExistingDirectory(this, tr("Prepared dataset folder"),
                                              QSettings().value("lastDatasetDir", Workspace::datasetsDir()).toString());
        if (d.isEmpty())
            return;
        QSettings().setValue("lastDatasetDir", d);
        setDataset(d);
    });
    connect(m_dataset, &QComboBox::currentIndexChanged, this, &TrainingPanel::onDatasetChanged);
    m_form = new ConfigForm;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    lv->addWidget(scroll, 1);
    connect(m_form, &ConfigForm::changed, this, &TrainingPanel::updateStartEnabled);

    m_quick = new QPushButton(tr("Quick start: train on fortunes"));
    m_quick->setObjectName("quickStart");
    m_quick->setToolTip(
        tr("Prepares Debian's fortune cookies (char tokenizer) and trains the tiny preset: "
           "under a minute on two cores"));
    lv->addWidget(m_quick);
    auto* buttons = new QHBoxLayout;
    m_start = new QPushButton(tr("Start"));
    m_pause = new QPushButton(tr("Pause"));
    m_stop = new QPushButton(tr("Stop"));
    m_save = new QPushButton(tr("Checkpoint"));
    m_start->setObjectName("start");
    m_pause->setObjectName("pause");
    m_stop->setObjectName("stop");
    m_save->setObjectName("saveCheckpoint");
    m_start->setToolTip(tr("Start training (F5)"));
    m_pause->setToolTip(tr("Pause or resume (F6)"));
    m_stop->setToolTip(tr("Stop after writing a checkpoint (Shift+F5)"));
    m_save->setToolTip(tr("Write a checkpoint now (Ctrl+S)"));
    for (auto* b : {m_start, m_pause, m_stop, m_save})
        buttons->addWidget(b);
    lv->addLayout(buttons);
    connect(m_quick, &QPushButton::clicked, this, &TrainingPanel::quickStart);
    connect(m_start, &QPushButton::clicked, this, &TrainingPanel::start);
    connect(m_pause, &QPushButton::clicked, this, &TrainingPanel::togglePause);
    connect(m_stop, &QPushButton::clicked, this, &TrainingPanel::stop);
    connect(m_save, &QPushButton::clicked, this, &TrainingPanel::saveCheckpointNow);

    // Right: progress and plots.
    auto* right = new QWidget;
    auto* rv = new QVBoxLayout(right);
    m_progress = new QProgressBar;
    m_progress->setObjectName("progress");
    m_progress->setFormat(tr("step %v / %m"));
    m_status = new QLabel(tr("Idle"));
    m_status->setObjectName("status");
    m_status->setWordWrap(true);  // long messages must not widen the window
    rv->addWidget(m_progress);
    rv->addWidget(m_status);
    rv->addWidget(errorLabel());
    auto* opts = new QHBoxLayout;
    m_logScale = new QCheckBox(tr("Log-scale loss"));
    m_smooth = new QSlider(Qt::Horizontal);
    m_smooth->setRange(0, 99);
    m_smooth->setValue(QSettings().value("plotSmoothing", 60).toInt());
    m_smooth->setToolTip(tr("Smoothing of the training loss curve"));
    opts->addWidget(m_logScale);
    opts->addWidget(new QLabel(tr("Smoothing")));
    opts->addWidget(m_smooth);
    opts->addStretch();
    rv->addLayout(opts);
    m_plot = new MetricsPlot;
    rv->addWidget(m_plot, 1);
    m_plot->setSmoothing(m_smooth->value() / 100.0);
    connect(m_logScale, &QCheckBox::toggled, m_plot, &MetricsPlot::setLogScale);
    connect(m_smooth, &QSlider::valueChanged, this, [this](int v) {
        m_plot->setSmoothing(v / 100.0);
        QSettings().setValue("plotSmoothing", v);
    });

    auto* split = new QSplitter;
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({380, 900});
    auto* outer = new QHBoxLayout(this);
    outer->addWidget(split);

    // Worker signals (queued: they come from the training thread).
    connect(m_worker, &TrainWorker::started, this, [this](const twb::TrainStartInfo& i) {
        m_maxIters = i.config.max_iters;
        m_progress->setRange(0, static_cast<int>(i.config.max_iters));
        m_progress->setValue(static_cast<int>(i.start_step));
        m_status->setText(tr("Training %1 parameters on %2 thread(s), %3")
                              .arg(QLocale().toString(static_cast<qlonglong>(i.parameters)))
                              .arg(i.threads)
                              .arg(QString::fromStdString(i.device)));
    });
    connect(m_worker, &TrainWorker::stepReported, this, [this](const twb::StepReport& r) {
        m_plot->addStep(r);
        m_progress->setValue(static_cast<int>(r.step));
        const double eta = (m_maxIters - r.step) * r.ms_per_step / 1000.0;
        m_status->setText(tr("step %1 / %2 · loss %3 · %4 tok/s · %5 ms/step · elapsed %6 · ETA %7%8")
                              .arg(r.step)
                              .arg(m_maxIters)
                              .arg(r.loss, 0, 'f', 4)
                              .arg(QLocale().toString(r.tokens_per_s, 'f', 0))
                              .arg(r.ms_per_step, 0, 'f', 1)
                              .arg(duration(r.elapsed_s))
                              .arg(duration(eta))
                              .arg(m_control && m_control->paused() ? tr(" · pausing") : QString()));
    });
    connect(m_worker, &TrainWorker::evaluated, this, [this](const twb::EvalReport& e) {
        m_plot->addEval(e);
        emit statusMessage(tr("step %1: val loss %2, accuracy %3%4")
                               .arg(e.step)
                               .arg(e.val_loss, 0, 'f', 4)
                               .arg(e.val_accuracy, 0, 'f', 3)
                               .arg(e.is_best ? tr(" (best)") : QString()));
    });
    connect(m_worker, &TrainWorker::checkpointWritten, this,
            [this](const QString& p, qint64) { emit statusMessage(tr("checkpoint written: %1").arg(p)); });
    connect(m_worker, &TrainWorker::message, this, &TrainingPanel::statusMessage);
    connect(m_worker, &TrainWorker::finished, this, [this](const twb::TrainSummary& s) {
        setBusy(false);
        m_status->setText((s.stopped ? tr("Stopped at step %1") : tr("Finished at step %1")).arg(s.final_step) +
                          tr(" · best val loss %1 at step %2 · median %3 ms/step · %4")
                              .arg(s.best_val_loss, 0, 'f', 4)
                              .arg(s.best_step)
                              .arg(s.median_ms_per_step, 0, 'f', 1)
                              .arg(duration(s.elapsed_s)));
        emit statusMessage(m_status->text());
    });
    connect(m_worker, &TrainWorker::failed, this, [this](const QString& e) {
        setBusy(false);
        m_startAfterPrepare = false;
        showError(e);
    });
    connect(m_worker, &TrainWorker::preparing, this, [this](const QString& stage, double f) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(static_cast<int>(f * 1000));
        m_progress->setFormat(tr("preparing: %1 %p%").arg(stage));
    });
    connect(m_worker, &TrainWorker::prepared, this, [this](const QString& dir) {
        setBusy(false);
        m_progress->setFormat(tr("step %v / %m"));
        refreshDatasets();
        setDataset(dir);
        if (m_startAfterPrepare) {
            m_startAfterPrepare = false;
            start();
        }
    });

    refreshDatasets();
    newRun();
    setBusy(false);
    if (m_dataset->count() == 0)
        m_status->setText(
            tr("No prepared dataset yet: press <b>Quick start</b> (Ctrl+R) to prepare Debian's fortune "
               "cookies and train a small model in under a minute."));
}

TrainingPanel::~TrainingPanel() {
    if (m_control)
        m_control->request_stop();
    m_thread.quit();
    m_thread.wait();
}

void TrainingPanel::refreshDatasets() {
    const QString current = m_dataset->currentData().toString();
    QSignalBlocker block(m_dataset);
    m_dataset->clear();
    for (const auto& d : Workspace::datasets())
        m_dataset->addItem(QFileInfo(d).fileName(), d);
    const int i = m_dataset->findData(current);
    if (i >= 0)
        m_dataset->setCurrentIndex(i);
    block.unblock();
    onDatasetChanged();
}

void TrainingPanel::setDataset(const QString& dir) {
    int i = m_dataset->findData(dir);
    if (i < 0) {
        m_dataset->addItem(QFileInfo(dir).fileName(), dir);
        i = m_dataset->count() - 1;
    }
    m_dataset->setCurrentIndex(i);
    onDatasetChanged();
}

void TrainingPanel::onDatasetChanged() {
    m_form->setVocabSize(datasetVocab(m_dataset->currentData().toString()));
    updateStartEnabled();
}

void TrainingPanel::updateStartEnabled() {
    const bool haveData = !m_dataset->currentData().toString().isEmpty();
    const auto problems = m_form->problems();
    m_start->setEnabled(!isBusy() && haveData && problems.empty());
    m_start->setToolTip(!haveData          ? tr("Choose a dataset first (or use Quick start)")
                        : problems.empty() ? tr("Start training (F5)")
                                           : QString::fromStdString(problems.front()));
}

void TrainingPanel::busyChanged(bool busy) {
    m_pause->setEnabled(busy && m_control);
    m_stop->setEnabled(busy && m_control);
    m_save->setEnabled(busy && m_control);
    m_quick->setEnabled(!busy);
    m_dataset->setEnabled(!busy);
    m_form->setEnabled(!busy);
    m_pause->setText(tr("Pause"));
    updateStartEnabled();
}

void TrainingPanel::newRun() {
    if (isBusy())
        return;
    m_runDir.clear();
    m_initFrom.clear();
    m_plot->clear();
    m_plot->clearComparisons();
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_runLabel->setText(
        tr("<b>New run</b> (a folder under %1 is made on Start)").arg(Workspace::runsDir().toHtmlEscaped()));
    showError({});
    emit runChanged({});
}

bool TrainingPanel::openRun(const QString& dir) {
    if (isBusy())
        return false;
    try {
        const auto cfg = twb::read_run_config(dir.toStdString());
        m_form->setConfig(cfg);
        if (!cfg.data_dir.empty())
            setDataset(QString::fromStdString(cfg.data_dir));
        m_plot->clearComparisons();
        const QString metrics = dir + "/metrics.csv";
        if (QFileInfo::exists(metrics))
            m_plot->loadRows(twb::read_metrics(metrics.toStdString()));
        else
            m_plot->clear();
        m_runDir = dir;
        const auto steps = twb::list_checkpoints(dir.toStdString());
        m_runLabel->setText(tr("<b>Run</b> %1<br>%2 checkpoint(s)%3")
                                .arg(dir.toHtmlEscaped())
                                .arg(steps.size())
                                .arg(steps.empty() ? QString() : tr(", last at step %1").arg(steps.back())));
        m_progress->setRange(0, std::max(1, cfg.max_iters));
        m_progress->setValue(steps.empty() ? 0 : static_cast<int>(steps.back()));
        Workspace::addRecentRun(dir);
        showError({});
        emit runChanged(dir);
        return true;
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
}

void TrainingPanel::quickStart() {
    if (isBusy())
        return;
    showError({});
    m_form->applyPreset("tiny");
    newRun();
    const QString dir = Workspace::datasetsDir() + "/fortunes";
    if (QFileInfo::exists(dir + "/meta.json")) {
        setDataset(dir);
        start();
        return;
    }
    try {
        PrepareRequest req;
        req.options = twb::fortunes_preset(dir.toStdString());
        req.cancel = std::make_shared<std::atomic<bool>>(false);
        m_control.reset();
        m_startAfterPrepare = true;
        setBusy(true);
        emit statusMessage(tr("preparing the fortunes corpus…"));
        emit prepareRequested(req);
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
    }
}

void TrainingPanel::start() {
    if (isBusy())
        return;
    const bool continuing = !m_runDir.isEmpty() && !twb::list_checkpoints(m_runDir.toStdString()).empty();
    if (continuing) {
        resumeRun();
        return;
    }
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
    req.job.run_dir = m_runDir.toStdString();
    req.job.resume = resume;
    req.job.init_from = m_initFrom.toStdString();
    m_control = std::make_shared<twb::TrainControl>();
    req.control = m_control;
    if (!resume)
        m_plot->clear();
    showError({});
    m_runLabel->setText(
        tr("<b>Run</b> %1%2")
            .arg(m_runDir.toHtmlEscaped(),
                 m_initFrom.isEmpty() ? QString() : tr("<br>initialised from %1").arg(m_initFrom.toHtmlEscaped())));
    Workspace::addRecentRun(m_runDir);
    setBusy(true);
    emit runChanged(m_runDir);
    emit trainRequested(req);
}

void TrainingPanel::togglePause() {
    if (!m_control || !isBusy())
        return;
    if (m_control->paused()) {
        m_control->resume();
        m_pause->setText(tr("Pause"));
        emit statusMessage(tr("resumed"));
    } else {
        m_control->pause();
        m_pause->setText(tr("Resume"));
        emit statusMessage(tr("paused"));
    }
}

void TrainingPanel::stop() {
    if (m_control && isBusy()) {
        m_control->request_stop();
        m_status->setText(tr("Stopping after a checkpoint…"));
    }
}

void TrainingPanel::saveCheckpointNow() {
    if (m_control && isBusy())
        m_control->request_checkpoint();
}

void TrainingPanel::initialiseFromRun(const QString& dir) {
    if (isBusy())
        return;
    newRun();
    m_initFrom = dir;
    m_runLabel->setText(
        tr("<b>New run</b> initialised from %1 (finetuning: same tokenizer, a new dataset)").arg(dir.toHtmlEscaped()));
}

void TrainingPanel::compareWith(const QStringList& runs) {
    m_plot->clearComparisons();
    for (const auto& r : runs) {
        const QString m = r + "/metrics.csv";
        if (!QFileInfo::exists(m))
            continue;
        try {
            m_plot->addComparison(QFileInfo(r).fileName(), twb::read_metrics(m.toStdString()));
        } catch (const std::exception& e) {
            showError(QString::fromStdString(e.what()));
        }
    }
}
