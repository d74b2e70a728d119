#include "ui/attention/AttentionPanel.h"

#include "twb/run_folder.h"
#include "twb/text.h"
#include "ui/attention/HeadGrid.h"
#include "ui/attention/HeadScorePlot.h"
#include "ui/attention/Heatmap.h"
#include "ui/attention/PositionsView.h"
#include "ui/embeddings/EmbeddingsPanel.h"
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
#include <cmath>
#include <sstream>

namespace {
// The prompt of a language model and the source sentence of a translation model, remembered apart.
const char* const kPromptKey = "attention/prompt";
const char* const kSourceKey = "attention/source";
/// The probe's record file whose size the live poll watches.
QString probeFile(const QString& run, const twb::ProbeTimeline& t) {
    return run + (t.kind == twb::AttentionKind::Cross ? "/probe/cross.u8" : "/probe/attention.u8");
}

QStringList labels(const std::vector<std::string>& toks) {
    QStringList l;
    for (const auto& t : toks)
        l << visibleToken(QString::fromStdString(t));
    return l;
}
}  // namespace

AttentionPanel::AttentionPanel(ModelThread* model, QWidget* parent) : PanelBase(nullptr, parent) {
    if (!model) {
        m_ownModel = std::make_unique<ModelThread>();
        model = m_ownModel.get();
    }
    m_model = model;
    m_picker = new RunPicker;
    m_modePrompt = new QRadioButton(tr("Prompt"));
    m_modeTimeline = new QRadioButton(tr("Probe timeline"));
    m_modeTimeline->setObjectName("timelineMode");
    m_modeTimeline->setToolTip(
        tr("The attention of a fixed probe prompt, captured at every evaluation while the run trained"));
    m_modePrompt->setChecked(true);
    auto* modes = new QButtonGroup(this);
    modes->addButton(m_modePrompt);
    modes->addButton(m_modeTimeline);
    m_prompt = new QPlainTextEdit;
    m_prompt->setObjectName("attentionPrompt");
    m_prompt->setMaximumHeight(70);
    m_prompt->setPlaceholderText(tr("Type a prompt, or take one from the validation text"));
    m_prompt->setPlainText(
        QSettings().value(kPromptKey, "First Citizen:\nBefore we proceed any further, hear me speak.").toString());
    m_kindPrompt = m_prompt->toPlainText();
    m_otherPrompt = QSettings().value(kSourceKey).toString();
    m_target = new QLineEdit;
    m_target->setObjectName("attentionTarget");
    m_target->setPlaceholderText(tr("Target sentence (empty = the model's own translation)"));
    m_target->setToolTip(
        tr("Translation runs: the target the decoder is fed (teacher-forced); leave it empty to see the "
           "attention of the model's greedy translation"));
    m_target->setText(QSettings().value("attention/target").toString());
    m_kindBox = new QComboBox;
    m_kindBox->setObjectName("attentionKind");
    m_kindBox->addItems({tr("Encoder self"), tr("Decoder self"), tr("Cross")});
    m_kindBox->setToolTip(
        tr("Translation runs: the encoder's self-attention (source × source), the decoder's (target × target, "
           "causal) or cross-attention (target ↓ × source →)"));
    m_kindBox->setCurrentIndex(QSettings().value("attention/kind", 2).toInt());
    m_show = new QPushButton(tr("Show"));
    m_show->setObjectName("showAttention");
    m_show->setToolTip(tr("Capture this prompt's attention (Ctrl+Return)"));
    m_fromVal = new QPushButton(tr("From validation text"));
    m_live = new QCheckBox(tr("Live"));
    m_live->setToolTip(tr("While this run trains, refresh the view at every new checkpoint"));
    m_live->setChecked(true);
    m_score = new QComboBox;
    m_score->addItems(HeadScorePlot::scoreNames());
    m_score->setToolTip(tr("Score drawn under each thumbnail and plotted against step in the timeline"));
    m_grid = new HeadGrid;
    m_gridScroll = new QScrollArea;
    m_gridScroll->setWidget(m_grid);
    m_gridScroll->setWidgetResizable(false);
    m_gridScroll->setMinimumWidth(260);
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setObjectName("timelineSlider");
    m_slider->setEnabled(false);
    m_slider->setToolTip(tr("Scrub through the evaluations of the run"));
    m_slider->setPageStep(1);  // a click beside the handle moves one evaluation
    m_stepLabel = new QLabel(tr("no timeline"));
    m_scorePlot = new HeadScorePlot;
    m_positions = new PositionsView;

    // Layout
    auto* promptRow = new QHBoxLayout;
    auto* modeCol = new QVBoxLayout;
    modeCol->addWidget(m_modePrompt);
    modeCol->addWidget(m_modeTimeline);
    modeCol->addWidget(m_live);
    promptRow->addLayout(modeCol);
    auto* textCol = new QVBoxLayout;
    textCol->addWidget(m_prompt, 1);
    textCol->addWidget(m_target);
    promptRow->addLayout(textCol, 1);
    auto* btnCol = new QVBoxLayout;
    btnCol->addWidget(m_show);
    btnCol->addWidget(m_fromVal);
    promptRow->addLayout(btnCol);

    auto* left = new QWidget;
    auto* leftCol = new QVBoxLayout(left);
    leftCol->setContentsMargins(0, 0, 0, 0);
    auto* scoreRow = new QHBoxLayout;
    scoreRow->addWidget(new QLabel(tr("Score")));
    scoreRow->addWidget(m_score, 1);
    leftCol->addLayout(scoreRow);
    leftCol->addWidget(m_gridScroll, 1);

    m_tabs = new QTabWidget;
    m_tabs->addTab(buildSelectedTab(), tr("Selected"));
    m_tabs->addTab(m_scorePlot, tr("Head scores over training"));
    m_tabs->addTab(m_positions, tr("Positions"));

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto* timeRow = new QHBoxLayout;
    timeRow->addWidget(new QLabel(tr("Timeline")));
    timeRow->addWidget(m_slider, 1);
    timeRow->addWidget(m_stepLabel);

    auto* attentionPage = new QWidget;
    auto* col = new QVBoxLayout(attentionPage);
    col->addWidget(m_picker);
    col->addLayout(promptRow);
    col->addWidget(errorLabel());
    col->addWidget(split, 1);
    col->addLayout(timeRow);

    // The embedding explorer beside it, on the same model thread; it follows this panel's run.
    m_embeddings = new EmbeddingsPanel(m_model);
    m_pages = new QTabWidget;
    m_pages->setObjectName("attentionPages");
    m_pages->setDocumentMode(true);
    m_pages->addTab(attentionPage, tr("Attention"));
    m_pages->addTab(m_embeddings, tr("Embeddings"));
    m_pages->setCurrentIndex(QSettings().value("attention/page", 0).toInt());
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_pages);
    connect(m_embeddings, &EmbeddingsPanel::statusMessage, this, &AttentionPanel::statusMessage);
    connect(m_picker, &RunPicker::changed, this, [this] { m_embeddings->setRun(m_picker->run()); });
    if (!m_picker->run().isEmpty())
        m_embeddings->setRun(m_picker->run());

    connectWorker(m_model->worker());
    connectControls();
    showTranslationControls(false);
    m_view->setCurrentIndex(QSettings().value("attention/view", 0).toInt());
    m_score->setCurrentIndex(QSettings().value("attention/score", 0).toInt());
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
    m_heat = new Heatmap;
    m_heat->setObjectName("attentionHeatmap");
    m_hover = new QLabel(tr("Hover the map for query, key and weight; wheel zooms, drag pans."));
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
    row->addWidget(m_exportView);
    row->addWidget(m_exportData);
    col->addLayout(row);
    col->addWidget(m_info);
    col->addWidget(m_heat, 1);
    col->addWidget(m_hover);
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
        showError(e);
    });
}

