// Data-parallel training over several processes (on one machine or several), on libtorch's own c10d:
// a TCPStore for the rendezvous and ProcessGroupGloo (CPU) or NCCL (CUDA, where the build has it) for
// the all-reduce. Launch follows torchrun's environment contract, so `torchrun --no_python ... twb
// train ...` and Slurm-style launchers work; `twb train --nproc N` is the built-in local launcher.
// Public API; no torch.
#pragma once
#include <string>
#include <vector>

namespace twb {

/// Where this process stands in a multi-process run.
struct DistributedEnv {
    int rank = 0;                           // 0 .. world_size-1; rank 0 writes the run folder
    int world_size = 1;                     // processes in the run; 1 = ordinary single-process training
    int local_rank = 0;                     // rank on this machine (picks the GPU on CUDA machines)
    std::string master_addr = "127.0.0.1";  // where rank 0 listens for the rendezvous
    int master_port = 29500;
    int timeout_s = 60;  // a rank that stops answering fails the others after this long
    bool active() const { return world_size > 1; }
};

/// Reads RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT and TWB_DIST_TIMEOUT (seconds); a
/// world size of 1 when WORLD_SIZE is unset. Under Slurm without WORLD_SIZE: SLURM_PROCID, SLURM_NTASKS
/// and SLURM_LOCALID (MASTER_ADDR and MASTER_PORT still come from the job script). Throws ConfigError naming a
/// malformed variable.
DistributedEnv distributed_from_env();

/// The collective backends this build has: "gloo" (CPU) and "nccl" (CUDA builds of libtorch with NCCL).
std::vector<std::string> distributed_backends();

}  // namespace twb
