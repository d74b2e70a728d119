// Run configs: config.json / --config FILE (config_from_json + validate) and --set key=value.
#include "core/run/checkpoint_state.h"
#include "fuzz_util.h"
#include "twb/config.h"
#include "twb/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string in(twbfuzz::view(data, size));
    try {
        const auto j = nlohmann::json::parse(in);
        const auto c = twb::config_from_json(j, twb::preset_config("tiny"), "fuzz");
        (void)c.validate();
        (void)c.estimated_memory_bytes();
        (void)c.parameter_count();
        twb::check_model_config(c, "fuzz");
    } catch (const nlohmann::json::exception&) {
    } catch (const twb::Error&) {
    }
    try {
        twb::RunConfig c;
        c.set(in);
        (void)c.validate();
    } catch (const twb::Error&) {
    }
    return 0;
}
