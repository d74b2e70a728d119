// Device and thread helpers.
#include "nn/device.h"

#include "core/decoding/spin_pool.h"
#include "core/util/cuda_driver.h"
#include "twb/choices.h"
#include "twb/errors.h"

#include <cstdlib>
#include <thread>

namespace twb::nn {

namespace {
/// Once per process, before the first CUDA work: scaled_dot_product_attention leaves out cuDNN's kernel
/// (unless TWB_SDPA_CUDNN=1). cuDNN builds a plan for every new shape, which took ~0.3 s each time on an
/// H200: the encoder-decoder's batches, of a new shape almost every step in their first epoch, spent a
/// minute on it; flash and memory-efficient attention have no such cost.
torch::Device on_cuda(torch::Device device) {
    static const bool once = [] {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
        const char* env = std::getenv("TWB_SDPA_CUDNN");
        if (!(env && std::string(env) == "1"))
            at::globalContext().setSDPUseCuDNN(false);
#endif
        return true;
    }();
    (void)once;
    return device;
}
}  // namespace

torch::Device resolve_device(const std::string& name) {
    const DeviceChoice d = parse_device(name.empty() ? "auto" : name);
    switch (d.kind) {
        case DeviceKind::Auto:
            return torch::cuda::is_available() ? on_cuda(torch::Device(torch::kCUDA)) : torch::Device(torch::kCPU);
        case DeviceKind::Cpu:
            return torch::kCPU;
        case DeviceKind::Cuda:
            if (!torch::cuda::is_available())
                throw ConfigError("device '" + name +
                                  "' asked for, but this libtorch sees no CUDA GPU; use device=cpu");
            if (d.index >= static_cast<int>(torch::cuda::device_count()))
                throw ConfigError("device '" + name + "' asked for, but this machine has " +
                                  std::to_string(torch::cuda::device_count()) + " CUDA device(s)");
            return on_cuda(torch::Device(torch::kCUDA, static_cast<torch::DeviceIndex>(d.index)));
    }
    return torch::kCPU;
}

PrecisionChoice resolve_precision(DType dtype, const torch::Device& device) {
    if (device.is_cuda()) {
        const CudaDeviceInfo gpu = cuda_device_info(device.index() < 0 ? 0 : device.index());
        PrecisionChoice c = choose_precision(dtype, true, cuda_does_bf16(gpu), std::string());
        if (dtype == DType::Auto)
            c.reason = !gpu.ok ? "auto: " + gpu.error + ", so float32"
                               : "auto: " + (gpu.name.empty() ? std::string("the GPU") : gpu.name) +
                                     " has compute capability " + std::to_string(gpu.major) + "." +
                                     std::to_string(gpu.minor) +
                                     (cuda_does_bf16(gpu) ? " (bf16 from 8.0)" : " (bf16 needs 8.0 or later)");
        return c;
    }
    PrecisionChoice c = choose_precision(dtype, false, false, cpu_bf16_flag());
    if (dtype == DType::Auto && cpu_bf16_switch() == "0")
        c.reason = "auto: TWB_CPU_BF16=0 in the environment (float32 whatever the CPU has)";
    return c;
}

std::string check_training_threads(int threads) {
    const int cores = resolve_threads(0);
    if (threads <= cores)
        return {};
    const std::string what = "threads=" + std::to_string(threads) + " is more than this machine's " +
                             std::to_string(cores) + " core" + (cores == 1 ? "" : "s");
    if (threads > 4 * cores)
        throw ConfigError(what +
                          ", so every step would wait on threads that share them; set threads=0 (all cores) "
                          "or at most " +
                          std::to_string(4 * cores));
    return "warning: " + what + ", which the threads share (threads=0 uses all cores)";
}

int apply_threads(int threads) {
    const int n = resolve_threads(threads);
    if (at::get_num_threads() != n)
        at::set_num_threads(n);
    set_decode_threads(at::get_num_threads());
    return at::get_num_threads();
}

torch::Tensor upload(const torch::Tensor& host, const torch::Device& device) {
    if (device.is_cpu())
        return host.contiguous();
    // The pinned buffer is torch's caching host allocator's: it records the copy and is not reused before
    // the copy is done, so it may be dropped here.
    return host.contiguous().pin_memory().to(device, /*non_blocking=*/true);
}

}  // namespace twb::nn
