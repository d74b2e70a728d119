// RUN/chat.jsonl: one JSON object per chat message, read back leniently (twb/chat_history.h).
#include "twb/chat_history.h"

#include "core/util/json_lines.h"
#include "twb/run_folder.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace twb {

namespace {

const char* kFile = "chat.jsonl";

}  // namespace

void append_chat_turns(const std::filesystem::path& run_dir, const std::vector<ChatTurn>& turns) {
    std::vector<nlohmann::json> records;
    for (const auto& t : turns) {
        nlohmann::json e{{"time", t.time.empty() ? local_time_iso() : t.time},
                         {"conversation", t.conversation},
                         {"role", to_string(t.message.role)},
                         {"content", t.message.content},
                         {"source", t.source}};
        if (t.message.role == ChatRole::Assistant) {
            e["checkpoint_step"] = t.checkpoint_step;
            if (t.cancelled)
                e["cancelled"] = true;
        }
        records.push_back(std::move(e));
    }
    append_json_lines(run_folder_of(run_dir) / kFile, records);
}

std::vector<ChatTurn> read_chat_history(const std::filesystem::path& run_dir) {
    std::vector<ChatTurn> out;
    // A line of the wrong shape (a field of the wrong type, an unknown role) is skipped.
    for_each_json_object(run_folder_of(run_dir) / kFile, [&](const nlohmann::json& j) {
        ChatTurn t;
        t.time = j.value("time", "");
        if (j.contains("conversation") && !j["conversation"].is_number_integer())
            return;
        t.conversation = j.value("conversation", int64_t(1));
        if (t.conversation < 1 || t.conversation > (int64_t(1) << 53))  // an edited number; the next must fit
            return;
        t.message.role = parse_chat_role(j.value("role", ""));
        t.message.content = j.value("content", "");
        t.source = j.value("source", "");
        t.checkpoint_step = j.value("checkpoint_step", int64_t(0));
        t.cancelled = j.value("cancelled", false);
        out.push_back(std::move(t));
    });
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
