// A chat reply's way in (chat_prompt.h).
#include "core/decoding/chat_prompt.h"

#include "core/data/chat_data.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/run_folder.h"

#include <filesystem>

namespace twb {

namespace {

std::string no_eos_message(const Tokenizer& tok) {
    return "the " + to_string(tok.kind()) +
           " tokenizer of this run has no <eos>, which ends every turn of the chat template; chat with a run "
           "whose tokenizer has one (byte, word, bpe, unigram, bytebpe, GPT-2)";
}

}  // namespace

std::string chat_unavailable(const std::filesystem::path& run_dir) {
    try {
        const RunConfig c = read_run_config(run_dir);
        if (c.model_kind == ModelKind::EncoderDecoder)
            return "this is a translation run: it translates, it does not chat";
        const auto tok = load_tokenizer(run_tokenizer_dir(run_dir, c.data_dir));  // as a session opens it
        return tok->eos_id() < 0 ? no_eos_message(*tok) : std::string();
    } catch (const std::exception&) {  // opening the run says what is wrong with it
        return {};
    }
}

std::string chat_untrained(const std::filesystem::path& run_dir) {
    try {
        return chat_run_warning(read_run_config(run_dir));
    } catch (const std::exception&) {  // opening the run says what is wrong with it
        return {};
    }
}

std::vector<int32_t> chat_reply_prompt(const Tokenizer& tok, const Conversation& conversation) {
    if (conversation.empty())
        throw InputError("the conversation is empty; write a message first");
    if (conversation.back().role == ChatRole::Assistant)
        throw InputError("the conversation ends with the assistant's turn; write the next message first");
    const int eot = tok.eos_id();
    if (eot < 0)
        throw InputError(no_eos_message(tok));
    const EncodeFn encode = [&](std::string_view s) { return tok.encode(s); };
    return render_chat_ids(encode, eot, conversation, true).ids;
}

std::string chat_run_warning(const RunConfig& cfg) {
    // Whether the run was finetuned on a chat dataset, as far as its dataset can still tell: nothing to go
    // by (an imported model, a moved dataset) gives no warning.
    if (cfg.data_dir.empty() || !std::filesystem::exists(std::filesystem::path(cfg.data_dir) / "meta.json"))
        return {};
    try {
        if (!open_prepared(cfg.data_dir).chat_template.empty())
            return {};
    } catch (const Error&) {
        return {};
    }
    return "this run was not trained on a chat dataset (twb prepare --chat): its replies only continue the template";
}

}  // namespace twb
