// Head scores and aggregations over a captured attention tensor. Plain C++ (no torch): the viewer
// computes them for live captures and for every step of a stored probe timeline.
#include "twb/attention.h"

#include <algorithm>
#include <cmath>

namespace twb {

HeadScores head_scores(const AttentionCapture& cap) {
    HeadScores s;
    const int64_t n = cap.layers * cap.heads, T = cap.length;
    s.entropy.assign(n, 0.f);
    s.previous.assign(n, 0.f);
    s.first.assign(n, 0.f);
    s.diagonal.assign(n, 0.f);
    if (T < 2)
        return s;
    for (int64_t l = 0; l < cap.layers; ++l)
        for (int64_t h = 0; h < cap.heads; ++h) {
            const int64_t i = l * cap.heads + h;
            double ent = 0, prev = 0, first = 0, diag = 0;
            for (int64_t q = 1; q < T; ++q) {
                double e = 0;
                for (int64_t k = 0; k <= q; ++k) {
                    const double w = cap.at(l, h, q, k);
                    if (w > 0)
                        e -= w * std::log(w);
                }
                ent += e / std::log(static_cast<double>(q + 1));  // 1 = uniform over what the query sees
                prev += cap.at(l, h, q, q - 1);
                first += cap.at(l, h, q, 0);
                diag += cap.at(l, h, q, q);
            }
            const double m = static_cast<double>(T - 1);
            s.entropy[i] = static_cast<float>(ent / m);
            s.previous[i] = static_cast<float>(prev / m);
            s.first[i] = static_cast<float>(first / m);
            s.diagonal[i] = static_cast<float>(diag / m);
        }
    return s;
}

std::vector<float> mean_over_heads(const AttentionCapture& cap, int64_t layer) {
    const int64_t T = cap.length;
    std::vector<float> out(static_cast<size_t>(T * T), 0.f);
    if (cap.heads == 0)
        return out;
    for (int64_t h = 0; h < cap.heads; ++h)
        for (int64_t q = 0; q < T; ++q)
            for (int64_t k = 0; k < T; ++k)
                out[q * T + k] += cap.at(layer, h, q, k);
    for (auto& v : out)
        v /= static_cast<float>(cap.heads);
    return out;
}

std::vector<float> attention_rollout(const AttentionCapture& cap, int64_t upto) {
    const int64_t T = cap.length;
    std::vector<double> acc(static_cast<size_t>(T * T), 0.0), next(acc.size());
    for (int64_t i = 0; i < T; ++i)
        acc[i * T + i] = 1.0;
    for (int64_t l = 0; l <= std::min(upto, cap.layers - 1); ++l) {
        const auto mean = mean_over_heads(cap, l);
        std::vector<double> a(acc.size());
        for (int64_t q = 0; q < T; ++q) {
            double sum = 0;
            for (int64_t k = 0; k < T; ++k) {
                a[q * T + k] = 0.5 * mean[q * T + k] + (q == k ? 0.5 : 0.0);
                sum += a[q * T + k];
            }
            for (int64_t k = 0; k < T; ++k)
                a[q * T + k] /= sum;
        }
        // next = a @ acc: layer l mixes the token representations that earlier layers already mixed.
        std::fill(next.begin(), next.end(), 0.0);
        for (int64_t q = 0; q < T; ++q)
            for (int64_t m = 0; m <= q; ++m) {
                const double w = a[q * T + m];
                if (w == 0)
                    continue;
                for (int64_t k = 0; k <= m; ++k)
                    next[q * T + k] += w * acc[m * T + k];
            }
        acc.swap(next);
    }
    return std::vector<float>(acc.begin(), acc.end());
}

}  // namespace twb
