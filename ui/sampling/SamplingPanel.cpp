#include "ui/sampling/SamplingPanel.h"
#include "ui/widgets/ConsoleLayout.h"

#include "ui/sampling/CompareView.h"
#include "ui/sampling/DecodingForm.h"
#include "ui/sampling/GenerationEvalView.h"
#include "ui/sampling/HistoryView.h"
#include "ui/sampling/TokenOutputView.h"
#include "ui/sampling/TranslationView.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/RunPicker.h"
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
#include <QVBoxLayout>

SamplingPanel::SamplingPanel(ModelThread* model, QWidget* parent) : PanelBase(nullptr, parent) {
    if (!model) {
        m_ownModel = std::make_unique<ModelThread>();
        model = m_ownModel.get();
    }
    m_model = model;
    m_picker = new RunPicker;
    m_decoding = new DecodingForm;
    m_compare = new CompareView;
    m_history = new HistoryView;

    m_tabs = new QTabWidget;
    m_tabs->addTab(buildGenerateTab(), tr("Generate"));
    m_tabs->addTab(m_compare, tr("Compare checkpoints"));
    m_tabs->addTab(m_history, tr("History"));
    m_evaluation = new GenerationEvalView(m_model, m_picker);
    m_tabs->addTab(m_evaluation, tr("Evaluate settings"));

    auto* left = new QVBoxLayout;
    left->addWidget(m_decoding);
    left->addStretch(1);
    m_lmPage = new QWidget;
    auto* body = new QHBoxLayout(m_lmPage);
    body->setContentsMargins(0, 0, 0, 0);
    body->addLayout(left);
    body->addWidget(m_tabs, 1);
    m_translation = new TranslationView(m_model, m_picker);
    m_modes = new QStackedWidget;
    m_modes->addWidget(m_lmPage);
    m_modes->addWidget(m_translation);
    auto* col = new QVBoxLayout(this);
    col->addWidget(m_picker);
    col->addWidget(m_modes, 1);
    connect(m_translation, &PanelBase::statusMessage, this, &PanelBase::statusMessage);

    connectWorker(m_model->worker());

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
    connect(new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this), &QShortcut::activated, this, [this] {
        if (isTranslationMode())
            m_translation->translate();
        else
            generate();
    });
    connect(new QShortcut(QKeySequence(Qt::Key_Escape), this), &QShortcut::activated, this, [this] {
        stop();
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
    connect(m_picker, &RunPicker::changed, this, [this] {
        updateMode();
        m_compare->fillChoices(m_picker->run(), m_picker->steps());
        refreshHistory();
    });
    updateMode();
    m_compare->fillChoices(m_picker->run(), m_picker->steps());
    refreshHistory();
}

bool SamplingPanel::isTranslationMode() const {
    return m_modes->currentWidget() == m_translation;
}

void SamplingPanel::updateMode() {
    bool translation = false;
    if (!m_picker->run().isEmpty()) {
        try {  // reads the newest checkpoint's state.json: a small file
            translation = twb::is_encoder_decoder_run(m_picker->run().toStdString());
        } catch (const std::exception&) {
            translation = false;  // no checkpoint yet: the LM mode says so when asked to generate
        }
    }
    m_modes->setCurrentWidget(translation ? static_cast<QWidget*>(m_translation) : m_lmPage);
}

QWidget* SamplingPanel::buildGenerateTab() {
    using console_layout::button;
    m_generate = button(tr("Generate"), "generate", tr("Generate (Ctrl+Return)"));
    m_stop = button(tr("Stop"), "stop", tr("Stop (Esc): ends within one token"), false);
    m_back_ = button(tr("◀ Back"), nullptr, tr("Return to the output before the last branch"), false);
    m_copy = button(tr("Copy"), nullptr, tr("Copy the prompt and output as plain text"));
    m_status = new QLabel;
    m_status->setObjectName("samplingStatus");

    m_prompt = new QPlainTextEdit;
    m_prompt->setObjectName("prompt");
    m_prompt->setPlaceholderText(tr("Prompt (empty = start from nothing)"));
    m_prompt->setPlainText(QSettings().value("sampling/prompt").toString());
    m_output = new TokenOutputView("output", "alternatives",
                                   tr("Generated text appears here, each token tinted by its probability "
                                      "(green = likely, red = unlikely). Hover a token for its alternatives; click it, "
                                      "then click an alternative to branch."),
                                   tr("Click a generated token to see the alternatives the model weighed there."));
    m_output->setSamples(&m_out.samples);

    return console_layout::tab(m_prompt, m_output,
                               console_layout::buttonRow({m_generate, m_stop, m_back_, m_copy}, m_status), errorLabel(),
                               4);
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
        if (!finished(r.id) || r.id != m_requestId)
            return;
        if (m_out.promptIds.empty())
            m_out.promptIds = r.promptIds;
        setBusy(false);
        render();
        m_status->setText(tr("%1 tokens · %2 tok/s · step %3%4")
                              .arg(r.generated)
                              .arg(r.tokensPerS, 0, 'f', 1)
                              .arg(r.step)
                              .arg(r.cancelled ? tr(" · stopped") : QString()));
        if (!r.warnings.isEmpty()) {
            m_status->setText(m_status->text() + " · " + r.warnings.join("; "));
            emit statusMessage(r.warnings.join("; "));
        }
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
        if (id != m_historyId)
            setBusy(false);
        showError(e);
    });
}

