// The Sampling console's Chat tab: turns with an instruction-tuned run in the chat template (twb/chat.h).
// A transcript of the conversation (the run's latest, reloaded from RUN/chat.jsonl whenever the run is
// chosen), a message box (Send: Ctrl+Return), Stop, New conversation and a system prompt that opens each
// new conversation. The reply streams token by token and ends at the end-of-turn token or the length
// limit; it is generated with the console's decoding controls on the ModelThread's ModelWorker, which also
// records the turns. Branching and alternatives are the Generate tab's.
#pragma once
#include "twb/chat.h"
#include "twb/generation.h"
#include "ui/widgets/PanelBase.h"

#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>

class ModelThread;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;
class RunPicker;
struct ChatResult;

class ChatView : public PanelBase {
    Q_OBJECT
public:
    /// options: the decoding controls' current options (temperature, length, ...).
    ChatView(ModelThread* model, RunPicker* picker, std::function<twb::SamplingOptions()> options,
             QWidget* parent = nullptr);
    /// Why a run cannot chat (twb::chat_unavailable's English) in the interface's language: the sentence that
    /// says what to do stood in English inside the Bokmål one around it.
    static QString unavailableText(const QString& engineText);

    /// The conversation shown: its messages (the reply being streamed not among them until it ends).
    const twb::Conversation& messages() const { return m_messages; }
    qint64 conversation() const { return m_conversation; }
    /// The transcript as plain text ("You: ...", "Assistant: ...").
    QString transcriptText() const;
    QString statusText() const;
    void setMessage(const QString& text);
    void setSystemPrompt(const QString& text);

public slots:
    /// Sends the message box's text (nothing when it is empty or a reply is under way).
    void send();
    void stop();
    /// Starts a new conversation (the next number; the system prompt opens it).
    void newConversation();
    /// Reloads the chosen run's latest conversation.
    void reload();
    /// reload() when the chosen run is another than the one shown (a list refreshed, say after a run was
    /// deleted, keeps the conversation, a new one not yet written included).
    void followRun();

protected:
    void busyChanged(bool busy) override;

private:
    void connectWorker();
    void replied(const ChatResult& r);
    void render();

    ModelThread* m_model;
    RunPicker* m_picker;
    std::function<twb::SamplingOptions()> m_options;
    QTextBrowser* m_transcript;
    QLineEdit* m_system;
    QPlainTextEdit* m_message;
    QPushButton *m_send, *m_stop, *m_new;
    QLabel* m_status;
    QLabel* m_untrained;  // the run was not finetuned on chat data: replies only continue the template
    twb::Conversation m_messages;
    qint64 m_conversation = 1;
    size_t m_recorded = 0;    // messages of m_messages already in RUN/chat.jsonl
    QString m_streaming;      // the reply as it streams
    QString m_loadedRun;      // the run whose conversation is shown
    QString m_unavailable;    // why the chosen run cannot chat (Send is off), else empty
    quint64 m_requestId = 0;  // the reply under way
    quint64 m_loadId = 0;     // the newest history request
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QTimer m_renderTimer;
};
