// Device and thread helpers.
#include "engine/nn/device.h"

#include "engine/data/errors.h"

#include <thread>

namespace twb::nn {

torch::Device resolve_device(const std::string& name) {
    if (name == "auto" || name.empty()) return torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::kCPU;
    if (name == "cpu") return torch::kCPU;
    if (name.rfind("cuda", 0) == 0) {
        if (!torch::cuda::is_available())
            throw ConfigError("device '" + name + "' asked for, but this libtorch sees no CUDA GPU; use device=cpu");
        return torch::Device(name);
    }
    throw ConfigError("unknown device '" + name + "'; use auto, cpu or cuda[:N]");
}

int apply_threads(int threads) {
    const int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (at::get_num_threads() != n) at::set_num_threads(n);
    return at::get_num_threads();
}

} // namespace twb::nn
