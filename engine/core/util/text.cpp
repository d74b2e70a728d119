// UTF-8 helpers, atomic writes and sha256 (OpenSSL EVP).
#include "twb/text.h"

#include "twb/errors.h"
#include "twb/output_paths.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

namespace twb {

namespace fs = std::filesystem;

size_t utf8_sequence_length(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80)
        return 1;
    size_t n;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        cp = c & 0x07;
    } else
        return 0;
    if (i + n > s.size())
        return 0;
    for (size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    // Reject overlong forms, surrogates and values past U+10FFFF.
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000))
        return 0;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

size_t find_invalid_utf8(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_sequence_length(s, i);
        if (n == 0)
            return i;
        i += n;
    }
    return std::string::npos;
}

size_t replace_invalid_utf8(std::string& s) {
    if (find_invalid_utf8(s) == std::string::npos)
        return 0;
    std::string out;
    out.reserve(s.size());
    size_t replaced = 0;
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_sequence_length(s, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++replaced;
            ++i;
        } else {
            out.append(s, i, n);
            i += n;
        }
    }
    s.swap(out);
    return replaced;
}

uint32_t utf8_decode_at(std::string_view s, size_t i, size_t* len) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = utf8_sequence_length(s, i);
    if (n == 0)
        n = 1;
    if (len)
        *len = n;
    if (n == 1)
        return c;
    uint32_t cp = c & (0x7F >> n);
    for (size_t k = 1; k < n; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    return cp;
}

void utf8_append(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

size_t utf8_incomplete_tail(std::string_view s) {
    // Look back at most 3 bytes for a lead byte whose sequence runs past the end.
    const size_t n = s.size();
    for (size_t back = 1; back <= 3 && back <= n; ++back) {
        const unsigned char c = static_cast<unsigned char>(s[n - back]);
        if ((c & 0xC0) == 0x80)
            continue;  // continuation byte, keep looking
        size_t need = 1;
        if ((c & 0xE0) == 0xC0)
            need = 2;
        else if ((c & 0xF0) == 0xE0)
            need = 3;
        else if ((c & 0xF8) == 0xF0)
            need = 4;
        return need > back ? back : 0;
    }
    return 0;
}

bool looks_binary(std::string_view head) {
    size_t control = 0;
    for (unsigned char c : head) {
        if (c == 0)
            return true;
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v' && c != 0x1B)
            ++control;
    }
    return !head.empty() && control * 100 > head.size() * 5;
}

std::string read_file(const fs::path& path, uint64_t max_bytes) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec) {
        if (ec == std::errc::too_many_symbolic_link_levels)
            throw InputError(path.string() + ": a loop of symbolic links; point it at a file");
        if (ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory)
            throw InputError(path.string() + ": no such file");
        if (ec == std::errc::permission_denied)
            throw InputError(path.string() + ": permission denied; make it readable or give another file");
        throw InputError(path.string() + ": cannot read it (" + ec.message() + ")");
    }
    if (fs::is_directory(st))
        throw InputError(path.string() + " is a folder; give a file");
    if (!fs::is_regular_file(st))
        throw InputError(path.string() + " is not a regular file (a FIFO, a device or a socket); give a file");
    const uint64_t size = fs::file_size(path, ec);
    if (!ec && size > max_bytes)
        throw InputError(path.string() + " is " + human_bytes(size) + "; at most " + human_bytes(max_bytes) +
                         " is read here (is it the right file?)");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path.string() + ": cannot open the file (check that it is readable)");
    // Read in blocks with the cap enforced as it goes: /proc files say size 0, and a file may grow.
    std::string out;
    if (!ec)
        out.reserve(static_cast<size_t>(size));
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        out.append(buf, static_cast<size_t>(in.gcount()));
        if (out.size() > max_bytes)
            throw InputError(path.string() + " holds more than " + human_bytes(max_bytes) +
                             ", the most read here (is it the right file?)");
    }
    if (in.bad())
        throw InputError(path.string() + ": reading failed");
    return out;
}

std::string read_text_file(const fs::path& path, uint64_t max_bytes) {
    std::string text = read_file(path, max_bytes);
    if (const size_t bad = find_invalid_utf8(text); bad != std::string::npos)
        throw InputError(path.string() + ": not UTF-8 text (" +
                         (looks_binary(std::string_view(text).substr(0, 4096)) ? "a binary file; " : "") +
                         "invalid byte at offset " + std::to_string(bad) + "); give a UTF-8 text file");
    return text;
}

