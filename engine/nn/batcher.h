// Random contiguous training batches from a memory-mapped token file, as nanoGPT's get_batch: B random
// offsets, x = tokens[i : i+T], y = tokens[i+1 : i+T+1]. Its own seeded generator (a splitmix64 stream)
// whose state is one integer, so checkpoints resume the exact batch sequence.
#pragma once
#include "core/data/token_file.h"

#include <torch/torch.h>

namespace twb::nn {

class Batcher {
public:
    Batcher(const TokenFile& file, int64_t block_size, int64_t batch_size, uint64_t seed);
    /// Data parallelism: every rank draws the same world*B offsets per batch and takes rows
    /// [rank*B, (rank+1)*B), so the ranks see different data, the data position (state) stays one
    /// number shared by all, and W ranks of B see exactly what one process of W*B would.
    void set_shard(int rank, int world) {
        m_rank = rank;
        m_world = world;
    }
    /// Next (x, y), each (B, T) int64, on device.
    std::pair<torch::Tensor, torch::Tensor> next(const torch::Device& device);
    uint64_t state() const { return m_state; }
    void set_state(uint64_t s) { m_state = s; }

private:
    uint64_t next_u64();
    const TokenFile& m_file;
    int64_t m_block, m_batch;
    int m_rank = 0, m_world = 1;
    uint64_t m_state;
};

}  // namespace twb::nn
