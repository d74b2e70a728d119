// Running the built `twb` as a user does, for the tests that drive it from outside: the program beside
// the test binary, its exit status and both streams, and a small prepared dataset with a trained run to
// work on (tst_bad_input's refusals and tst_cli_guards' --force, warnings, run lock and signals).
#pragma once
#include "test_util.h"

#include <QProcess>
#include <QStringList>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace twbtest {

inline QString twb_program() {
    return QString::fromStdString((std::filesystem::read_symlink("/proc/self/exe").parent_path() / "twb").string());
}

struct Out {
    int code;
    QByteArray out, err;
};

/// Runs twb with args (stdin closed); a crash reads as 128 + the signal, a hang as -1.
inline Out run_twb(const QStringList& args, int timeoutMs = 300000) {
    QProcess p;
    p.start(twb_program(), args);
    p.waitForStarted();
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, p.readAllStandardOutput(), "timed out: " + args.join(' ').toUtf8()};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : 128 + p.exitCode(), p.readAllStandardOutput(),
            p.readAllStandardError()};
}

inline QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// The run's newest step_* checkpoint folder (empty when it has none).
inline std::filesystem::path last_checkpoint(const std::filesystem::path& run) {
    std::filesystem::path last;
    for (auto& e : std::filesystem::directory_iterator(run / "checkpoints"))
        if (e.path().filename().string().rfind("step_", 0) == 0 && e.path() > last)
            last = e.path();
    return last;
}

/// Under root: corpus.txt (English-like text), data/ (its char dataset) and run/ (the tiny preset, one
/// layer, 6 steps, a checkpoint and an evaluation every 2), made with twb itself. An empty string when
/// it worked, else what twb said.
inline QString make_cli_run(const std::filesystem::path& root) {
    write(root / "corpus.txt", english_like(30000));
    auto r = run_twb({"prepare", "--input", q(root / "corpus.txt"), "--out", q(root / "data"), "--quiet"});
    if (r.code != 0)
        return QString::fromUtf8(r.err);
    r = run_twb({"train", "--data", q(root / "data"), "--out", q(root / "run"), "--preset", "tiny", "--quiet", "--set",
                 "max_iters=6", "--set", "eval_interval=2", "--set", "eval_iters=1", "--set", "n_layer=1", "--set",
                 "threads=1"});
    return r.code == 0 ? QString() : QString::fromUtf8(r.err);
}

}  // namespace twbtest
