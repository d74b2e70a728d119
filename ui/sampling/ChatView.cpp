#include "ui/sampling/ChatView.h"
#include "ui/widgets/ConsoleLayout.h"

#include "ui/widgets/RunPicker.h"
#include "ui/widgets/StatusLine.h"
#include "ui/workers/ModelThread.h"
#include "ui/workers/ModelWorker.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
}  // namespace

ChatView::ChatView(ModelThread* model, RunPicker* picker, std::function<twb::SamplingOptions()> options,
                   QWidget* parent)
    : PanelBase(nullptr, parent), m_model(model), m_picker(picker), m_options(std::move(options)) {
    using console_layout::button;
    m_system = new QLineEdit;
    m_system->setObjectName("chatSystem");
    m_system->setPlaceholderText(tr("Optional: a system turn that opens each new conversation"));
    m_transcript = new QTextBrowser;
    m_transcript->setObjectName("chatTranscript");
    m_transcript->setPlaceholderText(
        tr("Chat with a run finetuned on instruction data (Datasets → Chat data, or twb prepare --chat). Each "
           "turn is written in the chat template; the reply ends at the end-of-turn token."));
    m_message = new QPlainTextEdit;
    m_message->setObjectName("chatMessage");
    m_message->setPlaceholderText(tr("Message (Ctrl+Return sends)"));
    m_message->setFixedHeight(90);
    m_send = button(tr("Send"), "chatSend", tr("Send the message (Ctrl+Return)"));
    m_stop = button(tr("Stop"), "chatStop", tr("Stop the reply (Esc): ends within one token"), false);
    m_new =
        button(tr("New conversation"), "chatNew", tr("Start a new conversation; the earlier ones stay in the history"));
    m_status = new QLabel;
    m_status->setObjectName("chatStatus");

    // Said when the run is chosen, not in the status bar after a reply that only continued the template
    m_untrained =
        new QLabel(tr("This run was not finetuned on chat data, so its replies only continue the "
                      "template. The Datasets panel's Chat data tab prepares instruction data; train on "
                      "it, initialised from this run (Run menu)."));
    m_untrained->setObjectName("chatUntrained");
    m_untrained->setWordWrap(true);
    m_untrained->setStyleSheet("background: #fff4ce; padding: 4px;");
    m_untrained->hide();
    auto* top = new QFormLayout;
    top->addRow(tr("System prompt"), m_system);
    // The transcript above the message box, the buttons below: a chat reads downwards.
    auto* col = new QVBoxLayout(this);
    col->addLayout(top);
    col->addWidget(m_untrained);
    col->addWidget(m_transcript, 1);
    col->addWidget(m_message);
    col->addLayout(console_layout::buttonRow({m_send, m_stop, m_new}, m_status));
    col->addWidget(errorLabel());

    connect(m_send, &QPushButton::clicked, this, &ChatView::send);
    connect(m_stop, &QPushButton::clicked, this, &ChatView::stop);
    connect(m_new, &QPushButton::clicked, this, &ChatView::newConversation);
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(50);  // at most 20 re-renders a second while a reply streams
    connect(&m_renderTimer, &QTimer::timeout, this, &ChatView::render);
    connectWorker();
    reload();
}

void ChatView::connectWorker() {
    ModelWorker* worker = m_model->worker();
    connect(worker, &ModelWorker::token, this, [this](quint64 id, const UiToken& t) {
        if (id != m_requestId)
            return;
        m_streaming += t.text;
        if (!m_renderTimer.isActive())
            m_renderTimer.start();
    });
    connect(worker, &ModelWorker::chatReplied, this, &ChatView::replied);
    connect(worker, &ModelWorker::chatLoaded, this,
            [this](quint64 id, const QString& run, const twb::ChatThread& thread, const QString& unavailable,
                   bool untrained) {
                if (id != m_loadId || run != m_picker->run())
                    return;
                m_loadId = 0;
                m_loadedRun = run;
                m_untrained->setVisible(untrained && unavailable.isEmpty());
                // Said before a message is written (a char run answered "not answered" only after Send).
                m_unavailable = unavailable;
                if (!unavailable.isEmpty())
                    showErrorHere(tr("This run cannot chat: %1. The Datasets panel's Chat data tab prepares "
                                     "instruction data; train on it, initialised from a run (Run menu).")
                                      .arg(unavailableText(unavailable)));
                busyChanged(isBusy());
                m_conversation = thread.conversation;
                m_messages = thread.messages;
                m_recorded = m_messages.size();
                m_status->setText(m_messages.empty()
                                      ? tr("conversation %1").arg(m_conversation)
                                      : tr("conversation %1 · %2 messages").arg(m_conversation).arg(m_messages.size()));
                render();
            });
    connect(worker, &ModelWorker::failed, this, [this](quint64 id, const QString& e) {
        if (id == m_loadId) {
            m_loadId = 0;
            showError(e);
        }
        if (id != m_requestId)
            return;
        m_requestId = 0;
        // The message was not answered: back into the box, out of the transcript.
        if (!m_messages.empty() && m_messages.back().role == twb::ChatRole::User) {
            m_message->setPlainText(q(m_messages.back().content));
            m_messages.pop_back();
        }
        m_streaming.clear();
        setBusy(false);
        render();
        m_status->setText(tr("not answered"));  // it said "replying…"
        showError(e);
    });
}

