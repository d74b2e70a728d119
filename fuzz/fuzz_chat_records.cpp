// Instruction data for a chat finetune (twb prepare --chat): the input as a JSON-lines file of records
// (Alpaca, self-instruct seed tasks, message lists), every conversation rendered as the template's text,
// and a file that parses prepared with the byte tokenizer into the scratch folder (the template's ids,
// the loss spans, the document index, meta.json), so that the writer sees whatever the reader lets by.
#include "fuzz_util.h"
#include "twb/chat.h"
#include "twb/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto file = twbfuzz::write("chat.jsonl", twbfuzz::view(data, size));
    try {
        for (const auto& c : twb::read_chat_file(file))
            (void)twb::render_chat_text(c, "<EOT>", size % 2 == 0);
        twb::ChatPrepareOptions o;
        o.inputs = {file.string()};
        o.tokenizer.kind = twb::TokenizerKind::Byte;
        o.system = size % 3 == 0 ? "be brief" : "";
        o.out = twbfuzz::scratch() / "chat-data";
        o.overwrite = true;
        (void)twb::prepare_chat(o);
    } catch (const twb::Error&) {
    }
    return 0;
}
