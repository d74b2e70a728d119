// dtype = auto: reading the CPU's bf16 flags and choosing the precision.
#include "twb/precision.h"

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

std::string cpu_bf16_flag() {
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
    c.reason = cpu_flag.empty() ? "auto: the CPU has no native bf16 (no avx512_bf16 or amx_bf16 flag)"
                                : "auto: the CPU has " + cpu_flag;
    return c;
}

}  // namespace twb
