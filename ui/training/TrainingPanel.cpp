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
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <cmath>

namespace {
QString duration(double s) {
    const int t = static_cast<int>(s + 0.5);
    return t >= 3600
               ? QString("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QChar('0')).arg(t % 60, 2, 10, QChar('0'))
               : QString("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QChar('0'));
}
}  // namespace

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
    m_kindNote = new QLabel;
    m_kindNote->setObjectName("kindNote");
    m_kindNote->setWordWrap(true);
    m_kindNote->setStyleSheet("background: #e8f0fe; padding: 3px;");
    m_kindNote->hide();
    lv->addWidget(m_kindNote);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d =
            QFileDialog::getExistingDirectory(this, tr("Prepared dataset folder"),
                                              QSettings().value("lastDatasetDir", Workspace::datasetsDir()).toString());
        if (d.isEmpty())
            return;
        QSettings().setValue("lastDatasetDir", d);
        chooseDatasetFolder(d);
    });
    connect(m_dataset, &QComboBox::currentIndexChanged, this, &TrainingPanel::onDatasetChanged);
    m_form = new ConfigForm;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Always there: a bar that appears after the form was sized would cover the fields' right edge.
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    m_formScroll = scroll;
    m_form->installEventFilter(this);  // follows the form's minimum width (see eventFilter)
    fitFormWidth();
    lv->addWidget(scroll, 1);
    connect(m_form, &ConfigForm::changed, this, &TrainingPanel::updateStartEnabled);
    connect(m_form, &ConfigForm::changed, this, [this] {
        // The note says which kind the dataset chose; once the form shows another, it no longer holds.
        if (!m_kindNote->isHidden() && int(m_form->modelKind()) != m_kindNote->property("kind").toInt())
            m_kindNote->hide();
    });

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
    auto* lrFind = new QPushButton(tr("Find learning rate…"));
    lrFind->setObjectName("findLearningRate");
    lrFind->setToolTip(tr("The range finder on a fresh model of this config; the open run is not touched (Ctrl+L)"));
    lv->addWidget(lrFind);
    connect(lrFind, &QPushButton::clicked, this, &TrainingPanel::findLearningRate);
    m_moreRow = new QWidget;
    auto* more = new QHBoxLayout(m_moreRow);
    more->setContentsMargins(0, 0, 0, 0);
    auto* moreButton = new QPushButton(tr("Train more"));
    moreButton->setObjectName("trainMore");
    moreButton->setToolTip(tr("Continue this finished run for more steps, at its minimum learning rate"));
    m_moreSteps = new QSpinBox;
    m_moreSteps->setObjectName("moreSteps");
    m_moreSteps->setRange(1, 1000000);
    m_moreSteps->setSingleStep(100);
    m_moreSteps->setValue(QSettings().value("trainMoreSteps", 500).toInt());
    m_moreSteps->setSuffix(tr(" steps"));
    more->addWidget(moreButton);
    more->addWidget(m_moreSteps, 1);
    lv->addWidget(m_moreRow);
    m_moreRow->hide();
    connect(moreButton, &QPushButton::clicked, this, [this] {
        QSettings().setValue("trainMoreSteps", m_moreSteps->value());
        trainMore(m_moreSteps->value());
    });
    connect(m_quick, &QPushButton::clicked, this, &TrainingPanel::quickStart);
    connect(m_start, &QPushButton::clicked, this, &TrainingPanel::start);
    connect(m_pause, &QPushButton::clicked, this, &TrainingPanel::togglePause);
    connect(m_stop, &QPushButton::clicked, this, &TrainingPanel::stop);
    connect(m_save, &QPushButton::clicked, this, &TrainingPanel::saveCheckpointNow);
    // The menu's actions mirror the buttons: busyChanged and updateStartEnabled set both.
    auto action = [this](const QString& text, const QKeySequence& key, void (TrainingPanel::*slot)()) {
        auto* a = new QAction(text, this);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_quickAct = action(tr("&Quick start on fortunes"), QKeySequence(Qt::CTRL | Qt::Key_R), &TrainingPanel::quickStart);
    m_startAct = action(tr("&Start / continue"), QKeySequence(Qt::Key_F5), &TrainingPanel::start);
    m_pauseAct = action(tr("&Pause / resume"), QKeySequence(Qt::Key_F6), &TrainingPanel::togglePause);
    m_stopAct = action(tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5), &TrainingPanel::stop);
    m_saveAct = action(tr("Save &checkpoint now"), QKeySequence::Save, &TrainingPanel::saveCheckpointNow);
    m_lrFindAct = new QAction(tr("Find &learning rate…"), this);
    m_lrFindAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(m_lrFindAct, &QAction::triggered, this, [this] { findLearningRate(); });

    // Right: progress and plots.
    auto* right = new QWidget;
    auto* rv = new QVBoxLayout(right);
    m_progress = new QProgressBar;
    m_progress->setObjectName("progress");
    m_progress->setFormat(tr("step %v / %m"));
    m_status = new QLabel(tr("Idle"));
    m_status->setObjectName("status");
    m_status->setWordWrap(true);  // long messages must not widen the window
    m_offer = new QLabel;
    m_offer->setObjectName("resumeOffer");
    m_offer->setWordWrap(true);
    m_offer->setStyleSheet("background: #fff4ce; padding: 4px;");
    m_offer->hide();
    connect(m_offer, &QLabel::linkActivated, this, [this](const QString& link) {
        m_offer->hide();
        if (link == "resume" && openRun(m_offerRun))
            start();
    });
    rv->addWidget(m_offer);
    rv->addWidget(m_progress);
    rv->addWidget(m_status);
    m_evalLabel = new QLabel;
    m_evalLabel->setObjectName("evalReadout");
    m_evalLabel->setWordWrap(true);
    m_evalLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rv->addWidget(m_evalLabel);
    rv->addWidget(errorLabel());
    auto* opts = new QHBoxLayout;
    m_logScale = new QCheckBox(tr("Log-scale loss"));
    m_smooth = new QSlider(Qt::Horizontal);
    m_smooth->setRange(0, 99);
    m_smooth->setValue(QSettings().value("plotSmoothing", 60).toInt());
    m_smooth->setToolTip(tr("Smoothing of the training loss curve"));
    m_lossUnit = new QComboBox;
    m_lossUnit->setObjectName("lossUnit");
    m_lossUnit->addItem(tr("nats per token"));
    m_lossUnit->addItem(tr("bits per character"));
    m_lossUnit->setToolTip(
        tr("The validation loss's unit. Bits per character compares runs with different tokenizers fairly: a "
           "BPE token spans several characters, so its loss per token is larger for the same text."));
    opts->addWidget(m_logScale);
    m_baselines = new QCheckBox(tr("Baselines"));
    m_baselines->setObjectName("baselines");
    m_baselines->setToolTip(
        tr("The dataset's uniform, unigram and bigram validation losses as reference lines on the loss plot"));
    m_baselines->setChecked(QSettings().value("plotBaselines", false).toBool());
    opts->addWidget(m_baselines);
    opts->addWidget(new QLabel(tr("Smoothing")));
    opts->addWidget(m_smooth);
    // The units get a row of their own: beside the toggles they squeezed the smoothing slider away.
    auto* units = new QHBoxLayout;
    units->addWidget(new QLabel(tr("Loss in")));
    units->addWidget(m_lossUnit);
    m_xAxis = new QComboBox;
    m_xAxis->setObjectName("xAxis");
    m_xAxis->addItem(tr("steps"));
    m_xAxis->addItem(tr("epochs"));
    m_xAxis->setToolTip(
        tr("The plots' x-axis: optimiser steps, or passes over the training pairs (epochs) for an "
           "encoder-decoder run; a decoder LM's curves stay in steps"));
    units->addSpacing(12);
    units->addWidget(new QLabel(tr("x in")));
    units->addWidget(m_xAxis);
    units->addStretch();
    opts->addStretch();
    rv->addLayout(opts);
    rv->addLayout(units);
    m_compareNote = new QLabel;
    m_compareNote->setObjectName("compareNote");
    m_compareNote->setWordWrap(true);
    m_compareNote->hide();
    rv->addWidget(m_compareNote);
    m_plot = new MetricsPlot;
    rv->addWidget(m_plot, 1);
    m_plot->setSmoothing(m_smooth->value() / 100.0);
    connect(m_logScale, &QCheckBox::toggled, m_plot, &MetricsPlot::setLogScale);
    connect(m_lossUnit, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_plot->setBitsPerChar(i == 1);
        QSettings().setValue("plotLossUnit", i);
        updateBaselines();
    });
    m_lossUnit->setCurrentIndex(QSettings().value("plotLossUnit", 0).toInt() == 1 ? 1 : 0);
    connect(m_xAxis, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_plot->setEpochAxis(i == 1);
        QSettings().setValue("plotXEpochs", i == 1);
    });
    m_xAxis->setCurrentIndex(QSettings().value("plotXEpochs", false).toBool() ? 1 : 0);
    connect(m_baselines, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue("plotBaselines", on);
        updateBaselines();
    });
    connect(m_expWorker, &ExperimentWorker::baselinesReady, this,
            [this](const QString& dir, const std::vector<twb::BaselineResult>& rows) {
                QVector<QPair<QString, double>> lines, bpc;
                for (const auto& b : rows) {
                    lines.append({QString::fromStdString(b.name), b.loss});
                    bpc.append({QString::fromStdString(b.name), b.bits_per_char});
                }
                m_baselineCache[dir] = lines;
                m_baselineBpcCache[dir] = bpc;
                if (m_baselinesPending == dir)
                    m_baselinesPending.clear();
                updateBaselines();
            });
    connect(m_expWorker, &ExperimentWorker::failed, this, [this](const QString& e) {
        if (m_baselinesPending.isEmpty())
            return;                                // the range finder's errors are the dialog's
        m_baselineCache[m_baselinesPending] = {};  // not retried for this dataset in this session
        m_baselineBpcCache[m_baselinesPending] = {};
        m_baselinesPending.clear();
        showError(tr("baselines: %1").arg(e));
    });
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
        m_bestByBleu = i.config.best_by == twb::BestBy::Bleu;
        m_lastStep = i.start_step;
        m_pausedSeconds = 0;
        m_progress->setFormat(tr("step %v / %m"));
        m_progress->setRange(0, static_cast<int>(i.config.max_iters));
        m_progress->setValue(static_cast<int>(i.start_step));
        m_status->setText(tr("Training %1 parameters on %2 thread(s), %3, %4")
                              .arg(QLocale().toString(static_cast<qlonglong>(i.parameters)))
                              .arg(i.threads)
                              .arg(QString::fromStdString(i.device), QString::fromStdString(i.dtype)));
        m_status->setToolTip(
            tr("Precision %1: %2").arg(QString::fromStdString(i.dtype), QString::fromStdString(i.dtype_reason)));
        Workspace::addRecentRun(m_runDir);  // only now does the run folder exist
    });
    connect(m_worker, &TrainWorker::stepReported, this, [this](const twb::StepReport& r) {
        m_plot->addStep(r);
        m_lastStep = r.step;
        m_progress->setValue(static_cast<int>(r.step));
        if (m_trainJob)
            m_trainJob->setProgress(m_maxIters > 0 ? double(r.step) / double(m_maxIters) : -1.0,
                                    tr("step %1 / %2 · loss %3").arg(r.step).arg(m_maxIters).arg(r.loss, 0, 'f', 4));
        if (m_control && m_control->paused()) {
            m_status->setText(pausedText());
            return;
        }
        const double eta = (m_maxIters - r.step) * r.ms_per_step / 1000.0;
        m_status->setText(tr("step %1 / %2 · loss %3 · %4 tok/s · %5 ms/step · elapsed %6 · ETA %7")
                              .arg(r.step)
                              .arg(m_maxIters)
                              .arg(r.loss, 0, 'f', 4)
                              .arg(QLocale().toString(r.tokens_per_s, 'f', 0))
                              .arg(r.ms_per_step, 0, 'f', 1)
                              .arg(duration(std::max(0.0, r.elapsed_s - m_pausedSeconds)))
                              .arg(duration(eta)));
    });
    connect(m_worker, &TrainWorker::evaluated, this, [this](const twb::EvalReport& e) {
        m_plot->addEval(e);
        // An encoder-decoder has no bits per character (its loss is per target token); it has BLEU.
        m_lastEval = tr("val loss %1 · perplexity %2%3 · accuracy %4")
                         .arg(e.val_loss, 0, 'f', 4)
                         .arg(e.val_perplexity, 0, 'f', 2)
                         .arg(std::isnan(e.val_bpc) ? QString() : tr(" · %1 bits/char").arg(e.val_bpc, 0, 'f', 3))
                         .arg(e.val_accuracy, 0, 'f', 3);
        if (!std::isnan(e.val_bleu))
            m_lastEval += tr(" · BLEU %1").arg(e.val_bleu, 0, 'f', 2);
        if (!std::isnan(e.epoch))
            m_lastEval += tr(" · epoch %1").arg(e.epoch, 0, 'f', 2);
        m_evalLabel->setText(tr("Last evaluation (step %1): %2%3")
                                 .arg(e.step)
                                 .arg(m_lastEval)
                                 .arg(e.is_best ? tr(" (best so far)") : QString()));
        emit statusMessage(tr("step %1: %2%3").arg(e.step).arg(m_lastEval).arg(e.is_best ? tr(" (best)") : QString()));
    });
    connect(m_worker, &TrainWorker::checkpointWritten, this,
            [this](const QString& p, qint64) { emit statusMessage(tr("checkpoint written: %1").arg(p)); });
    connect(m_worker, &TrainWorker::message, this, &TrainingPanel::statusMessage);
    connect(m_worker, &TrainWorker::finished, this, [this](const twb::TrainSummary& s) {
        setBusy(false);
        if (m_trainJob)
            m_trainJob->succeed();
        m_progress->setValue(static_cast<int>(s.final_step));  // the bar and the line name the same step
        m_status->setText(
            (s.stopped ? tr("Stopped at step %1") : tr("Finished at step %1")).arg(s.final_step) +
            // best_by=bleu: the engine keeps minus the BLEU as the best "loss" (lower is better)
            (m_bestByBleu
                 ? tr(" · best val BLEU %1 at step %2 · median %3 ms/step · %4").arg(-s.best_val_loss, 0, 'f', 2)
                 : tr(" · best val loss %1 at step %2 · median %3 ms/step · %4").arg(s.best_val_loss, 0, 'f', 4))
                .arg(s.best_step)
                .arg(s.median_ms_per_step, 0, 'f', 1)
                .arg(duration(s.elapsed_s)));
        emit statusMessage(m_status->text());
    });
    connect(m_worker, &TrainWorker::failed, this, [this](const QString& e) {
        setBusy(false);
        if (m_trainJob)
            m_trainJob->fail(e);
        forgetUnstartedRun();
        showError(e);
    });

    connect(this, &TrainingPanel::runChanged, this, &TrainingPanel::updateMoreRow);
    refreshDatasets();
    newRun();
    setBusy(false);
}

