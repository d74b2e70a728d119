// Marian's tokenizer files (the opus-mt layout transformers' MarianTokenizer reads), torch-free:
// source.spm and target.spm, two sentencepiece models, and vocab.json, one vocabulary shared by both
// sides that maps each piece to the model's id. Source text is cut into pieces by source.spm, target
// text (a finetuning pair's reference) by target.spm; each piece becomes its vocab.json id, <unk> when
// vocab.json lacks it. A leading language code (">>nob<<") is one token, as MarianTokenizer keeps it.
// Decoding maps ids back to pieces and joins them with target.spm; </s> and <pad> are not text.
// Not done: Moses punctuation normalisation (MarianTokenizer's optional sacremoses step).
#pragma once
#include "core/tokenizers/tokenizer.h"

#include <filesystem>
#include <memory>

namespace twb {

/// The special ids of a Marian model (its config.json): </s>, <pad> and the decoder's first input.
struct MarianSpecials {
    int vocab_size = 0;      // config.json's vocab_size: ids 0..vocab_size-1
    int eos = 0;             // eos_token_id
    int pad = -1;            // pad_token_id
    int decoder_start = -1;  // decoder_start_token_id (the pad id in opus-mt)
};

/// The tokenizer of a Marian folder's source.spm, target.spm and vocab.json. FormatError naming the
/// file for a vocab.json that is not {piece: id} with ids inside the vocabulary once each, or that has
/// no <unk>; FormatError for a file that is not a sentencepiece model.
std::unique_ptr<Tokenizer> make_marian_tokenizer(const std::filesystem::path& source_spm,
                                                 const std::filesystem::path& target_spm,
                                                 const std::filesystem::path& vocab_json, const MarianSpecials& ids);

/// Loads one saved by the tokenizer itself (tokenizer.json's "marian" entry names the files).
std::unique_ptr<Tokenizer> load_marian_tokenizer(const std::filesystem::path& dir, const nlohmann::json& j);

/// Writes the tokenizer's three files (source.spm, target.spm, vocab.json) into dir; InputError when
/// tok is not a Marian tokenizer.
void write_marian_vocab(const Tokenizer& tok, const std::filesystem::path& dir);

}  // namespace twb
