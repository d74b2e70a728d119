// Token-budget batches of pairs.
#include "nn/training/pair_batcher.h"

#include "nn/device.h"
#include "nn/training/batcher.h"
#include "twb/errors.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace twb::nn {

PairBatcher::PairBatcher(std::vector<TokenPair> pairs, const PairIds& ids, int64_t block, int64_t batch_tokens,
                         uint64_t seed)
    : m_ids(ids), m_seed(seed) {
    if (ids.bos < 0 || ids.eos < 0)
        throw ConfigError("translation pairs need a tokenizer with <bos> and <eos>");
    for (auto& p : pairs) {
        if (static_cast<int64_t>(p.source.size()) + 1 > block || static_cast<int64_t>(p.target.size()) + 1 > block)
            ++m_skipped;
        else
            m_pairs.push_back(std::move(p));
    }
    if (m_pairs.empty())
        return;
    std::vector<size_t> order(m_pairs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const auto& x = m_pairs[a];
        const auto& y = m_pairs[b];
        return std::make_pair(x.source.size(), x.target.size()) < std::make_pair(y.source.size(), y.target.size());
    });
    std::vector<size_t> cur;
    int64_t maxS = 0, maxT = 0;
    for (size_t i : order) {
        const int64_t s = static_cast<int64_t>(m_pairs[i].source.size()) + 1;
        const int64_t t = static_cast<int64_t>(m_pairs[i].target.size()) + 1;
        const int64_t n = static_cast<int64_t>(cur.size()) + 1;
        if (!cur.empty() && n * (std::max(maxS, s) + std::max(maxT, t)) > batch_tokens) {
            m_batches.push_back(std::move(cur));
            cur.clear();
            maxS = maxT = 0;
        }
        cur.push_back(i);
        maxS = std::max(maxS, s);
        maxT = std::max(maxT, t);
    }
    if (!cur.empty())
        m_batches.push_back(std::move(cur));
}

std::vector<size_t> PairBatcher::epoch_order(uint64_t epoch) const {
    std::vector<size_t> order(m_batches.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(m_seed * 1000003ull + epoch);
    std::shuffle(order.begin(), order.end(), rng);
    return order;
}

double PairBatcher::epoch() const {
    if (m_batches.empty())
        return 0;
    return static_cast<double>(m_state >> 32) +
           static_cast<double>(m_state & 0xffffffffull) / static_cast<double>(m_batches.size());
}

PairBatch PairBatcher::next(const torch::Device& device) {
    if (m_batches.empty())
        throw InputError("no training pair fits block_size; raise block_size or prepare with --max-tokens");
    uint64_t epoch = m_state >> 32, index = m_state & 0xffffffffull;
    if (index >= m_batches.size()) {
        ++epoch;
        index = 0;
    }
    const auto order = epoch_order(epoch);
    PairBatch b = batch(order[static_cast<size_t>(index)], device);
    m_state = (epoch << 32) | (index + 1);
    return b;
}

PairBatch PairBatcher::batch(size_t i, const torch::Device& device) const {
    const auto& rows = m_batches.at(i);
    const int64_t B = static_cast<int64_t>(rows.size());
    int64_t S = 0, T = 0;
    for (size_t r : rows) {
        S = std::max<int64_t>(S, static_cast<int64_t>(m_pairs[r].source.size()) + 1);
        T = std::max<int64_t>(T, static_cast<int64_t>(m_pairs[r].target.size()) + 1);
    }
    const int64_t padId = m_ids.pad >= 0 ? m_ids.pad : m_ids.eos;
    auto src = torch::full({B, S}, padId, torch::kInt64), tgtIn = torch::full({B, T}, padId, torch::kInt64);
    auto tgtOut = torch::full({B, T}, kIgnoreIndex, torch::kInt64);
    auto srcPad = torch::ones({B, S}, torch::kBool), tgtPad = torch::ones({B, T}, torch::kBool);
    auto s = src.accessor<int64_t, 2>(), ti = tgtIn.accessor<int64_t, 2>(), to = tgtOut.accessor<int64_t, 2>();
    auto sp = srcPad.accessor<bool, 2>(), tp = tgtPad.accessor<bool, 2>();
    PairBatch out;
    for (int64_t b = 0; b < B; ++b) {
        const auto& p = m_pairs[rows[static_cast<size_t>(b)]];
        const int64_t n = static_cast<int64_t>(p.source.size()), m = static_cast<int64_t>(p.target.size());
        for (int64_t k = 0; k < n; ++k)
            s[b][k] = p.source[static_cast<size_t>(k)];
        s[b][n] = m_ids.eos;
        for (int64_t k = 0; k <= n; ++k)
            sp[b][k] = false;
        ti[b][0] = m_ids.bos;
        for (int64_t k = 0; k < m; ++k) {
            ti[b][k + 1] = p.target[static_cast<size_t>(k)];
            to[b][k] = p.target[static_cast<size_t>(k)];
        }
        to[b][m] = m_ids.eos;
        for (int64_t k = 0; k <= m; ++k)
            tp[b][k] = false;
        out.target_tokens += m + 1;
    }
    out.src = upload(src, device);
    out.src_pad = upload(srcPad, device);
    out.tgt_in = upload(tgtIn, device);
    out.tgt_pad = upload(tgtPad, device);
    out.tgt_out = upload(tgtOut, device);
    out.pairs = B;
    out.tokens = B * (S + T);
    return out;
}

}  // namespace twb::nn
