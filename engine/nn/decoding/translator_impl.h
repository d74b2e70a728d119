// Translator's state (translation.h), shared by its two source files: translator.cpp (open, translate,
// evaluate), translator_attention.cpp (the attention viewer's capture, view_pair) and
// translator_inspection.cpp (the decoder's logit lens) and translator_ablation.cpp (head ablation).
#pragma once
#include "core/tokenizers/tokenizer.h"
#include "nn/models/seq2seq_model.h"
#include "nn/training/pair_batcher.h"
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
    std::string stamp;  // checkpoint_stamp() of the checkpoint when open() loaded it whole ("" before)
    int64_t step = 0;
    std::vector<size_t> cropped;  // the last translate()'s lines (from 1) longer than the encoder takes
    std::vector<size_t> limited;  // the last translate()'s lines (from 1) whose translation hit the length limit

    /// A source sentence and a target as the viewers run them (attention, the decoder's logit lens): the
    /// source encoded, the target encoded, or the model's greedy translation (cut to block_size - 1) when
    /// empty. InputError for invalid UTF-8, characters the vocabulary lacks, an empty or too long source.
    struct ViewPair {
        std::vector<int32_t> source, target;
        bool target_from_model = false;
    };
    ViewPair view_pair(const std::string& source, const std::string& target, const std::string& what_for);
    /// The source as view_pair encodes it.
    std::vector<int32_t> view_source(const std::string& source, const std::string& what_for) const;
    /// Gradient x input of the target ids over the source ids (translator_inspection.cpp).
    TranslationAttribution attribute_ids(const std::vector<int32_t>& source, const std::vector<int32_t>& target);

    /// The pairs of a split of data_dir (the run's own when empty) in evaluation batches. InputError for
    /// another vocabulary or a split with no pair that fits.
    nn::PairBatcher batcher(const std::string& data_dir, const std::string& split) const;
    struct TeacherForced {
        double loss_sum = 0;  // nats over `tokens` target tokens
        int64_t correct = 0, tokens = 0;
    };
    /// The batches' summed loss and correct tokens, teacher-forced, whole batches in order until
    /// max_tokens target tokens (0 = all).
    TeacherForced teacher_forced(const nn::PairBatcher& batches, int64_t max_tokens);
    std::vector<HeadRef> ablated;  // switched off in every pass (set_ablated_heads)
};

}  // namespace twb
