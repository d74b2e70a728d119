// Prints an encoder-decoder run's logits for a source and a decoder input (one row of vocab_size numbers
// per decoder position, as JSON), and the ids its tokenizer gives a text: what bench/marian_reference.py
// compares with Hugging Face transformers' MarianMTModel.
// Usage: bench_seq2seq_logits RUN SRC_IDS TGT_IDS   (comma-separated ids, exactly as the encoder and the
//        decoder take them: the source with its </s>, the decoder input from its start token)
//        bench_seq2seq_logits RUN --encode TEXT | --encode-target TEXT
#include "core/tokenizers/tokenizer.h"
#include "nn/interchange/checkpoint.h"
#include "nn/models/seq2seq_model.h"
#include "twb/errors.h"

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace {
std::vector<int64_t> parse_ids(const std::string& s) {
    std::vector<int64_t> ids;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ','))
        ids.push_back(std::stoll(item));
    return ids;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_seq2seq_logits RUN SRC_IDS TGT_IDS | RUN --encode[-target] TEXT\n");
        return 2;
    }
    try {
        namespace fs = std::filesystem;
        const fs::path ck = twb::find_checkpoint(argv[1], "last");
        const std::string mode = argv[2];
        if (mode == "--encode" || mode == "--encode-target") {
            const auto tok = twb::load_tokenizer(ck.parent_path().parent_path() / "tokenizer");
            std::vector<int32_t> ids;
            if (mode == "--encode")
                tok->encode(argv[3], ids);
            else
                tok->encode_target(argv[3], ids);
            std::printf("[");
            for (size_t i = 0; i < ids.size(); ++i)
                std::printf("%s%d", i ? "," : "", ids[i]);
            std::printf("]\n");
            return 0;
        }
        auto loaded = twb::nn::read_checkpoint(ck);
        twb::nn::Seq2Seq model(loaded.state.config);
        twb::nn::load_weights(model->named_weights(), loaded.weights, ck.string());
        model->eval();
        torch::NoGradGuard ng;
        const auto src = torch::tensor(parse_ids(argv[2])).view({1, -1});
        const auto tgt = torch::tensor(parse_ids(argv[3])).view({1, -1});
        const auto logits = model->forward(src, torch::zeros(src.sizes(), torch::kBool), tgt)[0].contiguous();
        const auto* p = logits.data_ptr<float>();
        std::printf("[");
        for (int64_t t = 0; t < logits.size(0); ++t) {
            std::printf("%s[", t ? "," : "");
            for (int64_t v = 0; v < logits.size(1); ++v)
                std::printf("%s%.9g", v ? "," : "", p[t * logits.size(1) + v]);
            std::printf("]");
        }
        std::printf("]\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_seq2seq_logits: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
