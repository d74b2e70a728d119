// `twb chat`'s options and turns for both programs (chat_command.h).
#include "app/twb/chat_command.h"

#include "app/twb/interrupt.h"
#include "app/twb/sample_command.h"
#include "twb/chat_history.h"
#include "twb/errors.h"
#include "twb/run_folder.h"
#include "twb/text.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace twb::cli {

namespace {

/// The conversation a message continues: the run's latest, or a new one (--new, or another --system).
ChatThread starting_thread(const ChatOpts& o) {
    ChatThread t = o.noHistory ? ChatThread{} : latest_chat(o.run);
    const bool otherSystem = !o.system.empty() && !t.messages.empty() &&
                             !(t.messages.front().role == ChatRole::System && t.messages.front().content == o.system);
    if (o.fresh || otherSystem) {
        t.conversation = o.noHistory ? 1 : next_conversation(o.run);
        t.messages.clear();
    }
    if (t.messages.empty() && !o.system.empty())
        t.messages.push_back({ChatRole::System, o.system});
    return t;
}

class Chat {
public:
    Chat(const ChatOpts& o, const SamplingOptions& s, const ChatFn& reply, int64_t step)
        : m_o(o), m_s(s), m_reply(reply), m_step(step), m_thread(starting_thread(o)) {}

    /// Sends one message and prints the reply (streamed when interactive). False when interrupted.
    bool send(std::string text, bool stream) {
        // Bytes that are not UTF-8 (a terminal in Latin-1): the model and chat.jsonl get U+FFFD for each,
        // said rather than done in silence.
        if (const size_t bad = find_invalid_utf8(text); bad != std::string::npos) {
            replace_invalid_utf8(text);
            std::fprintf(stderr,
                         "twb: warning: the message is not valid UTF-8 (byte %zu); each invalid byte became "
                         "U+FFFD (\xEF\xBF\xBD)\n",
                         bad + 1);
        }
        std::vector<ChatTurn> turns;
        if (m_thread.messages.size() == 1 && m_thread.messages.front().role == ChatRole::System)
            turns.push_back(turn(m_thread.messages.front()));
        m_thread.messages.push_back({ChatRole::User, text});
        turns.push_back(turn(m_thread.messages.back()));
        const auto& cancel = install_interrupt_flag();  // Ctrl-C stops the reply (kept, marked) and the chat
        const auto res = m_reply(
            m_thread.messages, m_s,
            [&](const TokenEvent& ev) {
                if (stream) {
                    std::fwrite(ev.text.data(), 1, ev.text.size(), stdout);
                    std::fflush(stdout);
                }
            },
            &cancel);
        const std::string reply = res.texts.empty() ? std::string() : res.texts[0];
        if (!stream)
            std::fwrite(reply.data(), 1, reply.size(), stdout);
        std::printf("\n");
        std::fflush(stdout);
        for (auto& w : res.warnings)
            std::fprintf(stderr, "twb: warning: %s\n", w.c_str());
        m_thread.messages.push_back({ChatRole::Assistant, reply});
        ChatTurn a = turn(m_thread.messages.back());
        a.cancelled = res.cancelled;
        turns.push_back(a);
        if (!m_o.noHistory)
            append_chat_turns(m_o.run, turns);
        return !res.cancelled;
    }

