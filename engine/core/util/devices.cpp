// The compute devices: the CPU from /proc/cpuinfo, the GPUs from the CUDA driver (core/util/cuda_driver).
#include "twb/devices.h"

#include "core/util/cuda_driver.h"
#include "twb/choices.h"

#include <cstdio>
#include <fstream>

namespace twb {

namespace {
std::string gib(uint64_t bytes) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return b;
}

/// The CUDA index a spelling names: cuda -> 0, cuda:N -> N; -1 for auto, cpu or a bad spelling.
int cuda_index_of(const std::string& spelling) {
    try {
        const DeviceChoice d = parse_device(spelling);
        return d.kind == DeviceKind::Cuda ? (d.index < 0 ? 0 : d.index) : -1;
    } catch (const std::exception&) {
        return -1;
    }
}
}  // namespace

std::string cpu_model_name() {
    static const std::string name = [] {
        std::ifstream in("/proc/cpuinfo");
        std::string line;
        while (std::getline(in, line))
            if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
                std::string v = line.substr(line.find(':') + 1);
                v.erase(0, v.find_first_not_of(" \t"));
                return v;
            }
        return std::string();
    }();
    return name;
}

std::vector<ComputeDevice> compute_devices() {
    std::vector<ComputeDevice> out{{"auto", "", 0}, {"cpu", cpu_model_name(), 0}};
    const int n = cuda_device_count();
    for (int i = 0; i < n; ++i) {
        const CudaDeviceInfo g = cuda_device_info(i);
        out.push_back({"cuda:" + std::to_string(i), g.ok ? g.name : g.error, g.ok ? g.memory : 0});
    }
    return out;
}

std::string describe_device(const std::string& spelling) {
    if (spelling == "cpu") {
        const std::string name = cpu_model_name();
        return name.empty() ? spelling : "cpu (" + name + ")";
    }
    const int index = cuda_index_of(spelling);
    if (index < 0)
        return spelling;
    const CudaDeviceInfo g = cuda_device_info(index);
    const std::string s = "cuda:" + std::to_string(index);
    if (!g.ok)
        return s;
    return s + " (" + (g.name.empty() ? std::string("GPU") : g.name) + (g.memory ? ", " + gib(g.memory) : "") + ")";
}

DeviceMemory device_memory(const std::string& spelling) {
    const int index = cuda_index_of(spelling);
    if (index < 0)
        return {};
    const CudaMemory m = cuda_memory(index);
    return {m.ok, m.used, m.total};
}

}  // namespace twb
