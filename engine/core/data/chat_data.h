// The engine's side of chat data (twb/chat.h): rendering a conversation with any encoder (the
// session's internal tokenizer, a TextTokenizer) and reading a chat dataset's loss spans
// (train.loss/val.loss: the tokens the loss sees, in DocumentIndex's format). Owner of the .loss files:
// prepare_chat.cpp writes them, read_loss_spans reads them. Does not build batches (nn/training/batcher).
#pragma once
#include "core/data/document_index.h"
#include "twb/chat.h"

#include <functional>
#include <optional>
#include <string_view>

namespace twb {

using EncodeFn = std::function<std::vector<int32_t>(std::string_view)>;

/// render_chat with an encoder and the end-of-turn id (>= 0).
ChatTokens render_chat_ids(const EncodeFn& encode, int32_t eot, const Conversation& c, bool generation_prompt);

/// A chat dataset's loss spans of split ("train" or "val") checked against its token file; nullopt for a
/// dataset that is not a chat dataset. FormatError naming the file.
std::optional<DocumentIndex> read_loss_spans(const PreparedDataset& data, const std::string& split, uint64_t tokens);

}  // namespace twb
