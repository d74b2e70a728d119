// The collective operations data-parallel training needs, over c10d: the rendezvous (TCPStore at
// MASTER_ADDR:MASTER_PORT, served by rank 0), broadcast from rank 0, averaging a flat gradient buffer in
// buckets, and scalar all-reduces. Gloo on CPU; NCCL on CUDA where the build has it. Every failure (a
// rank that died, a port in use, a rank that never came) becomes one twb::Error line.
#pragma once
#include "twb/distributed.h"

#include <torch/torch.h>

#include <memory>

namespace twb::nn {

class Communicator {
public:
    /// Joins the run: blocks until all world_size ranks have arrived or timeout_s passed.
    Communicator(const DistributedEnv& env, const torch::Device& device);
    ~Communicator();
    int rank() const { return m_env.rank; }
    int world() const { return m_env.world_size; }

    /// Copies rank 0's values of t into every rank's t.
    void broadcast(torch::Tensor& t);
    /// Replaces flat (a 1-D tensor) by its mean over the ranks, in buckets of about 4 MB.
    void average(torch::Tensor& flat);
    /// The mean of a value over the ranks.
    double average(double v);
    /// True when any rank passes true (used to stop every rank at the same step).
    bool any(bool flag);
    /// True when t holds the same bits on every rank (a checksum of its bytes compared by all-reduce).
    bool identical(const torch::Tensor& t);

private:
    [[noreturn]] void fail(const std::exception& e, const char* what) const;
    struct Impl;
    std::unique_ptr<Impl> d;
    DistributedEnv m_env;
};

}  // namespace twb::nn
