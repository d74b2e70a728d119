// The safetensors header of a checkpoint: length prefix and JSON entries against the data size.
#include "core/interchange/safetensors_header.h"
#include "fuzz_util.h"
#include "twb/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto in = twbfuzz::view(data, size);
    try {
        const uint64_t hl = twb::safetensors_header_length(in.substr(0, 8), size, "fuzz.safetensors");
        const auto h = twb::parse_safetensors_header(in.substr(8, hl), size - 8 - hl, "fuzz.safetensors");
        for (const auto& e : h.tensors)  // what the reader then trusts
            if (e.end > size - 8 - hl || e.begin > e.end || twb::safetensors_dtype_size(e.dtype) == 0)
                __builtin_trap();
    } catch (const twb::Error&) {
    }
    return 0;
}
