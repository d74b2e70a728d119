// The views inside a decoder LM over a bare model (issue 39): the logit lens, token attribution and the
// gates that switch heads off. ModelSession (analysis/session_inspection.cpp) serves them for a run;
// the tests call them on constructed models.
#pragma once
#include "nn/models/model.h"
#include "nn/models/seq2seq_model.h"
#include "twb/inspection.h"

#include <functional>
#include <string>
#include <vector>

namespace twb::nn {

using TokenText = std::function<std::string(int)>;

/// The logit lens over ids (cropped to the last block_size): the model's final norm and LM head over the
/// residual stream after the embedding and after each block, in float32, without gradients.
LogitLens logit_lens_ids(GPT& model, const std::vector<int32_t>& ids, const torch::Device& device, int top,
                         const TokenText& text);

/// The logit lens over an encoder-decoder's decoder: the decoder inputs are <bos> + target, the source is
/// encoded with its <eos>; stage 0 is the decoder's embedding, then each decoder block.
LogitLens seq2seq_logit_lens(Seq2Seq& model, const std::vector<int32_t>& source, const std::vector<int32_t>& target,
                             int64_t bos, int64_t eos, const torch::Device& device, int top, const TokenText& text);

/// Gradient x input of an encoder-decoder for every target token (target, then <eos>) over the source's
/// tokens (with their <eos>) and the decoder inputs before it (<bos> + target), one backward pass each;
/// the model in eval mode. source_text names source ids, target_text target ids.
TranslationAttribution seq2seq_attribution(Seq2Seq& model, const std::vector<int32_t>& source,
                                           const std::vector<int32_t>& target, int64_t bos, int64_t eos,
                                           const torch::Device& device, const TokenText& source_text,
                                           const TokenText& target_text);

/// Attribution of target (the token after context, cropped to its last block_size tokens) to each context
/// token: gradient x input over the token embedding rows, and the attention rollout of the last position.
TokenAttribution attribute_ids(GPT& model, const std::vector<int32_t>& context, int target, const torch::Device& device,
                               const TokenText& text);

/// The target's logit after context, with the token embedding rows given (attribution's finite-difference
/// check).
double target_logit(GPT& model, const std::vector<int32_t>& context, int target, const torch::Tensor& embeddings,
                    const torch::Device& device);

/// One (n_head) gate per layer for GPTImpl::set_head_gates: 0 for the heads in `off`, 1 for the others;
/// an undefined tensor for a layer with no head off. Empty when `off` is empty.
std::vector<torch::Tensor> head_gates(const RunConfig& c, const std::vector<HeadRef>& off, const torch::Device& device);
/// The same for an encoder-decoder (Seq2SeqImpl::set_head_gates): its encoder's, decoder's and
/// cross-attention's heads; InputError for a head the model lacks.
Seq2SeqHeadGates seq2seq_head_gates(const RunConfig& c, const std::vector<HeadRef>& off, const torch::Device& device);

}  // namespace twb::nn
