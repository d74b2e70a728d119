// Which precision `dtype = auto` trains and evaluates in, and why: bf16 mixed precision where the hardware
// does bf16 natively (a CPU with AVX512-BF16 or AMX-BF16, a CUDA device of compute capability 8 or
// later), float32 elsewhere. Public API; no torch.
#pragma once
#include "twb/choices.h"

#include <string>

namespace twb {

struct PrecisionChoice {
    DType dtype = DType::Float32;  // float32 or bfloat16, never auto
    std::string reason;            // one short clause: "auto: the CPU has avx512_bf16"
};

/// The CPU's native bf16 instruction set named by the flags of /proc/cpuinfo ("avx512_bf16",
/// "amx_bf16"), or "" when it has none (or the file cannot be read: not Linux).
std::string cpu_bf16_flag();

/// The same from a cpuinfo "flags" line (space-separated), for tests.
std::string cpu_bf16_flag_of(const std::string& flags);

/// requested auto -> bfloat16 when the device does bf16 natively (on a CPU: cpu_flag non-empty; on a
/// CUDA device: cuda_bf16), else float32; float32 and bfloat16 stay as asked.
PrecisionChoice choose_precision(DType requested, bool cuda_device, bool cuda_bf16, const std::string& cpu_flag);

}  // namespace twb
