// Evaluation of a model on a token file: mean loss and next-token accuracy, either over random
// batches (as nanoGPT's estimate_loss, during training) or over the whole file in consecutive blocks
// (twb eval). Puts the model in eval mode for the call and restores train mode after.
#pragma once
#include "core/data/token_file.h"
#include "nn/models/model.h"
#include "nn/training/batcher.h"

namespace twb::nn {

struct SplitEval {
    double loss = 0;      // mean cross-entropy, nats per token
    double accuracy = 0;  // share of positions whose argmax is the target
    int64_t tokens = 0;
};

/// iters random batches drawn with a generator seeded by seed (the training batches are untouched);
/// documents mode when docs is given (padding counts in neither loss nor accuracy).
SplitEval evaluate_random(GPT& model, const TokenFile& file, int batch_size, int iters, uint64_t seed,
                          const torch::Device& device, bool bf16, const DocumentSource* docs = nullptr);

/// Cross-entropy of logits (N, V) against targets (N) that skips kIgnoreIndex targets (padding): the
/// mean is over the real targets only. With no padding it is plain cross_entropy, bit for bit.
torch::Tensor masked_cross_entropy(const torch::Tensor& logits, const torch::Tensor& targets,
                                   torch::nn::functional::CrossEntropyFuncOptions::reduction_t reduction = torch::kMean,
                                   double label_smoothing = 0.0);

/// Consecutive non-overlapping blocks over the file (at most max_tokens tokens; 0 = all).
SplitEval evaluate_sequential(GPT& model, const TokenFile& file, int batch_size, int64_t max_tokens,
                              const torch::Device& device, bool bf16);

/// Documents mode, the whole split: every piece of every <bos> doc <eos> once, in order, batch_size pieces
/// per forward pass, padded as in training (padding counts in neither loss nor accuracy). The mean is
/// over real targets, so it is what training's random validation batches estimate. max_tokens > 0 scores
/// only the first max_tokens targets, in piece order (0 = all).
SplitEval evaluate_documents(GPT& model, const TokenFile& file, const DocumentSource& docs, int batch_size,
                             int64_t max_tokens, const torch::Device& device, bool bf16);

/// log P(ids[i] | ids[<i]) for every i >= from (from >= 1), under the model. Sequences longer than
/// block_size are scored in windows that overlap by half a block, so each token is predicted with at
/// least block_size/2 tokens of context (the first block's tokens with all they have).
std::vector<double> token_log_probs(GPT& model, const std::vector<int32_t>& ids, size_t from,
                                    const torch::Device& device, bool bf16);

/// (targets whose argmax is right, real targets) of logits (N, V): kIgnoreIndex targets count in neither.
std::pair<int64_t, int64_t> masked_correct(const torch::Tensor& logits, const torch::Tensor& targets);

/// Runs fn with bf16 autocast on the device when enabled (CPU or CUDA).
void with_autocast(const torch::Device& device, bool bf16, const std::function<void()>& fn);

}  // namespace twb::nn
