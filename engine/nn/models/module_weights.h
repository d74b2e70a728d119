// A module's parameters with their names, in a stable order, and their count: what both model families
// (model.h, seq2seq_model.h) checkpoint, optimise and report.
#pragma once
#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

namespace twb::nn {

inline std::vector<std::pair<std::string, torch::Tensor>> named_weights_of(const torch::nn::Module& m) {
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (auto& item : m.named_parameters())
        out.emplace_back(item.key(), item.value());
    return out;
}

inline int64_t parameter_count_of(const torch::nn::Module& m) {
    int64_t n = 0;
    for (auto& p : m.parameters())
        n += p.numel();
    return n;
}

}  // namespace twb::nn
