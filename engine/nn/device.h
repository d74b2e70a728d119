// Device and thread selection at run time: CUDA where present and asked for, CPU otherwise.
#pragma once
#include "twb/precision.h"

#include <torch/torch.h>

#include <string>

namespace twb::nn {

/// "auto" -> cuda when available else cpu; "cuda[:N]" throws ConfigError when CUDA is absent.
torch::Device resolve_device(const std::string& name);

/// Sets torch's intra-op threads (0 = all cores) and returns the number in force. Debian's libtorch
/// starts with 1 unless OMP_NUM_THREADS is set, so this must be called.
int apply_threads(int threads);

/// A threads setting for training on this machine (0 = all cores is always fine). Throws ConfigError when it
/// is more than 4 times the machine's cores, where every step waits on threads sharing them (threads=1000 on
/// two cores took a minute a step); returns a warning when it is more than the cores, else "".
std::string check_training_threads(int threads);

/// The precision dtype (auto, float32, bfloat16) resolves to on this device, with the reason.
PrecisionChoice resolve_precision(DType dtype, const torch::Device& device);

/// host (a CPU tensor) on device. To a GPU it goes through pinned memory without waiting: the host does
/// not stop for the copy (nor for the GPU's queued work ahead of it), so it can prepare the next step
/// while the GPU runs. On the CPU it is host, contiguous.
torch::Tensor upload(const torch::Tensor& host, const torch::Device& device);

}  // namespace twb::nn
