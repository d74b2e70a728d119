#include "ui/attention/AttentionPanel.h"

#include "twb/run_folder.h"
#include "twb/text.h"
#include "ui/attention/HeadGrid.h"
#include "ui/attention/HeadScorePlot.h"
#include "ui/attention/Heatmap.h"
#include "ui/attention/PositionsView.h"
#include "ui/embeddings/EmbeddingsPanel.h"
#include "ui/inspection/HeadAblationView.h"
#include "ui/inspection/LogitLensView.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/TabTitles.h"
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

AttentionPanel::AttentionPanel(ModelThread* model, JobsService* jobs, QWidget* parent) : PanelBase(jobs, parent) {
    if (!model) {
        m_ownModel = std::make_unique<ModelThread>();
        model = m_ownModel.get();
    }
    m_model = model;
    createControls();
    layOut();
    auto follow = [this] {
        m_embeddings->setRun(m_picker->run());
        m_lens->setRun(m_picker->run(), m_picker->checkpoint());
        m_ablation->setRun(m_picker->run(), m_picker->checkpoint());
        m_ablationCosts = {};  // another run's heads
    };
    connect(m_picker, &RunPicker::changed, this, follow);
    if (!m_picker->run().isEmpty())
        follow();
    // A page's error goes to the status bar, and leaves it when the page clears it (a logit lens that
    // worked at last still showed the error of the prompt before).
    for (PanelBase* page : std::initializer_list<PanelBase*>{m_embeddings, m_lens, m_ablation}) {
        connect(page, &PanelBase::statusMessage, this, &AttentionPanel::statusMessage);
        connect(page, &PanelBase::statusWithdrawn, this, &AttentionPanel::statusWithdrawn);
    }
    connect(m_ablation, &HeadAblationView::costsReady, this, [this](const twb::AblationTable& t) {
        if (t.every_head.empty())
            return;
        m_ablationCosts = t;
        m_grid->setScores(currentScores(), m_score->currentText());
    });

    connectWorker(m_model->worker());
    connectControls();
    showTranslationControls(false);
    m_view->setCurrentIndex(QSettings().value("attention/view", 0).toInt());
    m_score->setCurrentIndex(QSettings().value("attention/score", 0).toInt());
}

void AttentionPanel::createControls() {
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
    setFocusProxy(m_prompt);  // Alt+3 puts the cursor where the text is typed
    m_prompt->setMaximumHeight(70);
    m_prompt->setPlaceholderText(tr("Type a prompt, or take one from the validation text"));
    m_prompt->setPlainText(QSettings().value(kPromptKey, "The cat sat on the mat because it was tired.").toString());
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
    m_live = new QCheckBox(tr("Follow training"));  // "Live" read as "updates as I type"
    m_live->setToolTip(tr("While this run trains, refresh the view at every new checkpoint"));
    m_live->setChecked(true);
    m_score = new QComboBox;
    m_score->addItems(HeadScorePlot::scoreNames());
    m_score->addItem(tr("ablation cost (nats/token; Head ablation page)"));
    m_score->setToolTip(tr("Score drawn under each thumbnail and plotted against step in the timeline"));
    m_grid = new HeadGrid;
    m_gridScroll = new QScrollArea;
    m_gridScroll->setWidget(m_grid);
    m_gridScroll->setWidgetResizable(false);
    m_gridScroll->setMinimumWidth(260);
    m_gridScroll->viewport()->installEventFilter(this);
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setObjectName("timelineSlider");
    m_slider->setEnabled(false);
    m_slider->setToolTip(tr("Scrub through the evaluations of the run"));
    m_slider->setPageStep(1);  // a click beside the handle moves one evaluation
    m_stepLabel = new QLabel(tr("no timeline"));
    m_stepLabel->setObjectName("timelineStep");
    m_scorePlot = new HeadScorePlot;
    m_positions = new PositionsView;
}

void AttentionPanel::layOut() {
    m_promptArea = new QWidget;
    auto* promptRow = new QHBoxLayout(m_promptArea);
    promptRow->setContentsMargins(0, 0, 0, 0);
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

    m_left = new QWidget;
    auto* leftCol = new QVBoxLayout(m_left);
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
    fitTabTitles(m_tabs, {QString(), tr("Head scores"), QString()});  // "Va…", "Posisjo…" at 150% in Bokmål

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_left);
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
    col->addWidget(m_promptArea);
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
    m_lens = new LogitLensView(jobs());
    m_pages->addTab(m_lens, tr("Logit lens"));
    m_ablation = new HeadAblationView(jobs());
    m_pages->addTab(m_ablation, tr("Head ablation"));
    m_pages->setCurrentIndex(QSettings().value("attention/page", 0).toInt());
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_pages);
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
    // First look at the panel, or at another run: show the prompt at once rather than an empty or old view.
    const bool first = m_cap.layers == 0 && lastError().isEmpty();
    if ((first || m_staleRun) && !isBusy() && !m_picker->run().isEmpty() && m_modePrompt->isChecked())
        showPrompt();
}

bool AttentionPanel::eventFilter(QObject* watched, QEvent* e) {
    // The panel's resize alone refit them: back from 150% text the thumbnails kept their larger size and
    // the mean column stood behind a scroll bar.
    if (watched == m_gridScroll->viewport() && e->type() == QEvent::Resize)
        m_grid->fitWidth(m_gridScroll->viewport()->width());
    return PanelBase::eventFilter(watched, e);
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

int AttentionPanel::runIsTranslation() const {
    try {
        return twb::read_run_config(m_picker->run().toStdString()).model_kind == twb::ModelKind::EncoderDecoder ? 1 : 0;
    } catch (const std::exception&) {
        return -1;  // the capture says what is wrong with the run
    }
}

void AttentionPanel::followRun() {
    const QString run = m_picker->run();
    if (run == m_followedRun || run.isEmpty())
        return;
    m_followedRun = run;
    if (isBusy()) {  // the old run's answers no longer matter
        m_pending.clear();
        setBusy(false);
    }
    if (!m_modePrompt->isChecked())
        return;
    m_staleRun = !isVisible();
    if (isVisible())
        showPrompt();
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

void AttentionPanel::clearShown() {
    m_capturedRun.clear();
    m_cap = {};
    m_pair = {};
    m_grid->setCapture(m_cap, {}, QString());
    m_heat->clear();
    m_info->clear();
    m_hover->setText(m_hover->toolTip());  // the hint, not a hovered cell of the maps gone
}

void AttentionPanel::showPrompt() {
    if (isBusy())
        return;
    if (m_picker->run().isEmpty())
        return showError(tr("No run to look into: train one in the Training panel or open a run folder (…)."));
    clearError();
    m_staleRun = false;
    if (m_prompt->toPlainText().trimmed().isEmpty()) {
        // Nothing typed (the prompt box emptied): no capture of a lone newline drawn as solid maps with
        // entropy 0 that looked like data, but the maps' empty state.
        clearShown();
        return;
    }
    // A run of the other kind takes this kind's prompt before anything is captured: a language model's
    // prompt is no source sentence, and may be longer than the translation model takes.
    if (const int translation = runIsTranslation();
        translation >= 0 && (translation == 1) != m_translation && switchPromptKind(translation == 1))
        return;  // switchPromptKind captures with the swapped prompt
    setBusy(true);
    // The target box is a translation run's (hidden for a language model, whose capture refuses one): a
    // target left in it, or remembered from a translation run, is not sent for a language model.
    emit captureRequested(AttentionRequest{newRequest(), m_picker->run(), m_picker->checkpoint(),
                                           m_prompt->toPlainText(), m_translation ? m_target->text() : QString()});
}
