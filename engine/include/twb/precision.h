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
/// "amx_bf16"), or "" when it has none (or the file cannot be read: not Linux) -- unless the switch
/// TWB_CPU_BF16 (environment) says otherwise: "1" makes it "TWB_CPU_BF16=1" (bf16 as on a CPU that has
/// it, emulated where it does not: slow, but the same numerics), "0" makes it "" (float32 as on a CPU
/// without it); "auto" or unset keeps the CPU's own answer. So one machine can run the suite both ways.
/// ConfigError for any other value.
std::string cpu_bf16_flag();

/// The switch's value: "auto" (unset or empty too), "0" or "1"; ConfigError for anything else.
std::string cpu_bf16_switch();

/// cpu_bf16_flag() for a detected flag and a switch value, for tests.
std::string cpu_bf16_flag_for(const std::string& detected, const std::string& switch_value);

/// The same from a cpuinfo "flags" line (space-separated), for tests.
std::string cpu_bf16_flag_of(const std::string& flags);

/// requested auto -> bfloat16 when the device does bf16 natively (on a CPU: cpu_flag non-empty; on a
/// CUDA device: cuda_bf16), else float32; float32 and bfloat16 stay as asked.
PrecisionChoice choose_precision(DType requested, bool cuda_device, bool cuda_bf16, const std::string& cpu_flag);

}  // namespace twb
