// Attention capture: the softmax weights of every layer and head over a text, and the most
// probable next tokens at each position, for the viewer, `twb attention` and the training probe.
#pragma once
#include "nn/models/model_loader.h"
#include "twb/attention.h"

#include <string>
#include <vector>

namespace twb::nn {

/// Runs one forward pass over text (cropped to the last block_size tokens) and returns the weights.
AttentionCapture capture_attention(LoadedModel& m, const std::string& text, int top = 5);
/// Same, from token ids, for a bare model (tests, the training probe).
AttentionCapture capture_attention_ids(GPT& model, const std::vector<int32_t>& ids, const torch::Device& device,
                                       int top = 5);

}  // namespace twb::nn
