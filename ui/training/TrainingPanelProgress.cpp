// TrainingPanel, following a run: the training worker's reports (start, steps, evaluations, the end or a
// failure) shown in the progress bar, the status line, the evaluation readout and the plots, and passed on
// to the jobs service's entry for the run.
#include "twb/metrics.h"
#include "twb/training.h"
#include "ui/Workspace.h"
#include "ui/jobs/Job.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/Duration.h"
#include "ui/widgets/SteadyLabel.h"

#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>

#include <cmath>

void TrainingPanel::connectWorker() {
    // Queued: the signals come from the training thread.
    connect(m_worker, &TrainWorker::started, this, &TrainingPanel::onStarted);
    connect(m_worker, &TrainWorker::stepReported, this, &TrainingPanel::onStep);
    connect(m_worker, &TrainWorker::evaluated, this, &TrainingPanel::onEvaluated);
    connect(
        m_worker, &TrainWorker::checkpointWritten, this,
        [this](const QString&, qint64 step) {  // the run's name, not a path the status bar cuts short
            emit statusMessage(tr("checkpoint of step %1 written (%2)").arg(step).arg(Workspace::runLabel(m_runDir)));
            if (m_initFrom.isEmpty())  // the label's count follows (a folder listing)
                showRunLabel(m_runDir);
        });
    connect(m_worker, &TrainWorker::message, this, &TrainingPanel::statusMessage);
    connect(m_worker, &TrainWorker::paused, this, &TrainingPanel::onPaused);
    connect(m_worker, &TrainWorker::finished, this, &TrainingPanel::onFinished);
    connect(m_worker, &TrainWorker::failed, this, &TrainingPanel::onFailed);
}

QString TrainingPanel::noValidationNote() const {
    return tr(" · no validation split (shorter than a block): the validation figures are the training split's");
}

void TrainingPanel::onStarted(const twb::TrainStartInfo& i) {
    m_maxIters = i.config.max_iters;
    m_parameters = double(i.parameters);
    m_bestByBleu = i.config.best_by == twb::BestBy::Bleu;
    // The engine evaluates a language model on its training split when validation holds less than a block.
    m_noValidation = i.config.model_kind == twb::ModelKind::Decoder &&
                     i.val_tokens <= static_cast<uint64_t>(std::max(0, i.config.block_size));
    m_lastStep = i.start_step;
    m_pausedAt = -1;
    m_pausedSeconds = 0;
    m_progress->setFormat(tr("step %v / %m"));
    m_progress->setRange(0, static_cast<int>(i.config.max_iters));
    m_progress->setValue(static_cast<int>(i.start_step));
    m_status->reset();  // a new run of lines: as tall as they need, then steady
    m_evalLabel->reset();
    m_status->setText(tr("Training %1 parameters on %2, %3, %4")
                          .arg(QLocale().toString(static_cast<qlonglong>(i.parameters)),
                               i.threads == 1 ? tr("1 thread") : tr("%1 threads").arg(i.threads),
                               QString::fromStdString(i.device_name.empty() ? i.device : i.device_name),
                               QString::fromStdString(i.dtype)) +
                      (m_noValidation ? noValidationNote() : QString()));
    m_status->setToolTip(
        tr("Precision %1: %2").arg(QString::fromStdString(i.dtype), QString::fromStdString(i.dtype_reason)));
    Workspace::addRecentRun(m_runDir);  // only now does the run folder exist
}

