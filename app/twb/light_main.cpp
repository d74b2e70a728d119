// twb: the command line's front door, without libtorch. `twb sample` and `twb chat` of a run that the CPU
// decoder serves (twb/cpu_session.h: one sequence, a CPU run, bf16 decode weights) run here and never load
// libtorch,
// whose start alone takes 0.4-0.8 s; every other command line goes to twb-torch, the program with the whole
// engine, by exec: the same process, arguments, environment and streams.
#include "app/twb/chat_command.h"
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

/// `twb [--verbose] NAME ...` parsed with the command's options (add); nullopt when it does not parse
/// (--help, a parse error), else whether --verbose (or TWB_VERBOSE) asks for whole messages.
template <class Opts>
std::optional<bool> parse_command(int argc, char** argv, const char* name, Opts& o, void (*add)(CLI::App&, Opts&)) {
    CLI::App app;
    app.fallthrough();
    bool verbose = std::getenv("TWB_VERBOSE") != nullptr;
    app.add_flag("--verbose", verbose);
    add(*app.add_subcommand(name), o);
    try {
        app.parse(argc, argv);
    } catch (...) {
        return std::nullopt;
    }
    return verbose;
}

/// `twb sample ...` when the CPU decoder serves it; nullopt hands it to twb-torch, which also says every
/// error of parsing or opening (so both read the same).
std::optional<int> sample_without_torch(int argc, char** argv) {
    twb::cli::SampleOpts o;
    const auto verbose = parse_command(argc, argv, "sample", o, &twb::cli::add_sample_options);
    if (!verbose)
        return std::nullopt;
    twb::SamplingOptions s;
    std::string prompt;
    try {
        s = twb::cli::sampling_of(o);
        prompt = twb::cli::prompt_of(o);
    } catch (...) {  // a bad value, an unreadable prompt file
        return std::nullopt;
    }
    twb::CpuSession m;
    if (const std::string why = m.open(o.run, o.checkpoint, s); !why.empty()) {
        if (o.timing)
            std::fprintf(stderr, "twb: with libtorch: %s\n", twb::cli::one_line(why, false).c_str());
        return std::nullopt;
    }
    return twb::cli::run_action([&] { return twb::cli::sample_with(m, o, s, prompt); }, *verbose);
}

/// `twb chat ...` likewise.
std::optional<int> chat_without_torch(int argc, char** argv) {
    twb::cli::ChatOpts o;
    const auto verbose = parse_command(argc, argv, "chat", o, &twb::cli::add_chat_options);
    if (!verbose)
        return std::nullopt;
    twb::SamplingOptions s;
    try {
        s = twb::cli::chat_sampling_of(o);
        twb::cli::check_chat_history_place(o);  // refused by the libtorch path, which says why
    } catch (...) {
        return std::nullopt;
    }
    twb::CpuSession m;
    if (!m.open(o.run, o.checkpoint, s).empty())
        return std::nullopt;
    const twb::cli::ChatFn reply = [&m](const twb::Conversation& c, const twb::SamplingOptions& so,
                                        const twb::TokenCallback& cb,
                                        const std::atomic<bool>* cancel) { return m.chat(c, so, cb, cancel); };
    return twb::cli::run_action([&] { return twb::cli::run_chat(o, s, reply, m.step()); }, *verbose);
}

}  // namespace

int main(int argc, char** argv) {
    twb::ensure_openmp_wait_policy(argv);  // set here, so twb-torch starts with it in its environment
    const std::string command = subcommand(argc, argv);
    if (command == "sample")
        if (const auto rc = sample_without_torch(argc, argv))
            twb::cli::finish(*rc);
    if (command == "chat")
        if (const auto rc = chat_without_torch(argc, argv))
            twb::cli::finish(*rc);
    run_with_torch(argv);
}
