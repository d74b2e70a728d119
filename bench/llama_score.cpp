// A small client of llama.cpp's library for bench/gguf_llamacpp.sh: loads a GGUF file with llama.cpp's own
// loader and runs its graph with a float32 KV cache (llama.cpp's default is f16) on token ids read from
// stdin, so that its figures can be set beside twb's.
//
//   llama_score MODEL.gguf score    ids on stdin; prints "tokens N" and "mean_nll X": the mean negative
//                                   log-likelihood of ids 1..N-1, each given the ones before (twb eval --text)
//   llama_score MODEL.gguf greedy K ids on stdin are the prompt; prints K greedy ids, one per line, each
//                                   with the gap between the best and the second-best logit
//
// Built against the llama.cpp of the script's source package (its llama_batch_ext API); not part of twb.
#include "llama.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace {

void quiet_log(ggml_log_level, const char*, void*) {}

struct Llama {
    llama_model* model = nullptr;
    llama_context* ctx = nullptr;
    llama_batch_ext* batch = nullptr;
    int n_vocab = 0;

    Llama(const char* path, int n_ctx) {
        llama_log_set(quiet_log, nullptr);
        llama_backend_init();
        model = llama_model_load_from_file(path, llama_model_default_params());
        if (!model)
            fail("llama.cpp cannot load the model file");
        n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
        llama_context_params p = llama_context_default_params();
        p.n_ctx = static_cast<uint32_t>(n_ctx);
        p.n_batch = p.n_ubatch = static_cast<uint32_t>(n_ctx);
        p.type_k = p.type_v = GGML_TYPE_F32;
        p.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
        p.n_threads = p.n_threads_batch = 2;
        ctx = llama_init_from_model(model, p);
        if (!ctx)
            fail("llama.cpp cannot create a context");
        batch = llama_batch_ext_init(ctx);
    }
    ~Llama() {
        llama_batch_ext_free(batch);
        llama_free(ctx);
        llama_model_free(model);
    }

    static void fail(const char* why) {
        std::fprintf(stderr, "llama_score: %s\n", why);
        std::exit(1);
    }

    // Runs ids at positions pos0.. and returns the logits of every one of them (all_outputs) or the last.
    std::vector<std::vector<float>> run(const std::vector<llama_token>& ids, llama_pos pos0, bool all_outputs) {
        llama_batch_ext_clear(batch);
        for (size_t i = 0; i < ids.size(); ++i) {
            const int32_t idx = llama_batch_ext_add_token(batch, 0, ids[i]);
            const llama_pos pos = pos0 + static_cast<llama_pos>(i);
            llama_batch_ext_set_pos(batch, idx, &pos);
            if (all_outputs || i + 1 == ids.size())
                llama_batch_ext_set_output_logits(batch, idx, true);
        }
        if (llama_process(ctx, LLAMA_PROCESS_TYPE_DECODE, batch) != 0)
            fail("llama.cpp failed to evaluate the batch");
        std::vector<std::vector<float>> out;
        for (size_t i = all_outputs ? 0 : ids.size() - 1; i < ids.size(); ++i) {
            const float* l = llama_get_logits_ith(ctx, static_cast<int32_t>(i));
            out.emplace_back(l, l + n_vocab);
        }
        return out;
    }
};

double log_softmax_at(const std::vector<float>& logits, int id) {
    const float top = *std::max_element(logits.begin(), logits.end());
    double sum = 0;
    for (float v : logits)
        sum += std::exp(static_cast<double>(v - top));
    return static_cast<double>(logits[static_cast<size_t>(id)] - top) - std::log(sum);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3 || (std::strcmp(argv[2], "greedy") == 0 && argc < 4)) {
        std::fprintf(stderr, "usage: llama_score MODEL.gguf score | greedy K  (token ids on stdin)\n");
        return 2;
    }
    std::vector<llama_token> ids;
    for (long v; std::cin >> v;)
        ids.push_back(static_cast<llama_token>(v));
    if (ids.empty())
        Llama::fail("no token ids on stdin");
    const bool greedy = std::strcmp(argv[2], "greedy") == 0;
    const int k = greedy ? std::atoi(argv[3]) : 0;
    Llama llama(argv[1], static_cast<int>(ids.size()) + k);
    if (!greedy) {
        const auto logits = llama.run(ids, 0, true);
        double nll = 0;
        for (size_t i = 1; i < ids.size(); ++i)
            nll -= log_softmax_at(logits[i - 1], ids[i]);
        std::printf("tokens %zu\nmean_nll %.7f\n", ids.size() - 1, nll / static_cast<double>(ids.size() - 1));
        return 0;
    }
    auto logits = llama.run(ids, 0, false).back();
    for (int step = 0; step < k; ++step) {
        std::vector<int> order(logits.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = static_cast<int>(i);
        std::partial_sort(order.begin(), order.begin() + 2, order.end(), [&](int a, int b) {
            return logits[static_cast<size_t>(a)] > logits[static_cast<size_t>(b)];
        });
        const int next = order[0];
        std::printf("%d %.6f\n", next, logits[static_cast<size_t>(order[0])] - logits[static_cast<size_t>(order[1])]);
        logits = llama.run({next}, static_cast<llama_pos>(ids.size()) + step, false).back();
    }
    return 0;
}
