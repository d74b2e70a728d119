// dtype = auto: reading the CPU's bf16 flags and choosing the precision.
#include "twb/precision.h"

#include "twb/errors.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace twb {

std::string cpu_bf16_flag_of(const std::string& flags) {
    std::istringstream in(flags);
    std::string f;
    bool avx512 = false, amx = false;
    while (in >> f) {
        avx512 = avx512 || f == "avx512_bf16";
        amx = amx || f == "amx_bf16";
    }
    return avx512 ? "avx512_bf16" : amx ? "amx_bf16" : "";
}

static std::string detected_cpu_bf16_flag() {
    static const std::string flag = [] {
        std::ifstream in("/proc/cpuinfo");
        std::string line;
        while (std::getline(in, line))
            if (line.rfind("flags", 0) == 0)
                return cpu_bf16_flag_of(line.substr(line.find(':') == std::string::npos ? 0 : line.find(':') + 1));
        return std::string();
    }();
    return flag;
}

std::string cpu_bf16_switch() {
    const char* v = std::getenv("TWB_CPU_BF16");
    const std::string s = v ? v : "";
    if (s.empty() || s == "auto")
        return "auto";
    if (s == "0" || s == "1")
        return s;
    throw ConfigError("TWB_CPU_BF16=" + s +
                      ": expected 0 (float32 for dtype=auto), 1 (bf16 for dtype=auto) or auto (the CPU decides)");
}

std::string cpu_bf16_flag_for(const std::string& detected, const std::string& switch_value) {
    if (switch_value == "1")
        return "TWB_CPU_BF16=1";
    if (switch_value == "0")
        return "";
    return detected;
}

std::string cpu_bf16_flag() {
    return cpu_bf16_flag_for(detected_cpu_bf16_flag(), cpu_bf16_switch());
}

PrecisionChoice choose_precision(DType requested, bool cuda_device, bool cuda_bf16, const std::string& cpu_flag) {
    PrecisionChoice c;
    if (requested != DType::Auto) {
        c.dtype = requested;
        c.reason = "asked for";
        return c;
    }
    if (cuda_device) {
        c.dtype = cuda_bf16 ? DType::BFloat16 : DType::Float32;
        c.reason = cuda_bf16 ? "auto: the CUDA device does bf16" : "auto: the CUDA device has no native bf16";
        return c;
    }
    c.dtype = cpu_flag.empty() ? DType::Float32 : DType::BFloat16;
    if (cpu_flag.rfind("TWB_CPU_BF16", 0) == 0)
        c.reason = "auto: " + cpu_flag + " in the environment (bf16 as on a CPU that has it)";
    else
        c.reason = cpu_flag.empty() ? "auto: the CPU has no native bf16 (no avx512_bf16 or amx_bf16 flag)"
                                    : "auto: the CPU has " + cpu_flag;
    return c;
}

}  // namespace twb
