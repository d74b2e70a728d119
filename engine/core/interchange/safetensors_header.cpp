// safetensors header parsing and checks.
#include "core/interchange/safetensors_header.h"

#include "twb/errors.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace twb {

size_t safetensors_dtype_size(const std::string& d) {
    if (d == "F64" || d == "I64" || d == "U64")
        return 8;
    if (d == "F32" || d == "I32" || d == "U32")
        return 4;
    if (d == "F16" || d == "BF16" || d == "I16" || d == "U16")
        return 2;
    if (d == "U8" || d == "I8" || d == "BOOL")
        return 1;
    return 0;
}

uint64_t safetensors_header_length(std::string_view first8, uint64_t file_size, const std::string& where) {
    if (first8.size() < 8 || file_size < 8)
        throw FormatError(where + ": truncated (" + std::to_string(file_size) + " bytes, no header)");
    uint64_t hl = 0;
    for (int i = 7; i >= 0; --i)
        hl = (hl << 8) | static_cast<unsigned char>(first8[static_cast<size_t>(i)]);
    if (hl > kSafetensorsMaxHeader)
        throw FormatError(where + ": header length " + std::to_string(hl) +
                          " is beyond the 100 MB limit; not a safetensors file");
    if (hl > file_size - 8)
        throw FormatError(where + ": truncated (the file has " + std::to_string(file_size) +
                          " bytes, fewer than its header alone: 8 + " + std::to_string(hl) + ")");
    return hl;
}

SafetensorsHeader parse_safetensors_header(std::string_view text, uint64_t data_size, const std::string& where) {
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        throw FormatError(where + ": header is not valid JSON; the file is damaged or not safetensors");
    }
    if (!header.is_object())
        throw FormatError(where + ": header is not a JSON object; the file is damaged or not safetensors");
    SafetensorsHeader out;
    for (auto& [name, v] : header.items()) {
        if (name == "__metadata__") {
            if (!v.is_object())
                throw FormatError(where + ": __metadata__ is not a JSON object");
            for (auto& [k, mv] : v.items())
                if (mv.is_string())
                    out.metadata[k] = mv.get<std::string>();
            continue;
        }
        const std::string t = where + ": tensor '" + name + "'";
        if (!v.is_object() || !v.contains("dtype") || !v.contains("shape") || !v.contains("data_offsets"))
            throw FormatError(t + " entry is malformed (needs dtype, shape and data_offsets)");
        SafetensorsEntry e;
        e.name = name;
        if (!v["dtype"].is_string() || safetensors_dtype_size(v["dtype"].get<std::string>()) == 0)
            throw FormatError(t + " has an unsupported dtype " +
                              v["dtype"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        e.dtype = v["dtype"].get<std::string>();
        const auto& shape = v["shape"];
        if (!shape.is_array() || shape.size() > 16)
            throw FormatError(t + " shape is not a list of at most 16 dimensions");
        uint64_t numel = 1;
        for (const auto& d : shape) {
            if (!d.is_number_integer() || (!d.is_number_unsigned() && d.get<int64_t>() < 0))
                throw FormatError(t + " has a dimension that is not a whole number of at least 0");
            const uint64_t dim = d.get<uint64_t>();
            if (dim > static_cast<uint64_t>(INT64_MAX) || __builtin_mul_overflow(numel, dim, &numel))
                throw FormatError(t + " shape is too large (its size overflows); the file is damaged");
            e.shape.push_back(static_cast<int64_t>(dim));
        }
        const auto& offs = v["data_offsets"];
        if (!offs.is_array() || offs.size() != 2 || !offs[0].is_number_unsigned() || !offs[1].is_number_unsigned())
            throw FormatError(t + " data_offsets is not a pair of whole numbers");
        e.begin = offs[0].get<uint64_t>();
        e.end = offs[1].get<uint64_t>();
        if (e.begin > e.end || e.end > data_size)
            throw FormatError(t + " lies outside the file (offsets " + std::to_string(e.begin) + ".." +
                              std::to_string(e.end) + ", data " + std::to_string(data_size) +
                              " bytes); the file is truncated or corrupt");
        uint64_t bytes = 0;
        if (__builtin_mul_overflow(numel, safetensors_dtype_size(e.dtype), &bytes) || bytes != e.end - e.begin)
            throw FormatError(t + " shape does not match its byte size; the file is damaged");
        out.tensors.push_back(std::move(e));
    }
    // No two tensors share bytes: an overlap would load one tensor's data into another.
    std::vector<const SafetensorsEntry*> byOffset;
    for (const auto& e : out.tensors)
        if (e.end > e.begin)
            byOffset.push_back(&e);
    std::sort(byOffset.begin(), byOffset.end(), [](auto* a, auto* b) { return a->begin < b->begin; });
    for (size_t i = 1; i < byOffset.size(); ++i)
        if (byOffset[i]->begin < byOffset[i - 1]->end)
            throw FormatError(where + ": tensors '" + byOffset[i - 1]->name + "' and '" + byOffset[i]->name +
                              "' overlap (offsets " + std::to_string(byOffset[i - 1]->begin) + ".." +
                              std::to_string(byOffset[i - 1]->end) + " and " + std::to_string(byOffset[i]->begin) +
                              ".." + std::to_string(byOffset[i]->end) + "); the file is damaged");
    return out;
}

SafetensorsFile::SafetensorsFile(const std::filesystem::path& path)
    : m_where(path.string()), m_in(path, std::ios::binary) {
    if (!m_in)
        throw InputError(m_where + ": cannot open the file");
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec)
        throw InputError(m_where + ": cannot read the file (" + ec.message() + ")");
    char lenBytes[8] = {};
    m_in.read(lenBytes, 8);
    const uint64_t hl =
        safetensors_header_length(std::string_view(lenBytes, static_cast<size_t>(m_in.gcount())), size, m_where);
    std::string h(hl, '\0');
    m_in.read(h.data(), static_cast<std::streamsize>(hl));
    m_header = parse_safetensors_header(h, size - 8 - hl, m_where);
    m_dataStart = 8 + hl;
}

void SafetensorsFile::read(const SafetensorsEntry& e, void* into) {
    const auto bytes = static_cast<std::streamsize>(e.end - e.begin);
    m_in.seekg(static_cast<std::streamoff>(m_dataStart + e.begin));
    m_in.read(static_cast<char*>(into), bytes);
    if (!m_in || m_in.gcount() != bytes)
        throw FormatError(m_where + ": could not read the whole file; it changed while being read or is damaged");
}

}  // namespace twb