void TrainingPanel::onStep(const twb::StepReport& r) {
    m_plot->addStep(r);
    Workspace::rememberTrainingSpeed(m_parameters, r.tokens_per_s);  // the Experiments panel's estimates
    m_lastStep = r.step;
    m_progress->setValue(static_cast<int>(r.step));
    if (m_trainJob)
        m_trainJob->setProgress(
            m_maxIters > 0 ? double(r.step) / double(m_maxIters) : -1.0,
            tr("step %1 / %2 · loss %3").arg(r.step).arg(m_maxIters).arg(QLocale().toString(r.loss, 'f', 4)));
    if (m_control && m_control->paused()) {
        m_status->setText(pausedText());
        return;
    }
    const double eta = (m_maxIters - r.step) * r.ms_per_step / 1000.0;
    m_status->setText(tr("step %1 / %2 · loss %3 · %4 tok/s · %5 ms/step · elapsed %6 · ETA %7")
                          .arg(r.step)
                          .arg(m_maxIters)
                          .arg(QLocale().toString(r.loss, 'f', 4))
                          .arg(QLocale().toString(r.tokens_per_s, 'f', 0))
                          .arg(QLocale().toString(r.ms_per_step, 'f', 1))
                          .arg(formatDuration(std::max(0.0, r.elapsed_s - m_pausedSeconds)))
                          .arg(formatDuration(eta)) +
                      deviceMemoryText(r));
}

QString TrainingPanel::deviceMemoryText(const twb::StepReport& r) {
    if (r.device_memory_total == 0)
        return {};
    const double gib = 1024.0 * 1024.0 * 1024.0;
    return tr(" · GPU memory %1 / %2 GiB")
        .arg(double(r.device_memory_used) / gib, 0, 'f', 1)
        .arg(double(r.device_memory_total) / gib, 0, 'f', 1);
}

void TrainingPanel::onEvaluated(const twb::EvalReport& e) {
    m_plot->addEval(e);
    if (!std::isnan(e.epoch)) {
        m_epochsDone = e.epoch;
        m_epochsRun = m_runDir;
    }
    showEvaluation(e);
    emit statusMessage(tr("step %1: %2%3").arg(e.step).arg(m_lastEval).arg(e.is_best ? tr(" (best)") : QString()));
}

void TrainingPanel::showEvaluation(const twb::EvalReport& e) {
    // An encoder-decoder has no bits per character (its loss is per target token); it has BLEU.
    m_lastEval =
        tr("val loss %1 · perplexity %2%3 · accuracy %4")
            .arg(QLocale().toString(e.val_loss, 'f', 4))
            .arg(QLocale().toString(e.val_perplexity, 'f', 2))
            .arg(std::isnan(e.val_bpc) ? QString() : tr(" · %1 bits/char").arg(QLocale().toString(e.val_bpc, 'f', 3)))
            .arg(QLocale().toString(e.val_accuracy, 'f', 3));
    if (!std::isnan(e.val_bleu))
        m_lastEval += tr(" · BLEU %1").arg(QLocale().toString(e.val_bleu, 'f', 2));
    if (!std::isnan(e.epoch))
        m_lastEval += tr(" · epoch %1").arg(QLocale().toString(e.epoch, 'f', 2));
    m_lastEvalStep = e.step;
    m_lastEvalBest = e.is_best;
    showEvaluationLine(true);
}

void TrainingPanel::showEvaluationLine(bool saved) {
    // An evaluation whose checkpoint never reached the disk (a full disk, checkpoints deleted) is no best
    // to go back to: the line says so rather than "best so far".
    m_evalLabel->setText(tr("Last evaluation (step %1): %2%3")
                             .arg(m_lastEvalStep)
                             .arg(m_lastEval)
                             .arg(!saved           ? tr(" (no checkpoint of this step on disk)")
                                  : m_lastEvalBest ? tr(" (best so far)")
                                                   : QString()));
}

void TrainingPanel::noteUnsavedEvaluation(const std::vector<int64_t>& steps) {
    if (!m_lastEval.isEmpty() && m_lastEvalStep > 0 && (steps.empty() || steps.back() < m_lastEvalStep))
        showEvaluationLine(false);
}

void TrainingPanel::onPaused(qint64 step) {
    if (!m_control || !m_control->paused())
        return;  // resumed before the pause took effect
    m_pausedAt = step;
    m_lastStep = step;
    emit pauseChanged(m_runDir, true);
    m_progress->setValue(static_cast<int>(step));
    m_status->setText(pausedText());
    if (m_trainJob)  // the status bar's line too: it showed the last report's step, up to log_interval before
        m_trainJob->setProgress(m_maxIters > 0 ? double(step) / double(m_maxIters) : -1.0,
                                tr("paused at step %1 / %2").arg(step).arg(m_maxIters));
}

