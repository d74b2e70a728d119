#include "ui/sampling/TranslationView.h"
#include "ui/widgets/ConsoleLayout.h"

#include "ui/sampling/TokenOutputView.h"
#include "ui/sampling/TranslationAttributionStrip.h"
#include "ui/sampling/TranslationBatchView.h"
#include "ui/sampling/TranslationForm.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/StatusLine.h"
#include "ui/workers/ModelThread.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

TranslationView::TranslationView(ModelThread* model, RunPicker* picker, JobsService* jobs, QWidget* parent)
    : PanelBase(jobs, parent), m_model(model), m_picker(picker) {
    m_form = new TranslationForm;
    m_batch = new TranslationBatchView(model, picker, m_form);
    m_tabs = new QTabWidget;
    m_tabs->addTab(buildTranslateTab(), tr("Translate"));
    m_tabs->addTab(m_batch, tr("Translate a file"));

    auto* note =
        new QLabel(tr("This run is an <b>encoder-decoder</b> (translation) model: type a source "
                      "sentence and translate it. Decoder LM runs show the sampling controls instead."));
    note->setWordWrap(true);
    note->setObjectName("translationNote");
    auto* left = new QVBoxLayout;
    left->addWidget(m_form);
    left->addWidget(note);
    left->addStretch(1);
    auto* leftBox = new QWidget;
    leftBox->setLayout(left);
    leftBox->setMaximumWidth(300);
    auto* body = new QHBoxLayout(this);
    body->setContentsMargins(0, 0, 0, 0);
    body->addWidget(leftBox);
    body->addWidget(m_tabs, 1);

    auto* worker = model->translationWorker();
    connect(this, &TranslationView::translateRequested, worker, &TranslationWorker::translate);
    connect(worker, &TranslationWorker::token, this, [this](quint64 id, const UiToken& t) {
        if (id != m_requestId)
            return;
        m_tokens[0].append(t);
        if (!m_renderTimer.isActive())
            m_renderTimer.start();
    });
    connect(worker, &TranslationWorker::translated, this, [this](const TranslateResult& r) {
        if (r.id != m_requestId)
            return;
        m_requestId = 0;
        setBusy(false);
        render();
        // A translation the length limit cut says so first: at the end of the line a narrow window hid it.
        const auto count = [this](qint64 n) { return n == 1 ? tr("1 token") : tr("%1 tokens").arg(n); };
        const QString tokens =
            r.atLimit && !r.cancelled ? tr("%1, cut at the length limit").arg(count(r.tokens)) : count(r.tokens);
        m_status->setText(statusLine(tr("source %1 → %2 · %3 · %4 tok/s · step %5%6")
                                         .arg(count(r.sourceTokens))
                                         .arg(tokens)
                                         .arg(r.beamWidth > 1 ? tr("beam %1").arg(r.beamWidth) : tr("greedy"))
                                         .arg(QLocale().toString(r.seconds > 0 ? r.tokens / r.seconds : 0.0, 'f', 1))
                                         .arg(r.step)
                                         .arg(r.cancelled ? tr(" · stopped") : QString())));
        m_status->setToolTip(m_status->text());
    });
    connect(worker, &TranslationWorker::failed, this, [this](quint64 id, const QString& e) {
        if (id != m_requestId)
            return;
        m_requestId = 0;
        setBusy(false);
        m_status->clear();
        showError(e);
    });
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(50);  // at most 20 re-renders a second while tokens stream in
    connect(&m_renderTimer, &QTimer::timeout, this, &TranslationView::render);
    connect(m_translate, &QPushButton::clicked, this, &TranslationView::translate);
    connect(m_stop, &QPushButton::clicked, this, &TranslationView::stop);
    connect(m_toBatch, &QPushButton::clicked, this, &TranslationView::showBatch);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        if (outputText().isEmpty())  // it said "Translation copied" of nothing
            return emit statusMessage(tr("Nothing to copy yet: Translate first"));
        QApplication::clipboard()->setText(outputText());
        emit statusMessage(tr("Translation copied"));
    });
    // Ctrl+Return and Esc are the Sampling panel's (one shortcut each for both modes); this one is ours.
    auto* batchKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B), this);
    batchKey->setWhatsThis(tr("Translate a file (batch)"));
    connect(batchKey, &QShortcut::activated, this, &TranslationView::showBatch);
    connect(m_output, &TokenOutputView::tokenClicked, this, [this](int, int index) { showAlternatives(index); });
    connect(m_batch, &TranslationBatchView::statusMessage, this, &TranslationView::statusMessage);
}

TranslationView::~TranslationView() {
    if (m_cancel)
        *m_cancel = true;  // a translation in progress ends within a token, so the thread can stop
    QSettings().setValue("translation/source", m_source->toPlainText().left(4000));
}

