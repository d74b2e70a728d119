// The OpenMP wait policy, set before OpenMP starts. libgomp reads OMP_WAIT_POLICY in its initialiser,
// before main(), and libc's own initialiser resets the environment to the one the program was started
// with, so setting the variable from inside the process is too late or undone. A function in the
// executable's .preinit_array (run after the libraries are loaded and relocated, before any of their
// initialisers, torch's operator registration included) re-executes the program with the variable
// added; the second start skips it. It is linked into every program that calls
// ensure_openmp_wait_policy (which keeps this object file, and with it the array entry).
#include "twb/process.h"

#include <unistd.h>
#include <cstdlib>
#include <cstring>

namespace twb {

namespace {
const char kPolicy[] = "OMP_WAIT_POLICY=PASSIVE";
const char kMarker[] = "TWB_WAIT_POLICY_SET=1";

void reexec_with_passive_wait_policy(int, char** argv, char** envp) {
    size_t n = 0;
    for (; envp && envp[n]; ++n)
        if (std::strncmp(envp[n], "OMP_WAIT_POLICY=", 16) == 0 ||
            std::strncmp(envp[n], "TWB_WAIT_POLICY_SET=", 20) == 0)
            return;  // the user chose a policy, or this is the second start
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
}  // namespace

// Executables only: in a shared library the section is ignored.
__attribute__((section(".preinit_array"),
               used)) void (*const twb_preinit_wait_policy)(int, char**, char**) = &reexec_with_passive_wait_policy;

void ensure_openmp_wait_policy(char**) {}

const char* openmp_wait_policy() {
    const char* p = std::getenv("OMP_WAIT_POLICY");
    if (!p)
        return "default (spinning)";
    return std::getenv("TWB_WAIT_POLICY_SET") ? "PASSIVE (set by Transformer Workbench)" : p;
}

}  // namespace twb
