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

/// Attention of every layer and head over a text, plus the next-token distribution at each position.
struct AttentionCapture {
    std::vector<std::string> tokens;  // token strings of the (cropped) input
    int64_t layers = 0, heads = 0, length = 0;
    std::vector<float> weights;  // [layer][head][query][key], row-major; zero above the diagonal
    std::vector<std::vector<std::pair<int, float>>> next_top;  // per position: top tokens and probabilities
    std::vector<std::string> warnings;
    float at(int64_t l, int64_t h, int64_t q, int64_t k) const {
        return weights[static_cast<size_t>(((l * heads + h) * length + q) * length + k)];
    }
};

/// Scores that tell heads apart, per layer and head (computed from a capture).
struct HeadScores {
    std::vector<float> entropy;   // mean over queries of the row entropy, in nats, normalised by log(keys seen)
    std::vector<float> previous;  // mean weight on the previous token (query t -> key t-1)
    std::vector<float> first;     // mean weight on the first token
    std::vector<float> diagonal;  // mean weight on the token itself
};
/// Scores for every head of a capture, indexed [layer * heads + head]. Queries 1.. only (query 0 sees one key).
HeadScores head_scores(const AttentionCapture& cap);
/// Mean over heads of one layer: (T, T) row-major.
std::vector<float> mean_over_heads(const AttentionCapture& cap, int64_t layer);
/// Attention rollout (Abnar & Zuidema 2020) up to and including a layer: product over layers of
/// (0.5 * mean-over-heads + 0.5 * I), rows renormalised. (T, T) row-major.
std::vector<float> attention_rollout(const AttentionCapture& cap, int64_t upto_layer);

/// What an export records besides the weights.
struct AttentionExportInfo {
    std::string checkpoint;  // folder of the checkpoint the capture came from
    int64_t step = -1;
    std::function<std::string(int)> token_text;  // names next_top ids; empty = ids only
};
/// The export format: {"format": "twb-attention", "version": 1, "checkpoint", "step", "tokens",
/// "layers", "heads", "length", "weights"[layer][head][query][key] (full rows, 0 above the
/// diagonal), "next_token_top"[position][{"id", "token", "prob"}]}.
std::string attention_to_json(const AttentionCapture& cap, const AttentionExportInfo& info);
/// Writes attention_to_json atomically. Throws IoError naming the file.
void write_attention_json(const std::filesystem::path& file, const AttentionCapture& cap,
                          const AttentionExportInfo& info);
/// Reads an export back (weights and tokens). Throws FormatError naming what is wrong.
AttentionCapture read_attention_json(const std::filesystem::path& file);

}  // namespace twb
