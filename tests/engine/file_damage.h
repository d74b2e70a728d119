// Files damaged on purpose, for the bad-input table (tst_bad_input): a safetensors header rewritten, a
// tensor's or a token file's value overwritten, and GPT-2's byte alphabet for a vocab.json made by hand.
#pragma once
#include "twb_process.h"

#include <nlohmann/json.hpp>

#include <QChar>
#include <QString>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>

namespace twbtest {

/// The length of a safetensors file's JSON header (its first 8 bytes, little-endian).
inline uint64_t safetensors_header_length(const std::string& file_bytes) {
    uint64_t hl = 0;
    for (int i = 7; i >= 0; --i)
        hl = (hl << 8) | static_cast<unsigned char>(file_bytes[static_cast<size_t>(i)]);
    return hl;
}

/// Rewrites a safetensors file's header with edit(header) (the data section stays as it is).
template <class F>
void edit_safetensors(const std::filesystem::path& file, F edit) {
    const std::string s = slurp(file);
    const uint64_t hl = safetensors_header_length(s);
    nlohmann::json h = nlohmann::json::parse(s.substr(8, hl));
    edit(h);
    std::string nh = h.dump();
    while (nh.size() % 8)
        nh += ' ';
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[static_cast<size_t>(i)] = static_cast<char>((nh.size() >> (8 * i)) & 0xFF);
    write(file, out + nh + s.substr(8 + hl));
}

/// Where a safetensors file's data section starts, and its size.
inline std::pair<uint64_t, uint64_t> safetensors_data(const std::filesystem::path& file) {
    const std::string s = slurp(file);
    const uint64_t hl = safetensors_header_length(s);
    return {8 + hl, s.size() - 8 - hl};
}

/// Overwrites the first float of a tensor in a safetensors file.
inline void poke_float(const std::filesystem::path& file, const std::string& tensor, float value) {
    std::string s = slurp(file);
    const auto [start, size] = safetensors_data(file);
    const nlohmann::json h = nlohmann::json::parse(s.substr(8, start - 8));
    const auto at = start + h.at(tensor).at("data_offsets")[0].get<uint64_t>();
    s.replace(at, 4, std::string(reinterpret_cast<const char*>(&value), 4));
    write(file, s);
}

/// GPT-2's printable stand-in for byte b in vocab.json, as UTF-8 (its bytes_to_unicode table).
inline std::string gpt2_char(int b) {
    int cp = b, n = 0;
    const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
    if (!printable) {
        for (int x = 0; x < b; ++x)
            n += !((x >= 33 && x <= 126) || (x >= 161 && x <= 172) || x >= 174);
        cp = 256 + n;
    }
    return QString(QChar(cp)).toStdString();
}

/// Overwrites the token at index `at` of a uint16 token file.
inline void poke_token(const std::filesystem::path& file, size_t at, uint16_t id) {
    std::string s = slurp(file);
    s.replace(2 * at, 2, std::string(reinterpret_cast<const char*>(&id), 2));
    write(file, s);
}

}  // namespace twbtest
