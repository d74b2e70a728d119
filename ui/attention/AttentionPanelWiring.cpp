// AttentionPanel, its wiring: the "Selected" tab, the model worker's answers (captures, timelines,
// positions, errors) and the controls' signals.
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
#include "ui/widgets/HintBar.h"
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
#include <cmath>
#include <sstream>

QString AttentionPanel::hoverHint() {
    // Short enough to stand whole beside Enlarge and the two exports at 100% text (it read "drag pa…")
    return tr("Hover for query, key, weight; wheel zooms, drag pans.");
}

QWidget* AttentionPanel::buildSelectedTab() {
    m_view = new QComboBox;
    m_view->addItems({tr("Head"), tr("Layer mean over heads"), tr("Rollout up to layer")});
    m_view->setToolTip(
        tr("Rollout: attention multiplied through the layers (with the residual as 0.5·I), "
           "an estimate of how much each input token reaches each position"));
    m_layerBox = new QSpinBox;
    m_headBox = new QSpinBox;
    m_layerBox->setPrefix(tr("layer "));
    m_headBox->setPrefix(tr("head "));
    m_exportView = new QPushButton(tr("Export image…"));
    m_exportData = new QPushButton(tr("Export weights…"));
    m_enlarge = new EnlargeToggle(this,
                                  tr("Show the map over the whole page, without the prompt and the head grid (or "
                                     "double-click the map; Esc returns)"),
                                  tr("Back from the enlarged map"), [this](bool on) {
                                      for (QWidget* w : {static_cast<QWidget*>(m_picker), m_promptArea, m_left})
                                          w->setVisible(!on);
                                      if (on)
                                          m_tabs->setCurrentIndex(0);  // the Selected map is what grows
                                  });
    m_enlarge->button()->setObjectName("enlargeMap");
    m_heat = new Heatmap;
    m_heat->setObjectName("attentionHeatmap");
    m_hover = new QLabel(hoverHint());
    m_hover->setObjectName("attentionHover");
    m_info = new QLabel;
    m_info->setWordWrap(true);
    auto* tab = new QWidget;
    auto* col = new QVBoxLayout(tab);
    auto* row = new QHBoxLayout;
    row->addWidget(m_kindBox);
    row->addWidget(m_view);
    row->addWidget(m_layerBox);
    row->addWidget(m_headBox);
    row->addStretch(1);
    col->addLayout(row);
    col->addWidget(m_info);
    col->addWidget(m_heat, 1);
    // The export buttons share the hover line where the hover's text fits beside them (at 150% text on
    // the top row they were squeezed to "xport image."; beside the hover they cut it): HintBar.
    m_hover->setToolTip(m_hover->text());  // the hint whole
    // Judged by what a hover says of two short tokens; the longer first hint may be cut (its tooltip).
    const QString hovered = QStringLiteral("%1 'word' (99) → %2 'word' (99): 0.0000").arg(tr("query"), tr("key"));
    col->addWidget(new HintBar(m_hover, hovered, {m_enlarge->button(), m_exportView, m_exportData}));
    return tab;
}

void AttentionPanel::connectWorker(ModelWorker* worker) {
    connect(this, &AttentionPanel::captureRequested, worker, &ModelWorker::capture);
    connect(this, &AttentionPanel::positionsRequested, worker, &ModelWorker::loadPositions);
    connect(this, &AttentionPanel::probeRequested, worker, &ModelWorker::loadProbe);
    connect(this, &AttentionPanel::validationRequested, worker, &ModelWorker::pickValidationText);
    connect(worker, &ModelWorker::captured, this, [this](const CaptureResult& r) {
        if (!m_pending.remove(r.id))
            return;
        setBusy(false);
        if (!m_modePrompt->isChecked())
            return;
        if (r.translation != m_translation && switchPromptKind(r.translation))
            return;  // captured with the other kind's prompt: capturing again with this kind's
        m_kindPrompt = m_prompt->toPlainText();
        m_checkpoint = r.checkpoint;
        m_tokenTexts = r.tokenTexts;
        showTranslationControls(r.translation);
        m_capturedRun = m_picker->run();
        if (r.translation) {
            m_pair = r.pair;
            m_pairScores = r.pairScores;
            m_step = r.step;
            if (m_pair.target_from_model)
                m_target->setPlaceholderText(tr("Model's translation: %1").arg(QString::fromStdString(m_pair.target)));
            applyKind();
            if (!m_pair.warnings.empty())
                emit statusMessage(QString::fromStdString(m_pair.warnings.front()));
            return;
        }
        m_pair = {};
        showCapture(r.capture, r.scores, r.step);
        if (!r.capture.warnings.empty())
            emit statusMessage(QString::fromStdString(r.capture.warnings.front()));
    });
    connect(worker, &ModelWorker::probeLoaded, this,
            [this](quint64 id, const QString& run, const twb::ProbeTimeline& t,
                   const std::vector<twb::HeadScores>& scores) {
                if (!m_pending.remove(id))
                    return;
                setBusy(false);
                if (run == m_picker->run())
                    showProbe(run, t, scores);
            });
    connect(worker, &ModelWorker::positionsLoaded, this, [this](quint64 id, const twb::PositionTable& t) {
        if (!m_pending.remove(id))
            return;
        setBusy(false);
        m_positions->setTable(t);
    });
    connect(worker, &ModelWorker::validationText, this, [this](quint64 id, const QString& text) {
        if (!m_pending.remove(id))
            return;
        setBusy(false);
        m_prompt->setPlainText(text);
        m_kindPrompt = text;
        if (m_translation)
            m_target->clear();  // a new source sentence: show the model's own translation
        m_modePrompt->setChecked(true);
        showPrompt();
    });
    connect(worker, &ModelWorker::failed, this, [this](quint64 id, const QString& e) {
        if (!m_pending.remove(id))
            return;
        setBusy(false);
        if (m_capturedRun != m_picker->run())  // the maps shown were another run's: not beside its error
            clearShown();
        showError(e);
    });
}

