// Batch sampling.
#include "nn/batcher.h"

#include "twb/errors.h"

namespace twb::nn {

Batcher::Batcher(const TokenFile& file, int64_t block_size, int64_t batch_size, uint64_t seed)
    : m_file(file), m_block(block_size), m_batch(batch_size), m_state(seed * 0x9E3779B97F4A7C15ull + 1) {
    if (static_cast<int64_t>(file.size()) < block_size + 1)
        throw InputError("the token file has " + std::to_string(file.size()) + " tokens, fewer than block_size+1 = " +
                         std::to_string(block_size + 1) + "; use a smaller block_size or more text");
}

uint64_t Batcher::next_u64() {
    uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::pair<torch::Tensor, torch::Tensor> Batcher::next(const torch::Device& device) {
    const uint64_t range = m_file.size() - static_cast<uint64_t>(m_block);  // start in [0, N - T - 1]
    auto buf = torch::empty({m_batch, m_block + 1}, torch::kInt64);
    int64_t* p = buf.data_ptr<int64_t>();
    for (int64_t r = 0; r < m_world; ++r)
        for (int64_t b = 0; b < m_batch; ++b) {
            const uint64_t start = next_u64() % range;
            if (r == m_rank)
                m_file.copy_to(start, static_cast<uint64_t>(m_block + 1), p + b * (m_block + 1));
        }
    auto x = buf.narrow(1, 0, m_block), y = buf.narrow(1, 1, m_block);
    if (device.is_cpu())
        return {x.contiguous(), y.contiguous()};
    return {x.to(device), y.to(device)};
}

}  // namespace twb::nn
