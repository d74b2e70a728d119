// Translator's state (translation.h), shared by its two source files: translator.cpp (open, translate,
// evaluate) and translator_attention.cpp (the attention viewer's capture).
#pragma once
#include "core/tokenizers/tokenizer.h"
#include "nn/models/seq2seq_model.h"
#include "twb/config.h"
#include "twb/translation.h"

#include <torch/torch.h>

#include <memory>
#include <string>

namespace twb {

struct Translator::Impl {
    nn::Seq2Seq model{nullptr};
    std::unique_ptr<Tokenizer> tok;      // the target side's (and the source's, when shared)
    std::unique_ptr<Tokenizer> src_tok;  // separate vocabularies: the source side's
    const Tokenizer& source_tok() const { return src_tok ? *src_tok : *tok; }
    RunConfig cfg;
    torch::Device device{torch::kCPU};
    std::string checkpoint;
    int64_t step = 0;
};

}  // namespace twb
