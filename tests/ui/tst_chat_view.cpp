// The Sampling console's Chat tab driven offscreen over a tiny run finetuned on chat data: a message sent
// comes back as an assistant turn that ended at the end-of-turn token, both turns are recorded in
// RUN/chat.jsonl, a new console reloads the conversation, New conversation starts the next number, and a
// run whose tokenizer has no <eos> (char) is refused as soon as it is chosen (Send off), with a message that says so;
// a run not finetuned on chat data is said to be so when it is chosen.
#include "ui/sampling/ChatView.h"
#include "ui/sampling/DecodingForm.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/widgets/RunPicker.h"
#include "ui_fixture.h"

#include "twb/chat.h"
#include "twb/chat_history.h"

#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>

class TestChatView : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_run, m_charRun;

    static void waitIdle(ChatView& c) { QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), 60000); }

private slots:
    void initTestCase() {
        m_charRun = twbtest::make_tiny_run(m_ws, "char-run", 10);
        // Every record asks for "hi" and is answered "hello": 60 steps learn the reply and its end of turn.
        std::string jsonl;
        for (int i = 0; i < 50; ++i)
            jsonl += "{\"instruction\": \"hi\", \"output\": \"hello\"}\n";
        twbtest::write(twbtest::path(m_ws, "chat.jsonl"), jsonl);
        twb::ChatPrepareOptions o;
        o.inputs = {twbtest::path(m_ws, "chat.jsonl").string()};
        o.tokenizer.kind = twb::TokenizerKind::Byte;
        o.out = twbtest::path(m_ws, "chat-data");
        twb::prepare_chat(o);
        twb::RunConfig c = twb::preset_config("tiny");
        c.data_dir = o.out.string();
        c.n_layer = 1;
        c.n_embd = 32;
        c.n_head = 2;
        c.block_size = 32;
        c.batch_size = 8;
        c.max_iters = 60;
        c.lr_decay_iters = 60;
        c.learning_rate = 1e-2;
        c.warmup_iters = 2;
        c.eval_interval = 60;
        c.eval_iters = 1;
        c.threads = 1;
        twb::TrainJob job;
        job.config = c;
        job.run_dir = (Workspace::runsDir() + "/chat-run").toStdString();
        twb::train(job);
        m_run = QString::fromStdString(job.run_dir);
    }

    void sendGetsAReplyAndTheHistoryIsKept() {
        {
            SamplingPanel p;
            p.setRun(m_run);
            p.findChild<QTabWidget*>()->setCurrentWidget(p.chat());
            ChatView& chat = *p.chat();
            QTRY_VERIFY(chat.statusText().contains("conversation 1"));  // the (empty) history is read
            p.setTemperature(0);
            chat.setSystemPrompt("Be kind.");
            chat.setMessage("hi");
            chat.send();
            QVERIFY(chat.isBusy());
            waitIdle(chat);
            QVERIFY2(chat.lastError().isEmpty(), qPrintable(chat.lastError()));
            QCOMPARE(chat.messages().size(), size_t(3));  // system, user, assistant
            QCOMPARE(chat.messages()[2].role, twb::ChatRole::Assistant);
            QCOMPARE(QString::fromStdString(chat.messages()[2].content), QString("hello"));
            // The line's parts keep their words together (non-breaking spaces): "end of turn" whole.
            QVERIFY2(chat.statusText().contains(QString("end of turn").replace(' ', QChar(0x00A0))),
                     qPrintable(chat.statusText()));
            QVERIFY(chat.transcriptText().contains("You: hi"));
        }
        const auto turns = twb::read_chat_history(m_run.toStdString());
        QCOMPARE(turns.size(), size_t(3));
        QCOMPARE(turns[0].message.content, std::string("Be kind."));
        QCOMPARE(turns[0].source, std::string("gui"));
        QCOMPARE(turns[2].message.content, std::string("hello"));

        // A new console reloads the conversation; a second turn continues it, recorded once each.
        SamplingPanel again;
        again.setRun(m_run);
        ChatView& chat = *again.chat();
        QTRY_COMPARE(chat.messages().size(), size_t(3));
        QTRY_VERIFY(chat.statusText().contains("3 messages"));
        again.setTemperature(0);
        chat.setMessage("hi");
        chat.send();
        waitIdle(chat);
        QCOMPARE(chat.messages().size(), size_t(5));
        QCOMPARE(twb::read_chat_history(m_run.toStdString()).size(), size_t(5));

        // New conversation: the next number, nothing shown; its first turn is recorded under it.
        chat.newConversation();
        QTRY_COMPARE(chat.conversation(), qint64(2));
        QCOMPARE(chat.messages().size(), size_t(0));
        // The run list read again (another run deleted, say) keeps the new conversation, not yet written.
        again.picker()->refresh();
        QCOMPARE(chat.conversation(), qint64(2));
        chat.setMessage("hi");
        chat.send();
        waitIdle(chat);
        QCOMPARE(twb::latest_chat(m_run.toStdString()).conversation, int64_t(2));
        QCOMPARE(twb::latest_chat(m_run.toStdString()).messages.size(), size_t(2));
    }

    void runWithoutEndOfTurnIsRefused() {
        SamplingPanel p;
        p.setRun(m_charRun);
        ChatView& chat = *p.chat();
        QTRY_VERIFY(chat.statusText().contains("conversation"));
        // Said as soon as the run is chosen, Send off, before anyone writes a message.
        QVERIFY2(chat.lastError().contains("<eos>") && chat.lastError().contains("Chat data"),
                 qPrintable(chat.lastError()));
        auto* send = chat.findChild<QPushButton*>("chatSend");
        QVERIFY(send && !send->isEnabled());
        chat.setMessage("hello");
        chat.send();  // Ctrl+Return: nothing is sent
        waitIdle(chat);
        QVERIFY2(chat.lastError().contains("<eos>"), qPrintable(chat.lastError()));
        QCOMPARE(chat.messages().size(), size_t(0));
        QVERIFY(twb::read_chat_history(m_charRun.toStdString()).empty());
        // Another run that can chat: Send on again, no error.
        p.setRun(m_run);
        QTRY_VERIFY(send->isEnabled());
        QVERIFY(chat.lastError().isEmpty());
        QVERIFY(chat.findChild<QLabel*>("chatUntrained")->isHidden());
    }
    void aRunNotFinetunedOnChatIsSaidWhenChosen() {
        // The chat run's weights and tokenizer, its dataset a plain one: it can chat, but its replies only
        // continue the template. That was said in the status bar after the first reply; now when it is chosen.
        const QString plain = Workspace::runsDir() + "/plain-run";
        QVERIFY(QProcess::execute("cp", {"-r", m_run, plain}) == 0);
        QFile f(plain + "/config.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString config = QString::fromUtf8(f.readAll());
        f.close();
        const QString chatData = QString::fromStdString(twbtest::path(m_ws, "chat-data").string());
        QVERIFY(config.contains(chatData));
        config.replace(chatData, Workspace::datasetsDir() + "/small");  // the char run's, no chat template
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(config.toUtf8());
        f.close();
        SamplingPanel p;
        p.setRun(plain);
        ChatView& chat = *p.chat();
        auto* note = chat.findChild<QLabel*>("chatUntrained");
        QTRY_VERIFY(!note->isHidden());
        QVERIFY(chat.findChild<QPushButton*>("chatSend")->isEnabled());  // it may still be tried
        p.setRun(m_run);
        QTRY_VERIFY(note->isHidden());
    }
};

QTEST_MAIN(TestChatView)
#include "tst_chat_view.moc"
