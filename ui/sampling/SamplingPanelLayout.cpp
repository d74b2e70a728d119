#include "ui/sampling/SamplingPanel.h"
#include "ui/widgets/ConsoleLayout.h"

#include "ui/sampling/AttributionStrip.h"
#include "ui/sampling/ChatView.h"
#include "ui/sampling/CompareView.h"
#include "ui/sampling/DecodingForm.h"
#include "ui/sampling/GenerationEvalView.h"
#include "ui/sampling/HistoryView.h"
#include "ui/sampling/TokenOutputView.h"
#include "ui/sampling/TranslationView.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/StatusLine.h"
#include "ui/widgets/TokenDisplay.h"
#include "ui/workers/ModelThread.h"

#include "twb/translation.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>
// The panel's composition (the run, the generate tab and its siblings, the decoding forms) and its wiring to
// the model worker.

SamplingPanel::SamplingPanel(ModelThread* model, JobsService* jobs, QWidget* parent) : PanelBase(jobs, parent) {
    if (!model) {
        m_ownModel = std::make_unique<ModelThread>();
        model = m_ownModel.get();
    }
    m_model = model;
    m_picker = new RunPicker;
    m_decoding = new DecodingForm;
    m_compare = new CompareView;
    m_history = new HistoryView;

    // One word a tab, what it does in its tooltip: at 150% text "Compare checkpoints" and "Evaluate settings" left
    // too little room, and every title was cut ("Gener…", "Hist…", "Ch…")
    m_tabs = new QTabWidget;
    m_tabs->addTab(buildGenerateTab(), tr("Generate"));
    m_tabs->setTabToolTip(0, tr("Generate from a prompt, token by token, and branch at any token"));
    m_tabs->addTab(m_compare, tr("Compare"));
    m_tabs->setTabToolTip(1, tr("Compare checkpoints: the same prompt and seed at several steps of the run"));
    m_tabs->addTab(m_history, tr("History"));
    m_tabs->setTabToolTip(2, tr("The generations of this session, with their settings"));
    m_evaluation = new GenerationEvalView(m_model, m_picker, this->jobs());
    m_tabs->addTab(m_evaluation, tr("Evaluate"));
    m_tabs->setTabToolTip(3,
                          tr("Evaluate decoding settings: every prompt with each setting, scored (twb generate-eval)"));
    m_chat = new ChatView(m_model, m_picker, [this] { return m_decoding->options(); });
    m_tabs->addTab(m_chat, tr("Chat"));
    m_tabs->setTabToolTip(4, tr("Chat with an instruction-tuned run (twb chat)"));
    connect(m_chat, &PanelBase::statusMessage, this, &PanelBase::statusMessage);
    connect(m_chat, &PanelBase::statusWithdrawn, this, &PanelBase::statusWithdrawn);

    // Fold on the Decoding title's line (the tabs' titles keep their room); unfold left of the tabs, shown
    // only while folded (when the tabs have the width).
    m_decodingFold = new QToolButton(m_decoding);
    m_decodingFold->setObjectName("decodingFold");
    m_decodingFold->setAutoRaise(true);
    m_decodingFold->setArrowType(Qt::LeftArrow);
    m_decodingFold->setToolTip(tr("Fold the decoding settings away: the text takes the width (they still apply)"));
    m_decoding->installEventFilter(this);  // its resize places the arrow at the title line's end
    m_decodingUnfold = new QToolButton(m_tabs);
    m_decodingUnfold->setObjectName("decodingUnfold");
    m_decodingUnfold->setAutoRaise(true);
    m_decodingUnfold->setArrowType(Qt::RightArrow);
    m_decodingUnfold->setText(tr("Decoding"));
    m_decodingUnfold->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_decodingUnfold->setToolTip(tr("Show the decoding settings"));
    connect(m_decodingFold, &QToolButton::clicked, this, [this] { setDecodingShown(false); });
    connect(m_decodingUnfold, &QToolButton::clicked, this, [this] { setDecodingShown(true); });
    auto* left = new QVBoxLayout;
    left->addWidget(m_decoding);
    left->addStretch(1);
    m_lmPage = new QWidget;
    auto* body = new QHBoxLayout(m_lmPage);
    body->setContentsMargins(0, 0, 0, 0);
    body->addLayout(left);
    body->addWidget(m_tabs, 1);
    setDecodingShown(QSettings().value("sampling/decodingShown", true).toBool());  // once it is in the page
    m_translation = new TranslationView(m_model, m_picker, this->jobs());
    m_modes = new QStackedWidget;
    m_modes->addWidget(m_lmPage);
    m_modes->addWidget(m_translation);
    auto* col = new QVBoxLayout(this);
    col->addWidget(m_picker);
    col->addWidget(m_modes, 1);
    connect(m_translation, &PanelBase::statusMessage, this, &PanelBase::statusMessage);
    connect(m_translation, &PanelBase::statusWithdrawn, this, &PanelBase::statusWithdrawn);

    connectWorker(m_model->worker());
    m_shownRun = m_picker->run();
    connectControls();
    updateMode();
    busyChanged(false);  // Generate only with a run to sample from
    m_compare->fillChoices(m_picker->run(), m_picker->steps());
    refreshHistory();
}