void ChatView::send() {
    const QString text = m_message->toPlainText().trimmed();
    if (text.isEmpty() || isBusy() || m_loadId != 0 || !m_unavailable.isEmpty())  // the last: said already
        return;
    if (m_picker->run().isEmpty()) {
        showError(tr("no run chosen; train one first or open a run folder"));
        return;
    }
    clearError();
    if (m_messages.empty() && !m_system->text().trimmed().isEmpty())
        m_messages.push_back({twb::ChatRole::System, m_system->text().trimmed().toStdString()});
    m_messages.push_back({twb::ChatRole::User, text.toStdString()});
    m_message->clear();
    m_streaming.clear();
    ChatRequest r;
    r.id = m_requestId = m_model->nextRequestId();
    r.run = m_picker->run();
    r.checkpoint = m_picker->checkpoint();
    r.conversation = m_conversation;
    r.messages = m_messages;
    r.recorded = m_recorded;
    r.options = m_options();
    r.options.num_samples = 1;
    r.options.beam_width = 1;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    r.cancel = m_cancel;
    setBusy(true);
    m_status->setText(tr("replying…"));
    render();
    QMetaObject::invokeMethod(m_model->worker(), "chat", Qt::QueuedConnection, Q_ARG(ChatRequest, r));
}

void ChatView::replied(const ChatResult& r) {
    if (r.id != m_requestId)
        return;
    m_requestId = 0;
    m_messages.push_back({twb::ChatRole::Assistant, r.reply.toStdString()});
    m_recorded = m_messages.size();  // the worker recorded the turns
    m_streaming.clear();
    setBusy(false);
    render();
    QString how = r.cancelled ? tr("stopped") : r.endOfTurn ? tr("end of turn") : tr("length limit reached");
    m_status->setText(statusLine(tr("%1 tokens · %2 tok/s · step %3 · %4")
                                     .arg(r.generated)
                                     .arg(QLocale().toString(r.tokensPerS, 'f', 1))
                                     .arg(r.step)
                                     .arg(how)));
    if (!r.warnings.isEmpty())
        emit statusMessage(r.warnings.join("; "));
}

void ChatView::stop() {
    if (m_cancel)
        m_cancel->store(true);
}

void ChatView::newConversation() {
    if (isBusy() || m_picker->run().isEmpty())
        return;
    m_loadId = m_model->nextRequestId();
    QMetaObject::invokeMethod(m_model->worker(), "loadChat", Qt::QueuedConnection, Q_ARG(quint64, m_loadId),
                              Q_ARG(QString, m_picker->run()), Q_ARG(bool, true));
}

void ChatView::followRun() {
    if (m_picker->run() != m_loadedRun || m_loadedRun.isEmpty())
        reload();
}

void ChatView::reload() {
    if (m_requestId != 0) {  // another run chosen mid-reply: that reply is no longer this transcript's
        stop();
        m_requestId = 0;
        setBusy(false);
    }
    m_messages.clear();
    m_recorded = 0;
    m_conversation = 1;
    m_unavailable.clear();
    m_untrained->hide();  // until the next run's answer
    busyChanged(isBusy());
    clearError();  // the run before's
    render();
    if (m_picker->run().isEmpty())
        return;
    m_loadId = m_model->nextRequestId();
    QMetaObject::invokeMethod(m_model->worker(), "loadChat", Qt::QueuedConnection, Q_ARG(quint64, m_loadId),
                              Q_ARG(QString, m_picker->run()), Q_ARG(bool, false));
}

void ChatView::busyChanged(bool busy) {
    m_send->setEnabled(!busy && m_unavailable.isEmpty());
    m_new->setEnabled(!busy);
    m_stop->setEnabled(busy);
}

void ChatView::render() {
    QString html;
    auto turn = [&](const QString& who, const QString& colour, const QString& text) {
        html += QStringLiteral("<p><b style=\"color:%1\">%2</b><br>%3</p>")
                    .arg(colour, who.toHtmlEscaped(), text.toHtmlEscaped().replace('\n', "<br>"));
    };
    for (const auto& m : m_messages) {
        if (m.role == twb::ChatRole::System)
            turn(tr("System"), "#777777", q(m.content));
        else if (m.role == twb::ChatRole::User)
            turn(tr("You"), "#1f5fa8", q(m.content));
        else
            turn(tr("Assistant"), "#2e7d32", q(m.content));
    }
    if (m_requestId != 0)
        turn(tr("Assistant"), "#2e7d32", m_streaming + QStringLiteral("▌"));
    m_transcript->setHtml(html);
    m_transcript->moveCursor(QTextCursor::End);
}

QString ChatView::unavailableText(const QString& engineText) {
    static const QRegularExpression noEos(
        "^the (\\S+) tokenizer of this run has no <eos>, which ends every turn of the chat template; chat with a run "
        "whose tokenizer has one \\((.+)\\)$");
    if (engineText == QLatin1String("this is a translation run: it translates, it does not chat"))
        return tr("this is a translation run: it translates, it does not chat");
    if (const auto m = noEos.match(engineText); m.hasMatch())
        return tr("the %1 tokenizer of this run has no <eos>, which ends every turn of the chat template; chat with a "
                  "run whose tokenizer has one (%2)")
            .arg(m.captured(1), m.captured(2));
    return engineText;
}

QString ChatView::transcriptText() const {
    QStringList lines;
    for (const auto& m : m_messages)
        lines << (m.role == twb::ChatRole::System ? tr("System")
                  : m.role == twb::ChatRole::User ? tr("You")
                                                  : tr("Assistant")) +
                     ": " + q(m.content);
    return lines.join('\n');
}

QString ChatView::statusText() const {
    return m_status->text();
}

void ChatView::setMessage(const QString& text) {
    m_message->setPlainText(text);
}

void ChatView::setSystemPrompt(const QString& text) {
    m_system->setText(text);
}
