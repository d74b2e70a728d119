// safetensors reader and writer.
#include "nn/safetensors.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

namespace twb::nn {

namespace {
constexpr uint64_t kMaxHeader = 100ull << 20;  // the format's own limit is 100 MB

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
    const std::string where = path.string();
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(where + ": cannot open the file");
    const uint64_t size = std::filesystem::file_size(path);
    if (size < 8)
        throw FormatError(where + ": truncated (" + std::to_string(size) + " bytes, no header)");
    unsigned char lenBytes[8];
    in.read(reinterpret_cast<char*>(lenBytes), 8);
    uint64_t hl = 0;
    for (int i = 7; i >= 0; --i)
        hl = (hl << 8) | lenBytes[i];
    if (hl > kMaxHeader)
        throw FormatError(where + ": header length " + std::to_string(hl) +
                          " is beyond the 100 MB limit; not a safetensors file");
    if (8 + hl > size)
        throw FormatError(where + ": truncated (header says " + std::to_string(hl) + " bytes, file has " +
                          std::to_string(size) + ")");
    std::string h(hl, '\0');
    in.read(h.data(), static_cast<std::streamsize>(hl));
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(h);
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(where + ": header is not valid JSON (" + e.what() + ")");
    }
    if (!header.is_object())
        throw FormatError(where + ": header is not a JSON object");
    const uint64_t dataSize = size - 8 - hl;
    std::string data(dataSize, '\0');
    in.read(data.data(), static_cast<std::streamsize>(dataSize));
    SafetensorsData out;
    for (auto& [name, v] : header.items()) {
        if (name == "__metadata__") {
            for (auto& [k, mv] : v.items())
                if (mv.is_string())
                    out.metadata[k] = mv.get<std::string>();
            continue;
        }
        try {
            const auto dt = dtype_from(v.at("dtype").get<std::string>(), where + " tensor '" + name + "'");
            const auto shape = v.at("shape").get<std::vector<int64_t>>();
            const auto offs = v.at("data_offsets").get<std::vector<uint64_t>>();
            if (offs.size() != 2 || offs[0] > offs[1] || offs[1] > dataSize)
                throw FormatError(where + ": tensor '" + name + "' lies outside the file (offsets " +
                                  std::to_string(offs.empty() ? 0 : offs[0]) + ".." +
                                  std::to_string(offs.size() < 2 ? 0 : offs[1]) + ", data " + std::to_string(dataSize) +
                                  " bytes); the file is truncated or corrupt");
            int64_t numel = 1;
            for (auto d : shape) {
                if (d < 0)
                    throw FormatError(where + ": tensor '" + name + "' has a negative dimension");
                numel *= d;
            }
            auto t = torch::empty(shape, torch::TensorOptions().dtype(dt));
            if (static_cast<uint64_t>(numel) * t.element_size() != offs[1] - offs[0])
                throw FormatError(where + ": tensor '" + name + "' shape does not match its byte size");
            std::memcpy(t.data_ptr(), data.data() + offs[0], offs[1] - offs[0]);
            out.tensors[name] = t;
        } catch (const nlohmann::json::exception& e) {
            throw FormatError(where + ": tensor '" + name + "' entry is malformed (" + e.what() + ")");
        }
    }
    return out;
}

}  // namespace twb::nn
