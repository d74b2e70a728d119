// What the CUDA driver says about a device (compute capability, name, memory), asked through the driver
// library itself (libcuda.so.1, loaded with dlopen), so that any build -- Debian's CPU-only libtorch, a
// CUDA wheel of any version -- can decide bf16 on a GPU without CUDA headers. Torch-free.
#pragma once
#include <cstdint>
#include <string>

namespace twb {

struct CudaDeviceInfo {
    bool ok = false;  // the driver answered for this device
    int major = 0;    // compute capability, e.g. 9.0 on an H100/H200
    int minor = 0;
    std::string name;     // "NVIDIA H200"
    uint64_t memory = 0;  // total memory in bytes
    std::string error;    // why not, when !ok: "no CUDA driver (libcuda.so.1) on this machine", ...
};

/// The driver's answer for device `index` (as CUDA_VISIBLE_DEVICES numbers them).
CudaDeviceInfo cuda_device_info(int index);

/// How many devices the driver sees (0 without a driver, or when it does not start).
int cuda_device_count();

/// Device memory in use, device-wide as nvidia-smi counts it (this process's tensors, its caching
/// allocator's reserve, the CUDA context, and other processes), through the device's primary context:
/// the one libtorch uses, so asking costs no new context once a run is on the device.
struct CudaMemory {
    bool ok = false;
    uint64_t used = 0, total = 0;  // bytes
};
CudaMemory cuda_memory(int index);

/// bf16 autocast pays on compute capability 8.0 (Ampere) and later, as nanoGPT decides.
inline bool cuda_does_bf16(const CudaDeviceInfo& d) {
    return d.ok && d.major >= 8;
}

}  // namespace twb
