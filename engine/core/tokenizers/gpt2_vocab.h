// GPT-2's tokenizer files, torch-free: vocab.json (token text -> id, each byte shown as a printable
// character by GPT-2's byte-to-unicode table), merges.txt ("a b" per line, rank = line order, an
// optional "#version" first line) and Hugging Face's tokenizer.json (model.vocab, model.merges,
// added_tokens). Read into the parts of a byte-level BPE model with GPT-2's exact ids, and written back
// from any byte-level BPE tokenizer. Every error names the file and the line or token.
#pragma once
#include "core/tokenizers/tokenizer.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace twb {

/// GPT-2's byte-to-unicode table applied to bytes: printable Latin-1 bytes stand for themselves, the
/// others for U+0100 upwards in byte order. The result is UTF-8.
std::string gpt2_unicode_from_bytes(std::string_view bytes);
/// The inverse: false when a character of u is not in the table.
bool gpt2_bytes_from_unicode(std::string_view u, std::string& bytes);

/// A GPT-2-style vocabulary as the byte-level BPE model takes it.
struct Gpt2Vocab {
    std::vector<std::string> tokens;                  // id -> bytes (a special token: its name)
    std::vector<int32_t> specials;                    // ids of special tokens (<|endoftext|>, added special tokens)
    std::vector<std::pair<int32_t, int32_t>> merges;  // rank order
    std::vector<int32_t> merged;                      // id each merge gives
    int32_t bos = -1, eos = -1;                       // <|endoftext|> for GPT-2
};

/// Reads vocab.json + merges.txt. FormatError naming the file and the token or line otherwise: ids
/// not 0..N-1 once each, a character outside GPT-2's byte table, a merge naming an unknown token or
/// giving a token the vocabulary lacks, a byte with no token.
Gpt2Vocab read_gpt2_vocab(const std::filesystem::path& vocab_json, const std::filesystem::path& merges_txt);

/// Reads Hugging Face's tokenizer.json of a byte-level BPE (model.type BPE, its vocab and merges).
Gpt2Vocab read_hf_tokenizer_json(const std::filesystem::path& file);

/// Marks the tokens with ids bos and eos (config.json's bos_token_id, eos_token_id) special and makes
/// them the vocabulary's <bos> and <eos> when it has none (GPT-2's <|endoftext|> already is both): a
/// workbench export's <bos>/<eos> come back as specials, not as text. Ids out of range, single bytes and
/// tokens that merges make are left as they are.
void mark_special_ids(Gpt2Vocab& v, int bos, int eos);

/// The byte-level BPE tokenizer of such a vocabulary (GPT-2's split pattern); saves itself with the
/// vocabulary spelled out, so its ids stay GPT-2's.
std::unique_ptr<Tokenizer> make_gpt2_tokenizer(Gpt2Vocab v);

/// Writes vocab.json and merges.txt for a byte-level BPE tokenizer (any: imported or trained here).
/// InputError when the tokenizer is not byte-level BPE.
void write_gpt2_vocab(const Tokenizer& tok, const std::filesystem::path& dir);

}  // namespace twb
