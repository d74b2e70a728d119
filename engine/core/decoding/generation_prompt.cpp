// A prompt on its way into generation (generation_prompt.h).
#include "core/decoding/generation_prompt.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <algorithm>

namespace twb {

std::vector<int32_t> encode_prompt(const Tokenizer& tok, const std::string& prompt) {
    if (find_invalid_utf8(prompt) != std::string::npos)
        throw InputError("the prompt is not valid UTF-8 text");
    if (prompt.empty()) {
        if (tok.bos_id() >= 0)
            return {tok.bos_id()};
        const auto nl = tok.unknown_chars("\n").empty() ? tok.encode("\n") : std::vector<int32_t>{};
        return nl.empty() ? std::vector<int32_t>{0} : nl;
    }
    return tok.encode(prompt);  // the char tokenizer's InputError names the missing characters
}

std::vector<int32_t> generation_start(const RunConfig& c, const Tokenizer& tok, const std::vector<int32_t>& prompt) {
    std::vector<int32_t> ids = prompt;
    const int bos = tok.bos_id();
    if (c.sequences == Sequences::Documents && bos >= 0 && !ids.empty() && ids.front() != bos)
        ids.insert(ids.begin(), bos);
    return ids;
}

void add_prompt_warnings(SampleResult& res, const RunConfig& c, const Tokenizer& tok,
                         const std::vector<int32_t>& prompt) {
    // A prompt of only unknown words reaches the model as <unk>s: it continues from nothing it knows.
    const int unk = tok.unk_id(), bos = tok.bos_id();
    if (unk >= 0 && std::find(prompt.begin(), prompt.end(), unk) != prompt.end() &&
        std::all_of(prompt.begin(), prompt.end(), [&](int32_t t) { return t == unk || t == bos; }))
        res.warnings.push_back(
            "every word of the prompt is unknown to the vocabulary (<unk>), so the model "
            "continues from nothing it knows; use words of its training text");
    if (static_cast<int64_t>(prompt.size()) > c.block_size)
        // "context": a branch in the GUI continues the prompt and the output so far, not a prompt typed
        res.warnings.push_back("the context has " + std::to_string(prompt.size()) + " tokens, more than block_size " +
                               std::to_string(c.block_size) + "; the model sees only the most recent " +
                               std::to_string(c.block_size));
}

}  // namespace twb
