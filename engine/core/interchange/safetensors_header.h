// The safetensors header, parsed and checked without torch (so it can be fuzzed alone): an 8-byte
// little-endian length, then a JSON object {name: {dtype, shape, data_offsets}, "__metadata__": {...}}.
// Every entry is checked against the data that follows: a known dtype, non-negative dimensions whose
// product does not overflow, a byte range inside the data that matches shape x dtype size. nn/interchange/safetensors
// builds the tensors from what this returns; SafetensorsFile reads a file's header and tensors' bytes for
// it and for the CPU decoder's torch-free reader (core/decoding/checkpoint_weights.h).
#pragma once
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace twb {

struct SafetensorsEntry {
    std::string name;
    std::string dtype;  // "F32", "BF16", "I64", ...
    std::vector<int64_t> shape;
    uint64_t begin = 0, end = 0;  // byte range within the data section
};

struct SafetensorsHeader {
    std::vector<SafetensorsEntry> tensors;  // in header order
    std::map<std::string, std::string> metadata;
};

/// The format's limit on the header length (100 MB).
inline constexpr uint64_t kSafetensorsMaxHeader = 100ull << 20;

/// Bytes per element of a safetensors dtype, 0 when unknown.
size_t safetensors_dtype_size(const std::string& dtype);

/// The header length from the file's first 8 bytes; FormatError naming `where` when it cannot be
/// a safetensors file of file_size bytes.
uint64_t safetensors_header_length(std::string_view first8, uint64_t file_size, const std::string& where);

/// Parses the header JSON and checks every entry against a data section of data_size bytes;
/// FormatError naming `where` and the tensor otherwise.
SafetensorsHeader parse_safetensors_header(std::string_view json, uint64_t data_size, const std::string& where);

/// A safetensors file open for reading: its header read and checked, each tensor's bytes read on demand.
class SafetensorsFile {
public:
    /// InputError when the file cannot be opened, FormatError (naming it) for a header that does not hold.
    explicit SafetensorsFile(const std::filesystem::path& path);
    const SafetensorsHeader& header() const { return m_header; }
    const std::string& where() const { return m_where; }
    /// The entry's bytes (end - begin of them) into `into`; FormatError when the file ends early.
    void read(const SafetensorsEntry& e, void* into);

private:
    std::string m_where;
    std::ifstream m_in;
    SafetensorsHeader m_header;
    uint64_t m_dataStart = 0;
};

}  // namespace twb
