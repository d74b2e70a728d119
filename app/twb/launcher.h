// `twb train --nproc N`: the built-in local launcher of a multi-process run. Starts N copies of this
// program on this machine with the torchrun environment (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR,
// MASTER_PORT on a free loopback port), splits the cores between them, forwards Ctrl-C and SIGTERM
// (each rank then checkpoints and stops at the same step), and returns the first non-zero exit code.
#pragma once
#include <string>
#include <vector>

namespace twb::cli {

/// Remembers the command line main() was given (the launcher re-runs it).
void set_command_line(int argc, char** argv);

/// Runs N ranks of the current command without its "--nproc N"; threads_per_rank > 0 adds
/// "--set threads=K". Blocks until every rank has exited.
int launch_local(int nproc, int threads_per_rank);

}  // namespace twb::cli
