// RUN/chat.jsonl, its one owner: the conversations held with a run, by `twb chat` or the Sampling
// console's Chat mode, one JSON object per message (time, conversation number, role, content, source,
// the checkpoint step that replied). A conversation is the messages of one number, in order; the latest
// number is the conversation a new message continues, and a new conversation takes the next number.
// Appending rewrites the file through write_file_atomic, so a crash never leaves half a history; a line
// that does not parse (edited by hand) is skipped when reading. Public API.
#pragma once
#include "twb/chat.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace twb {

struct ChatTurn {
    std::string time;             // ISO 8601 local time; filled in when empty
    int64_t conversation = 1;     // 1, 2, ...
    ChatMessage message;          // system, user or assistant
    std::string source;           // "gui" | "cli"
    int64_t checkpoint_step = 0;  // assistant turns: the checkpoint that replied
    bool cancelled = false;       // assistant turns: stopped before the end of turn
};

/// Appends turns to RUN/chat.jsonl in one write. IoError naming the file.
void append_chat_turns(const std::filesystem::path& run_dir, const std::vector<ChatTurn>& turns);
/// Every turn of the run, oldest first; empty when the run has no chat history.
std::vector<ChatTurn> read_chat_history(const std::filesystem::path& run_dir);

/// One conversation: its number and messages.
struct ChatThread {
    int64_t conversation = 1;
    Conversation messages;
};
/// The latest conversation (number 1 and no messages when there is none).
ChatThread latest_chat(const std::filesystem::path& run_dir);
/// The number a new conversation takes: one past the largest so far (1 when there is none).
int64_t next_conversation(const std::filesystem::path& run_dir);

}  // namespace twb