QWidget* TranslationView::buildTranslateTab() {
    using console_layout::button;
    m_translate = button(tr("Translate"), "translate", tr("Translate the source (Ctrl+Return)"));
    m_stop = button(tr("Stop"), "stopTranslation",
                    tr("Stop (Esc): ends within one token (a beam search within one step)"), false);
    m_copy = button(tr("Copy"), nullptr, tr("Copy the translation as plain text"));
    m_toBatch = button(tr("Translate a file…"), "openBatch",
                       tr("Translate a whole file, one sentence per line, and score it against references "
                          "(Ctrl+Shift+B)"));
    m_status = new QLabel;
    m_status->setObjectName("translationStatus");

    m_source = new QPlainTextEdit;
    m_source->setObjectName("source");
    m_source->setPlaceholderText(tr("Source sentence to translate"));
    m_source->setPlainText(QSettings().value("translation/source").toString());
    m_output = new TokenOutputView(
        "translation", "translationAlternatives",
        tr("The translation appears here, each token tinted by its probability (green = likely, red = "
           "unlikely). Hover a token for the alternatives the model weighed there, or click it."),
        tr("Click a translated token to see the alternatives the model weighed there."));
    m_output->setSamples(&m_tokens);
    m_attribution = new TranslationAttributionStrip(jobs());
    connect(m_attribution, &TranslationAttributionStrip::failed, this, &TranslationView::statusMessage);
    auto* output = new QWidget;
    auto* outputCol = new QVBoxLayout(output);
    outputCol->setContentsMargins(0, 0, 0, 0);
    outputCol->addWidget(m_output, 1);
    outputCol->addWidget(m_attribution);

    return console_layout::tab(m_source, output,
                               console_layout::buttonRow({m_translate, m_stop, m_copy, m_toBatch}, m_status),
                               errorLabel(), 3);
}

QString TranslationView::outputText() const {
    QString s;
    for (const UiToken& t : tokens())
        s += t.text;
    return s;
}

QString TranslationView::statusText() const {
    return m_status->text();
}

void TranslationView::setSource(const QString& text) {
    m_source->setPlainText(text);
}

void TranslationView::showBatch() {
    m_tabs->setCurrentWidget(m_batch);
}

void TranslationView::busyChanged(bool busy) {
    m_translate->setEnabled(!busy);
    m_stop->setEnabled(busy);
}

void TranslationView::translate() {
    if (isBusy())
        return;
    if (m_picker->run().isEmpty())
        return showError(tr("No run to translate with: train an encoder-decoder run or open a run folder (…)."));
    const QString source = m_source->toPlainText().trimmed();
    if (source.isEmpty())
        return showError(tr("The source is empty: type a sentence to translate."));
    clearError();
    QSettings().setValue("translation/source", m_source->toPlainText().left(4000));  // now, not only at exit
    m_tabs->setCurrentIndex(0);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    TranslateRequest r;
    r.id = m_requestId = m_model->nextRequestId();
    r.run = m_picker->run();
    r.checkpoint = m_picker->checkpoint();
    r.source = source;
    r.options = m_form->options();
    r.cancel = m_cancel;
    m_tokens = {{}};
    m_translatedRun = r.run;
    m_translatedCheckpoint = r.checkpoint;
    m_translatedSource = source;
    m_attribution->clear();
    m_output->clearSelection();
    m_output->showHint();
    m_status->setText(r.options.beam_width > 1 ? tr("beam search (width %1)…").arg(r.options.beam_width)
                                               : tr("translating…"));
    m_clock.start();
    setBusy(true);
    render();
    emit translateRequested(r);
}

void TranslationView::stop() {
    if (m_cancel)
        *m_cancel = true;
    m_batch->cancel();
}

void TranslationView::render() {
    m_output->render();
    if (isBusy() && m_clock.isValid() && !tokens().isEmpty()) {
        const double sec = std::max(1e-3, m_clock.elapsed() / 1000.0);
        m_status->setText(
            statusLine(tr("%1 tokens · %2 tok/s").arg(tokens().size()).arg(tokens().size() / sec, 0, 'f', 1)));
    }
}

void TranslationView::showAlternatives(int index) {
    if (index < 0 || index >= tokens().size())
        return;
    const UiToken& t = tokens()[index];
    m_output->select(0, index,
                     tr("Token #%1 %2 (p = %3): the most probable tokens at this step, given the source and "
                        "the translation before it:")
                         .arg(index + 1)  // counted from 1
                         .arg(TokenOutputView::shown(t.text))
                         .arg(QLocale().toString(t.prob, 'f', 3)));
    if (isBusy())
        return;  // the translation is not whole yet
    std::vector<int32_t> ids;
    for (const UiToken& u : tokens())
        ids.push_back(u.id);
    // The run and checkpoint that translated it, whatever the picker shows now.
    m_attribution->attribute(m_translatedRun, m_translatedCheckpoint, m_translatedSource, ids, index);
}
