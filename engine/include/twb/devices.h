// The machine's compute devices as a person chooses among them (the GUI's device chooser, a run's
// start line): the CPU by its model name, each CUDA device the driver sees by its name and memory, and
// the device memory a CUDA run has in use. Asked of the CUDA driver itself (libcuda.so.1 through
// dlopen), so it answers the same in every build. Public API; no torch.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace twb {

struct ComputeDevice {
    std::string spelling;  // the config's value: "auto", "cpu", "cuda:0", ...
    std::string name;      // "AMD EPYC 7B13", "NVIDIA H200"; "" for auto
    uint64_t memory = 0;   // a GPU's total memory in bytes; 0 for auto and the CPU
};

/// auto, cpu, then cuda:0 ... cuda:N-1 as the driver numbers them (CUDA_VISIBLE_DEVICES applies).
/// Whether this build's libtorch can use them is a run's question (device=cuda then says why not).
std::vector<ComputeDevice> compute_devices();

/// The CPU's model name from /proc/cpuinfo ("" where there is none).
std::string cpu_model_name();

/// One line for a device as configured or resolved: "cuda:0 (NVIDIA H200, 139.8 GiB)",
/// "cpu (AMD EPYC 7B13)"; the spelling alone when nothing more is known. "cuda" means cuda:0.
std::string describe_device(const std::string& spelling);

/// Memory in use on a CUDA device, device-wide as nvidia-smi counts it; ok false for the CPU, an
/// unknown spelling, or when the driver does not answer.
struct DeviceMemory {
    bool ok = false;
    uint64_t used = 0, total = 0;  // bytes
};
DeviceMemory device_memory(const std::string& spelling);

}  // namespace twb