void AttentionPanel::connectControls() {
    connect(m_show, &QPushButton::clicked, this, [this] {
        if (m_modeTimeline->isChecked())
            showTimeline();
        else
            showPrompt();
    });
    connect(new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this), &QShortcut::activated, m_show,
            &QPushButton::click);
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
    connect(m_heat, &Heatmap::hovered, m_hover, &QLabel::setText);
    connect(m_exportView, &QPushButton::clicked, this, &AttentionPanel::exportView);
    connect(m_exportData, &QPushButton::clicked, this, &AttentionPanel::exportData);
    connect(m_positions, &PositionsView::loadClicked, this, &AttentionPanel::loadPositions);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int i) {
        if (i == 2 && m_positions->isEmpty() && !isBusy() && !m_picker->run().isEmpty())
            loadPositions();
    });
    connect(m_picker, &RunPicker::changed, this, [this] {
        m_timeline = {};
        m_timelineScores.clear();
        m_probeBytes = -1;
        if (m_modeTimeline->isChecked())
            showTimeline();
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

AttentionPanel::~AttentionPanel() {
    QSettings st;
    st.setValue(m_translation ? kSourceKey : kPromptKey, m_prompt->toPlainText().left(4000));
    st.setValue(m_translation ? kPromptKey : kSourceKey, m_otherPrompt.left(4000));
    st.setValue("attention/view", m_view->currentIndex());
    st.setValue("attention/kind", m_kindBox->currentIndex());
    st.setValue("attention/target", m_target->text().left(4000));
    st.setValue("attention/score", m_score->currentIndex());
    st.setValue("attention/page", m_pages->currentIndex());
}

Heatmap* AttentionPanel::positionMap() const {
    return m_positions->map();
}
QCustomPlot* AttentionPanel::scorePlot() const {
    return m_scorePlot;
}

void AttentionPanel::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    // First look at the panel: show the prompt at once rather than an empty view.
    if (m_cap.layers == 0 && !isBusy() && lastError().isEmpty() && !m_picker->run().isEmpty() &&
        m_modePrompt->isChecked())
        showPrompt();
}

void AttentionPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    m_grid->fitWidth(m_gridScroll->viewport()->width());
}

