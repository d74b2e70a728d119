// ExperimentsPanel, following a sweep: the experiment worker's reports (a cell started, its steps and
// evaluations, a cell done, the sweep's end, a tokenizer comparison's datasets prepared, a failure) shown in
// the queue, the progress bar, the status line, the table and the plots.
#include "ui/Workspace.h"
#include "ui/experiments/AxesEditor.h"
#include "ui/experiments/ExperimentsPanel.h"
#include "ui/experiments/SweepPlots.h"
#include "ui/widgets/Duration.h"

#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QRadioButton>
#include <QSettings>

void ExperimentsPanel::connectWorker() {
    connect(m_worker, &ExperimentWorker::cellStarted, this, &ExperimentsPanel::onCellStarted);
    connect(m_worker, &ExperimentWorker::stepReported, this, &ExperimentsPanel::onStep);
    connect(m_worker, &ExperimentWorker::evaluated, this, [this](const twb::EvalReport& e) {
        m_plots->addEval(m_currentDir, e);
        refreshRowsLater();
    });
    connect(m_worker, &ExperimentWorker::cellDone, this, &ExperimentsPanel::onCellDone);
    connect(m_worker, &ExperimentWorker::sweepFinished, this, &ExperimentsPanel::onSweepFinished);
    connect(m_worker, &ExperimentWorker::preparing, this, [this](const QString& what, double f) {
        m_status->setText(tr("preparing %1 … %2%").arg(what).arg(int(f * 100)));
        if (m_job)
            m_job->setProgress(f, what);
    });
    connect(m_worker, &ExperimentWorker::setPrepared, this, &ExperimentsPanel::onSetPrepared);
    connect(m_worker, &ExperimentWorker::failed, this, &ExperimentsPanel::onFailed);
}

void ExperimentsPanel::onCellStarted(int i, int total, const QString& dir, bool resumed) {
    m_current = i;
    m_currentDir = dir;
    m_currentStep = 0;
    m_currentMsPerStep = 0;
    m_progress->setMaximum(total);
    setCellState(i, resumed ? tr("running (resumed)") : tr("running"));
    refreshResults();  // the sweep's axes name the new cell's curve; its row reads "(running)"
}

void ExperimentsPanel::onStep(const twb::StepReport& r) {
    m_plots->addStep(m_currentDir, r);
    m_currentStep = r.step;
    m_currentMsPerStep = r.ms_per_step;
    if (m_current >= 0 && m_current < int(m_cellConfigs.size()) && r.tokens_per_s > 0) {
        // Remember the throughput for the next estimate: model FLOPs per second of this cell.
        const auto& c = m_cellConfigs[size_t(m_current)];
        Workspace::rememberTrainingSpeed(double(c.parameter_count()), r.tokens_per_s);
    }
    setCellState(m_current, tr("running, step %1 / %2").arg(r.step).arg(r.max_iters));
    double left = r.ms_per_step * double(r.max_iters - r.step) / 1000.0;
    for (size_t i = size_t(m_current) + 1; i < m_cellConfigs.size(); ++i)
        if (!m_skipped || !m_skipped->contains(i))
            left += cellSeconds(m_cellConfigs[i]);
    m_status->setText(tr("cell %1 of %2 · step %3 / %4 · about %5 left")
                          .arg(m_current + 1)
                          .arg(m_cellConfigs.size())
                          .arg(r.step)
                          .arg(r.max_iters)
                          .arg(formatDuration(left)));
    if (m_job && !m_cellConfigs.empty() && r.max_iters > 0)
        m_job->setProgress((m_progress->value() + double(r.step) / double(r.max_iters)) / double(m_cellConfigs.size()),
                           tr("cell %1 of %2, step %3").arg(m_current + 1).arg(m_cellConfigs.size()).arg(r.step));
}

void ExperimentsPanel::onCellDone(int i, const QString&, bool skipped) {
    setCellState(i, skipped ? tr("done (kept)") : tr("done"));
    m_progress->setValue(m_progress->value() + 1);
    m_plots->endTraining();
    refreshResults();
}

void ExperimentsPanel::onSweepFinished(bool complete) {
    setBusy(false);
    m_plots->endTraining();
    if (m_job) {
        if (complete)
            m_job->succeed();
        else
            m_job->fail(tr("Sweep stopped; Resume continues it"), true);
    }
    for (int i = 0; i < m_queue->count(); ++i)
        if (m_queue->item(i)->data(Qt::UserRole + 1).toString().startsWith(tr("running")))
            setCellState(i, tr("stopped (resumable)"));
    m_status->setText(complete ? tr("Sweep finished: %1").arg(m_dir)
                               : tr("Sweep stopped; Resume continues it from the stopped cell's last checkpoint"));
    // A finished sweep's folder is taken: the field proposes where the next one goes (it kept showing the
    // finished one until Start). A stopped sweep keeps its folder, for Resume.
    if (complete)
        renewTakenFolder();
    refreshResults();
    emit statusMessage(m_status->text());
    emit sweepFinished(complete);
}

void ExperimentsPanel::onSetPrepared(const QStringList& dirs) {
    setBusy(false);
    if (m_job)
        m_job->succeed();
    emit datasetsPrepared(dirs);
    m_axes->clear();
    m_axes->addAxis("data_dir", dirs.join(','));
    m_grid->setChecked(true);
    m_folder->setText(QString("%1/tokenizers-%2")
                          .arg(Workspace::sweepsDir(), QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss")));
    start();
}

void ExperimentsPanel::onFailed(const QString& e) {
    setBusy(false);
    m_plots->endTraining();
    if (m_job)
        m_job->fail(e);
    showError(e);
    m_status->setText(tr("Idle"));
    if (m_current < 0) {  // no cell started: nothing of the queue ran
        m_queue->clear();
        m_cellConfigs.clear();
        m_progress->setFormat(tr("no sweep running"));
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
    } else {
        setCellState(m_current, tr("failed"));
    }
}
