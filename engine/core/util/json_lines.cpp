// JSON-lines record files: appending through a temporary file, reading line by line and skipping bad lines.
#include "core/util/json_lines.h"

#include "twb/text.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <exception>
#include <fstream>

namespace twb {

std::string local_time_iso() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return buf;
}

namespace {
/// An exclusive flock on a folder while it is held: two writers of one record file (two `twb chat`
/// processes, the GUI and the CLI) take turns, so neither rewrites the file without the other's lines.
class FolderLock {
public:
    explicit FolderLock(const std::filesystem::path& dir)
        : m_fd(::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
        if (m_fd >= 0)
            while (::flock(m_fd, LOCK_EX) != 0 && errno == EINTR) {
            }
    }
    ~FolderLock() {
        if (m_fd >= 0)
            ::close(m_fd);  // releases the lock
    }
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;

private:
    int m_fd;
};
}  // namespace

void append_json_lines(const std::filesystem::path& path, const std::vector<nlohmann::json>& records) {
    // The read and the rename are one step under the lock (a folder that cannot be opened is written
    // unlocked: the write below says what is wrong with it).
    const FolderLock lock(path.parent_path());
    std::string text;
    if (std::filesystem::exists(path)) {
        text = read_file(path);
        if (!text.empty() && text.back() != '\n')
            text += '\n';
    }
    for (const auto& r : records)
        text += r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    write_file_atomic(path, text);
}

void for_each_json_object(const std::filesystem::path& path, const std::function<void(const nlohmann::json&)>& read) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        const auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (!j.is_object())
            continue;
        try {
            read(j);
        } catch (const std::exception&) {
            continue;
        }
    }
}

}  // namespace twb
