// The torchrun environment contract, read and checked.
#include "twb/distributed.h"
#include "twb/errors.h"

#include <cstdlib>
#include <string>

namespace twb {

namespace {
int env_int(const char* name, int fallback, int lo, int hi) {
    const char* v = std::getenv(name);
    if (!v || !*v)
        return fallback;
    const std::string s(v);
    size_t used = 0;
    long x = 0;
    try {
        x = std::stol(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != s.size() || x < lo || x > hi)
        throw ConfigError(std::string(name) + "='" + s + "' is not a whole number from " + std::to_string(lo) + " to " +
                          std::to_string(hi));
    return static_cast<int>(x);
}
}  // namespace

DistributedEnv distributed_from_env() {
    DistributedEnv e;
    // torchrun's variables; under Slurm (srun) without them, Slurm's own.
    const bool slurm = !std::getenv("WORLD_SIZE") && std::getenv("SLURM_NTASKS") && std::getenv("SLURM_PROCID");
    e.world_size = env_int(slurm ? "SLURM_NTASKS" : "WORLD_SIZE", 1, 1, 65536);
    e.rank = env_int(slurm ? "SLURM_PROCID" : "RANK", 0, 0, 65535);
    e.local_rank = env_int(slurm ? "SLURM_LOCALID" : "LOCAL_RANK", 0, 0, 65535);
    e.master_port = env_int("MASTER_PORT", e.master_port, 1, 65535);
    e.timeout_s = env_int("TWB_DIST_TIMEOUT", e.timeout_s, 1, 86400);
    if (const char* a = std::getenv("MASTER_ADDR"); a && *a)
        e.master_addr = a;
    if (e.rank >= e.world_size)
        throw ConfigError("RANK=" + std::to_string(e.rank) +
                          " is not below WORLD_SIZE=" + std::to_string(e.world_size) + "; ranks count from 0");
    return e;
}

}  // namespace twb