SamplingPanel::~SamplingPanel() {
    m_evaluation->cancel();
    m_translation->stop();  // before the panel's own model thread (if any) waits for its requests
    if (m_cancel)
        *m_cancel = true;  // a generation in progress ends within a token, so the thread can stop
    QSettings().setValue("sampling/prompt", m_prompt->toPlainText().left(4000));
}

QTableWidget* SamplingPanel::compareTable() const {
    return m_compare->table();
}
void SamplingPanel::setRun(const QString& dir) {
    m_picker->setRun(dir);
}
void SamplingPanel::setPrompt(const QString& text) {
    m_prompt->setPlainText(text);
}
void SamplingPanel::setTemperature(double t) {
    m_decoding->setTemperature(t);
}
void SamplingPanel::setMaxTokens(int n) {
    m_decoding->setMaxTokens(n);
}
void SamplingPanel::setSamples(int n) {
    m_decoding->setSamples(n);
}
void SamplingPanel::setSeed(qint64 seed) {
    m_decoding->setSeed(seed);
}

void SamplingPanel::refreshHistory() {
    m_historyId = m_model->nextRequestId();
    m_pending.insert(m_historyId);
    emit historyRequested(m_historyId, m_picker->run());
}

void SamplingPanel::busyChanged(bool busy) {
    m_generate->setEnabled(!busy);
    m_compare->setBusy(busy);
    m_stop->setEnabled(busy);
    m_back_->setEnabled(!busy && !m_back.isEmpty());
    m_picker->setEnabled(!busy);
}

void SamplingPanel::startRequest(const GenerateRequest& r) {
    m_pending.insert(r.id);
    m_output->clearSelection();
    m_streamed = 0;
    m_clock.start();
    setBusy(true);
    render();
    emit generateRequested(r);
}

void SamplingPanel::generate() {
    if (isBusy())
        return;
    if (m_picker->run().isEmpty())
        return showError(tr("No run to sample from: train one in the Training panel or open a run folder (…)."));
    clearError();
    m_output->showHint();  // a new generation: no note left from the last one
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    GenerateRequest r;
    r.id = m_requestId = m_model->nextRequestId();
    r.run = m_picker->run();
    r.checkpoint = m_picker->checkpoint();
    r.prompt = m_prompt->toPlainText();
    r.options = m_decoding->options();
    r.cancel = m_cancel;
    m_out = Output{};
    m_out.promptText = r.prompt;
    m_out.label = tr("generated");
    m_back.clear();
    m_status->setText(tr("loading…"));
    startRequest(r);
}

void SamplingPanel::stop() {
    if (m_cancel)
        *m_cancel = true;
}

void SamplingPanel::branch(int index, int alt) {
    if (isBusy() || m_out.samples.isEmpty() || index < 0 || index >= m_out.samples[0].size())
        return;
    const UiToken& at = m_out.samples[0][index];
    if (alt < 0 || alt >= at.altIds.size())
        return;
    Output next;
    next.promptText = m_out.promptText;
    next.promptIds = m_out.promptIds;
    next.samples = {m_out.samples[0].mid(0, index)};
    UiToken chosen = at;
    chosen.id = at.altIds[alt];
    chosen.text = at.altTexts[alt];
    chosen.prob = at.altProbs[alt];
    next.samples[0].append(chosen);
    next.label = tr("branch at token %1: %2 → %3")
                     .arg(index)
                     .arg(TokenOutputView::shown(at.text), TokenOutputView::shown(chosen.text));
    GenerateRequest r;
    r.id = m_requestId = m_model->nextRequestId();
    r.run = m_picker->run();
    r.checkpoint = m_picker->checkpoint();
    r.ids = next.promptIds;
    for (const UiToken& t : next.samples[0])
        r.ids.push_back(t.id);
    r.prompt = m_out.promptText;
    r.options = m_decoding->options();
    r.options.num_samples = 1;
    r.options.max_new_tokens = std::max(1, m_decoding->maxNewTokens() - static_cast<int>(next.samples[0].size()));
    r.note = next.label;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    r.cancel = m_cancel;
    m_back.append(m_out);
    m_out = next;
    m_output->setTitle(next.label);
    startRequest(r);
}

