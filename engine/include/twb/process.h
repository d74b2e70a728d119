// Process-wide settings that must be in place before libraries start: the OpenMP wait policy. Public
// API; no torch.
#pragma once

namespace twb {

/// OpenMP (libtorch's and OpenBLAS's threads) reads OMP_WAIT_POLICY only when it loads, and by default
/// its idle threads spin: on a machine where another busy process holds a core, a 2-thread training
/// step then costs 25x its time (1,908 against 70 ms measured here). A program that calls this in main()
/// gets OMP_WAIT_POLICY=PASSIVE set before any library starts (from the executable's .preinit_array),
/// unless the user set the variable. The call itself does nothing; it links the setting in.
void ensure_openmp_wait_policy(char** argv);

/// Milliseconds since this process was started (exec'd), from the kernel's start time in
/// /proc/self/stat (10 ms resolution), so dynamic loading and any re-execution count; -1 when unknown.
/// For start-up measurements (`twb sample --timing`, TWB_REPORT_FIRST_PAINT).
double ms_since_process_start();

/// The wait policy in force ("PASSIVE", "ACTIVE", or what the user set), for the doctor.
const char* openmp_wait_policy();

}  // namespace twb
