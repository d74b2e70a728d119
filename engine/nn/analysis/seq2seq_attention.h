// Attention capture for the encoder-decoder: one teacher-forced pass that keeps the softmax weights of
// every encoder self-attention, decoder self-attention and cross-attention layer and head. Serves
// Translator::attention (the viewer, `twb attention`) and the seq2seq trainer's cross-attention probe.
// Token strings are the caller's (it holds the tokenizer).
#pragma once
#include "nn/models/seq2seq_model.h"
#include "twb/translation_attention.h"

#include <vector>

namespace twb::nn {

/// source: the source ids (without <eos>); target: the target ids (without <bos>/<eos>). Encoder rows:
/// source + <eos>; decoder rows: <bos> + target; cross rows: target + <eos> (what each step predicts).
/// Runs in eval mode (no dropout) and restores the model's mode. InputError when a side exceeds block_size.
TranslationAttention capture_seq2seq_attention(Seq2Seq& model, const std::vector<int32_t>& source,
                                               const std::vector<int32_t>& target, int64_t bos, int64_t eos,
                                               const torch::Device& device);

}  // namespace twb::nn