void SamplingPanel::back() {
    if (isBusy() || m_back.isEmpty())
        return;
    m_out = m_back.takeLast();
    m_output->clearSelection();
    m_output->setTitle(m_back.isEmpty() ? tr("Back at the original output.") : m_out.label);
    setBusy(false);
    render();
}

QString SamplingPanel::outputText(int sample) const {
    QString s;
    if (sample < m_out.samples.size())
        for (const UiToken& t : m_out.samples[sample])
            s += t.text;
    return s;
}

void SamplingPanel::render() {
    QElapsedTimer took;
    took.start();
    m_output->setPrefixHtml(tokenHtml(m_out.promptText));
    m_output->render(isBusy());
    if (isBusy() && m_clock.isValid()) {
        const double sec = std::max(1e-3, m_clock.elapsed() / 1000.0);
        m_status->setText(tr("%1 tokens · %2 tok/s").arg(m_streamed).arg(m_streamed / sec, 0, 'f', 1));
    }
    m_back_->setEnabled(!isBusy() && !m_back.isEmpty());
    // A long output costs more to lay out: keep re-rendering under ~25% of the UI thread's time.
    m_renderTimer.setInterval(std::clamp(static_cast<int>(took.elapsed()) * 4, 50, 1000));
}

void SamplingPanel::showAlternatives(int sample, int index) {
    if (sample >= m_out.samples.size() || index >= m_out.samples[sample].size())
        return;
    const UiToken& t = m_out.samples[sample][index];
    const QString token = TokenOutputView::shown(t.text);
    if (t.altIds.isEmpty())
        return m_output->select(sample, index,
                                tr("Token %1 %2: beam search keeps whole sequences, so it reports no per-token "
                                   "alternatives. Sample (beam width 1) to branch.")
                                    .arg(index)
                                    .arg(token));
    m_output->select(sample, index,
                     sample == 0 ? tr("Token %1 %2 (p = %3). Click an alternative to continue from it:")
                                       .arg(index)
                                       .arg(token)
                                       .arg(t.prob, 0, 'f', 3)
                                 : tr("Token %1 of sample %2 %3 (p = %4). Branching works on sample 1.")
                                       .arg(index)
                                       .arg(sample + 1)
                                       .arg(token)
                                       .arg(t.prob, 0, 'f', 3));
}

void SamplingPanel::setCompare(const QList<qint64>& steps, const QVector<double>& temperatures) {
    m_compare->setChoices(m_picker->run(), steps, temperatures);
}

void SamplingPanel::setCompareJudge(const QString& run) {
    m_compare->setJudgeRun(run);
}

void SamplingPanel::runCompare() {
    if (isBusy())
        return;
    CompareRequest r;
    const QString problem = m_compare->selection(r.columns, r.temperatures);
    if (!problem.isEmpty())
        return showError(problem);
    clearError();
    r.id = m_model->nextRequestId();
    r.prompt = m_prompt->toPlainText();
    r.baseRun = m_picker->run();
    r.judgeRun = m_compare->judgeRun();
    r.options = m_decoding->options();  // one seed for every cell, so only the checkpoint and temperature differ
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    r.cancel = m_cancel;
    m_compare->begin(static_cast<int>(r.columns.size()), r.temperatures);
    m_status->setText(tr("comparing (seed %1)…").arg(r.options.seed));
    m_pending.insert(r.id);
    setBusy(true);
    emit compareRequested(r);
}

QString SamplingPanel::compareMarkdown() const {
    return m_compare->markdown(m_prompt->toPlainText());
}

void SamplingPanel::exportMarkdown() {
    const QString f = QFileDialog::getSaveFileName(this, tr("Export comparison"), QString(), tr("Markdown (*.md)"));
    if (f.isEmpty())
        return;
    QSaveFile out(f);
    if (!out.open(QIODevice::WriteOnly) || out.write(compareMarkdown().toUtf8()) < 0 || !out.commit())
        return showError(tr("Cannot write %1: check the folder exists and is writable.").arg(f));
    emit statusMessage(tr("Comparison written to %1").arg(f));
}
