// AttentionPanel, what it shows: the probe timeline and its slider, a capture in the head grid and the
// selected head's heatmap, the head scores, the positions, and the exports of the view and the data.
#include "ui/attention/AttentionPanel.h"

#include "twb/run_folder.h"
#include "twb/text.h"
#include "ui/attention/HeadGrid.h"
#include "ui/attention/HeadScorePlot.h"
#include "ui/attention/Heatmap.h"
#include "ui/attention/PositionsView.h"
#include "ui/embeddings/EmbeddingsPanel.h"
#include "ui/widgets/EnlargeToggle.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/TokenDisplay.h"
#include "ui/workers/ModelThread.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <sstream>

namespace {
QStringList labels(const std::vector<std::string>& toks) {
    QStringList l;
    for (const auto& t : toks)
        l << visibleToken(QString::fromStdString(t));
    return l;
}
}  // namespace

QString AttentionPanel::probeFile(const QString& run, const twb::ProbeTimeline& t) {
    return run + (t.kind == twb::AttentionKind::Cross ? "/probe/cross.u8" : "/probe/attention.u8");
}

void AttentionPanel::showTimeline() {
    if (m_picker->run().isEmpty())
        return showError(tr("Choose a run to see its probe timeline."));
    if (!m_modeTimeline->isChecked()) {
        QSignalBlocker b(m_modeTimeline);
        m_modeTimeline->setChecked(true);
        m_prompt->setEnabled(false);
    }
    clearError();
    setBusy(true);
    m_poll.start();
    emit probeRequested(newRequest(), m_picker->run());
}

void AttentionPanel::showProbe(const QString& run, const twb::ProbeTimeline& t,
                               const std::vector<twb::HeadScores>& scores) {
    const bool atEnd = m_timeline.empty() || m_slider->value() >= m_slider->maximum();  // follow the newest
    m_timeline = t;
    m_timelineScores = scores;
    m_probeBytes = QFileInfo(probeFile(run, t)).size();
    if (t.empty()) {
        m_slider->setEnabled(false);
        m_stepLabel->setText(tr("no timeline"));
        showError(
            tr("This run has no probe timeline yet: it is written at every evaluation of runs trained by "
               "this version (the first at step 0)."));
        redrawScores();
        return;
    }
    clearError();
    auto joined = [](const std::vector<std::string>& toks, size_t drop) {  // drop: trailing <eos>
        QString text;
        for (size_t i = 0; i + drop < toks.size(); ++i)
            text += QString::fromStdString(toks[i]);
        return text;
    };
    // The probe's text, shown where the prompt goes (a translation run's: source and target, token by token).
    if (t.kind == twb::AttentionKind::Cross) {
        showTranslationControls(true);
        QSignalBlocker kb(m_kindBox);
        m_kindBox->setCurrentIndex(static_cast<int>(Kind::Cross));
        m_prompt->setPlainText(joined(t.key_tokens, 1).trimmed());
        m_target->setText(joined(t.tokens, 1).trimmed());
    } else {
        showTranslationControls(false);
        m_prompt->setPlainText(joined(t.tokens, 0));
    }
    QSignalBlocker b(m_slider);
    m_slider->setEnabled(true);
    m_slider->setRange(0, static_cast<int>(t.steps.size()) - 1);
    if (atEnd || m_slider->value() > m_slider->maximum())
        m_slider->setValue(m_slider->maximum());
    b.unblock();
    redrawScores();
    setTimelineIndex(m_slider->value());
}

void AttentionPanel::setTimelineIndex(int i) {
    if (m_timeline.empty() || i < 0 || i >= static_cast<int>(m_timeline.steps.size()))
        return;
    const qint64 step = m_timeline.steps[static_cast<size_t>(i)];
    m_stepLabel->setText(tr("step %1 (%2 of %3)").arg(step).arg(i + 1).arg(m_timeline.steps.size()));
    // Exported as the checkpoint of that evaluation when it is still kept, else as the run.
    const auto ck =
        std::filesystem::path(m_picker->run().toStdString()) / "checkpoints" / twb::checkpoint_dir_name(step);
    m_checkpoint = std::filesystem::exists(ck) ? QString::fromStdString(ck.string()) : m_picker->run();
    m_tokenTexts.clear();
    showCapture(m_timeline.at(static_cast<size_t>(i)), m_timelineScores[static_cast<size_t>(i)], step);
    m_scorePlot->setStep(step);
}

void AttentionPanel::runUpdated(const QString& run) {
    if (run != m_picker->run() || !m_live->isChecked())
        return;
    m_picker->refresh();
    if (m_modeTimeline->isChecked())
        showTimeline();
    else if (!isBusy() && m_cap.length > 0) {
        m_picker->setCheckpoint("last");
        showPrompt();
    }
}

