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

/// Asks glibc's allocator to keep freed memory for reuse instead of handing it back to the kernel at
/// once. A training step frees and reallocates the same few-megabyte activations hundreds of times a
/// second; by default glibc unmaps or trims them and the kernel zero-fills fresh pages at the next
/// allocation (page faults were ~10% of a small model's step on two cores). Blocks of 64 MB and more
/// are still mapped and unmapped on their own, and the heap is trimmed past 256 MB free. Process-wide;
/// training calls it when it starts; a second call does nothing.
void keep_freed_memory_for_reuse();

}  // namespace twb
