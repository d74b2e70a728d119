// Small UTF-8, file and hashing helpers shared by every layer. Not a Unicode library: ICU does
// normalisation and transliteration in the cleaning step. Public API; no torch.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace twb {

/// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes there are invalid.
size_t utf8_sequence_length(std::string_view s, size_t i);

/// Offset of the first invalid UTF-8 byte, or std::string::npos when the text is valid.
size_t find_invalid_utf8(std::string_view s);

/// Replaces invalid bytes with U+FFFD; returns how many were replaced.
size_t replace_invalid_utf8(std::string& s);

/// Decodes one code point at s[i] (valid UTF-8 assumed).
uint32_t utf8_decode_at(std::string_view s, size_t i, size_t* len);

/// Appends the UTF-8 encoding of a code point.
void utf8_append(std::string& out, uint32_t cp);

/// How many bytes at the end of s form an incomplete (not yet finished) UTF-8 sequence.
size_t utf8_incomplete_tail(std::string_view s);

/// True when the first bytes of a file look binary (NUL bytes or many control bytes).
bool looks_binary(std::string_view head);

/// The most read_file reads unless told otherwise (2 GiB): a bigger "file" is a mistake or a device.
constexpr uint64_t kReadFileLimit = uint64_t(2) << 30;

/// Reads a whole regular file of at most max_bytes. InputError naming the file and the problem when it
/// is missing, a folder, not a regular file (a FIFO, a device such as /dev/zero: never opened, so never
/// blocks or grows without end), behind a symlink loop, unreadable, or larger than max_bytes.
std::string read_file(const std::filesystem::path& path, uint64_t max_bytes = kReadFileLimit);

/// A whole UTF-8 text file (read_file); InputError naming the file, the first bad byte's offset and whether it
/// looks binary when it is not UTF-8 text (a prompt file, a text to score).
std::string read_text_file(const std::filesystem::path& path, uint64_t max_bytes = kReadFileLimit);

/// A text's lines as `twb translate`, `twb bleu` and the GUI read sentence files: a final newline ends
/// the last line, a CR before the LF is dropped, and so is a UTF-8 byte-order mark. InputError naming
/// `source` when it is not UTF-8 (saying so when it is UTF-16).
std::vector<std::string> text_lines(const std::string& text, const std::string& source);
/// The lines of a UTF-8 text file (read_file, then text_lines).
std::vector<std::string> read_lines(const std::filesystem::path& path);

/// Writes a file atomically: to a temporary beside it (flushed), then renamed over the target, so a
/// reader sees the old file or the new one, never half of one. The one atomic-write helper of the engine.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

/// Hex sha256 of a file's bytes, read in blocks.
std::string sha256_file(const std::filesystem::path& path);

/// Hex sha256 of bytes in memory.
std::string sha256_hex(std::string_view data);

/// The characters (code points) of UTF-8 text: the bytes that do not continue a sequence.
size_t code_points(std::string_view s);

/// Human-readable size ("1.2 MB").
std::string human_bytes(uint64_t n);

/// Makes whitespace and control characters visible: "\n" -> "↵", " " -> "·", "\t" -> "→", other control
/// bytes as their Unicode pictures ("\x1b" -> "␛").
std::string visible_whitespace(std::string_view s);

/// Text safe to print in a message whatever a file held: valid UTF-8 is kept, an invalid byte becomes
/// "\xNN", and control bytes other than newline and tab their Unicode pictures ("\x1b" -> "␛").
std::string printable_text(std::string_view s);

}  // namespace twb
