#include "ui/experiments/ExperimentsPanel.h"

#include "twb/dataset.h"
#include "ui/Workspace.h"
#include "ui/experiments/AxesEditor.h"
#include "ui/training/ConfigForm.h"
#include "ui/widgets/Duration.h"

#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>

// The sweep's size and cost: how many cells, and the time they take at the machine's measured rate.

namespace {
/// Model FLOPs per second this machine last trained at (6 x parameters x tokens/s: the Training panel's
/// runs, the Quick start's too, and each sweep cell); before any training 20 GFLOP/s, about what two idle
/// AVX2 cores give the tiny and default presets in float32 (23.7 and 27.7 measured with twb train,
/// 2026-11-24). Small models run well below it (the per-step overhead dominates), so the unmeasured
/// estimate is called a rough guess, not a rate.
double flopsPerSecond() {
    const double measured = Workspace::trainingSpeed();
    return measured > 0 ? measured : 20e9;
}
}  // namespace

int ExperimentsPanel::cellCount(QString* why) const {
    try {
        return int(twb::sweep_cells(spec()).size());
    } catch (const std::exception& e) {
        if (why)
            *why = QString::fromStdString(e.what());
        return -1;
    }
}

int ExperimentsPanel::vocabOf(const std::string& dataDir) const {
    auto it = m_vocab.find(dataDir);
    if (it != m_vocab.end())
        return it->second;
    int v = 0;
    try {
        v = twb::open_prepared(dataDir).vocab_size;  // meta.json only: a few hundred bytes
    } catch (const std::exception&) {
    }
    return m_vocab[dataDir] = v;
}

double ExperimentsPanel::cellSeconds(const twb::RunConfig& c) const {
    // Training: 6 FLOPs per parameter per token (forward and backward); evaluation: 2, over both splits.
    const double tokens = double(c.batch_size) * double(c.block_size) * double(c.gradient_accumulation_steps);
    const double p = double(c.parameter_count());
    const double evals = c.eval_interval > 0 ? double(c.max_iters / c.eval_interval + 1) : 1.0;
    const double evalTokens = evals * 2.0 * double(c.eval_iters) * double(c.batch_size) * double(c.block_size);
    return (6.0 * p * tokens * double(c.max_iters) + 2.0 * p * evalTokens) / flopsPerSecond();
}

double ExperimentsPanel::estimatedSeconds() const {
    const auto s = spec();
    double total = 0;
    for (const auto& cell : twb::sweep_cells(s)) {
        auto c = twb::cell_config(s, cell);
        c.vocab_size = vocabOf(c.data_dir);
        total += cellSeconds(c);
    }
    return total;
}

void ExperimentsPanel::showEvent(QShowEvent* e) {
    PanelBase::showEvent(e);
    updateEstimate();  // the same estimate as retyping an axis gives, for the form as it is now
}

void ExperimentsPanel::updateEstimate() {
    if (isBusy())
        return;
    // Which dataset and model the cells start from, named: "the Training panel's config and dataset" had to be
    // looked up in the Training panel.
    try {
        const twb::RunConfig c = baseConfig();
        const QString data = QFileInfo(QString::fromStdString(c.data_dir)).fileName();
        m_baseNote->setText(data.isEmpty() ? tr("Every cell starts from the Training panel's config and dataset; each "
                                                "axis replaces one field.")
                                           : tr("Every cell starts from the Training panel's config and dataset, now "
                                                "<b>%1</b>, model %2×%3×%4 (layers × heads × width), %5 steps; each "
                                                "axis replaces one field.")
                                                 .arg(data.toHtmlEscaped())
                                                 .arg(c.n_layer)
                                                 .arg(c.n_head)
                                                 .arg(c.n_embd)
                                                 .arg(QLocale().toString(c.max_iters)));
    } catch (const std::exception&) {
    }
    QSettings().setValue("experiments/axes", m_axes->texts());
    QSettings().setValue("experiments/random", m_random->isChecked());
    QSettings().setValue("experiments/samples", m_samples->value());
    m_samples->setEnabled(m_random->isChecked());
    QString why;
    const int n = cellCount(&why);
    if (n < 0) {
        m_estimate->setText(tr("<span style='color:#b00'>%1</span>").arg(why.toHtmlEscaped()));
        m_start->setEnabled(false);
        m_startAct->setEnabled(false);
        return;
    }
    double seconds = 0;
    try {
        seconds = estimatedSeconds();
    } catch (const std::exception&) {
    }
    const QString cells = n == 1 ? tr("1 cell") : tr("%1 cells").arg(n);
    if (Workspace::trainingSpeed() > 0)
        m_estimate->setText(
            tr("<b>%1</b>, estimated %2 in all (at the speed measured in this machine's last training, %3 "
               "GFLOP/s)")
                .arg(cells, formatDuration(seconds))
                .arg(QLocale().toString(flopsPerSecond() / 1e9, 'f', 1)));  // "74,6" in Bokmål
    else
        m_estimate->setText(tr("<b>%1</b>, roughly %2 in all: a rough guess until the first cell has measured "
                               "this machine's speed (the time left is then counted from its steps)")
                                .arg(cells, formatDuration(seconds)));
    // A base carried over from a run's Train more decays over the run's first length: each cell's last steps would
    // train at min_lr; a cell of fewer steps than its decay stops short of it. The Training form says so; a sweep of
    // its settings said nothing.
    try {
        const auto s = spec();
        for (const auto& cell : twb::sweep_cells(s))
            if (const QString note = ConfigForm::decayNote(twb::cell_config(s, cell)); !note.isEmpty()) {
                m_estimate->setText(m_estimate->text() + "<br><span style='color:#a60'>" +
                                    tr("In the cells: %1 Set Decay steps to Steps in the Training form for a "
                                       "schedule over the whole run.")
                                        .arg(note.toHtmlEscaped()) +
                                    "</span>");
                break;
            }
    } catch (const std::exception&) {
    }
    m_start->setEnabled(true);
    m_startAct->setEnabled(true);
}
