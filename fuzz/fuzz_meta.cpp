// A prepared dataset's meta.json.
#include "core/data/dataset_meta.h"
#include "fuzz_util.h"
#include "twb/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const auto d = twb::parse_prepared_meta(std::string(twbfuzz::view(data, size)), "/nonexistent/fuzz");
        if (d.vocab_size < 1)
            __builtin_trap();
    } catch (const twb::Error&) {
    }
    return 0;
}
