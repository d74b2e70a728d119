// Grey-scale PNG encoding with zlib (png.h).
#include "core/util/png.h"

#include "twb/errors.h"

#include <zlib.h>

namespace twb {

namespace {
std::string be32(uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

std::string chunk(const char* type, const std::string& data) {
    std::string body = std::string(type, 4) + data;
    const auto crc = static_cast<uint32_t>(
        crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size())));
    return be32(static_cast<uint32_t>(data.size())) + body + be32(crc);
}
}  // namespace

std::string encode_png_gray(int width, int height, const std::vector<uint8_t>& pixels) {
    if (width <= 0 || height <= 0 || pixels.size() != static_cast<size_t>(width) * static_cast<size_t>(height))
        throw InputError("encode_png_gray: " + std::to_string(pixels.size()) + " pixels for " + std::to_string(width) +
                         " x " + std::to_string(height));
    std::string raw;  // each row: filter type 0, then its pixels
    raw.reserve(pixels.size() + static_cast<size_t>(height));
    for (int y = 0; y < height; ++y) {
        raw += '\0';
        raw.append(reinterpret_cast<const char*>(pixels.data()) + static_cast<size_t>(y) * static_cast<size_t>(width),
                   static_cast<size_t>(width));
    }
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::string z(size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(z.data()), &size, reinterpret_cast<const Bytef*>(raw.data()),
                  static_cast<uLong>(raw.size()), 6) != Z_OK)
        throw Error("encode_png_gray: zlib could not compress the image");
    z.resize(size);
    const std::string ihdr = be32(static_cast<uint32_t>(width)) + be32(static_cast<uint32_t>(height)) +
                             std::string("\x08\x00\x00\x00\x00", 5);  // 8 bits, grey, deflate, no filter, no interlace
    return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IDAT", z) + chunk("IEND", "");
}

}  // namespace twb