void TrainingPanel::fitFormWidth() {
    // The fields never run under the vertical scroll bar: the area is at least the form plus the bar wide,
    // also after a preset or a run changed what the fields hold (and so the form's minimum width).
    // Never narrower than it has been: the model kind shows and hides rows, and the fields must not jump
    // sideways each time it changes.
    m_formScroll->setMinimumWidth(
        std::max(m_formScroll->minimumWidth(), m_form->minimumSizeHint().width() +
                                                   m_formScroll->verticalScrollBar()->sizeHint().width() +
                                                   2 * m_formScroll->frameWidth()));
}

bool TrainingPanel::eventFilter(QObject* watched, QEvent* e) {
    if (watched == m_form && e->type() == QEvent::LayoutRequest)
        fitFormWidth();
    return PanelBase::eventFilter(watched, e);
}

void TrainingPanel::showIdleStatus() {
    m_status->setText(m_dataset->count() == 0
                          ? tr("No prepared dataset yet: press <b>Quick start</b> (Ctrl+R) to prepare Debian's "
                               "fortune cookies and train a small model in under a minute.")
                          : tr("Ready: choose a dataset and a preset, then press <b>Start</b> (F5)."));
    m_evalLabel->clear();
    m_lastEval.clear();
}

QString TrainingPanel::pausedText() const {
    return tr("Paused at step %1 of %2: Resume (F6) continues, Stop (Shift+F5) ends with a checkpoint.")
        .arg(m_lastStep)
        .arg(m_maxIters);
}

