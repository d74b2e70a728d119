// Generation speed on a 6-layer, 6-head, 384-wide, block-256 model with random weights:
// KV cache against recomputing the context (1000 greedy tokens), beam search cost against width, and
// batched sampling throughput. Usage: bench_sample [threads] [tokens] [cache-only|decoders|sampler]
// `decoders`: the float32 libtorch path against the bf16 fast decoder (nn/decoding/fast_decode.h), alternated over
// 5 rounds in this process, with the weight bytes each streams per token and the bandwidth that implies.
// `sampler`: the decoding loop alone, its cost a token without a model.
#include "nn/decoding/fast_decode.h"
#include "nn/decoding/gpt_source.h"
#include "nn/device.h"

#include <torch/csrc/autograd/profiler_legacy.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace twb;
using namespace twb::nn;

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int tokens = argc > 2 ? std::atoi(argv[2]) : 1000;
    const bool cacheOnly = argc > 3 && std::string(argv[3]) == "cache-only";  // for profiling
    const bool decoders = argc > 3 && std::string(argv[3]) == "decoders";
    apply_threads(threads);
    torch::manual_seed(0);
    RunConfig c = preset_config("baby-gpt");
    c.vocab_size = 65;
    c.dropout = 0;
    GPT model(c);
    model->eval();
    if (std::getenv("TWB_BENCH_BF16"))
        model->to(torch::kBFloat16);
    std::printf("model 6x6x384, block 256, vocab 65, %.2fM parameters, %d threads\n", model->num_parameters() / 1e6,
                threads);
    auto decode = [](const std::vector<int32_t>& v) { return std::string(v.size(), 'x'); };
    SamplingOptions o;
    o.temperature = 0;
    o.max_new_tokens = tokens;
    o.stop_at_eos = false;
    if (argc > 3 && std::string(argv[3]) == "sampler") {
        // The decoding loop's own cost a token (the sampler's checks and choice, the text, the event),
        // apart from any model: a source that hands back the same logits every time. On a GPU this is
        // host time each token adds to the device's step, unless the step is launched ahead.
        struct Fixed : LogitsSource {
            torch::Tensor row = torch::randn({1, 65});
            torch::Tensor next_logits(const std::vector<std::vector<int32_t>>&) override { return row.clone(); }
        } src;
        int64_t events = 0;
        const TokenCallback count = [&](const TokenEvent&) { ++events; };
        for (double t : {0.0, 0.8}) {
            auto so = o;
            so.temperature = t;
            so.top_k = t > 0 ? 40 : 0;
            generate_ids(src, {1}, so, -1, decode, count);  // warm-up
            const auto r = generate_ids(src, {1}, so, -1, decode, count);
            std::printf("sampler alone, %s: %.2f us a token (%d tokens)\n",
                        t > 0 ? "temperature 0.8, top-k 40" : "greedy",
                        1e6 * r.seconds / static_cast<double>(r.generated), static_cast<int>(r.generated));
        }
        return events > 0 ? 0 : 1;
    }
    if (decoders) {
        const auto fw = make_fast_weights(model, cpu_has_avx2_fma());
        int64_t fp32Bytes = 0;
        for (auto& p : model->parameters())
            if (p.dim() == 2 && p.size(0) != c.block_size)  // the matrices (not the position table)
                fp32Bytes += p.numel() * 4;
        std::printf("weights streamed per token: float32 %.1f MB, bf16 %.1f MB; kernels: %s\n", fp32Bytes / 1e6,
                    fw->streamed_bytes() / 1e6, fw->avx2 ? "AVX2+FMA" : "portable");
        std::vector<double> f32, bf;
        for (int round = 0; round < 5; ++round)
            for (bool fast : {false, true}) {
                GptSource src(model, torch::kCPU, true, fast ? fw : nullptr);
                const auto r = generate_ids(src, {1}, o, -1, decode);
                (fast ? bf : f32).push_back(r.tokens_per_s);
                std::printf("round %d %-8s %7.1f tokens/s\n", round + 1, fast ? "bf16" : "float32", r.tokens_per_s);
            }
        std::sort(f32.begin(), f32.end());
        std::sort(bf.begin(), bf.end());
        std::printf(
            "median: float32 %.1f, bf16 %.1f tokens/s (%.2fx); bf16 weights at %.1f GB/s, float32 at %.1f GB/s\n",
            f32[2], bf[2], bf[2] / f32[2], fw->streamed_bytes() * bf[2] / 1e9, fp32Bytes * f32[2] / 1e9);
        return 0;
    }
    double withCache = 0, without = 0;
    for (bool cache : {true, false}) {
        if (!cache && cacheOnly)
            break;
        GptSource src(model, torch::kCPU, cache);
        generate_ids(
            src, {1},
            [&] {
                auto w = o;
                w.max_new_tokens = 20;
                return w;
            }(),
            -1, decode);  // warm-up
        const auto r = generate_ids(src, {1}, o, -1, decode);
        (cache ? withCache : without) = r.tokens_per_s;
        std::printf("greedy %d tokens, KV cache %-3s: %7.1f tokens/s (%.2f s)\n", tokens, cache ? "on" : "off",
                    r.tokens_per_s, r.seconds);
    }
    if (const char* trace = std::getenv("TWB_PROFILE")) {  // chrome trace of 300 cached tokens, for digging
        GptSource src(model, torch::kCPU, true);
        torch::autograd::profiler::RecordProfile guard(trace);
        generate_ids(
            src, {1},
            [&] {
                auto w = o;
                w.max_new_tokens = 300;
                return w;
            }(),
            -1, decode);
    }
    if (cacheOnly)
        return 0;
    std::printf("KV cache speed-up: %.1fx\n", withCache / without);
    {
        // What the sampling console pays for streaming each token with its 8 alternatives (as the GUI asks),
        // alternating plain and streamed runs of 200 tokens so drift hits both alike.
        SamplingOptions s = o;
        s.max_new_tokens = 200;
        s.alternatives = 8;
        std::vector<double> plain, streamed;
        for (int round = 0; round < 3; ++round)
            for (bool stream : {false, true}) {
                GptSource src(model, torch::kCPU, true);
                const auto r = generate_ids(src, {1}, s, -1, decode,
                                            stream ? TokenCallback([](const TokenEvent&) {}) : TokenCallback());
                (stream ? streamed : plain).push_back(r.tokens_per_s);
            }
        std::sort(plain.begin(), plain.end());
        std::sort(streamed.begin(), streamed.end());
        std::printf("200 tokens, median of 3: plain %.1f tokens/s, streamed with 8 alternatives %.1f tokens/s\n",
                    plain[1], streamed[1]);
    }
    for (int w : {1, 2, 4, 8}) {
        SamplingOptions b = o;
        b.max_new_tokens = 200;
        b.beam_width = w;
        GptSource src(model, torch::kCPU, true);
        const auto r = generate_ids(src, {1}, b, -1, decode);
        std::printf("beam width %d, 200 steps: %.2f s (%.1f steps/s)\n", w, r.seconds, 200 / r.seconds);
    }
    for (int n : {1, 4, 16}) {
        SamplingOptions s = o;
        s.temperature = 0.8;
        s.seed = 1;
        s.max_new_tokens = 200;
        s.num_samples = n;
        GptSource src(model, torch::kCPU, true);
        const auto r = generate_ids(src, {1}, s, -1, decode);
        std::printf("batched sampling, %2d samples x 200 tokens: %7.1f tokens/s overall\n", n, r.tokens_per_s);
    }
    return 0;
}
