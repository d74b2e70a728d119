// The local launcher: fork + exec of this program once per rank.
#include "app/twb/launcher.h"

#include "twb/errors.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>

namespace twb::cli {

namespace {
std::vector<std::string> g_args;
std::vector<pid_t> g_children;

extern "C" void forward_signal(int sig) {
    for (pid_t p : g_children)
        if (p > 0)
            ::kill(p, sig);
}

/// A port on 127.0.0.1 that is free now (the kernel picks it).
int free_port() {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        throw IoError("cannot open a socket to find a free port");
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
        ::close(s);
        throw IoError("cannot find a free port on 127.0.0.1");
    }
    ::close(s);
    return ntohs(a.sin_port);
}
}  // namespace

void set_command_line(int argc, char** argv) {
    g_args.assign(argv, argv + argc);
}

int launch_local(int nproc, int threads_per_rank) {
    std::vector<std::string> args;
    for (size_t i = 0; i < g_args.size(); ++i) {
        if (g_args[i] == "--nproc") {
            ++i;  // and its value
            continue;
        }
        if (g_args[i].rfind("--nproc=", 0) == 0)
            continue;
        args.push_back(g_args[i]);
    }
    if (threads_per_rank > 0) {
        args.push_back("--set");
        args.push_back("threads=" + std::to_string(threads_per_rank));
    }
    const std::string port = std::to_string(free_port());
    std::fprintf(stderr, "twb: starting %d ranks on 127.0.0.1:%s%s\n", nproc, port.c_str(),
                 threads_per_rank > 0 ? (", " + std::to_string(threads_per_rank) + " threads each").c_str() : "");
    std::signal(SIGINT, forward_signal);
    std::signal(SIGTERM, forward_signal);
    g_children.assign(static_cast<size_t>(nproc), -1);
    for (int r = 0; r < nproc; ++r) {
        const pid_t pid = ::fork();
        if (pid < 0)
            throw IoError(std::string("cannot start rank ") + std::to_string(r) + ": " + std::strerror(errno));
        if (pid == 0) {
            // The ranks leave the terminal's process group: a Ctrl-C reaches them once, through us.
            ::setpgid(0, 0);
            std::signal(SIGINT, SIG_DFL);
            std::signal(SIGTERM, SIG_DFL);
            ::setenv("RANK", std::to_string(r).c_str(), 1);
            ::setenv("LOCAL_RANK", std::to_string(r).c_str(), 1);
            ::setenv("WORLD_SIZE", std::to_string(nproc).c_str(), 1);
            ::setenv("MASTER_ADDR", "127.0.0.1", 1);
            ::setenv("MASTER_PORT", port.c_str(), 1);
            std::vector<char*> argv;
            for (auto& a : args)
                argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execv("/proc/self/exe", argv.data());
            std::fprintf(stderr, "twb: cannot start rank %d: %s\n", r, std::strerror(errno));
            std::_Exit(127);
        }
        g_children[static_cast<size_t>(r)] = pid;
    }
    int result = 0;
    for (int left = nproc; left > 0;) {
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        --left;
        int rank = -1;
        for (size_t i = 0; i < g_children.size(); ++i)
            if (g_children[i] == pid) {
                rank = static_cast<int>(i);
                g_children[i] = -1;
            }
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (code != 0 && result == 0) {
            result = code;
            if (code != 130)
                std::fprintf(stderr, "twb: rank %d exited with status %d\n", rank, code);
        }
    }
    return result;
}

}  // namespace twb::cli
