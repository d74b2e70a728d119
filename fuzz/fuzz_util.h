// Shared by the fuzz targets: a scratch folder per process for parsers that read files, and writing
// the input there. The targets link twb_core only (no torch), built with clang's libFuzzer, ASan and
// UBSan (TWB_FUZZ=ON; scripts/fuzz.sh). A target fails only on a crash, a sanitizer report or an
// exception that is not the engine's own twb::Error: refusing bad input with an Error is the point.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace twbfuzz {

inline const std::filesystem::path& scratch() {
    static const std::filesystem::path dir = [] {
        auto d = std::filesystem::temp_directory_path() / ("twb-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

inline std::filesystem::path write(const std::string& name, std::string_view bytes) {
    const auto p = scratch() / name;
    std::ofstream(p, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
}

inline std::string_view view(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

}  // namespace twbfuzz