void TrainingPanel::offerResume(const QString& dir) {
    const auto steps = twb::list_checkpoints(dir.toStdString());
    if (steps.empty())
        return;
    m_offerRun = dir;
    m_offer->setText(tr("Run <b>%1</b> was interrupted at step %2. <a href=\"resume\">Resume it</a> · "
                        "<a href=\"dismiss\">Dismiss</a>")
                         .arg(Workspace::runName(dir).toHtmlEscaped())
                         .arg(steps.back()));
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
    m_moreRow->setVisible(finished);
}

void TrainingPanel::trainMore(int steps) {
    if (isBusy() || m_runDir.isEmpty() || steps < 1)
        return;
    twb::RunConfig c = m_form->config();
    // From the step the run ended at: an encoder-decoder's epochs may have ended it before max_iters.
    // lr_decay_iters stays: past it the cosine schedule holds min_lr.
    const auto done = twb::list_checkpoints(m_runDir.toStdString());
    c.max_iters = static_cast<int>(done.empty() ? c.max_iters : done.back()) + steps;
    c.max_epochs = 0;  // the epochs are spent: the extra training is counted in steps
    m_form->setConfig(c);
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
        m_trainJob->fail(tr("the window closed"), true);  // its Cancel must not reach this panel any more
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
    auto* dlg = new LrFindDialog(m_expWorker, c, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &LrFindDialog::rateChosen, this, &TrainingPanel::setLearningRate);
    connect(dlg, &QDialog::finished, dlg, &LrFindDialog::cancel);
    dlg->show();
    return dlg;
}

