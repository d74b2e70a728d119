// TensorBoard's event-file format, written by hand: the TFRecord framing (length, masked CRC32C of the
// length, data, masked CRC32C of the data) and the few protobuf messages a scalar, text or image
// summary needs (tensorboard/compat/proto: event.proto, summary.proto, tensor.proto). Hand-written
// because no C++ TensorBoard writer is packaged, and generating these messages with protoc would link
// Debian's libprotobuf into the engine beside libtorch's own (the clash that keeps sentencepiece in a
// dlopen'd module, docs/architecture.md). The subset is small, fixed and tested against TensorBoard's
// reader (bench/tensorboard_reference.sh). Internal to twb_core; twb/tensorboard.h is the public face.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace twb::tfevents {

/// CRC-32C (Castagnoli, reflected polynomial 0x82f63b78); crc32c("123456789") == 0xe3069283.
uint32_t crc32c(std::string_view data);
/// TFRecord's masked CRC: ((crc >> 15) | (crc << 17)) + 0xa282ead8.
uint32_t masked_crc32c(std::string_view data);
/// One TFRecord: uint64 length (little endian), masked CRC of those 8 bytes, data, masked CRC of data.
std::string frame_record(std::string_view data);

/// Protobuf wire encoding of the message fields used here.
std::string proto_varint(uint64_t v);
std::string proto_bytes(int field, std::string_view bytes);  // wire type 2 (string, bytes, message)
std::string proto_double(int field, double v);               // wire type 1
std::string proto_float(int field, float v);                 // wire type 5
std::string proto_int(int field, int64_t v);                 // wire type 0

/// Serialised Event messages: the first record of every file, a scalar (simple_value), a text summary
/// (the text plugin: a DT_STRING scalar tensor) and an image.
std::string file_version_event(double wall_time);
std::string scalar_event(double wall_time, int64_t step, const std::string& tag, float value);
std::string text_event(double wall_time, int64_t step, const std::string& tag, const std::string& text);
/// An image summary: PNG bytes with their height and width (colorspace 1: grey).
std::string image_event(double wall_time, int64_t step, const std::string& tag, int height, int width,
                        const std::string& png);

}  // namespace twb::tfevents
