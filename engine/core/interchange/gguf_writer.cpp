// GGUF v3 writer (see gguf_writer.h). Values are encoded as they are added; the header, the tensor
// infos and the aligned data section are laid out when the file's bytes are asked for.
#include "core/interchange/gguf_writer.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <cmath>
#include <cstring>

namespace twb {

namespace {

template <class T>
void put(std::string& out, T v) {
    static_assert(std::is_arithmetic<T>::value || std::is_enum<T>::value, "plain values only");
    char buf[sizeof(T)];
    std::memcpy(buf, &v, sizeof(T));  // the engine runs on little-endian machines only (x86-64, arm64)
    out.append(buf, sizeof(T));
}

void put_string(std::string& out, const std::string& s) {
    put<uint64_t>(out, s.size());
    out += s;
}

void pad_to(std::string& out, size_t alignment) {
    const size_t rem = out.size() % alignment;
    if (rem)
        out.append(alignment - rem, '\0');
}

}  // namespace

uint16_t float_to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t exp = (x >> 23) & 0xffu;
    uint32_t mant = x & 0x7fffffu;
    if (exp == 0xff)  // infinity or NaN (a quiet NaN stays a NaN)
        return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0u));
    const int e = static_cast<int>(exp) - 127 + 15;
    if (e >= 31)
        return static_cast<uint16_t>(sign | 0x7c00u);  // overflow: infinity
    if (e <= 0) {                                      // a subnormal half, or zero
        if (e < -10)
            return static_cast<uint16_t>(sign);
        mant |= 0x800000u;  // the implicit one
        const int shift = 14 - e;
        uint32_t h = mant >> shift;
        const uint32_t rest = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (h & 1u)))
            ++h;
        return static_cast<uint16_t>(sign | h);
    }
    uint32_t h = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    const uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        ++h;  // may carry into the exponent, up to infinity: still correct
    return static_cast<uint16_t>(sign | h);
}

float half_to_float(uint16_t h) {
    const uint32_t sign = (h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    float f;
    if (exp == 0)
        f = std::ldexp(static_cast<float>(mant), -24);
    else if (exp == 31)
        f = mant ? std::nanf("") : INFINITY;
    else
        f = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
    uint32_t x;
    std::memcpy(&x, &f, 4);
    x |= sign;
    std::memcpy(&f, &x, 4);
    return f;
}

GgufWriter::GgufWriter(uint32_t alignment) : m_alignment(alignment) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
        throw Error("GGUF: the alignment must be a power of two");
    add_u32("general.alignment", alignment);
}

void GgufWriter::key(const std::string& k, GgufValueType t) {
    put_string(m_kv, k);
    put(m_kv, static_cast<uint32_t>(t));
    ++m_kvCount;
}

void GgufWriter::add_u32(const std::string& k, uint32_t v) {
    key(k, GgufValueType::Uint32);
    put(m_kv, v);
}

void GgufWriter::add_i32(const std::string& k, int32_t v) {
    key(k, GgufValueType::Int32);
    put(m_kv, v);
}

void GgufWriter::add_f32(const std::string& k, float v) {
    key(k, GgufValueType::Float32);
    put(m_kv, v);
}

void GgufWriter::add_bool(const std::string& k, bool v) {
    key(k, GgufValueType::Bool);
    put<uint8_t>(m_kv, v ? 1 : 0);
}

void GgufWriter::add_string(const std::string& k, const std::string& v) {
    key(k, GgufValueType::String);
    put_string(m_kv, v);
}

void GgufWriter::add_string_array(const std::string& k, const std::vector<std::string>& v) {
    key(k, GgufValueType::Array);
    put(m_kv, static_cast<uint32_t>(GgufValueType::String));
    put<uint64_t>(m_kv, v.size());
    for (const auto& s : v)
        put_string(m_kv, s);
}

void GgufWriter::add_i32_array(const std::string& k, const std::vector<int32_t>& v) {
    key(k, GgufValueType::Array);
    put(m_kv, static_cast<uint32_t>(GgufValueType::Int32));
    put<uint64_t>(m_kv, v.size());
    for (int32_t x : v)
        put(m_kv, x);
}

void GgufWriter::add_tensor(const std::string& name, const std::vector<int64_t>& torch_shape, const float* data,
                            GgufTensorType type) {
    Tensor t{name, {}, type, {}};
    size_t n = 1;
    for (auto it = torch_shape.rbegin(); it != torch_shape.rend(); ++it) {
        t.ne.push_back(static_cast<uint64_t>(*it));
        n *= static_cast<size_t>(*it);
    }
    if (type == GgufTensorType::F32) {
        t.data.assign(reinterpret_cast<const char*>(data), n * sizeof(float));
    } else {
        t.data.resize(n * 2);
        for (size_t i = 0; i < n; ++i) {
            const uint16_t h = float_to_half(data[i]);
            std::memcpy(&t.data[i * 2], &h, 2);
        }
    }
    m_tensors.push_back(std::move(t));
}

std::string GgufWriter::bytes() const {
    std::string out;
    out += "GGUF";
    put<uint32_t>(out, 3);
    put<uint64_t>(out, m_tensors.size());
    put<uint64_t>(out, m_kvCount);
    out += m_kv;
    uint64_t offset = 0;  // relative to the data section, which starts aligned
    for (const auto& t : m_tensors) {
        put_string(out, t.name);
        put<uint32_t>(out, static_cast<uint32_t>(t.ne.size()));
        for (uint64_t d : t.ne)
            put(out, d);
        put(out, static_cast<uint32_t>(t.type));
        put(out, offset);
        offset += t.data.size();
        offset = (offset + m_alignment - 1) / m_alignment * m_alignment;
    }
    pad_to(out, m_alignment);
    for (const auto& t : m_tensors) {
        out += t.data;
        pad_to(out, m_alignment);
    }
    return out;
}

void GgufWriter::write(const std::filesystem::path& path) const {
    write_file_atomic(path, bytes());
}

}  // namespace twb
