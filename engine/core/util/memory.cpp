// Available memory and the fits-or-refuse check.
#include "core/util/memory.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <fstream>
#include <mutex>
#include <sstream>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace twb {

uint64_t available_memory_bytes() {
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ss(line);
        std::string key;
        uint64_t kb = 0;
        if (ss >> key >> kb && key == "MemAvailable:")
            return kb * 1024;
    }
    return 0;
}

void check_memory_fits(int64_t needed, const std::string& what, const std::string& override_hint) {
    const uint64_t avail = available_memory_bytes();
    if (avail == 0 || needed <= 0 || static_cast<uint64_t>(needed) <= avail)
        return;
    throw ConfigError(what + " needs about " + human_bytes(static_cast<uint64_t>(needed)) + " of memory but " +
                      human_bytes(avail) +
                      " is available; make it smaller (n_layer, n_embd, batch_size, block_size) or, if you know "
                      "better, " +
                      override_hint);
}

void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
    static std::once_flag once;
    std::call_once(once, [] {
        mallopt(M_MMAP_THRESHOLD, 64 << 20);
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
    });
#endif
}

}  // namespace twb
