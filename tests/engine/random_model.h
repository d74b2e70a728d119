// Engine tests: a GPT whose every weight is redrawn large, N(0, 0.5^2) with norm gains near 1, so its
// next-token distributions are sharp and depend on the whole prefix. Put in eval mode.
#pragma once
#include "nn/models/model.h"

#include <cstdint>
#include <string>

namespace twbtest {

inline twb::nn::GPT random_model(const twb::RunConfig& c, uint64_t seed) {
    torch::manual_seed(seed);
    twb::nn::GPT m(c);
    torch::NoGradGuard ng;
    for (auto& item : m->named_parameters()) {
        if (item.key().find("ln_") != std::string::npos && item.key().find("weight") != std::string::npos)
            item.value().normal_(1.0, 0.2);
        else
            item.value().normal_(0.0, 0.5);
    }
    m->eval();
    return m;
}

}  // namespace twbtest
