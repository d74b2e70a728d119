// A GPT checkpoint's weights for the CPU decoder read straight from its model.safetensors, without
// libtorch: the F32 and BF16 tensors by name, each checked as the model loader checks them (present, of
// the config's shape, finite, none left over).
#pragma once
#include "core/decoding/cpu_decoder.h"

#include <filesystem>
#include <memory>

namespace twb {

/// The decoder's weights from `file` (a checkpoint's model.safetensors) for config c; avx2 picks the
/// kernels. Throws FormatError naming the file and the tensor for a file the model loader would refuse,
/// and for a dtype other than F32 and BF16 (which libtorch's loader reads).
std::shared_ptr<const FastWeights> read_fast_weights(const std::filesystem::path& file, const RunConfig& c, bool avx2);

}  // namespace twb
