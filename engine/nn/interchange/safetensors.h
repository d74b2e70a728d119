// The safetensors format, read and written by the engine itself: an 8-byte little-endian header
// length, a JSON header {name: {dtype, shape, data_offsets}, "__metadata__": {...}}, then raw
// little-endian data. Reading bounds the header, checks every offset and shape against the file size
// and refuses truncated or inconsistent files with a message naming the file and the tensor.
#pragma once
#include <torch/torch.h>

#include <filesystem>
#include <map>
#include <string>

namespace twb::nn {

struct SafetensorsData {
    std::map<std::string, torch::Tensor> tensors;  // CPU tensors
    std::map<std::string, std::string> metadata;
};

/// Writes tensors (moved to CPU, made contiguous) atomically: temp file, then rename.
void save_safetensors(const std::filesystem::path& path,
                      const std::vector<std::pair<std::string, torch::Tensor>>& tensors,
                      const std::map<std::string, std::string>& metadata = {});

/// Reads a whole file. Throws FormatError for a truncated, oversized-header or inconsistent file.
SafetensorsData load_safetensors(const std::filesystem::path& path);

}  // namespace twb::nn