void SamplingPanel::connectControls() {
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(50);  // batch streamed tokens: at most 20 re-renders a second
    connect(&m_renderTimer, &QTimer::timeout, this, &SamplingPanel::render);
    connect(m_generate, &QPushButton::clicked, this, &SamplingPanel::generate);
    connect(m_stop, &QPushButton::clicked, this, &SamplingPanel::stop);
    connect(m_back_, &QPushButton::clicked, this, &SamplingPanel::back);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_out.promptText + outputText(0));
        emit statusMessage(tr("Output copied"));
    });
    // One shortcut each for both modes (two on one key would be ambiguous and neither would fire).
    auto* runKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    runKey->setWhatsThis(tr("Generate, send the chat message, or translate in translation mode"));
    connect(runKey, &QShortcut::activated, this, [this] {
        if (isTranslationMode())
            m_translation->translate();
        else if (m_tabs->currentWidget() == m_chat)
            m_chat->send();
        else
            generate();
    });
    auto* stopKey = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    stopKey->setWhatsThis(tr("Stop generating or translating"));
    connect(stopKey, &QShortcut::activated, this, [this] {
        stop();
        m_chat->stop();
        m_translation->stop();
    });
    connect(m_output, &TokenOutputView::tokenClicked, this, &SamplingPanel::showAlternatives);
    connect(m_output, &TokenOutputView::alternativeChosen, this, [this](int sample, int index, int alt) {
        if (sample == 0)
            branch(index, alt);
    });
    connect(m_compare, &CompareView::compareClicked, this, &SamplingPanel::runCompare);
    connect(m_compare, &CompareView::exportClicked, this, &SamplingPanel::exportMarkdown);
    connect(m_history, &HistoryView::usePrompt, this, [this](const QString& prompt) {
        setPrompt(prompt);
        m_tabs->setCurrentIndex(0);
    });
    connect(m_history, &HistoryView::failed, this, &SamplingPanel::showError);
    // Read again when shown: `twb sample` and `twb chat` append to the run's files from outside.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int i) {
        if (m_tabs->widget(i) == m_history)
            refreshHistory();
    });
    connect(m_picker, &RunPicker::changed, this, [this] {
        if (m_picker->run() != std::exchange(m_shownRun, m_picker->run()))
            leaveOutput();
        busyChanged(isBusy());  // Generate follows whether there is a run
        updateMode();
        m_compare->fillChoices(m_picker->run(), m_picker->steps());
        refreshHistory();
        m_chat->followRun();
    });
}

QWidget* SamplingPanel::buildGenerateTab() {
    using console_layout::button;
    m_generate = button(tr("Generate"), "generate", tr("Generate (Ctrl+Return)"));
    m_stop = button(tr("Stop"), "stop", tr("Stop (Esc): ends within one token"), false);
    m_back_ = button(tr("◀ Back"), nullptr, tr("Return to the output before the last branch"), false);
    m_copy = button(tr("Copy"), nullptr, tr("Copy the prompt and output as plain text"));
    m_status = new QLabel;
    m_status->setObjectName("samplingStatus");
    m_status->setWordWrap(true);  // a warning after the figures must not be cut at the window's edge

    m_prompt = new QPlainTextEdit;
    m_prompt->setObjectName("prompt");
    setFocusProxy(m_prompt);  // Alt+4 puts the cursor where a prompt is typed
    m_prompt->setPlaceholderText(tr("Prompt (empty = start from nothing)"));
    m_prompt->setPlainText(QSettings().value("sampling/prompt").toString());
    // A refusal of the prompt ("characters the vocabulary lacks") stayed after the prompt was changed.
    connect(m_prompt, &QPlainTextEdit::textChanged, this, [this] {
        if (std::exchange(m_generationError, false))
            clearError();
    });
    m_output = new TokenOutputView("output", "alternatives",
                                   tr("Generated text appears here, each token tinted by its probability "
                                      "(green = likely, red = unlikely). Hover a token for its alternatives; click it, "
                                      "then click an alternative to branch."),
                                   tr("Click a generated token to see the alternatives the model weighed there."));
    m_output->setSamples(&m_out.samples);
    m_attribution = new AttributionStrip(jobs());
    connect(m_attribution, &AttributionStrip::failed, this, &SamplingPanel::statusMessage);
    auto* output = new QWidget;
    auto* outputCol = new QVBoxLayout(output);
    outputCol->setContentsMargins(0, 0, 0, 0);
    outputCol->addWidget(m_output, 1);
    outputCol->addWidget(m_attribution);

    return console_layout::tab(
        m_prompt, output, console_layout::buttonRow({m_generate, m_stop, m_back_, m_copy}, m_status), errorLabel(), 4);
}

