// A run's checkpoint loaded with its tokenizer, ready to generate from or evaluate, and encoding a
// prompt for it. ModelSession (session.cpp) holds one of these.
#pragma once
#include "core/tokenizers/tokenizer.h"
#include "nn/models/model.h"
#include "twb/config.h"

#include <memory>
#include <string>
#include <vector>

namespace twb::nn {

/// A run's model and tokenizer, ready to sample from.
struct LoadedModel {
    GPT model{nullptr};
    std::unique_ptr<Tokenizer> tokenizer;
    RunConfig config;
    torch::Device device{torch::kCPU};
    std::string checkpoint;
    int64_t step = 0;
};

/// Loads a run's checkpoint ("best", "last" or a step) and the tokenizer of its dataset.
LoadedModel load_model(const std::string& run_or_checkpoint, const std::string& which = "best");

/// Encodes a prompt for the model: clear InputError for characters the vocabulary lacks; an empty
/// prompt becomes <bos>, or a newline, or token 0.
std::vector<int32_t> encode_prompt(const LoadedModel& m, const std::string& prompt);

}  // namespace twb::nn
