// The smallest client of the engine's public API (engine/include/twb): load a trained run, generate a
// continuation of a prompt token by token, and score a text under the model. Everything the GUI and
// `twb` do goes through the same headers; this is where to start reading.
//
//   build/bin/twb_simple RUN "ROMEO:" "To be, or not to be"
#include "twb/errors.h"
#include "twb/generation.h"
#include "twb/session.h"

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s RUN PROMPT [TEXT_TO_SCORE]\n", argv[0]);
        return 2;
    }
    try {
        twb::ModelSession model;
        model.open(argv[1]);  // the run's best checkpoint; "last" or a step number also work
        std::printf("%s, step %lld, %d tokens in the vocabulary\n", model.checkpoint().c_str(),
                    static_cast<long long>(model.step()), model.vocab_size());

        // Generate: 100 new tokens at temperature 0.8 from the 40 most probable, the same each time.
        twb::SamplingOptions opt;
        opt.max_new_tokens = 100;
        opt.temperature = 0.8;
        opt.top_k = 40;
        opt.seed = 1337;
        std::printf("%s", argv[2]);
        const auto result = model.generate(model.encode(argv[2]), opt, [](const twb::TokenEvent& t) {
            std::printf("%s", t.text.c_str());  // streamed as each token arrives
            std::fflush(stdout);
        });
        std::printf("\n[%lld tokens, %.1f tokens/s]\n", static_cast<long long>(result.generated), result.tokens_per_s);

        // Score: how well the model predicts a text (float32 by default, the same on every machine).
        if (argc > 3) {
            const twb::EvalResult s = model.score_text(argv[3]);
            std::printf("score of \"%s\": %.3f nats/token, perplexity %.2f, %.3f bits/char over %lld tokens\n", argv[3],
                        s.loss, s.perplexity, s.bits_per_char, static_cast<long long>(s.tokens));
        }
    } catch (const twb::Error& e) {  // every engine error names the problem and what to do
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
