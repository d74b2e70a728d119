// TFRecord framing and the protobuf subset of TensorBoard's event files (tfevents.h says why by hand).
// Field numbers, checked against tensorboard 2.21's compat/proto descriptors:
//   Event: wall_time=1 double, step=2 int64, file_version=3 string, summary=5 Summary
//   Summary: value=1 repeated Value
//   Value: tag=1, simple_value=2 float, image=4 Image, tensor=8 TensorProto, metadata=9 SummaryMetadata
//   SummaryMetadata: plugin_data=1 PluginData {plugin_name=1 string}
//   TensorProto: dtype=1 (DT_STRING = 7), tensor_shape=2 (empty: a scalar), string_val=8 bytes
//   Image: height=1, width=2, colorspace=3, encoded_image_string=4
#include "core/run/tfevents.h"

#include <array>
#include <cstring>

namespace twb::tfevents {

namespace {
std::array<uint32_t, 256> make_table() {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
        t[i] = c;
    }
    return t;
}

std::string le_bytes(uint64_t v, int n) {
    std::string s(static_cast<size_t>(n), '\0');
    for (int i = 0; i < n; ++i)
        s[static_cast<size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
    return s;
}

std::string key(int field, int wire) {
    return proto_varint(static_cast<uint64_t>(field) << 3 | static_cast<uint64_t>(wire));
}

std::string event(double wall_time, int64_t step, const std::string& body_fields) {
    return proto_double(1, wall_time) + proto_int(2, step) + body_fields;
}

std::string summary_event(double wall_time, int64_t step, const std::string& value) {
    return event(wall_time, step, proto_bytes(5, proto_bytes(1, value)));
}
}  // namespace

uint32_t crc32c(std::string_view data) {
    static const std::array<uint32_t, 256> table = make_table();
    uint32_t c = 0xffffffffu;
    for (unsigned char b : data)
        c = table[(c ^ b) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

uint32_t masked_crc32c(std::string_view data) {
    const uint32_t c = crc32c(data);
    return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

std::string frame_record(std::string_view data) {
    const std::string len = le_bytes(data.size(), 8);
    std::string r = len + le_bytes(masked_crc32c(len), 4);
    r.append(data);
    r += le_bytes(masked_crc32c(data), 4);
    return r;
}

std::string proto_varint(uint64_t v) {
    std::string s;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        if (v)
            b |= 0x80;
        s += static_cast<char>(b);
    } while (v);
    return s;
}

std::string proto_bytes(int field, std::string_view bytes) {
    std::string s = key(field, 2) + proto_varint(bytes.size());
    s.append(bytes);
    return s;
}

std::string proto_double(int field, double v) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return key(field, 1) + le_bytes(bits, 8);
}

std::string proto_float(int field, float v) {
    uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return key(field, 5) + le_bytes(bits, 4);
}

std::string proto_int(int field, int64_t v) {
    return key(field, 0) + proto_varint(static_cast<uint64_t>(v));
}

std::string file_version_event(double wall_time) {
    return proto_double(1, wall_time) + proto_bytes(3, "brain.Event:2");
}

std::string scalar_event(double wall_time, int64_t step, const std::string& tag, float value) {
    return summary_event(wall_time, step, proto_bytes(1, tag) + proto_float(2, value));
}

std::string text_event(double wall_time, int64_t step, const std::string& tag, const std::string& text) {
    const std::string metadata = proto_bytes(1, proto_bytes(1, "text"));  // plugin_data { plugin_name: "text" }
    const std::string tensor = proto_int(1, 7) + proto_bytes(2, "") + proto_bytes(8, text);  // DT_STRING, shape []
    return summary_event(wall_time, step, proto_bytes(1, tag) + proto_bytes(8, tensor) + proto_bytes(9, metadata));
}

std::string image_event(double wall_time, int64_t step, const std::string& tag, int height, int width,
                        const std::string& png) {
    const std::string image = proto_int(1, height) + proto_int(2, width) + proto_int(3, 1) + proto_bytes(4, png);
    return summary_event(wall_time, step, proto_bytes(1, tag) + proto_bytes(4, image));
}

}  // namespace twb::tfevents
