// The run lock (flock on RUN/.lock) and the clean-up of an interrupted writer's temporaries.
#include "core/run/run_lock.h"

#include "twb/errors.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace twb {

namespace fs = std::filesystem;

namespace {
constexpr const char* kLockName = ".lock";

/// The program's file name ("transformer-workbench"; /proc/self/comm cuts it at 15 characters).
std::string process_name() {
    std::error_code ec;
    std::string name = fs::read_symlink("/proc/self/exe", ec).filename().string();
    if (name.empty()) {
        std::ifstream in("/proc/self/comm");
        std::getline(in, name);
    }
    return name.empty() ? "unknown" : name;
}

std::string read_holder(int fd) {
    char buf[256] = {};
    const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    std::string s = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s.empty() ? "another process" : s;
}

/// NAME.tmpDIGITS: write_file_atomic's temporary.
bool atomic_write_temp(const std::string& name) {
    const size_t at = name.rfind(".tmp");
    if (at == std::string::npos || at == 0 || at + 4 == name.size())
        return false;
    return name.find_first_not_of("0123456789", at + 4) == std::string::npos;
}
}  // namespace

RunLock::RunLock(const fs::path& run_dir) : m_dir(run_dir) {
    std::error_code ec;
    m_created = !fs::exists(run_dir, ec);
    fs::create_directories(run_dir, ec);
    if (ec)
        throw IoError(run_dir.string() + ": cannot create the run folder (" + ec.message() +
                      "); choose a writable place for --out");
    const fs::path f = run_dir / kLockName;
    m_fd = ::open(f.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0)
        throw IoError(f.string() + ": cannot create the run lock (" + std::strerror(errno) +
                      "); is the run folder writable?");
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        const std::string who = read_holder(m_fd);
        ::close(m_fd);
        m_fd = -1;
        if (err == EWOULDBLOCK)
            throw InputError(run_dir.string() + " is being written by " + who +
                             "; one trainer at a time writes a run: wait for it to finish, stop it, or choose "
                             "another --out");
        throw IoError(f.string() + ": cannot lock the run folder (" + std::strerror(err) + ")");
    }
    const std::string me = "process " + std::to_string(::getpid()) + " (" + process_name() + ")\n";
    if (::ftruncate(m_fd, 0) == 0) {
        [[maybe_unused]] const ssize_t w = ::pwrite(m_fd, me.data(), me.size(), 0);
    }
}

RunLock::~RunLock() {
    if (m_fd < 0)
        return;
    [[maybe_unused]] const int t = ::ftruncate(m_fd, 0);
    ::close(m_fd);  // releases the lock; the file stays (unlinking a lock file races with a new locker)
    if (m_created) {
        // A run that failed before writing anything leaves no folder behind.
        std::error_code ec;
        bool onlyLock = true;
        for (auto& e : fs::directory_iterator(m_dir, ec))
            if (e.path().filename() != kLockName)
                onlyLock = false;
        if (!ec && onlyLock)
            fs::remove_all(m_dir, ec);
    }
}

std::string RunLock::holder(const fs::path& run_dir) {
    const int fd = ::open((run_dir / kLockName).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    std::string who;
    if (::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        who = read_holder(fd);
    ::close(fd);
    return who;
}

int remove_stale_temporaries(const fs::path& run_dir) {
    int n = 0;
    std::error_code ec;
    for (const fs::path& dir : {run_dir, run_dir / "checkpoints", run_dir / "probe"}) {
        if (!fs::is_directory(dir, ec))
            continue;
        std::vector<fs::path> stale;
        for (auto& e : fs::directory_iterator(dir, ec)) {
            const std::string name = e.path().filename().string();
            const bool partialCheckpoint =
                e.is_directory(ec) && name.rfind(".step_", 0) == 0 && name.find(".tmp") != std::string::npos;
            const bool partialTensorBoard =  // tensorboard.cpp's folder being built, or the one it replaced
                e.is_directory(ec) && (name.rfind(".tb.tmp", 0) == 0 || name.rfind(".tb.old", 0) == 0);
            if (partialCheckpoint || partialTensorBoard || (e.is_regular_file(ec) && atomic_write_temp(name)))
                stale.push_back(e.path());
        }
        for (auto& p : stale)
            if (fs::remove_all(p, ec) > 0)
                ++n;
    }
    return n;
}

}  // namespace twb