void TrainingPanel::onFinished(const twb::TrainSummary& s) {
    setBusy(false);
    emit pauseChanged(m_runDir, false);
    if (m_trainJob)
        m_trainJob->succeed();
    m_progress->setValue(static_cast<int>(s.final_step));  // the bar and the line name the same step
    showRunLabel(m_runDir);                                // the checkpoints it has now, as when opened
    // The run's log, which the line reads as the run opened again does (and the Runs table too).
    std::vector<twb::MetricsRow> rows;
    try {
        if (!m_runDir.isEmpty() && QFileInfo::exists(m_runDir + "/metrics.csv"))
            rows = twb::read_metrics((m_runDir + "/metrics.csv").toStdString());
    } catch (const std::exception&) {
    }
    // best_by=bleu: the engine keeps minus the BLEU as the best "loss" (lower is better). The best loss as the log
    // holds it (six figures), as the Runs table and the run opened again show it: 2.1710 here read 2.1709 there.
    double bestLoss = s.best_val_loss;
    for (const auto& r : rows)
        if (r.kind == "eval" && r.step == s.best_step && !std::isnan(r.val_loss))
            bestLoss = r.val_loss;
    // A stop before any evaluation at a checkpoint has no best yet: none is named ("nan at step -1").
    const QString best =
        s.best_step < 0 || std::isnan(s.best_val_loss) ? QString()
        : m_bestByBleu   ? tr(" · best val BLEU %1 at step %2").arg(QLocale().toString(-s.best_val_loss, 'f', 2))
        : m_noValidation ? tr(" · best loss %1 at step %2").arg(QLocale().toString(bestLoss, 'f', 4))
                         : tr(" · best val loss %1 at step %2").arg(QLocale().toString(bestLoss, 'f', 4));
    // The step time and training time as the log gives them, so the line says the same when the run is opened
    // again (it said 23.9 ms/step here and 24.0 then: the engine's median is of single steps, the log's of its
    // rows). Without a log, the engine's; a run that trained no step this time (its epochs were spent) has no
    // step time to speak of.
    QString timing = rows.empty() ? QString() : timingText(rows);
    if (timing.isEmpty())
        timing =
            (s.median_ms_per_step > 0 ? tr(" · median %1 ms/step").arg(QLocale().toString(s.median_ms_per_step, 'f', 1))
                                      : QString()) +
            tr(" · %1 of training").arg(formatDuration(s.elapsed_s));
    // "of 400" as the line says of a stopped run opened again
    const QString at = !s.stopped                  ? tr("Finished at step %1").arg(s.final_step)
                       : m_maxIters > s.final_step ? tr("Stopped at step %1 of %2").arg(s.final_step).arg(m_maxIters)
                                                   : tr("Stopped at step %1").arg(s.final_step);
    m_status->setText(at + (best.isEmpty() ? best : best.arg(s.best_step)) + timing +
                      (m_noValidation ? noValidationNote() : QString()));
    emit statusMessage(m_status->text());
}

void TrainingPanel::onFailed(const QString& e) {
    setBusy(false);
    emit pauseChanged(m_runDir, false);
    if (m_trainJob)
        m_trainJob->fail(e);
    forgetUnstartedRun();
    // The bar and the line name what is on disk, not the step that was being written (a full disk read
    // "step 60 / 60" after step 60's checkpoint failed, step 40 the last one saved).
    if (!m_runDir.isEmpty()) {
        const auto steps = showRunLabel(m_runDir);
        m_progress->setValue(steps.empty() ? 0 : static_cast<int>(steps.back()));
        noteUnsavedEvaluation(steps);
        m_status->setText(steps.empty() ? tr("Training failed before its first checkpoint (the message in red says "
                                             "why): Start trains the run again from the beginning.")
                                        : tr("Training failed (the message in red says why); its last checkpoint is "
                                             "step %1: Start (F5) continues from there.")
                                              .arg(steps.back()));
    }
    showError(e);
}
