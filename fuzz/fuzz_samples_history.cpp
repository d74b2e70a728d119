// A run's samples.jsonl (the generation history the GUI lists).
#include "fuzz_util.h"
#include "twb/errors.h"
#include "twb/samples_history.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto run = twbfuzz::scratch() / "run";
    std::filesystem::create_directories(run);
    twbfuzz::write("run/samples.jsonl", twbfuzz::view(data, size));
    try {
        (void)twb::read_sample_history(run);
    } catch (const twb::Error&) {
    }
    return 0;
}
