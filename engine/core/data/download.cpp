#include "twb/catalogue.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <zlib.h>

namespace twb {

namespace fs = std::filesystem;

void gunzip_file(const fs::path& src, const fs::path& dst) {
    gzFile in = gzopen(src.string().c_str(), "rb");
    if (!in)
        throw IoError("cannot open " + src.string());
    const fs::path tmp = dst.string() + ".tmp";
    std::FILE* out = std::fopen(tmp.string().c_str(), "wb");
    if (!out) {
        gzclose(in);
        throw IoError("cannot write " + tmp.string());
    }
    std::vector<char> buf(1 << 16);
    int n = 0;
    while ((n = gzread(in, buf.data(), static_cast<unsigned>(buf.size()))) > 0)
        std::fwrite(buf.data(), 1, static_cast<size_t>(n), out);
    int err = Z_OK;
    const char* msg = gzerror(in, &err);
    const bool bad = n < 0 || (err != Z_OK && err != Z_STREAM_END);
    gzclose(in);
    std::fclose(out);
    if (bad) {
        fs::remove(tmp);
        throw FormatError(src.string() + " is not a complete gzip file (" + msg + "); download it again");
    }
    fs::rename(tmp, dst);
}

bool cached_file_ok(const fs::path& dir, const CatalogueFile& f) {
    const fs::path p = dir / f.path;
    std::error_code ec;
    if (!fs::is_regular_file(p, ec))
        return false;
    try {
        if (!f.sha256.empty())
            return sha256_file(p) == f.sha256;
    } catch (const Error&) {
        return false;  // unreadable: not usable, so not cached
    }
    return f.bytes == 0 || fs::file_size(p, ec) == f.bytes;
}

bool entry_cached(const fs::path& dir, const CatalogueEntry& e) {
    if (e.files.empty())
        return false;
    for (const auto& f : e.files)
        if (!cached_file_ok(dir, f))
            return false;
    return true;
}

}  // namespace twb
