// The context window policy every GPT decoder shares: when a sequence outgrows block_size, the oldest
// half of the window is dropped (the window moves in steps of block/2), and a decoder with a cache is
// refilled once per move, so the text is the same with and without the cache.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace twb {

/// Window start for a sequence of length n: 0 until n > block, then moves in steps of block/2.
inline int64_t window_start(int64_t n, int64_t block) {
    if (n <= block)
        return 0;
    const int64_t half = std::max<int64_t>(1, block / 2);
    return (n - block + half - 1) / half * half;
}

/// What `dec` lacks of seq's window (a prompt, a refilled window, or the one new token) in one feed, after
/// starting afresh where its cache holds another window (`start`) or more than the sequence; without the
/// cache the whole window is fed again for every token. Decoder: reset(), length(), feed(tokens, n).
template <class Decoder>
decltype(auto) feed_window(Decoder& dec, int64_t& start, int64_t ws, const std::vector<int32_t>& seq, bool use_cache) {
    const int64_t n = static_cast<int64_t>(seq.size());
    if (!use_cache || start != ws || dec.length() >= n - ws) {
        dec.reset();
        start = ws;
    }
    const int64_t from = ws + dec.length();
    return dec.feed(seq.data() + from, n - from);
}

}  // namespace twb
