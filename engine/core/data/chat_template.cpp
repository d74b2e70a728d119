// The chat template twb-chat-1 (twb/chat.h) and the three shapes of instruction data it reads. Does not
// write datasets (prepare_chat.cpp) or generate (ModelSession::chat).
#include "core/data/chat_data.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace twb {

const char* to_string(ChatRole role) {
    switch (role) {
        case ChatRole::System:
            return "system";
        case ChatRole::User:
            return "user";
        case ChatRole::Assistant:
            return "assistant";
    }
    return "user";
}

ChatRole parse_chat_role(const std::string& name) {
    for (ChatRole r : {ChatRole::System, ChatRole::User, ChatRole::Assistant})
        if (name == to_string(r))
            return r;
    throw InputError("role \"" + name + "\" is not one of system, user, assistant");
}

std::string chat_header(ChatRole role) {
    return std::string("<|") + to_string(role) + "|>\n";
}

ChatTokens render_chat_ids(const EncodeFn& encode, int32_t eot, const Conversation& c, bool generation_prompt) {
    ChatTokens out;
    auto append = [&](const std::string& text) {
        const auto ids = encode(text);
        out.ids.insert(out.ids.end(), ids.begin(), ids.end());
    };
    for (const auto& m : c) {
        append(chat_header(m.role));
        const size_t start = out.ids.size();
        append(m.content);
        out.ids.push_back(eot);
        if (m.role == ChatRole::Assistant)
            out.trained.emplace_back(start, out.ids.size());
    }
    if (generation_prompt)
        append(chat_header(ChatRole::Assistant));
    return out;
}

ChatTokens render_chat(const TextTokenizer& tok, const Conversation& c, bool generation_prompt) {
    if (tok.eos_id() < 0)
        throw InputError("the " + to_string(tok.kind()) +
                         " tokenizer has no <eos>, which the chat template ends each turn with; use a "
                         "tokenizer that has one (byte, word, bpe, unigram, bytebpe, an imported GPT-2)");
    return render_chat_ids([&](std::string_view s) { return tok.encode(s); }, tok.eos_id(), c, generation_prompt);
}

std::string render_chat_text(const Conversation& c, const std::string& eot, bool generation_prompt) {
    std::string out;
    for (const auto& m : c)
        out += chat_header(m.role) + m.content + eot;
    if (generation_prompt)
        out += chat_header(ChatRole::Assistant);
    return out;
}

namespace {

std::string text_field(const nlohmann::json& j, const char* key, const std::string& where, bool required) {
    if (!j.contains(key)) {
        if (required)
            throw InputError(where + "has no \"" + key + "\"");
        return {};
    }
    if (!j[key].is_string())
        throw InputError(where + "\"" + key + "\" is not a string");
    return j[key].get<std::string>();
}

Conversation instruction_turns(const std::string& instruction, const std::string& input, const std::string& output,
                               const std::string& where) {
    if (instruction.empty())
        throw InputError(where + "\"instruction\" is empty");
    if (output.empty())
        throw InputError(where + "\"output\" is empty: there is no reply to learn");
    return {{ChatRole::User, input.empty() ? instruction : instruction + "\n\n" + input},
            {ChatRole::Assistant, output}};
}

Conversation message_list(const nlohmann::json& list) {
    if (!list.is_array() || list.empty())
        throw InputError("\"messages\" is not a non-empty list");
    Conversation c;
    bool reply = false;
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string where = "messages[" + std::to_string(i) + "] ";
        if (!list[i].is_object())
            throw InputError(where + "is not an object with \"role\" and \"content\"");
        ChatMessage m;
        try {
            m.role = parse_chat_role(text_field(list[i], "role", where, true));
        } catch (const InputError& e) {
            throw InputError(where + e.what());
        }
        m.content = text_field(list[i], "content", where, true);
        if (m.role == ChatRole::Assistant && m.content.empty())
            throw InputError(where + "is an empty assistant turn");
        if (m.role == ChatRole::System && i != 0)
            throw InputError(where + "is a system turn after the first message");
        reply = reply || m.role == ChatRole::Assistant;
        c.push_back(std::move(m));
    }
    if (!reply)
        throw InputError("\"messages\" has no assistant turn: there is no reply to learn");
    return c;
}

}  // namespace

std::vector<Conversation> parse_chat_record(const std::string& line) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded())  // a truncated or broken line is said as such, not as "not a JSON object"
        throw InputError("not valid JSON (a broken or truncated line?)");
    if (!j.is_object())
        throw InputError("not a JSON object");
    if (j.contains("messages"))
        return {message_list(j["messages"])};
    if (!j.contains("instruction"))
        throw InputError(
            "has no \"instruction\" and no \"messages\" (expected Alpaca's instruction/input/output, a seed "
            "task's instruction/instances or a messages list)");
    const std::string instruction = text_field(j, "instruction", "", true);
    if (j.contains("instances")) {
        const auto& list = j["instances"];
        if (!list.is_array() || list.empty())
            throw InputError("\"instances\" is not a non-empty list of {input, output}");
        std::vector<Conversation> out;
        for (size_t i = 0; i < list.size(); ++i) {
            const std::string where = "instances[" + std::to_string(i) + "] ";
            if (!list[i].is_object())
                throw InputError(where + "is not an object with \"input\" and \"output\"");
            out.push_back(instruction_turns(instruction, text_field(list[i], "input", where, false),
                                            text_field(list[i], "output", where, true), where));
        }
        return out;
    }
    return {instruction_turns(instruction, text_field(j, "input", "", false), text_field(j, "output", "", true), "")};
}

std::vector<Conversation> read_chat_file(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw InputError(file.string() + ": cannot be read");
    std::vector<Conversation> out;
    std::string line;
    for (size_t n = 1; std::getline(in, line); ++n) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos)
            continue;
        if (find_invalid_utf8(line) != std::string::npos)
            throw InputError(file.string() + ":" + std::to_string(n) + ": is not valid UTF-8");
        try {
            for (auto& c : parse_chat_record(line))
                out.push_back(std::move(c));
        } catch (const InputError& e) {
            throw InputError(file.string() + ":" + std::to_string(n) + ": " + e.what());
        }
    }
    if (out.empty())
        throw InputError(file.string() + ": holds no instruction records (JSON lines)");
    return out;
}

}  // namespace twb
