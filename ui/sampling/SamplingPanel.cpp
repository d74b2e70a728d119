#include "ui/sampling/SamplingPanel.h"
#include "ui/widgets/ConsoleLayout.h"

#include "ui/sampling/AttributionStrip.h"
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
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QStackedWidget>

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

QString SamplingPanel::noRunText() {
    return tr("No run to sample from: train one in the Training panel or open a run folder (…).");
}

void SamplingPanel::busyChanged(bool busy) {
    // No run yet: Generate is off and says why (the reason came only after a click).
    const bool noRun = m_picker->run().isEmpty();
    m_generate->setEnabled(!busy && !noRun);
    m_generate->setToolTip(noRun ? noRunText() : tr("Generate (Ctrl+Return)"));
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
        return showError(noRunText());
    clearError();
    m_output->showHint();  // a new generation: no note left from the last one
    m_attribution->clear();
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
    m_out.temperature = r.options.temperature;
    m_out.topK = r.options.top_k;
    m_out.topP = r.options.top_p;
    m_out.run = r.run;
    m_out.checkpoint = r.checkpoint;
    m_back.clear();
    m_status->setText(tr("loading…"));
    startRequest(r);
}

void SamplingPanel::leaveOutput() {
    stop();                               // a comparison running ends within a token too
    if (m_pending.contains(m_requestId))  // its answer ends the busy state, unshown
        m_leftId = std::exchange(m_requestId, 0);
    m_out = Output{};
    m_back.clear();
    m_output->clearSelection();
    m_output->showHint();
    m_attribution->clear();
    m_status->clear();
    clearError();
    m_generationError = false;
    render();
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
    next.run = m_out.run;  // the model that chose the tokens continues them, whatever the picker shows now
    next.checkpoint = m_out.checkpoint;
    next.samples = {m_out.samples[0].mid(0, index)};
    UiToken chosen = at;
    chosen.id = at.altIds[alt];
    chosen.text = at.altTexts[alt];
    chosen.prob = at.altProbs[alt];
    next.samples[0].append(chosen);
    next.label = tr("branch at token #%1: %2 → %3")
                     .arg(index + 1)  // counted from 1, as the token's title ("Token #17") counts it
                     .arg(TokenOutputView::shown(at.text), TokenOutputView::shown(chosen.text));
    GenerateRequest r;
    r.id = m_requestId = m_model->nextRequestId();
    r.run = next.run;
    r.checkpoint = next.checkpoint;
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
    m_attribution->clear();  // it explained the token now replaced
    m_out.temperature = r.options.temperature;
    m_out.topK = r.options.top_k;
    m_out.topP = r.options.top_p;
    m_output->setTitle(next.label);
    startRequest(r);
}

void SamplingPanel::back() {
    if (isBusy() || m_back.isEmpty())
        return;
    m_out = m_back.takeLast();
    m_output->clearSelection();
    m_attribution->clear();
    m_status->setText(m_out.status);  // the figures of the output shown, not of the branch left
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

void SamplingPanel::keepOnly(const QStringList& kept) {
    for (int i = 0; i < m_out.samples.size() && i < kept.size(); ++i) {
        const QString shown = outputText(i);
        if (shown.size() <= kept[i].size() || !shown.startsWith(kept[i]))
            continue;  // nothing beyond the kept text (or another text: beams)
        auto& tokens = m_out.samples[i];
        qsizetype at = 0, n = 0;
        while (n < tokens.size() && at + tokens[n].text.size() <= kept[i].size())
            at += tokens[n++].text.size();
        if (n < tokens.size() && at < kept[i].size()) {  // a token that holds the stop's start: its kept part
            tokens[n].text.truncate(kept[i].size() - at);
            ++n;
        }
        tokens.resize(n);
    }
}

void SamplingPanel::render() {
    QElapsedTimer took;
    took.start();
    m_output->setPrefixHtml(tokenHtml(m_out.promptText));
    m_output->render(isBusy());
    if (isBusy() && m_clock.isValid()) {
        const double sec = std::max(1e-3, m_clock.elapsed() / 1000.0);
        m_status->setText(
            statusLine(tr("%1 tokens · %2 tok/s").arg(m_streamed).arg(QLocale().toString(m_streamed / sec, 'f', 1))));
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
    if (!m_out.promptIds.empty()) {  // known once the generation has answered
        std::vector<int32_t> context = m_out.promptIds;
        for (int i = 0; i < index; ++i)
            context.push_back(m_out.samples[sample][i].id);
        m_attribution->attribute(m_out.run, m_out.checkpoint, context, t.id);
    }
    if (t.altIds.isEmpty())
        return m_output->select(sample, index,
                                tr("Token #%1 %2: beam search keeps whole sequences, so it reports no per-token "
                                   "alternatives. Sample (beam width 1) to branch.")
                                    .arg(index + 1)  // counted from 1, as the attribution strip counts
                                    .arg(token));
    // The sampler's probability, at the generation's temperature: the attribution strip below gives the
    // model's own at temperature 1, and without the temperature the two figures seemed to disagree.
    const QString p = m_out.temperature > 0 && m_out.temperature != 1
                          ? tr("p = %1 at temperature %2")
                                .arg(QLocale().toString(t.prob, 'f', 3))
                                .arg(QLocale().toString(m_out.temperature, 'g', 3))
                          : tr("p = %1").arg(QLocale().toString(t.prob, 'f', 3));
    // The alternatives the sampler could draw: the first top-k, and those the top-p nucleus reaches (the
    // list is most probable first, at the temperature, before either cut). Top-k 5 listed eight alike.
    int drawable = static_cast<int>(t.altProbs.size());
    if (m_out.temperature > 0) {
        if (m_out.topK > 0)
            drawable = std::min(drawable, m_out.topK);
        double before = 0;
        for (int k = 0; k < drawable; ++k) {
            if (m_out.topP < 1 && before >= m_out.topP) {
                drawable = k;
                break;
            }
            before += t.altProbs[k];
        }
    }
    QString title =
        sample == 0 ? tr("Token #%1 %2 (%3). Click an alternative to continue from it:").arg(index + 1).arg(token, p)
                    : tr("Token #%1 of sample %2 %3 (%4). Branching works on sample 1.")
                          .arg(index + 1)
                          .arg(sample + 1)
                          .arg(token, p);
    if (drawable < t.altProbs.size())
        title += " " + tr("Grey: never drawn.");  // why: on hover (top-k or top-p)
    m_output->select(sample, index, title, drawable);
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
    m_compare->setProblem(problem);  // beside the fields it names, as well as in the status bar
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
    if (!m_compare->hasResults())
        return showError(tr("Nothing to export yet: press Compare first."));
    QString f = QFileDialog::getSaveFileName(this, tr("Export comparison"), QString(), tr("Markdown (*.md)"));
    if (f.isEmpty())
        return;
    if (QFileInfo(f).suffix().isEmpty())
        f += ".md";
    QSaveFile out(f);
    if (!out.open(QIODevice::WriteOnly) || out.write(compareMarkdown().toUtf8()) < 0 || !out.commit())
        return showError(tr("Cannot write %1: check the folder exists and is writable.").arg(f));
    emit statusMessage(tr("Comparison written to %1").arg(f));
}
