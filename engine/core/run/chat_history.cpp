// RUN/chat.jsonl: one JSON object per chat message, read back leniently (twb/chat_history.h).
#include "twb/chat_history.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>
#include <fstream>

namespace twb {

namespace {

const char* kFile = "chat.jsonl";

std::string now_iso() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return buf;
}

}  // namespace

void append_chat_turns(const std::filesystem::path& run_dir, const std::vector<ChatTurn>& turns) {
    const auto path = run_dir / kFile;
    std::string text;
    if (std::filesystem::exists(path)) {
        text = read_file(path);
        if (!text.empty() && text.back() != '\n')
            text += '\n';
    }
    for (const auto& t : turns) {
        nlohmann::json e{{"time", t.time.empty() ? now_iso() : t.time},
                         {"conversation", t.conversation},
                         {"role", to_string(t.message.role)},
                         {"content", t.message.content},
                         {"source", t.source}};
        if (t.message.role == ChatRole::Assistant) {
            e["checkpoint_step"] = t.checkpoint_step;
            if (t.cancelled)
                e["cancelled"] = true;
        }
        // Invalid UTF-8 in a reply (a byte tokenizer cut mid-character) is replaced, never thrown.
        text += e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    write_file_atomic(path, text);
}

std::vector<ChatTurn> read_chat_history(const std::filesystem::path& run_dir) {
    std::vector<ChatTurn> out;
    std::ifstream in(run_dir / kFile, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        const auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (!j.is_object())
            continue;  // a line edited by hand, or torn: skipped
        try {
            ChatTurn t;
            t.time = j.value("time", "");
            t.conversation = j.value("conversation", int64_t(1));
            t.message.role = parse_chat_role(j.value("role", ""));
            t.message.content = j.value("content", "");
            t.source = j.value("source", "");
            t.checkpoint_step = j.value("checkpoint_step", int64_t(0));
            t.cancelled = j.value("cancelled", false);
            out.push_back(std::move(t));
        } catch (const std::exception&) {
            continue;  // a field of the wrong type or an unknown role: the line is skipped
        }
    }
    return out;
}

ChatThread latest_chat(const std::filesystem::path& run_dir) {
    const auto turns = read_chat_history(run_dir);
    ChatThread thread;
    if (turns.empty())
        return thread;
    thread.conversation = turns.back().conversation;
    for (const auto& t : turns)
        if (t.conversation == thread.conversation)
            thread.messages.push_back(t.message);
    return thread;
}

int64_t next_conversation(const std::filesystem::path& run_dir) {
    int64_t most = 0;
    for (const auto& t : read_chat_history(run_dir))
        most = std::max(most, t.conversation);
    return most + 1;
}

}  // namespace twb
