// twb: the command line's front door, without libtorch. `twb sample` of a run that the CPU decoder serves
// (twb/cpu_session.h: one sequence, a CPU run, bf16 decode weights) runs here and never loads libtorch,
// whose start alone takes 0.4-0.8 s; every other command line goes to twb-torch, the program with the whole
// engine, by exec: the same process, arguments, environment and streams.
#include "app/twb/run_action.h"
#include "app/twb/sample_command.h"
#include "twb/cpu_session.h"
#include "twb/process.h"
#include "twb/program_files.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

namespace {

/// Hands the command line to twb-torch (beside this program, or in the installation's module folder).
[[noreturn]] void run_with_torch(char** argv) {
    const auto path = twb::find_program_file("twb-torch");
    if (!path.empty())
        ::execv(path.c_str(), argv);
    std::fprintf(stderr, "twb: error: cannot start twb-torch%s%s%s; reinstall Transformer Workbench\n",
                 path.empty() ? " (not found beside twb or in its module folder" : " (",
                 path.empty() ? "" : std::strerror(errno), ")");
    std::_Exit(127);
}

/// The subcommand: the first argument that is not an option (--verbose may come first).
std::string subcommand(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (argv[i][0] != '-')
            return argv[i];
    return {};
}

/// `twb sample ...` when the CPU decoder serves it; nullopt hands it to twb-torch, which also says every
/// error of parsing or opening (so both read the same).
std::optional<int> sample_without_torch(int argc, char** argv) {
    CLI::App app;
    app.fallthrough();
    bool verbose = std::getenv("TWB_VERBOSE") != nullptr;
    app.add_flag("--verbose", verbose);
    CLI::App* sub = app.add_subcommand("sample");
    twb::cli::SampleOpts o;
    twb::cli::add_sample_options(*sub, o);
    twb::SamplingOptions s;
    std::string prompt;
    try {
        app.parse(argc, argv);
        s = twb::cli::sampling_of(o);
        prompt = twb::cli::prompt_of(o);
    } catch (...) {  // --help, a parse error, a bad value, an unreadable prompt file
        return std::nullopt;
    }
    twb::CpuSession m;
    if (const std::string why = m.open(o.run, o.checkpoint, s); !why.empty()) {
        if (o.timing)
            std::fprintf(stderr, "twb: with libtorch: %s\n", twb::cli::one_line(why, false).c_str());
        return std::nullopt;
    }
    return twb::cli::run_action([&] { return twb::cli::sample_with(m, o, s, prompt); }, verbose);
}

}  // namespace

int main(int argc, char** argv) {
    twb::ensure_openmp_wait_policy(argv);  // set here, so twb-torch starts with it in its environment
    if (subcommand(argc, argv) == "sample")
        if (const auto rc = sample_without_torch(argc, argv))
            twb::cli::finish(*rc);
    run_with_torch(argv);
}
