// Token files: a flat array of uint16 or uint32 ids with no header (like nanoGPT's train.bin); the dtype
// lives in meta.json. Written by TokenWriter, read memory-mapped by TokenFile. TokenFile is read-only
// and safe to share between threads.
#pragma once
#include "twb/dataset.h"
#include "twb/text.h"

#include <cstdint>
#include <cstdio>
#include <string>

namespace twb {

namespace fs = std::filesystem;

inline TokenDtype dtype_for_vocab(int vocab) {
    return vocab <= 65536 ? TokenDtype::U16 : TokenDtype::U32;
}
inline size_t dtype_size(TokenDtype d) {
    return d == TokenDtype::U16 ? 2 : 4;
}

class TokenWriter {
public:
    TokenWriter(const fs::path& path, TokenDtype dtype);
    ~TokenWriter();
    void write(const int32_t* ids, size_t n);
    void close();
    uint64_t count() const { return m_count; }

private:
    fs::path m_path;
    TokenDtype m_dtype;
    std::FILE* m_f = nullptr;
    uint64_t m_count = 0;
    std::vector<uint16_t> m_buf16;
};

class TokenFile {
public:
    TokenFile() = default;
    TokenFile(const fs::path& path, TokenDtype dtype);
    ~TokenFile();
    TokenFile(TokenFile&& o) noexcept;
    TokenFile& operator=(TokenFile&& o) noexcept;
    TokenFile(const TokenFile&) = delete;
    TokenFile& operator=(const TokenFile&) = delete;

    uint64_t size() const { return m_count; }
    int32_t at(uint64_t i) const {
        return m_dtype == TokenDtype::U16 ? static_cast<const uint16_t*>(m_data)[i]
                                          : static_cast<int32_t>(static_cast<const uint32_t*>(m_data)[i]);
    }
    /// Copies count ids starting at start into out as int64 (what embedding lookups take).
    void copy_to(uint64_t start, uint64_t count, int64_t* out) const;
    TokenDtype dtype() const { return m_dtype; }
    /// The index of the first id >= bound, or size() when every id is below it (one pass over the map).
    uint64_t first_id_at_least(int64_t bound) const;
    /// How many times id occurs.
    uint64_t count_of(int32_t id) const;

private:
    void* m_data = nullptr;
    size_t m_bytes = 0;
    uint64_t m_count = 0;
    TokenDtype m_dtype = TokenDtype::U16;
};

/// A prepared dataset's split ("train", "val", "test") opened for training or evaluation, every id
/// checked below the vocabulary (the larger side's for separate vocabularies): an id past it would
/// index beyond the embedding table. FormatError naming the file, the id and its position.
TokenFile open_split(const PreparedDataset& data, const std::string& split);

/// A warning when more than half of a split's tokens are <unk> (meta.json's special_tokens): such a
/// model learns to predict <unk> and its loss and accuracy look far better than they are. Empty otherwise.
std::string unknown_share_warning(const PreparedDataset& data, const TokenFile& split, const std::string& name);

}  // namespace twb
