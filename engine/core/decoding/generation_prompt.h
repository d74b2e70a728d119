// A prompt on its way into a GPT's generation, the same whichever decoder runs it: encoded (an empty
// prompt becomes <bos>, a newline or token 0), started at <bos> for a documents run, and the warnings a
// prompt earns (every word unknown, longer than the window).
#pragma once
#include "core/tokenizers/tokenizer.h"
#include "twb/config.h"
#include "twb/generation.h"

#include <string>
#include <vector>

namespace twb {

/// Encodes a prompt: InputError for text that is not UTF-8 or for characters the vocabulary lacks.
std::vector<int32_t> encode_prompt(const Tokenizer& tok, const std::string& prompt);

/// The ids generation starts from: a documents run learned every sequence from <bos>, so its samples start
/// there too.
std::vector<int32_t> generation_start(const RunConfig& c, const Tokenizer& tok, const std::vector<int32_t>& prompt);

/// Adds the warnings the prompt earns to a finished generation's result.
void add_prompt_warnings(SampleResult& res, const RunConfig& c, const Tokenizer& tok,
                         const std::vector<int32_t>& prompt);

}  // namespace twb
