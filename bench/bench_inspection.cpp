// How long the views inside a model take (issue 39's targets, 2 cores: the lens of a 256-token prompt on
// a 6x6x384 model under 0.5 s, the all-heads ablation table of the default preset under 60 s): the
// engine's calls as the GUI's jobs and `twb lens/attribute/ablate` make them, timed in process (loading
// the checkpoint excluded). bench/inspection_speed.sh makes the two runs.
// Usage: bench_inspection LENS_RUN ABLATION_RUN [threads]
#include "nn/device.h"
#include "twb/session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using Clock = std::chrono::steady_clock;
static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_inspection LENS_RUN ABLATION_RUN [threads]\n");
        return 2;
    }
    twb::nn::apply_threads(argc > 3 ? std::atoi(argv[3]) : 2);
    twb::ModelSession lensModel;
    lensModel.open(argv[1], "last");
    const auto& c = lensModel.config();
    std::string prompt;
    while (prompt.size() < 256)
        prompt += "ROMEO: What light through yonder window breaks? ";
    prompt.resize(256);
    std::vector<double> lens, attribution;
    for (int i = 0; i < 7; ++i) {
        auto t = Clock::now();
        const auto l = lensModel.logit_lens(prompt, 5);
        lens.push_back(seconds_since(t));
        if (l.positions != 256)
            std::fprintf(stderr, "warning: the prompt is %lld tokens\n", static_cast<long long>(l.positions));
        t = Clock::now();
        lensModel.attribute(prompt.substr(0, 255), prompt.substr(255));
        attribution.push_back(seconds_since(t));
    }
    std::sort(lens.begin(), lens.end());
    std::sort(attribution.begin(), attribution.end());
    std::printf(
        "model %lldx%lldx%lld, 256-token prompt: logit lens median %.3f s (min %.3f), attribution median "
        "%.3f s (min %.3f); target: lens < 0.5 s\n",
        static_cast<long long>(c.n_layer), static_cast<long long>(c.n_head), static_cast<long long>(c.n_embd), lens[3],
        lens[0], attribution[3], attribution[0]);

    twb::ModelSession ablationModel;
    ablationModel.open(argv[2], "last");
    const auto& a = ablationModel.config();
    twb::AblationOptions o;
    o.every_head = true;
    const auto t = ablationModel.ablation_table(o);
    std::printf("model %lldx%lldx%lld, every head's cost (%d evaluations of %lld tokens): %.1f s; target: < 60 s\n",
                static_cast<long long>(a.n_layer), static_cast<long long>(a.n_head), static_cast<long long>(a.n_embd),
                1 + t.layers * t.heads, static_cast<long long>(t.tokens), t.seconds);
    return 0;
}
