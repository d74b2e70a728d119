// Attention captures and what the viewer computes from them: every layer's and head's weights over a
// text, scores that tell heads apart, the mean over heads and attention rollout; and the one JSON
// format attention is exported in (`twb attention --out` and the Attention panel's export). Public
// API; no torch.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace twb {

/// What attends to what. A decoder LM has one kind; an encoder-decoder three (translation_attention.h).
enum class AttentionKind {
    Decoder,      // a decoder LM's causal self-attention: tokens x tokens, zero above the diagonal
    EncoderSelf,  // an encoder's self-attention: source x source, every key seen
    DecoderSelf,  // an encoder-decoder's decoder self-attention: causal, as Decoder
    Cross,        // cross-attention: target tokens (queries, down) x source tokens (keys, across)
};
/// "decoder", "encoder_self", "decoder_self", "cross" (the export's "kind").
const char* to_string(AttentionKind k);
/// The kind with that spelling; FormatError naming the spellings otherwise.
AttentionKind parse_attention_kind(const std::string& s);

/// Attention of every layer and head over a text, plus the next-token distribution at each position.
struct AttentionCapture {
    AttentionKind kind = AttentionKind::Decoder;
    std::vector<std::string> tokens;      // token strings of the (cropped) input: the queries (rows)
    std::vector<std::string> key_tokens;  // Cross only: the keys' (source) tokens; empty = tokens
    int64_t layers = 0, heads = 0, length = 0;
    int64_t key_length = 0;      // Cross only: number of keys; 0 = length (square maps)
    std::vector<float> weights;  // [layer][head][query][key], row-major; causal kinds: zero above the diagonal
    std::vector<std::vector<std::pair<int, float>>> next_top;  // per position: top tokens and probabilities
    std::vector<std::string> warnings;
    /// Keys per row: key_length for cross-attention, else length.
    int64_t keys() const { return key_length > 0 ? key_length : length; }
    /// The keys' token strings (key_tokens, or tokens for self-attention).
    const std::vector<std::string>& column_tokens() const { return key_tokens.empty() ? tokens : key_tokens; }
    /// True for the masked (causal) kinds: a query sees itself and the keys before it only.
    bool causal() const { return kind == AttentionKind::Decoder || kind == AttentionKind::DecoderSelf; }
    float at(int64_t l, int64_t h, int64_t q, int64_t k) const {
        return weights[static_cast<size_t>(((l * heads + h) * length + q) * keys() + k)];
    }
};

/// Scores that tell heads apart, per layer and head (computed from a capture).
struct HeadScores {
    std::vector<float> entropy;   // mean over queries of the row entropy, in nats, normalised by log(keys seen)
    std::vector<float> previous;  // mean weight on the previous token (query t -> key t-1)
    std::vector<float> first;     // mean weight on the first token
    std::vector<float> diagonal;  // mean weight on the token itself
};
/// Scores for every head of a capture, indexed [layer * heads + head]. Causal kinds: queries 1.. only
/// (query 0 sees one key), entropy normalised by the keys each query sees. Encoder self-attention and
/// cross-attention: every query, entropy normalised by log(keys); "previous" is key q-1 and "self" key q
/// (for cross-attention: the source position at the same index, a monotone alignment), 0 where absent.
HeadScores head_scores(const AttentionCapture& cap);
/// Mean over heads of one layer: (T, keys) row-major.
std::vector<float> mean_over_heads(const AttentionCapture& cap, int64_t layer);
/// Attention rollout (Abnar & Zuidema 2020) up to and including a layer: product over layers of
/// (0.5 * mean-over-heads + 0.5 * I), rows renormalised. (T, T) row-major. Self-attention only:
/// cross-attention's rows and columns are different sequences, so it returns an empty vector there.
std::vector<float> attention_rollout(const AttentionCapture& cap, int64_t upto_layer);

/// What an export records besides the weights.
struct AttentionExportInfo {
    std::string checkpoint;  // folder of the checkpoint the capture came from
    int64_t step = -1;
    std::function<std::string(int)> token_text;  // names next_top ids; empty = ids only
};
/// The export format: {"format": "twb-attention", "version": 2, "kind", "checkpoint", "step", "tokens",
/// "layers", "heads", "length", "weights"[layer][head][query][key] (full rows, 0 above the
/// diagonal for the causal kinds), "next_token_top"[position][{"id", "token", "prob"}]}; cross-attention
/// adds "key_tokens" and "key_length" (rows have key_length weights). Version 1 (no "kind") reads as
/// a decoder LM's. An encoder-decoder's three captures go in one file (translation_attention.h).
std::string attention_to_json(const AttentionCapture& cap, const AttentionExportInfo& info);
/// Writes attention_to_json atomically. Throws IoError naming the file.
void write_attention_json(const std::filesystem::path& file, const AttentionCapture& cap,
                          const AttentionExportInfo& info);
/// Reads an export back (weights and tokens). Throws FormatError naming what is wrong.
AttentionCapture read_attention_json(const std::filesystem::path& file);

}  // namespace twb
