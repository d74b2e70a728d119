// safetensors reader and writer.
#include "nn/interchange/safetensors.h"

#include "core/interchange/safetensors_header.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

namespace twb::nn {

namespace {
std::string dtype_name(torch::ScalarType t) {
    switch (t) {
        case torch::kFloat32:
            return "F32";
        case torch::kFloat16:
            return "F16";
        case torch::kBFloat16:
            return "BF16";
        case torch::kFloat64:
            return "F64";
        case torch::kInt64:
            return "I64";
        case torch::kInt32:
            return "I32";
        case torch::kUInt8:
            return "U8";
        case torch::kInt8:
            return "I8";
        case torch::kBool:
            return "BOOL";
        default:
            throw FormatError(std::string("cannot store dtype ") + c10::toString(t) + " in safetensors");
    }
}

torch::ScalarType dtype_from(const std::string& s, const std::string& where) {
    if (s == "F32")
        return torch::kFloat32;
    if (s == "F16")
        return torch::kFloat16;
    if (s == "BF16")
        return torch::kBFloat16;
    if (s == "F64")
        return torch::kFloat64;
    if (s == "I64")
        return torch::kInt64;
    if (s == "I32")
        return torch::kInt32;
    if (s == "U8")
        return torch::kUInt8;
    if (s == "I8")
        return torch::kInt8;
    if (s == "BOOL")
        return torch::kBool;
    throw FormatError(where + ": unsupported dtype '" + s + "'");
}
}  // namespace

void save_safetensors(const std::filesystem::path& path,
                      const std::vector<std::pair<std::string, torch::Tensor>>& tensors,
                      const std::map<std::string, std::string>& metadata) {
    nlohmann::json header = nlohmann::json::object();
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    std::vector<torch::Tensor> cpu;
    uint64_t off = 0;
    for (auto& [name, t] : tensors) {
        auto c = t.detach().to(torch::kCPU).contiguous();
        const uint64_t n = static_cast<uint64_t>(c.numel()) * c.element_size();
        header[name] = {
            {"dtype", dtype_name(c.scalar_type())}, {"shape", c.sizes().vec()}, {"data_offsets", {off, off + n}}};
        off += n;
        cpu.push_back(c);
    }
    std::string h = header.dump();
    while (h.size() % 8)
        h += ' ';
    std::string out;
    out.resize(8 + h.size() + off);
    const uint64_t hl = h.size();
    for (int i = 0; i < 8; ++i)
        out[static_cast<size_t>(i)] = static_cast<char>((hl >> (8 * i)) & 0xFF);
    std::memcpy(out.data() + 8, h.data(), h.size());
    char* data = out.data() + 8 + h.size();
    for (auto& c : cpu) {
        const size_t n = static_cast<size_t>(c.numel()) * c.element_size();
        std::memcpy(data, c.data_ptr(), n);
        data += n;
    }
    write_file_atomic(path, out);
}

SafetensorsData load_safetensors(const std::filesystem::path& path) {
    SafetensorsFile file(path);
    // Each tensor straight into its own storage, in the file's order: no staging copy of the whole data.
    std::vector<const SafetensorsEntry*> order;
    for (const auto& e : file.header().tensors)
        order.push_back(&e);
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->begin < b->begin; });
    SafetensorsData out;
    out.metadata = file.header().metadata;
    for (const auto* e : order) {
        auto t = torch::empty(
            e->shape, torch::TensorOptions().dtype(dtype_from(e->dtype, file.where() + " tensor '" + e->name + "'")));
        file.read(*e, t.data_ptr());
        out.tensors[e->name] = t;
    }
    return out;
}

}  // namespace twb::nn
