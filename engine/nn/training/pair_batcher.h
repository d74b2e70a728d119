// Training and evaluation batches of translation pairs (a parallel dataset's records), by token
// budget as Vaswani et al. batch: pairs sorted by length and cut into batches whose padded size
// (pairs x (longest source + longest target)) stays within batch_tokens, so padding stays small; the
// batch order is shuffled per epoch with the seed. Encoder input: source <eos>; decoder input: <bos>
// target; decoder targets: target <eos>, kIgnoreIndex at padding (never counted in loss or accuracy).
// Pairs whose source + <eos> or <bos> + target exceed block_size are skipped and counted (skipped()).
// The state is one integer (epoch and batch), so checkpoints resume the exact batch sequence.
#pragma once
#include "twb/dataset.h"

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace twb::nn {

struct PairBatch {
    torch::Tensor src, src_pad;                        // (B, S) int64 ids, (B, S) bool true at padding
    torch::Tensor tgt_in, tgt_pad;                     // (B, T) decoder inputs, (B, T) bool true at padding
    torch::Tensor tgt_out;                             // (B, T) targets, kIgnoreIndex at padding
    int64_t pairs = 0, target_tokens = 0, tokens = 0;  // tokens: padded B * (S + T)
};

struct PairIds {
    int64_t bos = -1, eos = -1, pad = -1;  // pad < 0: inputs padded with eos (masked anyway)
};

class PairBatcher {
public:
    /// pairs as read_pairs gives them (no <bos>/<eos>); batch_tokens > 0.
    PairBatcher(std::vector<TokenPair> pairs, const PairIds& ids, int64_t block_size, int64_t batch_tokens,
                uint64_t seed);
    /// The next batch of the shuffled epoch order (a new epoch reshuffles).
    PairBatch next(const torch::Device& device);
    /// Batch i of the length-sorted order (no shuffle): evaluation passes.
    PairBatch batch(size_t i, const torch::Device& device) const;
    size_t batches() const { return m_batches.size(); }
    uint64_t skipped() const { return m_skipped; }
    const std::vector<TokenPair>& pairs() const { return m_pairs; }
    /// Epochs done, fractional (what max_epochs counts).
    double epoch() const;
    uint64_t state() const { return m_state; }
    void set_state(uint64_t s) { m_state = s; }

private:
    std::vector<size_t> epoch_order(uint64_t epoch) const;
    std::vector<TokenPair> m_pairs;  // the pairs kept
    PairIds m_ids;
    std::vector<std::vector<size_t>> m_batches;  // indexes into m_pairs
    uint64_t m_seed, m_state = 0;                // state: epoch << 32 | batch within the epoch
    uint64_t m_skipped = 0;
};

}  // namespace twb::nn
