// A Hugging Face GPT-2 config.json as a RunConfig: the architecture keys (n_layer, n_head, n_embd,
// n_positions, vocab_size, n_inner, layer_norm_epsilon, activation_function) checked and mapped, the
// flags GPT-2 small does not have refused. Torch-free (fuzzed with the tokenizer files of import --hf).
#pragma once
#include "twb/config.h"

#include <filesystem>

namespace twb {

/// FormatError naming the file and the key for anything that is not a GPT-2 config this program can build.
RunConfig read_hf_config(const std::filesystem::path& file);

/// config.json's bos_token_id and eos_token_id, -1 where absent or not an integer: the ids generation
/// starts from and stops at, which vocab.json itself does not mark (a workbench export's <bos>/<eos>).
struct HfSpecialIds {
    int bos = -1, eos = -1;
};
HfSpecialIds read_hf_special_ids(const std::filesystem::path& file);

}  // namespace twb
