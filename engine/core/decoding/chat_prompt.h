// A chat reply's way in, the same whichever session generates it (ModelSession::chat, CpuSession::chat):
// the conversation checked and rendered in the chat template up to the assistant's turn, and the warning
// for a run that was not finetuned on chat data.
#pragma once
#include "core/tokenizers/tokenizer.h"
#include "twb/chat.h"
#include "twb/config.h"

#include <string>
#include <vector>

namespace twb {

/// The ids the reply to the conversation continues; InputError for an empty conversation, one that ends
/// with the assistant's turn, or a tokenizer without the <eos> that ends every turn.
std::vector<int32_t> chat_reply_prompt(const Tokenizer& tok, const Conversation& conversation);

/// The warning a reply of this run carries when it was not trained on a chat dataset; empty otherwise.
std::string chat_run_warning(const RunConfig& cfg);

}  // namespace twb
