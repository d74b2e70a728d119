// A GGUF v3 file assembled in memory and written atomically: the container of llama.cpp and the tools
// built on ggml (ggml's docs/gguf.md). Little-endian throughout: "GGUF", version, tensor and key-value
// counts, the key-values (typed), the tensor infos (name, dimensions fastest first, type, offset into the
// data section), padding to general.alignment, then each tensor's bytes at an aligned offset. Knows the
// container only (f32 and f16 tensors, the scalar and array types the metadata needs); which keys and
// tensors make a model is nn/interchange/gguf_export.cpp's. Not thread-safe.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace twb {

/// GGUF's value types (gguf_type), numbered as the specification numbers them.
enum class GgufValueType : uint32_t {
    Uint8 = 0,
    Int8 = 1,
    Uint16 = 2,
    Int16 = 3,
    Uint32 = 4,
    Int32 = 5,
    Float32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    Uint64 = 10,
    Int64 = 11,
    Float64 = 12,
};

/// The tensor types written here (ggml_type's numbers).
enum class GgufTensorType : uint32_t { F32 = 0, F16 = 1 };

/// IEEE binary16 of a float, rounded to nearest even (overflow to infinity, NaN kept NaN), and back.
uint16_t float_to_half(float f);
float half_to_float(uint16_t h);

class GgufWriter {
public:
    /// alignment: general.alignment, a power of two; always written as that key (the first).
    explicit GgufWriter(uint32_t alignment = 32);

    void add_u32(const std::string& key, uint32_t v);
    void add_i32(const std::string& key, int32_t v);
    void add_f32(const std::string& key, float v);
    void add_bool(const std::string& key, bool v);
    void add_string(const std::string& key, const std::string& v);
    void add_string_array(const std::string& key, const std::vector<std::string>& v);
    void add_i32_array(const std::string& key, const std::vector<int32_t>& v);

    /// A tensor of torch's shape (slowest dimension first) from row-major floats; stored as `type`.
    /// The file lists the dimensions reversed, as ggml does (ne[0] fastest).
    void add_tensor(const std::string& name, const std::vector<int64_t>& torch_shape, const float* data,
                    GgufTensorType type);

    size_t tensor_count() const { return m_tensors.size(); }
    size_t kv_count() const { return m_kvCount; }
    /// The whole file's bytes.
    std::string bytes() const;
    /// Writes the file atomically (temporary, then rename). Throws IoError.
    void write(const std::filesystem::path& path) const;

private:
    struct Tensor {
        std::string name;
        std::vector<uint64_t> ne;  // fastest first
        GgufTensorType type;
        std::string data;
    };
    void key(const std::string& k, GgufValueType t);
    uint32_t m_alignment;
    size_t m_kvCount = 0;
    std::string m_kv;  // the encoded key-values, in order
    std::vector<Tensor> m_tensors;
};

}  // namespace twb