void TrainingPanel::setLearningRate(double lr) {
    twb::RunConfig c = m_form->config();
    c.learning_rate = lr;
    m_form->setConfig(c);
    emit statusMessage(tr("learning rate set to %1").arg(lr, 0, 'g', 3));
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
    m_form->setEnabled(!busy);
    m_pause->setText(tr("Pause"));
    updateStartEnabled();
    updateMoreRow();
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
        this, [this](const QString& prepared) { quickStartPrepared(prepared); },
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
    start();
}

void TrainingPanel::start() {
    if (isBusy())
        return;
    if (const QString why = startBlocker(); !why.isEmpty()) {
        showError(why);
        return;
    }
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
    m_plot->setRunName(Workspace::runName(m_runDir));
    req.job.resume = resume;
    req.job.init_from = m_initFrom.toStdString();
    m_control = std::make_shared<twb::TrainControl>();
    req.control = m_control;
    if (!resume)
        m_plot->clear();
    showError({});
    m_runLabel->setText(
        tr("<b>Run</b> %1%2")
            .arg(runLabelText(m_runDir),
                 m_initFrom.isEmpty() ? QString() : tr("<br>initialised from %1").arg(m_initFrom.toHtmlEscaped())));
    setBusy(true);
    m_trainJob = jobs()->track(tr("Training %1").arg(Workspace::runName(m_runDir)), [this] { stop(); });
    m_trainJob->setErrorHandled(true);  // the panel shows it
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
        m_pause->setText(tr("Pause"));
        m_status->setText(tr("Resumed at step %1").arg(m_lastStep));
        emit statusMessage(tr("resumed"));
    } else {
        m_control->pause();
        m_pausedSince.start();
        m_pause->setText(tr("Resume"));
        m_status->setText(pausedText());
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
