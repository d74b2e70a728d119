// A Hugging Face Marian config.json (model_type "marian", the opus-mt models) as an encoder-decoder
// RunConfig, torch-free. Marian is the family's post-norm transformer with sinusoidal positions laid out
// in halves (sinusoid_halves), embeddings scaled by sqrt(d_model) when scale_embedding is set, a bias on
// the logits (logits_bias), biases everywhere and one vocabulary shared by the encoder, the decoder and
// the output layer. What the family cannot hold is refused by key: separate vocabularies
// (share_encoder_decoder_embeddings false, a decoder_vocab_size of its own), unequal encoder and decoder
// heads or feed-forward widths, an activation other than swish/silu, gelu, gelu_new or relu. Keys
// transformers' Marian does not read (normalize_before, static_position_embeddings, ...) are ignored as
// it ignores them.
#pragma once
#include "core/tokenizers/marian_vocab.h"
#include "twb/config.h"

#include <filesystem>
#include <string>

namespace twb {

/// The model_type of a Hugging Face config.json ("gpt2" when the key is absent, as GPT-2 folders of old);
/// FormatError when the file is not a JSON object.
std::string hf_model_type(const std::filesystem::path& config_json);

struct MarianConfig {
    RunConfig config;
    MarianSpecials ids;
};

/// FormatError naming the file and the key for anything the encoder-decoder family cannot build.
MarianConfig read_marian_config(const std::filesystem::path& file);

}  // namespace twb
