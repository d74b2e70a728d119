// How much memory the machine has for a new job, from /proc/meminfo; the trainer compares its
// estimate with it before allocating anything, so a model that cannot fit is refused with a message
// instead of being killed by the kernel minutes later.
#pragma once
#include <cstdint>
#include <string>

namespace twb {

/// MemAvailable in bytes (what the kernel says can be allocated without swapping), or 0 when unknown.
uint64_t available_memory_bytes();

/// Throws ConfigError when `needed` bytes exceed the available memory; `what` names the job
/// ("training this model") and `override_hint` how to go ahead anyway.
void check_memory_fits(int64_t needed, const std::string& what, const std::string& override_hint);

}  // namespace twb
