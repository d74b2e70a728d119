// A grey-scale PNG written to memory (8 bits a pixel, no filter, zlib-compressed): enough for pictures
// the engine makes itself (the attention probe's images in TensorBoard's files). Not a general image
// library: no colour, no reading.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace twb {

/// The PNG file of a width x height grey image, pixels row by row (0 black, 255 white).
std::string encode_png_gray(int width, int height, const std::vector<uint8_t>& pixels);

}  // namespace twb