void AttentionPanel::setRun(const QString& dir) {
    m_picker->setRun(dir);
}
void AttentionPanel::setPrompt(const QString& text) {
    m_prompt->setPlainText(text);
}
void AttentionPanel::setView(View v) {
    m_view->setCurrentIndex(static_cast<int>(v));
}
void AttentionPanel::setScore(int i) {
    m_score->setCurrentIndex(i);
}
void AttentionPanel::setKind(Kind k) {
    m_kindBox->setCurrentIndex(static_cast<int>(k));
}
void AttentionPanel::setTarget(const QString& text) {
    m_target->setText(text);
}

void AttentionPanel::showTranslationControls(bool on) {
    m_translation = on;
    m_kindBox->setEnabled(on);
    m_target->setVisible(on);
    m_kindBox->setVisible(on);
}

bool AttentionPanel::switchPromptKind(bool translation) {
    // A language model's prompt and a translation model's source sentence are kept apart: Shakespeare is
    // no German source. A prompt typed or set for this run stays; one left over from the other kind is
    // swapped for this kind's, or, the first time, for a validation pair's source.
    const QString text = m_prompt->toPlainText();
    const QString mine = m_otherPrompt;
    m_otherPrompt = m_kindPrompt;
    showTranslationControls(translation);
    if (text != m_kindPrompt) {
        m_kindPrompt = text;
        return false;
    }
    m_kindPrompt = mine;
    if (mine.isEmpty()) {
        setBusy(true);
        emit validationRequested(newRequest(), m_picker->run());
        return true;
    }
    m_prompt->setPlainText(mine);
    if (translation)
        m_target->clear();
    showPrompt();
    return true;
}

void AttentionPanel::applyKind() {
    if (!m_translation)
        return;
    const int k = m_kindBox->currentIndex();
    if (m_modeTimeline->isChecked() && m_timeline.kind == twb::AttentionKind::Cross) {
        redraw();
        return;
    }
    if (m_pairScores.size() != 3)
        return;  // nothing captured yet
    const twb::AttentionCapture& cap = k == 0 ? m_pair.encoder : k == 1 ? m_pair.decoder : m_pair.cross;
    showCapture(cap, m_pairScores[static_cast<size_t>(k)], m_step);
}

quint64 AttentionPanel::newRequest() {
    const quint64 id = m_model->nextRequestId();
    m_pending.insert(id);
    return id;
}

void AttentionPanel::busyChanged(bool busy) {
    m_show->setEnabled(!busy);
    m_fromVal->setEnabled(!busy && m_modePrompt->isChecked());
}

void AttentionPanel::showPrompt() {
    if (isBusy())
        return;
    if (m_picker->run().isEmpty())
        return showError(tr("No run to look into: train one in the Training panel or open a run folder (…)."));
    clearError();
    setBusy(true);
    emit captureRequested(AttentionRequest{newRequest(), m_picker->run(), m_picker->checkpoint(),
                                           m_prompt->toPlainText(), m_target->text()});
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
                           .arg(s.entropy[i], 0, 'f', 2)
                           .arg(s.first[i], 0, 'f', 2)
                           .arg(s.diagonal[i], 0, 'f', 2)
                     : tr("layer %1 head %2 · entropy %3 · previous token %4 · first token %5")
                           .arg(m_layer)
                           .arg(m_head)
                           .arg(s.entropy[i], 0, 'f', 2)
                           .arg(s.previous[i], 0, 'f', 2)
                           .arg(s.first[i], 0, 'f', 2);
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
    m_hover->setText(
        tr("Hover the map for query, key and weight; wheel zooms, drag pans."));  // none from the last view
    const QString kind = m_translation ? m_kindBox->currentText() + " · " : QString();
    m_info->setText(cross
                        ? tr("%1%2 · step %3 · %4 target × %5 source tokens").arg(kind, what).arg(m_step).arg(T).arg(K)
                        : tr("%1%2 · step %3 · %4 tokens").arg(kind, what).arg(m_step).arg(T));
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

void AttentionPanel::exportView() {
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
