// Reference baselines for a prepared dataset: uniform, unigram and bigram models, in the units the trainer
// reports (loss in nats per token, accuracy, perplexity, bits per character), so a baseline, a character
// model and a BPE model rank fairly. Public API (twb_core); no torch.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace twb {

/// One baseline evaluated on the validation split.
struct BaselineResult {
    std::string name;     // "uniform", "unigram", "bigram"
    double loss = 0;      // nats per token
    double accuracy = 0;  // share of positions whose most probable token is the target
    double perplexity = 0;
    double bits_per_char = 0;
};

/// Uniform, unigram and bigram (add-k smoothed) models fitted on the train split of a prepared dataset
/// and evaluated on its validation split, on the targets the model's loss sees: position i predicts token
/// i from token i-1 (the bigram) or from nothing (uniform, unigram), every position of the split but the
/// first; a chat dataset's reply tokens only (a conversation starts after <bos>); a parallel dataset's
/// target tokens and their <eos> (after <bos>), with no bits per character (NaN, as the encoder-decoder
/// reports none). Throws InputError when a split has nothing to score.
std::vector<BaselineResult> evaluate_baselines(const std::filesystem::path& data_dir, double add_k = 1.0);

}  // namespace twb
