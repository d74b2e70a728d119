// The document index files: writing and validated reading.
#include "core/data/document_index.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <string>

namespace twb {

namespace {
void put_u64(std::string& s, uint64_t v) {
    for (int i = 0; i < 8; ++i)
        s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
uint64_t get_u64(const std::string& s, size_t at) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= static_cast<uint64_t>(static_cast<unsigned char>(s[at + static_cast<size_t>(i)])) << (8 * i);
    return v;
}
}  // namespace

void DocumentIndex::write(const std::filesystem::path& path) const {
    std::string bytes;
    bytes.reserve(docs.size() * 16);
    for (const auto& [s, e] : docs) {
        put_u64(bytes, s);
        put_u64(bytes, e);
    }
    write_file_atomic(path, bytes);
}

DocumentIndex DocumentIndex::read(const std::filesystem::path& path, uint64_t tokens, uint64_t expected_docs) {
    auto bad = [&](const std::string& what) {
        return FormatError(path.string() + ": " + what + "; prepare the data again (twb prepare --documents)");
    };
    if (!std::filesystem::exists(path))
        throw bad("missing (meta.json says the dataset keeps documents)");
    const std::string bytes = read_file(path);
    if (bytes.size() % 16 != 0)
        throw bad("holds " + std::to_string(bytes.size()) + " bytes, not whole [start, end) pairs of 16 bytes");
    DocumentIndex idx;
    const size_t n = bytes.size() / 16;
    if (n != expected_docs)
        throw bad("holds " + std::to_string(n) + " documents but meta.json says " + std::to_string(expected_docs));
    idx.docs.reserve(n);
    uint64_t prevEnd = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t s = get_u64(bytes, 16 * i), e = get_u64(bytes, 16 * i + 8);
        if (s > e)
            throw bad("document " + std::to_string(i) + " starts after it ends (" + std::to_string(s) + " > " +
                      std::to_string(e) + ")");
        if (s < prevEnd)
            throw bad("document " + std::to_string(i) + " starts at " + std::to_string(s) +
                      ", before the previous one ends at " + std::to_string(prevEnd) + " (offsets must increase)");
        if (e > tokens)
            throw bad("document " + std::to_string(i) + " ends at token " + std::to_string(e) +
                      ", past the end of its token file (" + std::to_string(tokens) + " tokens)");
        idx.docs.emplace_back(s, e);
        prevEnd = e;
    }
    return idx;
}

}  // namespace twb
