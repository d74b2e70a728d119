// The OpenMP wait policy, set before OpenMP starts. libgomp reads OMP_WAIT_POLICY in its initialiser,
// before main(), and libc's own initialiser resets the environment to the array the program was started
// with, so setenv from inside the process is too late or undone. A function in the executable's
// .preinit_array (run after the libraries are loaded and relocated, before any of their initialisers,
// torch's operator registration included) therefore writes the variable into that very array: it lends
// itself the slot of a variable no library initialiser reads (`_`, OLDPWD, SHLVL or PWD, set by shells),
// and a constructor of the executable (run after every library's initialiser, before main) gives the
// slot back and sets OMP_WAIT_POLICY=PASSIVE properly, for child processes too. Only when none of those
// variables exists does it re-execute the program with the variable added (which loads every library a
// second time: about 0.3 s of CPU with libtorch). It is linked into every program that calls
// ensure_openmp_wait_policy (which keeps this object file, and with it the array entry).
#include "twb/process.h"

#include <time.h>
#include <unistd.h>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace twb {

namespace {
const char kPolicy[] = "OMP_WAIT_POLICY=PASSIVE";
const char kMarker[] = "TWB_WAIT_POLICY_SET=1";

char** g_lentSlot = nullptr;  // the environment slot lent to kPolicy until restore_lent_slot
char* g_lentValue = nullptr;  // what it held

void reexec_with_passive_wait_policy(char** argv, char** envp, size_t n) {
    // No allocation needed: the new environment lives on this frame until execve replaces the process.
    char** env = static_cast<char**>(__builtin_alloca((n + 3) * sizeof(char*)));
    for (size_t i = 0; i < n; ++i)
        env[i] = envp[i];
    env[n] = const_cast<char*>(kPolicy);
    env[n + 1] = const_cast<char*>(kMarker);
    env[n + 2] = nullptr;
    ::execve("/proc/self/exe", argv, env);
    // execve failed (no /proc): start with OpenMP's default policy.
}

void set_passive_wait_policy(int, char** argv, char** envp) {
    size_t n = 0;
    for (; envp && envp[n]; ++n)
        if (std::strncmp(envp[n], "OMP_WAIT_POLICY=", 16) == 0 ||
            std::strncmp(envp[n], "TWB_WAIT_POLICY_SET=", 20) == 0)
            return;  // the user chose a policy, or this is the second start
    for (const char* lend : {"_=", "OLDPWD=", "SHLVL=", "PWD="})
        for (size_t i = 0; i < n; ++i)
            if (std::strncmp(envp[i], lend, std::strlen(lend)) == 0) {
                g_lentSlot = &envp[i];
                g_lentValue = envp[i];
                envp[i] = const_cast<char*>(kPolicy);
                return;
            }
    reexec_with_passive_wait_policy(argv, envp, n);
}

// Runs after every shared library's initialiser (libgomp's reading of the variable included), before main.
__attribute__((constructor)) void restore_lent_slot() {
    if (!g_lentSlot)
        return;
    if (*g_lentSlot == kPolicy)  // environ is still the array the slot is in
        *g_lentSlot = g_lentValue;
    else  // something rebuilt the environment already: put the lent variable back through putenv
        ::putenv(g_lentValue);
    ::setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    ::setenv("TWB_WAIT_POLICY_SET", "1", 1);
}
}  // namespace

// Executables only: in a shared library the section is ignored.
__attribute__((section(".preinit_array"),
               used)) void (*const twb_preinit_wait_policy)(int, char**, char**) = &set_passive_wait_policy;

void ensure_openmp_wait_policy(char**) {}

const char* openmp_wait_policy() {
    const char* p = std::getenv("OMP_WAIT_POLICY");
    if (!p)
        return "default (spinning)";
    return std::getenv("TWB_WAIT_POLICY_SET") ? "PASSIVE (set by Transformer Workbench)" : p;
}

double ms_since_process_start() {
    std::ifstream f("/proc/self/stat");
    std::string stat;
    if (!std::getline(f, stat))
        return -1;
    // Field 22 is starttime in clock ticks since boot; fields after the command name (which may hold
    // spaces) start after its closing parenthesis, with field 3.
    const auto close = stat.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream rest(stat.substr(close + 2));
    std::string field;
    for (int i = 3; i < 22 && rest >> field; ++i) {
    }
    unsigned long long ticks = 0;
    if (!(rest >> ticks))
        return -1;
    timespec now{};
    if (clock_gettime(CLOCK_BOOTTIME, &now) != 0)
        return -1;
    const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
    return (static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9) * 1000.0 -
           static_cast<double>(ticks) / hz * 1000.0;
}

}  // namespace twb
