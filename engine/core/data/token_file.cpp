// Token file writer (buffered stdio) and memory-mapped reader.
#include "core/data/token_file.h"

#include "twb/errors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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

namespace {
template <class T>
uint64_t first_at_least(const T* p, uint64_t n, uint64_t bound) {
    // Blocks of 4096 reduced to a max (vectorised), the offending block then searched.
    constexpr uint64_t B = 4096;
    for (uint64_t s = 0; s < n; s += B) {
        const uint64_t e = std::min(n, s + B);
        T mx = 0;
        for (uint64_t i = s; i < e; ++i)
            mx = p[i] > mx ? p[i] : mx;
        if (mx >= bound)
            for (uint64_t i = s; i < e; ++i)
                if (p[i] >= bound)
                    return i;
    }
    return n;
}
}  // namespace

uint64_t TokenFile::first_id_at_least(int64_t bound) const {
    if (bound <= 0)
        return 0;
    const auto b = static_cast<uint64_t>(bound);
    return m_dtype == TokenDtype::U16 ? first_at_least(static_cast<const uint16_t*>(m_data), m_count, b)
                                      : first_at_least(static_cast<const uint32_t*>(m_data), m_count, b);
}

uint64_t TokenFile::count_of(int32_t id) const {
    uint64_t n = 0;
    if (m_dtype == TokenDtype::U16) {
        const auto* p = static_cast<const uint16_t*>(m_data);
        for (uint64_t i = 0; i < m_count; ++i)
            n += p[i] == static_cast<uint32_t>(id);
    } else {
        const auto* p = static_cast<const uint32_t*>(m_data);
        for (uint64_t i = 0; i < m_count; ++i)
            n += p[i] == static_cast<uint32_t>(id);
    }
    return n;
}

std::string unknown_share_warning(const PreparedDataset& data, const TokenFile& split, const std::string& name) {
    const auto& m = data.meta;
    if (!m.contains("special_tokens") || !m["special_tokens"].is_object() || split.size() == 0)
        return {};
    const auto& unk = m["special_tokens"].value("unk", nlohmann::json(-1));
    if (!unk.is_number_integer() || unk.get<int64_t>() < 0 || unk.get<int64_t>() >= data.vocab_size)
        return {};
    const double share = static_cast<double>(split.count_of(static_cast<int32_t>(unk.get<int64_t>()))) /
                         static_cast<double>(split.size());
    if (share <= 0.5)
        return {};
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.1f%%", 100 * share);
    return "warning: " + std::string(pct) + " of the " + name + " split of " + data.dir.string() +
           " is <unk>: the model will mostly learn to predict <unk>, and its loss and accuracy will look far better "
           "than they are; prepare the data with a larger vocabulary or a lower --min-frequency";
}

TokenFile open_split(const PreparedDataset& data, const std::string& split) {
    const fs::path path = data.dir / (split + ".bin");
    TokenFile f(path, data.dtype);
    const int64_t vocab = std::max<int64_t>(data.vocab_size, data.source_vocab_size);
    const uint64_t at = f.first_id_at_least(vocab);
    if (at < f.size())
        throw FormatError(path.string() + ": holds token id " + std::to_string(f.at(at)) + " (at token " +
                          std::to_string(at) + ") but the vocabulary has " + std::to_string(vocab) + " ids (0 to " +
                          std::to_string(vocab - 1) +
                          "); the file does not belong to this dataset's tokenizer: prepare the data again (twb "
                          "prepare ... --out " +
                          data.dir.string() + " --force)");
    return f;
}

}  // namespace twb
