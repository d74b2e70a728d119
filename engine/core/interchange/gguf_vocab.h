// What a GGUF file of llama.cpp's `gpt2` architecture needs besides the weights, without torch: whether
// a config's architecture is GPT-2's, and the tokenizer as llama.cpp's BPE reads it (tokens in GPT-2's
// byte-to-unicode spelling, their types, the merges as "left right" strings, the special ids). Only
// the bytebpe tokenizer maps faithfully; the others are refused by name.
#pragma once
#include "core/tokenizers/tokenizer.h"
#include "twb/config.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace twb {

/// llama.cpp's token types (llama_token_type / gguf-py's TokenType).
enum GgufTokenType : int32_t { kGgufTokenNormal = 1, kGgufTokenControl = 3 };

struct GgufVocab {
    std::string pre;                  // tokenizer.ggml.pre: the split pattern by llama.cpp's name
    std::vector<std::string> tokens;  // id -> text in the byte-to-unicode spelling (specials by name)
    std::vector<int32_t> types;       // id -> GgufTokenType
    std::vector<std::string> merges;  // rank -> "left right"
    int bos = -1, eos = -1, pad = -1;
};

/// The tokenizer as llama.cpp's gpt2 BPE reads it. Throws InputError naming the tokenizer kind for
/// anything but bytebpe.
GgufVocab gguf_vocab(const Tokenizer& tokenizer);

/// The tokenizer of a checkpoint: its run's RUN/tokenizer, or the dataset's (config.data_dir) for a run
/// from before runs kept their own, as the model loader finds it.
std::filesystem::path checkpoint_tokenizer_dir(const std::filesystem::path& checkpoint, const RunConfig& config);

/// "" or why the tokenizer cannot go into a gpt2 GGUF file.
std::string gguf_tokenizer_blocker(const Tokenizer& tokenizer);

}  // namespace twb
