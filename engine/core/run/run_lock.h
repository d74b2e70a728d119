// The run lock: one trainer at a time writes a run folder. An OS file lock (flock) on RUN/.lock, so
// it is released by the kernel when the process ends in any way, SIGKILL included: a crash never leaves
// a run locked. The holder writes its process id and name into the file so a refused second trainer
// (another `twb train`, or the GUI, in this process or another) can say who holds it. Also removes the
// temporaries an interrupted writer leaves (only while holding the lock, so never a live writer's).
#pragma once
#include <filesystem>
#include <string>

namespace twb {

class RunLock {
public:
    /// Creates run_dir when needed and locks it; InputError naming the holding process when another
    /// writer holds it.
    explicit RunLock(const std::filesystem::path& run_dir);
    ~RunLock();
    RunLock(const RunLock&) = delete;
    RunLock& operator=(const RunLock&) = delete;

    /// "process 1234 (twb)" for the writer holding run_dir's lock, or "" when none does.
    static std::string holder(const std::filesystem::path& run_dir);

private:
    std::filesystem::path m_dir;
    int m_fd = -1;
    bool m_created = false;  // the folder did not exist: removed again when nothing else was written
};

/// Removes what interrupted writers left in a run folder: unfinished checkpoint folders
/// (checkpoints/.step_N.tmp*) and atomic-write temporaries (NAME.tmpDIGITS). Call only while holding
/// the RunLock. Returns how many were removed.
int remove_stale_temporaries(const std::filesystem::path& run_dir);

}  // namespace twb
