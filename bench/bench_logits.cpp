// Prints a run's logits for given token ids as JSON (one row of vocab_size numbers per position), and
// the ids its tokenizer gives a text: what bench/hf_reference.py compares with Hugging Face transformers.
// Usage: bench_logits RUN ID...        bench_logits RUN --encode TEXT
#include "nn/models/model_loader.h"
#include "twb/errors.h"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_logits RUN ID... | bench_logits RUN --encode TEXT\n");
        return 2;
    }
    try {
        auto m = twb::nn::load_model(argv[1], "last");
        if (std::string(argv[2]) == "--encode") {
            const auto ids = m.tokenizer->encode(argc > 3 ? argv[3] : "");
            std::printf("[");
            for (size_t i = 0; i < ids.size(); ++i)
                std::printf("%s%d", i ? "," : "", ids[i]);
            std::printf("]\n");
            return 0;
        }
        std::vector<int64_t> ids;
        for (int i = 2; i < argc; ++i)
            ids.push_back(std::stoll(argv[i]));
        torch::NoGradGuard ng;
        const auto logits = m.model->forward(torch::tensor(ids).view({1, -1}))[0].contiguous();
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
        std::fprintf(stderr, "bench_logits: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