void AttentionPanel::connectControls() {
    // An emptied prompt empties the maps at once: they stayed, with their hover line, until Show was pressed
    connect(m_prompt, &QPlainTextEdit::textChanged, this, [this] {
        if (m_modePrompt->isChecked() && m_cap.layers > 0 && !isBusy() && m_prompt->toPlainText().trimmed().isEmpty())
            clearShown();
    });
    connect(m_show, &QPushButton::clicked, this, [this] {
        if (m_modeTimeline->isChecked())
            showTimeline();
        else
            showPrompt();
    });
    connect(m_heat, &Heatmap::doubleClicked, m_enlarge, &EnlargeToggle::toggle);
    auto* showKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    showKey->setWhatsThis(tr("Show the attention of the text"));
    connect(showKey, &QShortcut::activated, m_show, &QPushButton::click);
    connect(m_fromVal, &QPushButton::clicked, this, [this] {
        if (m_picker->run().isEmpty())
            return showError(tr("Choose a run first."));
        setBusy(true);
        emit validationRequested(newRequest(), m_picker->run());
    });
    connect(m_modeTimeline, &QRadioButton::toggled, this, [this](bool on) {
        m_prompt->setEnabled(!on);
        m_target->setEnabled(!on);
        m_fromVal->setEnabled(!on);
        if (on)
            showTimeline();
        else {
            m_poll.stop();  // an idle window does not wake up
            // the timeline's step is not what Prompt shows: it read "step 0 (1 of 4)" over checkpoint 300's maps
            m_slider->setEnabled(false);
            m_stepLabel->setText(tr("not used by Prompt"));
            showPrompt();
        }
    });
    connect(m_kindBox, &QComboBox::currentIndexChanged, this, [this] {
        if (m_modeTimeline->isChecked() && m_timeline.kind == twb::AttentionKind::Cross &&
            m_kindBox->currentIndex() != static_cast<int>(Kind::Cross)) {
            QSignalBlocker b(m_kindBox);
            m_kindBox->setCurrentIndex(static_cast<int>(Kind::Cross));
            return showError(tr("The probe timeline holds cross-attention only; switch to Prompt for the others."));
        }
        applyKind();
    });
    connect(m_view, &QComboBox::currentIndexChanged, this, [this] {
        m_headBox->setEnabled(m_view->currentIndex() == 0);
        redraw();
    });
    connect(m_score, &QComboBox::currentIndexChanged, this, [this] {
        m_grid->setScores(currentScores(), m_score->currentText());
        redrawScores();
    });
    connect(m_layerBox, &QSpinBox::valueChanged, this, [this](int l) { select(l, m_head); });
    connect(m_headBox, &QSpinBox::valueChanged, this, [this](int h) { select(m_layer, h); });
    connect(m_grid, &HeadGrid::headClicked, this, [this](int l, int h) {
        if (h < 0)
            m_view->setCurrentIndex(1);
        else if (m_view->currentIndex() != 0)
            m_view->setCurrentIndex(0);
        select(l, h < 0 ? m_head : h);
    });
    connect(m_slider, &QSlider::valueChanged, this, &AttentionPanel::setTimelineIndex);
    // the cell's read-out, or the hint again once the mouse has left the map
    connect(m_heat, &Heatmap::hovered, this,
            [this](const QString& text) { m_hover->setText(text.isEmpty() ? hoverHint() : text); });
    connect(m_exportView, &QPushButton::clicked, this, &AttentionPanel::exportView);
    connect(m_exportData, &QPushButton::clicked, this, &AttentionPanel::exportData);
    connect(m_positions, &PositionsView::loadClicked, this, &AttentionPanel::loadPositions);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int i) {
        if (i == 2 && m_positions->isEmpty() && !isBusy() && !m_picker->run().isEmpty())
            loadPositions();
    });
    connectRunFollowing();
}

void AttentionPanel::connectRunFollowing() {
    connect(m_picker, &RunPicker::changed, this, [this] {
        m_timeline = {};
        m_timelineScores.clear();
        m_probeBytes = -1;
        m_positions->clear();  // the run before's (a translation run showed another run's rotary map)
        if (m_modeTimeline->isChecked())
            showTimeline();
        else
            followRun();
    });
    // Runs trained elsewhere (the CLI) grow their probe too: look at its size every few seconds while
    // the timeline is shown. A stat() per tick; the file is read only when it changed.
    m_poll.setInterval(3000);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (!m_modeTimeline->isChecked() || isBusy() || m_picker->run().isEmpty() || !m_live->isChecked())
            return;
        const qint64 size = QFileInfo(probeFile(m_picker->run(), m_timeline)).size();
        if (size != m_probeBytes)
            showTimeline();
    });
}
