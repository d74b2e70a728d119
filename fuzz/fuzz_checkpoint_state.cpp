// A checkpoint's state.json and the run's best.json.
#include "core/run/checkpoint_state.h"
#include "fuzz_util.h"
#include "twb/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string in(twbfuzz::view(data, size));
    try {
        const auto st = twb::parse_checkpoint_state(in, "fuzz/state.json");
        // What was accepted must be a model that can be built, and must survive a round trip.
        if (st.config.vocab_size < 1 || st.config.n_head < 1 || st.config.n_embd % st.config.n_head != 0)
            __builtin_trap();
        (void)twb::parse_checkpoint_state(twb::checkpoint_state_json(st), "round trip");
    } catch (const twb::Error&) {
    }
    try {
        (void)twb::parse_best_step(in, "fuzz/best.json");
    } catch (const twb::Error&) {
    }
    return 0;
}
