// Instruction tuning and chat, the torch-free half: the chat template that turns a conversation into
// token ids (twb-chat-1), reading instruction data (Alpaca's instruction/input/output, self-instruct's
// seed tasks with their instances, a messages list of roles) and preparing it into a dataset whose loss
// falls on the assistant's turns only. The template, exactly:
//
//     <|system|>\n{system} EOT  <|user|>\n{user} EOT  <|assistant|>\n{reply} EOT  ...
//
// where each header is plain text, encoded on its own (so a reply's tokens never merge with it), and
// EOT is the tokenizer's end-of-sequence id (<eos>; GPT-2's <|endoftext|>): a tokenizer that cannot grow
// its vocabulary (an imported GPT-2) works as it is. A system turn appears only when there is one. An
// Alpaca input becomes part of the user turn: "{instruction}\n\n{input}". Generation appends the
// assistant's header and stops at EOT. The history of a run's conversations is twb/chat_history.h's;
// generating a reply is ModelSession::chat (session.h). Public API; no torch.
#pragma once
#include "twb/dataset.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace twb {

class TextTokenizer;

/// The template's name, stored in a chat dataset's meta.json ("chat": {"template": ...}).
inline constexpr const char* kChatTemplate = "twb-chat-1";

enum class ChatRole { System, User, Assistant };
/// "system" | "user" | "assistant".
const char* to_string(ChatRole role);
/// The inverse of to_string; InputError naming the role otherwise.
ChatRole parse_chat_role(const std::string& name);

struct ChatMessage {
    ChatRole role = ChatRole::User;
    std::string content;
};
using Conversation = std::vector<ChatMessage>;

/// A role's header line: "<|system|>\n", "<|user|>\n", "<|assistant|>\n".
std::string chat_header(ChatRole role);

/// A conversation as token ids, with the spans a finetune trains on.
struct ChatTokens {
    std::vector<int32_t> ids;
    /// [start, end) into ids: each assistant turn's content and its EOT (the headers are context only).
    std::vector<std::pair<size_t, size_t>> trained;
};

/// Renders c with tok (header ids, content ids, EOT per message). generation_prompt appends the
/// assistant's header, the prompt a reply is generated from. InputError when tok has no <eos>.
ChatTokens render_chat(const TextTokenizer& tok, const Conversation& c, bool generation_prompt = false);
/// The same as text, EOT written as eot (for showing the template; ids come from render_chat).
std::string render_chat_text(const Conversation& c, const std::string& eot, bool generation_prompt = false);

/// Why the run in run_dir cannot chat, before anyone writes a message: an encoder-decoder run, or a
/// tokenizer without the <eos> that ends every turn (a char run). Empty when it can, or when the run
/// cannot be read (opening it says why).
std::string chat_unavailable(const std::filesystem::path& run_dir);
/// Why a run that can chat only continues the template: it was not finetuned on a chat dataset (its
/// dataset has no chat template). Empty when it was, or when its dataset cannot tell (moved, imported).
std::string chat_untrained(const std::filesystem::path& run_dir);

/// One JSON line of instruction data as conversations: {"instruction", "input"?, "output"} (Alpaca),
/// {"instruction", "instances": [{"input", "output"}, ...]} (self-instruct seed tasks: one conversation per
/// instance), or {"messages": [{"role", "content"}, ...]} (at least one assistant turn, none empty).
/// InputError saying what is missing or wrong (the caller adds the file and line).
std::vector<Conversation> parse_chat_record(const std::string& line);
/// Every conversation of a JSON-lines file (blank lines skipped). InputError "FILE:LINE: ..." on the first
/// bad record, or when the file holds none.
std::vector<Conversation> read_chat_file(const std::filesystem::path& file);

struct ChatPrepareOptions {
    std::vector<std::string> inputs;  // JSON-lines files of instruction data
    /// Encode with this prepared dataset's or run's tokenizer (finetuning: --init-from that run).
    std::filesystem::path tokenizer_from;
    TokenizerSpec tokenizer;    // otherwise trained on the rendered conversations (not char: no <eos>)
    std::string system;         // a system turn put before every conversation that has none; empty = none
    double val_fraction = 0.1;  // share of conversations held out (shuffled with seed)
    uint64_t seed = 1337;
    std::filesystem::path out;
    bool overwrite = false;
};

struct ChatPrepareResult {
    std::filesystem::path dir;
    uint64_t train_conversations = 0, val_conversations = 0;
    uint64_t train_tokens = 0, val_tokens = 0;
    uint64_t train_trained_tokens = 0;  // tokens of the train split the loss sees (replies and their EOT)
    uint64_t longest = 0;               // tokens of the longest conversation (<bos> and final <eos> excluded)
    int vocab_size = 0;
    std::vector<std::string> warnings;
    double seconds = 0;
};

/// Prepares instruction data as a documents dataset: each conversation one document (train.docs/val.docs),
/// the tokens the loss sees as [start, end) spans in train.loss/val.loss (DocumentIndex's format), and
/// meta.json's "chat" entry naming the template. Training it sets sequences=documents; every other target
/// is ignored as padding is. InputError naming file and line for a bad record; nothing left behind on
/// failure or cancel.
ChatPrepareResult prepare_chat(const ChatPrepareOptions& opts, const PrepareProgressFn& progress = {});

}  // namespace twb