std::vector<std::string> text_lines(const std::string& text, const std::string& source) {
    const bool utf16 = text.rfind("\xFF\xFE", 0) == 0 || text.rfind("\xFE\xFF", 0) == 0;
    if (const size_t bad = find_invalid_utf8(text); bad != std::string::npos) {
        if (utf16)
            throw InputError(source + ": UTF-16 text (it starts with UTF-16's byte-order mark); save it as UTF-8");
        // Where, as prepare says it: the line to fix and the byte for a hex editor.
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
        throw InputError(source + ": not UTF-8 text (line " + std::to_string(line) + ", byte offset " +
                         std::to_string(bad) + "); give a UTF-8 file, one sentence per line");
    }
    // A NUL byte is valid UTF-8 but no sentence holds one: binary data, or UTF-16 without its mark.
    if (const size_t nul = text.find('\0'); nul != std::string::npos) {
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
        throw InputError(source + ": not text: a NUL byte (line " + std::to_string(line) + ", byte offset " +
                         std::to_string(nul) +
                         "), as in binary data or UTF-16; give a UTF-8 file, one sentence "
                         "per line");
    }
    std::vector<std::string> out;
    // A UTF-8 byte-order mark (an editor's) is no part of the first line: kept, it changed its words.
    std::istringstream in(text.rfind("\xEF\xBB\xBF", 0) == 0 ? text.substr(3) : text);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        out.push_back(line);
    }
    return out;
}

std::vector<std::string> read_lines(const fs::path& path) {
    return text_lines(read_file(path), path.string());
}

void write_file_atomic(const fs::path& path, std::string_view content) {
    require_name_room(path, 4 + 10);  // ".tmp" and up to 10 digits
    std::random_device rd;
    const fs::path tmp = path.string() + ".tmp" + std::to_string(rd());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw IoError(path.string() + ": cannot write here (check the folder exists and is writable)");
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        out.flush();
        if (!out) {
            std::error_code ec;
            fs::remove(tmp, ec);
            throw IoError(path.string() + ": write failed (disk full?)");
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        const std::error_code why = ec;  // the removal below would overwrite it ("Success")
        fs::remove(tmp, ec);
        if (fs::is_directory(path, ec))
            throw IoError(path.string() + " is a folder; give a file name (e.g. " + (path / "out").string() + ")");
        throw IoError(path.string() + ": cannot replace the file: " + why.message());
    }
}

namespace {
std::string to_hex(const unsigned char* d, unsigned n) {
    static const char* hex = "0123456789abcdef";
    std::string s;
    for (unsigned i = 0; i < n; ++i) {
        s += hex[d[i] >> 4];
        s += hex[d[i] & 15];
    }
    return s;
}
}  // namespace

std::string sha256_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path.string() + ": cannot open the file to hash it");
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
    std::vector<char> buf(1 << 20);
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        if (in.gcount() > 0)
            EVP_DigestUpdate(ctx, buf.data(), static_cast<size_t>(in.gcount()));
    }
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    EVP_DigestFinal_ex(ctx, d, &n);
    EVP_MD_CTX_free(ctx);
    return to_hex(d, n);
}

std::string sha256_hex(std::string_view data) {
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    EVP_Digest(data.data(), data.size(), d, &n, EVP_sha256(), nullptr);
    return to_hex(d, n);
}

size_t code_points(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

std::string human_bytes(uint64_t n) {
    const char* units[] = {"B", "KB", "MB", "GB", "TB"};
    double v = static_cast<double>(n);
    int u = 0;
    while (v >= 1000.0 && u < 4) {
        v /= 1000.0;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return buf;
}

namespace {
/// A control byte's Unicode picture (U+2400 + byte, DEL U+2421).
void append_control_picture(std::string& out, unsigned char b) {
    utf8_append(out, b == 0x7F ? 0x2421 : 0x2400 + b);
}
}  // namespace

std::string visible_whitespace(std::string_view s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '\n':
                out += "\u21B5";
                break;
            case ' ':
                out += "\u00B7";
                break;
            case '\t':
                out += "\u2192";
                break;
            case '\r':
                out += "\u240D";
                break;
            default: {
                // Other control bytes as their Unicode pictures: a terminal shows a symbol instead of obeying
                // them (an escape sequence recolouring it, a bell).
                const auto b = static_cast<unsigned char>(c);
                if (b < 0x20 || b == 0x7F)
                    append_control_picture(out, b);
                else
                    out += c;
            }
        }
    }
    return out;
}

std::string printable_text(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const size_t len = utf8_sequence_length(s, i);
        if (len == 0) {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[b >> 4];
            out += hex[b & 15];
            ++i;
            continue;
        }
        if (len == 1 && (b < 0x20 || b == 0x7F) && b != '\n' && b != '\t')
            append_control_picture(out, b);
        else
            out.append(s.substr(i, len));
        i += len;
    }
    return out;
}

}  // namespace twb
