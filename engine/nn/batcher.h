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
    /// Next (x, y), each (B, T) int64, on device.
    std::pair<torch::Tensor, torch::Tensor> next(const torch::Device& device);
    uint64_t state() const { return m_state; }
    void set_state(uint64_t s) { m_state = s; }

private:
    uint64_t next_u64();
    const TokenFile& m_file;
    int64_t m_block, m_batch;
    uint64_t m_state;
};

}  // namespace twb::nn