std::vector<float> AttentionPanel::currentScores() const {
    if (m_score->currentIndex() >= HeadScorePlot::scoreNames().size()) {  // the ablation cost, once computed
        // a translation's capture shows one of its three attentions: the costs of that one's heads
        const auto stack = m_cap.kind == twb::AttentionKind::EncoderSelf ? twb::HeadStack::Encoder
                           : m_cap.kind == twb::AttentionKind::Cross     ? twb::HeadStack::Cross
                                                                         : twb::HeadStack::Decoder;
        std::vector<float> costs(static_cast<size_t>(m_cap.layers * m_cap.heads), 0.f);
        for (int64_t l = 0; l < m_cap.layers; ++l)
            for (int64_t h = 0; h < m_cap.heads; ++h) {
                const double c = m_ablationCosts.cost(static_cast<int>(l), static_cast<int>(h), stack);
                costs[static_cast<size_t>(l * m_cap.heads + h)] = std::isnan(c) ? 0.f : static_cast<float>(c);
            }
        return costs;
    }
    return HeadScorePlot::score(m_scores, m_score->currentIndex());
}

void AttentionPanel::showCapture(const twb::AttentionCapture& cap, const twb::HeadScores& scores, qint64 step) {
    m_cap = cap;
    m_step = step;
    m_scores = scores;
    m_grid->setCapture(m_cap, currentScores(), m_score->currentText());
    QSignalBlocker b1(m_layerBox), b2(m_headBox);
    m_layerBox->setRange(0, std::max<int>(0, static_cast<int>(cap.layers) - 1));
    m_headBox->setRange(0, std::max<int>(0, static_cast<int>(cap.heads) - 1));
    m_layer = std::min<int>(m_layer, static_cast<int>(cap.layers) - 1);
    m_head = std::min<int>(m_head, static_cast<int>(cap.heads) - 1);
    m_layerBox->setValue(m_layer);
    m_headBox->setValue(m_head);
    redraw();
}

void AttentionPanel::select(int layer, int head) {
    if (m_cap.layers == 0)
        return;
    m_layer = std::clamp(layer, 0, static_cast<int>(m_cap.layers) - 1);
    m_head = std::clamp(head, 0, static_cast<int>(m_cap.heads) - 1);
    QSignalBlocker b1(m_layerBox), b2(m_headBox);
    m_layerBox->setValue(m_layer);
    m_headBox->setValue(m_head);
    redraw();
}

void AttentionPanel::redraw() {
    if (m_cap.layers == 0)
        return;
    const int T = static_cast<int>(m_cap.length), K = static_cast<int>(m_cap.keys());
    const bool cross = m_cap.kind == twb::AttentionKind::Cross;
    const auto v = static_cast<View>(m_view->currentIndex());
    m_grid->setSelected(m_layer, v == View::Head ? m_head : -1);
    m_grid->fitWidth(m_gridScroll->viewport()->width());
    m_grid->resize(m_grid->sizeHint());
    std::vector<float> m;
    QString what;
    if (v == View::Head) {
        const long map = static_cast<long>(T) * K;
        m.assign(m_cap.weights.begin() + (m_layer * m_cap.heads + m_head) * map,
                 m_cap.weights.begin() + (m_layer * m_cap.heads + m_head + 1) * map);
        const auto& s = m_scores;
        const size_t i = static_cast<size_t>(m_layer * m_cap.heads + m_head);
        what = cross ? tr("layer %1 head %2 · entropy %3 · first source token %4 · same position %5")
                           .arg(m_layer)
                           .arg(m_head)
                           .arg(QLocale().toString(s.entropy[i], 'f', 2))
                           .arg(QLocale().toString(s.first[i], 'f', 2))
                           .arg(QLocale().toString(s.diagonal[i], 'f', 2))
                     : tr("layer %1 head %2 · entropy %3 · previous token %4 · first token %5")
                           .arg(m_layer)
                           .arg(m_head)
                           .arg(QLocale().toString(s.entropy[i], 'f', 2))
                           .arg(QLocale().toString(s.previous[i], 'f', 2))
                           .arg(QLocale().toString(s.first[i], 'f', 2));
    } else if (v == View::LayerMean) {
        m = twb::mean_over_heads(m_cap, m_layer);
        what = tr("layer %1, mean over %2 heads").arg(m_layer).arg(m_cap.heads);
    } else {
        m = twb::attention_rollout(m_cap, m_layer);
        what = tr("rollout through layers 0–%1").arg(m_layer);
    }
    if (m.empty()) {  // rollout of cross-attention
        m_heat->clear();
        m_info->setText(
            tr("Rollout does not apply to cross-attention: its rows (target) and columns (source) are different "
               "sequences, so the layers cannot be multiplied through. Choose Head or Layer mean."));
        return;
    }
    if (m_cap.causal())
        for (int q = 0; q < T; ++q)
            for (int k = q + 1; k < K; ++k)
                m[static_cast<size_t>(q) * K + k] = NAN;  // the masked future stays blank
    const QStringList rows = labels(m_cap.tokens), cols = labels(m_cap.column_tokens());
    if (cross)
        m_heat->setMatrix(T, K, m, rows, cols, tr("target ↓"), tr("source →"), 0, 1);
    else
        m_heat->setMatrix(T, K, m, rows, cols, tr("query"), tr("key"), 0, 1);
    m_hover->setText(hoverHint());  // no read-out from the last view
    const QString kind = m_translation ? m_kindBox->currentText() + " · " : QString();
    m_info->setText(cross
                        ? tr("%1%2 · step %3 · %4 target × %5 source tokens").arg(kind, what).arg(m_step).arg(T).arg(K)
                        : tr("%1%2 · step %3 · %4 tokens").arg(kind, what).arg(m_step).arg(T));
    if (cross && K > 1 && !m_scores.entropy.empty() &&
        *std::min_element(m_scores.entropy.begin(), m_scores.entropy.end()) >= kUniformEntropy)
        m_info->setText(m_info->text() + "\n" + uniformCrossWarning());
}

