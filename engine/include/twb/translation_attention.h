// The attention of an encoder-decoder (translation) run over one sentence pair: encoder
// self-attention (source x source), decoder self-attention (target x target, causal) and
// cross-attention (target tokens down, source tokens across), every layer and head; and their export
// in the attention format (one file, "kind": "encoder_decoder"). Translator::attention (translation.h)
// captures them; `twb attention` and the Attention panel show them. Public API; no torch.
#pragma once
#include "twb/attention.h"

#include <filesystem>
#include <string>

namespace twb {

/// One sentence pair's three captures. Rows and columns:
/// - encoder (EncoderSelf): the source tokens and <eos>, both ways;
/// - decoder (DecoderSelf): the decoder inputs, <bos> and the target tokens, both ways;
/// - cross (Cross): one row per target token the decoder produces (the target tokens and <eos>: row i is
///   the step that predicts token i, fed <bos> and the tokens before it), one column per source token and <eos>.
struct TranslationAttention {
    AttentionCapture encoder, decoder, cross;
    std::string source, target;      // the texts; target as given, or the model's greedy translation
    bool target_from_model = false;  // no target was given: the model translated the source (greedy)
    std::vector<std::string> warnings;
};

/// The export: {"format": "twb-attention", "version": 2, "kind": "encoder_decoder", "checkpoint",
/// "step", "source", "target", "target_from_model", "encoder_self", "decoder_self", "cross"}, each of
/// the last three one capture as attention_to_json writes it (kind, tokens, layers, heads, length,
/// weights; cross adds key_tokens and key_length).
std::string translation_attention_to_json(const TranslationAttention& a, const AttentionExportInfo& info);
/// Writes it atomically. Throws IoError naming the file.
void write_translation_attention_json(const std::filesystem::path& file, const TranslationAttention& a,
                                      const AttentionExportInfo& info);
/// Reads it back. Throws FormatError naming what is wrong.
TranslationAttention read_translation_attention_json(const std::filesystem::path& file);

}  // namespace twb