void SamplingPanel::connectWorker(ModelWorker* worker) {
    connect(this, &SamplingPanel::generateRequested, worker, &ModelWorker::generate);
    connect(this, &SamplingPanel::compareRequested, worker, &ModelWorker::compare);
    connect(this, &SamplingPanel::historyRequested, worker, &ModelWorker::loadHistory);
    connect(worker, &ModelWorker::token, this, [this](quint64 id, const UiToken& t) {
        if (id != m_requestId)
            return;
        while (m_out.samples.size() <= t.sample)
            m_out.samples.append(QVector<UiToken>{});
        m_out.samples[t.sample].append(t);
        ++m_streamed;
        if (!m_renderTimer.isActive())
            m_renderTimer.start();
    });
    connect(worker, &ModelWorker::generated, this, [this](const GenerateResult& r) {
        if (!finished(r.id))
            return;
        if (r.id == m_leftId) {  // the last run's, stopped when another was chosen
            m_leftId = 0;
            return setBusy(false);
        }
        if (r.id != m_requestId)
            return;
        if (m_out.promptIds.empty())
            m_out.promptIds = r.promptIds;
        keepOnly(r.texts);
        setBusy(false);
        render();
        m_status->setText(statusLine(tr("%1 tokens · %2 tok/s · step %3%4")
                                         .arg(r.generated)
                                         .arg(QLocale().toString(r.tokensPerS, 'f', 1))
                                         .arg(r.step)
                                         .arg(r.cancelled ? tr(" · stopped") : QString())));
        if (!r.warnings.isEmpty()) {
            m_status->setText(m_status->text() + " · " + r.warnings.join("; "));
            emit statusMessage(r.warnings.join("; "));
        }
        m_out.status = m_status->text();  // Back shows each output with its own line
        refreshHistory();
    });
    connect(worker, &ModelWorker::compareCell, this,
            [this](quint64 id, int row, int c, const QString& header, const QString& text) {
                if (m_pending.contains(id))
                    m_compare->setCell(row, c, header, text);
            });
    connect(worker, &ModelWorker::compareJudged, this,
            [this](quint64 id, int row, int c, double perplexity, const QString& precision, const QString& problem) {
                if (m_pending.contains(id))
                    m_compare->setJudged(row, c, perplexity, precision, problem);
            });
    connect(worker, &ModelWorker::compareFinished, this, [this](quint64 id, bool cancelled) {
        if (!finished(id))
            return;
        setBusy(false);
        m_status->setText(cancelled ? tr("comparison stopped") : tr("comparison done"));
    });
    connect(worker, &ModelWorker::historyLoaded, this,
            [this](quint64 id, const QString& run, const std::vector<twb::SampleRecord>& records) {
                if (finished(id) && id == m_historyId && run == m_picker->run())
                    m_history->setRecords(records);
            });
    connect(worker, &ModelWorker::failed, this, [this](quint64 id, const QString& e) {
        if (!finished(id))
            return;
        if (id == m_leftId) {  // the last run's problem: not this one's
            m_leftId = 0;
            return setBusy(false);
        }
        if (id != m_historyId)
            setBusy(false);
        showError(e);
        m_generationError = id != m_historyId;
    });
}

void SamplingPanel::setDecodingShown(bool shown) {
    m_decoding->setVisible(shown);
    // Only while folded: a hidden corner widget still takes its room from the tabs ("Gener…" at 175%).
    m_tabs->setCornerWidget(shown ? nullptr : m_decodingUnfold, Qt::TopLeftCorner);
    m_decodingUnfold->setVisible(!shown);
    QSettings().setValue("sampling/decodingShown", shown);
}

bool SamplingPanel::eventFilter(QObject* watched, QEvent* e) {
    if (watched == m_decoding && (e->type() == QEvent::Resize || e->type() == QEvent::FontChange)) {
        const int side = m_decoding->fontMetrics().height();
        m_decodingFold->setFixedSize(side, side);
        m_decodingFold->move(m_decoding->width() - side, 0);
        m_decodingFold->raise();
    }
    return PanelBase::eventFilter(watched, e);
}

bool SamplingPanel::decodingShown() const {
    return !m_decoding->isHidden();
}
