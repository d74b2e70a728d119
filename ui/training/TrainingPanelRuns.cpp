// TrainingPanel, which run it shows: a new run, an opened one, one initialised from or duplicating
// another, the runs compared with it, and the run's name in the header and under the plots.
#include "twb/dataset.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "twb/run_info.h"
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/Duration.h"
#include "ui/widgets/SteadyLabel.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QSet>
#include <algorithm>
#include <cmath>

namespace {
/// How a run turns text into tokens: the dataset's tokenizer kind and the vocabulary size. Runs that
/// differ here have losses per token in different units.
QString tokenization(const QString& run) {
    try {
        const auto cfg = twb::read_run_config(run.toStdString());
        QString kind = QStringLiteral("?");
        try {
            kind = QString::fromStdString(twb::open_prepared(cfg.data_dir).tokenizer_kind);
        } catch (const std::exception&) {
        }
        return QStringLiteral("%1 %2").arg(kind).arg(cfg.vocab_size);
    } catch (const std::exception&) {
        return {};
    }
}
}  // namespace

void TrainingPanel::clearRun() {
    m_runDir.clear();
    m_noDataOfItsOwn = false;
    m_initFrom.clear();
    m_plot->clear();
    endComparison();
    m_plot->setRunName({});
    m_progress->setFormat(tr("not started"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
}

std::vector<int64_t> TrainingPanel::showRunLabel(const QString& dir) {
    const auto steps = twb::list_checkpoints(dir.toStdString());
    m_runLabel->setText(tr("<b>Run</b> %1<br>%2").arg(runLabelText(dir), checkpointsLine(steps)));
    return steps;
}

QString TrainingPanel::checkpointsLine(const std::vector<int64_t>& steps) {
    if (steps.empty())
        return tr("no checkpoint yet");
    return (steps.size() == 1 ? tr("1 checkpoint") : tr("%1 checkpoints").arg(steps.size())) +
           tr(", last at step %1").arg(steps.back());
}

void TrainingPanel::newRun() {
    if (isBusy())
        return;
    if (m_trainedMore) {
        // Train more raised Steps past the run's decay (which continuing keeps); a new run of these
        // settings decays over all its steps, as the run did over its own, not flat at min_lr at the end.
        twb::RunConfig c = m_form->config();
        if (c.lr_decay_iters < c.max_iters) {
            c.lr_decay_iters = c.max_iters;
            m_form->setConfig(c);
        }
        m_trainedMore = false;
    }
    clearRun();
    m_datasetError->hide();  // a folder refused for the run before is no concern of a new one
    m_offer->hide();         // a new run answers an offer of another (Ctrl+N left "Resume it" showing)
    m_runLabel->setText(
        tr("<b>New run</b> (a folder under %1 is made on Start)").arg(Workspace::runsDir().toHtmlEscaped()));
    showIdleStatus();
    showError({});
    emit runChanged({});
}

bool TrainingPanel::openRun(const QString& given) {
    if (isBusy())
        return false;
    // Absolute: a folder given relative to where the program started went into File → Recent runs as
    // "ws/runs/shakes", which another start from elsewhere could not open.
    const QString dir = given.isEmpty() ? given : QDir::cleanPath(QFileInfo(given).absoluteFilePath());
    try {
        const auto cfg = twb::read_run_config(dir.toStdString());
        m_form->setConfig(cfg);
        m_trainedMore = false;  // the run's own settings
        m_kindNote->hide();     // the kind is the run's own
        m_openingRun = true;
        if (!cfg.data_dir.empty())
            setDataset(QString::fromStdString(cfg.data_dir));
        m_openingRun = false;
        endComparison();
        const QString metrics = dir + "/metrics.csv";
        m_epochsDone = NAN;
        m_epochsRun = dir;
        std::vector<twb::MetricsRow> rows;
        if (QFileInfo::exists(metrics)) {
            rows = twb::read_metrics(metrics.toStdString());
            m_plot->loadRows(rows);
            for (auto r = rows.rbegin(); r != rows.rend() && std::isnan(m_epochsDone); ++r)
                m_epochsDone = r->epoch;
        } else {
            m_plot->clear();
        }
        m_runDir = dir;
        m_noDataOfItsOwn = cfg.data_dir.empty();
        m_plot->setRunName(Workspace::runName(dir));
        const auto steps = showRunLabel(dir);
        m_progress->setFormat(tr("step %v / %m"));
        m_progress->setRange(0, std::max(1, cfg.max_iters));
        m_progress->setValue(steps.empty() ? 0 : static_cast<int>(steps.back()));
        showIdleStatus();
        // The last evaluation's line, as a live run left it (an opened run showed none).
        const auto lastEval =
            std::find_if(rows.rbegin(), rows.rend(), [](const twb::MetricsRow& r) { return r.kind == "eval"; });
        if (lastEval != rows.rend()) {
            showEvaluation(twb::eval_report(*lastEval));
            noteUnsavedEvaluation(steps);
        }
        const QString holder = QString::fromStdString(twb::run_holder(dir.toStdString()));
        m_status->setText(
            !holder.isEmpty()
                ? tr("Being trained now by %1: the curves are what it had written when opened.").arg(holder)
            : steps.empty() && !rows.empty()
                ? tr("No checkpoint left to continue from: Start trains this run again from the beginning, "
                     "replacing the curves shown.")
            : steps.empty() ? tr("No checkpoint yet: Start trains this run from the beginning.")
            : cfg.data_dir.empty()
                ? tr("An imported model, with no dataset of its own: sample it and look inside it (Sampling, "
                     "Attention), or finetune it on a dataset (Run → Initialise from run…).")
            : steps.back() >= cfg.max_iters
                ? tr("Finished at step %1%2.").arg(steps.back()).arg(bestText(rows) + timingText(rows))
                : tr("Stopped at step %1 of %2%3: Start (F5) continues it.")
                      .arg(steps.back())
                      .arg(cfg.max_iters)
                      .arg(bestText(rows) + timingText(rows)));
        // A run with checkpoints but no curves (metrics.csv deleted, or emptied by a full disk) said nothing
        // about the empty plots.
        if (holder.isEmpty() && rows.empty() && !steps.empty() && !cfg.data_dir.empty())
            m_status->setText(m_status->text() + " " +
                              tr("Its metrics.csv is %1, so no curves are shown; the checkpoints are intact.")
                                  .arg(QFileInfo::exists(metrics) ? tr("empty") : tr("missing")));
        Workspace::addRecentRun(dir);
        showError({});
        m_offer->hide();  // a run chosen answers the start-up's offer of another (or says the same itself)
        updateStartEnabled();
        emit runChanged(dir);
        return true;
    } catch (const std::exception& e) {
        m_openingRun = false;
        showError(QString::fromStdString(e.what()));
        return false;
    }
}

QString TrainingPanel::bestText(const std::vector<twb::MetricsRow>& rows) const {
    // The best evaluation, as the line said when the run ended here (opened again, it said "Finished at step 500."
    // alone): from the rows read already, by the runs table's rule (step 0's evaluation is no checkpoint)
    const twb::MetricsRow* bestLoss = nullptr;
    const twb::MetricsRow* bestBleu = nullptr;
    for (const auto& r : rows) {
        if (r.kind != "eval" || r.step <= 0)
            continue;
        if (!std::isnan(r.val_loss) && (!bestLoss || r.val_loss < bestLoss->val_loss))
            bestLoss = &r;
        if (!std::isnan(r.val_bleu) && (!bestBleu || r.val_bleu > bestBleu->val_bleu))
            bestBleu = &r;
    }
    if (bestBleu)
        return tr(" · best val BLEU %1 at step %2")
            .arg(QLocale().toString(bestBleu->val_bleu, 'f', 2))
            .arg(bestBleu->step);
    if (bestLoss)
        return tr(" · best val loss %1 at step %2")
            .arg(QLocale().toString(bestLoss->val_loss, 'f', 4))
            .arg(bestLoss->step);
    return {};
}

QString TrainingPanel::timingText(const std::vector<twb::MetricsRow>& rows) const {
    // Opened again, the line lacked the step time and the training time it gave when the run ended here. Each
    // logged row holds the mean of its interval's steps: their median stands for the steps' median. The time
    // is the last row's elapsed_s, which a resumed run carries on from its checkpoint.
    std::vector<double> ms;
    double elapsed = NAN;
    for (const auto& r : rows) {
        if (r.kind == "train" && r.ms_per_step > 0)
            ms.push_back(r.ms_per_step);
        if (r.elapsed_s >= 0)
            elapsed = r.elapsed_s;
    }
    if (ms.empty())
        return {};
    std::nth_element(ms.begin(), ms.begin() + static_cast<long>(ms.size() / 2), ms.end());
    return tr(" · median %1 ms/step").arg(QLocale().toString(ms[ms.size() / 2], 'f', 1)) +
           (std::isnan(elapsed) ? QString() : tr(" · %1 of training").arg(formatDuration(elapsed)));
}

void TrainingPanel::initialiseFromRun(const QString& dir) {
    if (isBusy())
        return;
    newRun();
    m_initFrom = dir;
    m_runLabel->setText(
        tr("<b>New run</b> initialised from %1 (finetuning: same tokenizer, a new dataset)").arg(dir.toHtmlEscaped()));
}

void TrainingPanel::endComparison() {
    m_compared.clear();
    m_plot->clearComparisons();
    m_compareNote->hide();
    if (m_unitBeforeCompare >= 0) {
        m_comparisonUnit = true;
        m_lossUnit->setCurrentIndex(m_unitBeforeCompare);
        m_comparisonUnit = false;
        m_unitBeforeCompare = -1;
    }
}

void TrainingPanel::compareWith(const QStringList& runs) {
    endComparison();
    QSet<QString> tokenizations;
    if (!m_runDir.isEmpty())
        tokenizations << tokenization(m_runDir);
    int shown = 0;
    for (const auto& r : runs) {
        const QString m = r + "/metrics.csv";
        // the open run is drawn already: not again as "another" run (it read "Comparing 2 other runs")
        if (!QFileInfo::exists(m) || QFileInfo(r).canonicalFilePath() == QFileInfo(m_runDir).canonicalFilePath())
            continue;
        try {
            m_plot->addComparison(Workspace::runName(r), twb::read_metrics(m.toStdString()));
            tokenizations << tokenization(r);
            m_compared << r;
            ++shown;
        } catch (const std::exception& e) {
            showError(QString::fromStdString(e.what()));
        }
    }
    tokenizations.remove(QString());
    if (shown == 0) {
        m_compareNote->hide();
        return;
    }
    if (tokenizations.size() > 1) {
        // Loss per token of a BPE run and of a character run are in different units: compare per character,
        // for this comparison only (the next single run gets the unit back).
        if (m_lossUnit->currentIndex() != 1) {
            m_unitBeforeCompare = m_lossUnit->currentIndex();
            m_comparisonUnit = true;
            m_lossUnit->setCurrentIndex(1);
            m_comparisonUnit = false;
        }
        m_compareNote->setText(tr("These runs' tokenizers differ (%1), so their losses per token do not compare: the "
                                  "validation loss is shown in <b>bits per character</b>, the unit they share.")
                                   .arg(QStringList(tokenizations.values()).join(tr(", ")).toHtmlEscaped()));
    } else {
        m_compareNote->setText(
            (shown == 1 ? tr("Comparing 1 other run (dashed).") : tr("Comparing %1 other runs (dashed).").arg(shown)) +
            " " + tr("Same tokenizer, so nats per token compare; bits per character works too."));
    }
    // A way back to the run alone (the dashed curves stayed until another comparison replaced them)
    m_compareNote->setText(m_compareNote->text() + " <a href=\"end\">" + tr("Stop comparing") + "</a>");
    m_compareNote->show();
}

void TrainingPanel::forgetRun(const QString& dir) {
    if (!m_compared.contains(dir))
        return;
    QStringList rest = m_compared;
    rest.removeAll(dir);
    compareWith(rest);
}

void TrainingPanel::duplicateRun(const QString& dir) {
    if (isBusy())
        return;
    try {
        const auto cfg = twb::read_run_config(dir.toStdString());
        newRun();
        m_form->setConfig(cfg);
        if (!cfg.data_dir.empty())
            setDataset(QString::fromStdString(cfg.data_dir));
        m_runLabel->setText(tr("<b>New run</b> with the settings of %1 (its folder is made on Start)")
                                .arg(Workspace::runName(dir).toHtmlEscaped()));
        emit statusMessage(tr("new run with the settings of %1: press Start (F5)").arg(Workspace::runName(dir)));
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
    }
}

void TrainingPanel::refreshRunName() {
    if (m_runDir.isEmpty() || !QFileInfo::exists(m_runDir + "/config.json"))
        return;
    m_plot->setRunName(Workspace::runName(m_runDir));
    // The header's first line names the run; the rest (checkpoints, init) stays.
    QString label = m_runLabel->text();
    const int br = label.indexOf("<br>");
    m_runLabel->setText(tr("<b>Run</b> %1").arg(runLabelText(m_runDir)) + (br >= 0 ? label.mid(br) : QString()));
}

QString TrainingPanel::runLabelText(const QString& dir) const {
    // A named run by its name and folder name; the whole path is the label's tooltip.
    m_runLabel->setToolTip(dir);
    const QString title = Workspace::runName(dir);
    return title == QFileInfo(dir).fileName()
               ? dir.toHtmlEscaped()
               : QStringLiteral("%1 <span style=\"color: #777\">(%2)</span>")
                     .arg(title.toHtmlEscaped(), QFileInfo(dir).fileName().toHtmlEscaped());
}
