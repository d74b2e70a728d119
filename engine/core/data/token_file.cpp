// Token file writer (buffered stdio) and memory-mapped reader.
#include "core/data/token_file.h"

#include "twb/errors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace twb {

namespace fs = std::filesystem;

std::string to_string(TokenDtype d) {
    return d == TokenDtype::U16 ? "uint16" : "uint32";
}

TokenDtype parse_token_dtype(const std::string& s) {
    if (s == "uint16")
        return TokenDtype::U16;
    if (s == "uint32")
        return TokenDtype::U32;
    throw FormatError("unknown token dtype '" + s + "' (expected uint16 or uint32)");
}

TokenWriter::TokenWriter(const fs::path& path, TokenDtype dtype) : m_path(path), m_dtype(dtype) {
    m_f = std::fopen(path.c_str(), "wb");
    if (!m_f)
        throw IoError(path.string() + ": cannot create the file (is the folder writable?)");
}

TokenWriter::~TokenWriter() {
    if (m_f)
        std::fclose(m_f);
}

void TokenWriter::write(const int32_t* ids, size_t n) {
    size_t written;
    if (m_dtype == TokenDtype::U16) {
        m_buf16.resize(n);
        for (size_t i = 0; i < n; ++i)
            m_buf16[i] = static_cast<uint16_t>(ids[i]);
        written = std::fwrite(m_buf16.data(), 2, n, m_f);
    } else {
        written = std::fwrite(ids, 4, n, m_f);
    }
    if (written != n)
        throw IoError(m_path.string() + ": write failed (disk full?)");
    m_count += n;
}

void TokenWriter::close() {
    if (m_f && std::fclose(m_f) != 0) {
        m_f = nullptr;
        throw IoError(m_path.string() + ": write failed on close (disk full?)");
    }
    m_f = nullptr;
}

TokenFile::TokenFile(const fs::path& path, TokenDtype dtype) : m_dtype(dtype) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0)
        throw InputError(path.string() + ": cannot open the token file; prepare the dataset again");
    struct stat st {};
    ::fstat(fd, &st);
    m_bytes = static_cast<size_t>(st.st_size);
    if (m_bytes % dtype_size(dtype) != 0) {
        ::close(fd);
        throw FormatError(path.string() + ": size is not a multiple of the " + to_string(dtype) +
                          " token size; the file is truncated or the dtype in meta.json is wrong");
    }
    m_count = m_bytes / dtype_size(dtype);
    if (m_bytes > 0) {
        m_data = ::mmap(nullptr, m_bytes, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m_data == MAP_FAILED) {
            m_data = nullptr;
            ::close(fd);
            throw IoError(path.string() + ": cannot memory-map the token file");
        }
    }
    ::close(fd);
}

TokenFile::~TokenFile() {
    if (m_data)
        ::munmap(m_data, m_bytes);
}

TokenFile::TokenFile(TokenFile&& o) noexcept {
    *this = std::move(o);
}

TokenFile& TokenFile::operator=(TokenFile&& o) noexcept {
    if (this != &o) {
        if (m_data)
            ::munmap(m_data, m_bytes);
        m_data = o.m_data;
        m_bytes = o.m_bytes;
        m_count = o.m_count;
        m_dtype = o.m_dtype;
        o.m_data = nullptr;
        o.m_bytes = 0;
        o.m_count = 0;
    }
    return *this;
}

void TokenFile::copy_to(uint64_t start, uint64_t count, int64_t* out) const {
    if (m_dtype == TokenDtype::U16) {
        const auto* p = static_cast<const uint16_t*>(m_data) + start;
        for (uint64_t i = 0; i < count; ++i)
            out[i] = p[i];
    } else {
        const auto* p = static_cast<const uint32_t*>(m_data) + start;
        for (uint64_t i = 0; i < count; ++i)
            out[i] = p[i];
    }
}

}  // namespace twb
