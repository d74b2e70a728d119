// Device and thread helpers.
#include "nn/device.h"

#include "twb/choices.h"
#include "twb/errors.h"

#include <thread>

namespace twb::nn {

torch::Device resolve_device(const std::string& name) {
    const DeviceChoice d = parse_device(name.empty() ? "auto" : name);
    switch (d.kind) {
        case DeviceKind::Auto:
            return torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
        case DeviceKind::Cpu:
            return torch::kCPU;
        case DeviceKind::Cuda:
            if (!torch::cuda::is_available())
                throw ConfigError("device '" + name +
                                  "' asked for, but this libtorch sees no CUDA GPU; use device=cpu");
            if (d.index >= static_cast<int>(torch::cuda::device_count()))
                throw ConfigError("device '" + name + "' asked for, but this machine has " +
                                  std::to_string(torch::cuda::device_count()) + " CUDA device(s)");
            return torch::Device(torch::kCUDA, static_cast<torch::DeviceIndex>(d.index));
    }
    return torch::kCPU;
}

PrecisionChoice resolve_precision(DType dtype, const torch::Device& device) {
    bool cuda_bf16 = false;
#if defined(TWB_HAVE_CUDA_PROPERTIES)
    if (device.is_cuda())
        cuda_bf16 = at::cuda::getDeviceProperties(device.index() < 0 ? 0 : device.index())->major >= 8;
#else
    if (device.is_cuda() && dtype == DType::Auto)
        return {DType::Float32, "auto: this build cannot ask the CUDA device about bf16"};
#endif
    return choose_precision(dtype, device.is_cuda(), cuda_bf16, device.is_cuda() ? std::string() : cpu_bf16_flag());
}

int apply_threads(int threads) {
    const int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (at::get_num_threads() != n)
        at::set_num_threads(n);
    return at::get_num_threads();
}

}  // namespace twb::nn
