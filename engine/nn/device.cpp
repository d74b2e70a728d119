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

int apply_threads(int threads) {
    const int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (at::get_num_threads() != n)
        at::set_num_threads(n);
    return at::get_num_threads();
}

}  // namespace twb::nn