    void start_new() {
        ChatOpts o = m_o;
        o.fresh = true;
        m_thread = starting_thread(o);
    }
    int64_t conversation() const { return m_thread.conversation; }
    size_t turns() const { return m_thread.messages.size(); }

private:
    ChatTurn turn(const ChatMessage& msg) const {
        ChatTurn t;
        t.conversation = m_thread.conversation;
        t.message = msg;
        t.source = "cli";
        t.checkpoint_step = m_step;
        return t;
    }
    const ChatOpts& m_o;
    const SamplingOptions& m_s;
    const ChatFn& m_reply;
    const int64_t m_step;
    ChatThread m_thread;
};

int interactive(Chat& chat) {
    std::fprintf(stderr,
                 "twb chat: conversation %lld (%zu earlier messages); /new starts another, /quit or Ctrl-D "
                 "ends\n",
                 static_cast<long long>(chat.conversation()), chat.turns());
    std::string line;
    for (;;) {
        std::fprintf(stderr, "you> ");
        if (!std::getline(std::cin, line) || line == "/quit")
            break;
        if (line == "/new") {
            chat.start_new();
            std::fprintf(stderr, "twb chat: conversation %lld\n", static_cast<long long>(chat.conversation()));
            continue;
        }
        if (line.empty())
            continue;
        std::fprintf(stderr, "assistant> ");
        if (!chat.send(line, true))
            return 130;
    }
    return 0;
}

}  // namespace

void check_chat_history_place(const ChatOpts& o) {
    if (const auto file = run_folder_of(o.run) / "chat.jsonl";
        !o.noHistory && std::filesystem::exists(file) && !std::filesystem::is_regular_file(file))
        throw InputError(file.string() +
                         " is not a file (a folder?), so the chat cannot be recorded; move it away, or chat with "
                         "--no-history");
}

void add_chat_options(CLI::App& app, ChatOpts& o) {
    o.s.max_new_tokens = 256;
    o.s.temperature = 0.7;
    app.add_option("--run,-r", o.run, "Run folder (finetuned with twb prepare --chat data) or a checkpoint folder")
        ->required();
    app.add_option("--checkpoint", o.checkpoint, "best (default), last or a step number");
    app.add_option("--message,-m", o.messages,
                   "Send this message and print the reply, then exit (repeatable: one turn each). Without it: "
                   "turns from the terminal, or one message per line of stdin when it is not a terminal");
    app.add_option("--system", o.system,
                   "A system turn for the conversation (starts a new one unless the latest has this system turn)");
    app.add_flag("--new", o.fresh, "Start a new conversation instead of continuing the run's latest");
    app.add_flag("--no-history", o.noHistory, "Neither continue nor record the run's chat history (RUN/chat.jsonl)");
    app.add_option("--max-new-tokens,-n", o.s.max_new_tokens, "Most tokens per reply (default 256)");
    auto* temperatureOpt =
        app.add_option("--temperature,-t", o.s.temperature, "Sampling temperature; 0 = greedy (default 0.7)");
    add_filter_options(app, o.s);
    app.add_flag("--greedy", o.greedy, "Always take the most probable token")->excludes(temperatureOpt);
    app.add_option("--seed", o.s.seed, "Random seed (default: random)");
}

SamplingOptions chat_sampling_of(const ChatOpts& o) {
    SamplingOptions s = o.s;
    if (o.greedy)
        s.temperature = 0;
    s.validate();
    return s;
}

int run_chat(const ChatOpts& o, const SamplingOptions& s, const ChatFn& reply, int64_t step) {
    for (const auto& msg : o.messages)  // a turn with nothing in it is no message to answer
        if (msg.find_first_not_of(" \t\r\n") == std::string::npos)
            throw ConfigError("--message is empty; give the text to send");
    // Before the first prompt: a run that cannot chat (a char run) said so only after a message was typed.
    if (const std::string why = twb::chat_unavailable(o.run); !why.empty())
        throw InputError(why);
    Chat chat(o, s, reply, step);
    if (!o.messages.empty()) {
        for (const auto& msg : o.messages)
            if (!chat.send(msg, false))
                return 130;
        return 0;
    }
    if (isatty(STDIN_FILENO))
        return interactive(chat);
    std::string line;
    while (std::getline(std::cin, line)) {
        // The terminal's two commands mean the same from a pipe: a script's "/new" is no message.
        if (line == "/quit")
            break;
        if (line == "/new") {
            chat.start_new();
            continue;
        }
        if (!line.empty() && !chat.send(line, false))
            return 130;
    }
    return 0;
}

}  // namespace twb::cli