QString AttentionPanel::uniformCrossWarning() const {
    // A model whose every head spreads its weight evenly over the source ignores it: it gives much the
    // same translation for any input. Nothing else in the panel says so.
    const float lowest = *std::min_element(m_scores.entropy.begin(), m_scores.entropy.end());
    // A frame of the probe timeline is the model as it was: at step 0 every model reads nothing yet, and
    // the advice to train more (or to start from another preset) spoke of a run long past it
    if (m_modeTimeline->isChecked())
        return tr("At step %1 cross-attention was still uniform: entropy %2 or more in every head (1 = every "
                  "source token weighed alike), so the model did not read its source yet. Later steps of the "
                  "timeline show when it learned to.")
            .arg(m_step)
            .arg(QLocale().toString(lowest, 'f', 2));
    return tr("Cross-attention is still uniform: entropy %1 or more in every head (1 = every source token "
              "weighed alike), so this model does not read its source yet and translates every input much the "
              "same. Train it for more steps (the multi30k and tatoeba presets are recipes that train it).")
        .arg(QLocale().toString(lowest, 'f', 2));
}

void AttentionPanel::redrawScores() {
    m_scorePlot->setTimeline(m_timeline, m_timelineScores, m_score->currentIndex(), m_step);
}

void AttentionPanel::loadPositions() {
    if (m_picker->run().isEmpty())
        return showError(tr("Choose a run first."));
    setBusy(true);
    emit positionsRequested(newRequest(), m_picker->run(), m_picker->checkpoint());
}

bool AttentionPanel::exportJson(const QString& path) const {
    twb::AttentionExportInfo info;
    info.checkpoint = m_checkpoint.toStdString();
    info.step = m_step;
    if (!m_tokenTexts.empty())
        info.token_text = [texts = m_tokenTexts](int id) {
            const auto it = texts.find(id);
            return it == texts.end() ? std::string() : it->second;
        };
    try {
        twb::write_attention_json(path.toStdString(), m_cap, info);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

bool AttentionPanel::exportCsv(const QString& path) const {
    auto quote = [](std::string s) {
        for (size_t i = s.find('"'); i != std::string::npos; i = s.find('"', i + 2))
            s.insert(i, 1, '"');
        return '"' + s + '"';
    };
    std::ostringstream out;
    out << "layer,head,query,key,query_token,key_token,weight\n";
    for (int64_t l = 0; l < m_cap.layers; ++l)
        for (int64_t h = 0; h < m_cap.heads; ++h)
            for (int64_t q = 0; q < m_cap.length; ++q)
                for (int64_t k = 0; k < (m_cap.causal() ? q + 1 : m_cap.keys()); ++k)
                    out << l << ',' << h << ',' << q << ',' << k << ',' << quote(m_cap.tokens[static_cast<size_t>(q)])
                        << ',' << quote(m_cap.column_tokens()[static_cast<size_t>(k)]) << ','
                        << QString::number(m_cap.at(l, h, q, k)).toStdString() << '\n';
    try {
        twb::write_file_atomic(path.toStdString(), out.str());
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

void AttentionPanel::setMapEnlarged(bool on) {
    m_enlarge->setEnlarged(on);
}

bool AttentionPanel::mapEnlarged() const {
    return m_enlarge->enlarged();
}

void AttentionPanel::exportView() {
    if (m_cap.layers == 0)  // it wrote a blank grey image
        return showError(tr("Nothing to export yet: show a prompt first."));
    const QString f =
        QFileDialog::getSaveFileName(this, tr("Export view"), QString(), tr("PNG image (*.png);;SVG (*.svg)"));
    if (f.isEmpty())
        return;
    const bool svg = f.endsWith(".svg", Qt::CaseInsensitive);
    if (!(svg ? m_heat->saveSvg(f) : m_heat->savePng(f)))
        showError(tr("Cannot write %1: check the folder exists and is writable.").arg(f));
}

void AttentionPanel::exportData() {
    if (m_cap.layers == 0)
        return showError(tr("Nothing to export yet: show a prompt first."));
    const QString f =
        QFileDialog::getSaveFileName(this, tr("Export weights"), QString(), tr("JSON (*.json);;CSV (*.csv)"));
    if (f.isEmpty())
        return;
    const bool ok = f.endsWith(".csv", Qt::CaseInsensitive) ? exportCsv(f) : exportJson(f);
    if (!ok)
        showError(tr("Cannot write %1: check the folder exists and is writable.").arg(f));
}
