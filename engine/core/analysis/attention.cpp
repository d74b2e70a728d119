// Head scores and aggregations over a captured attention tensor. Plain C++ (no torch): the viewer
// computes them for live captures and for every step of a stored probe timeline.
#include "twb/attention.h"

#include "twb/errors.h"

#include <algorithm>
#include <cmath>

namespace twb {

const char* to_string(AttentionKind k) {
    switch (k) {
        case AttentionKind::Decoder:
            return "decoder";
        case AttentionKind::EncoderSelf:
            return "encoder_self";
        case AttentionKind::DecoderSelf:
            return "decoder_self";
        case AttentionKind::Cross:
            return "cross";
    }
    return "decoder";
}

AttentionKind parse_attention_kind(const std::string& s) {
    for (auto k :
         {AttentionKind::Decoder, AttentionKind::EncoderSelf, AttentionKind::DecoderSelf, AttentionKind::Cross})
        if (s == to_string(k))
            return k;
    throw FormatError("unknown attention kind \"" + s + "\" (decoder, encoder_self, decoder_self or cross)");
}

HeadScores head_scores(const AttentionCapture& cap) {
    HeadScores s;
    const int64_t n = cap.layers * cap.heads, T = cap.length, K = cap.keys();
    s.entropy.assign(n, 0.f);
    s.previous.assign(n, 0.f);
    s.first.assign(n, 0.f);
    s.diagonal.assign(n, 0.f);
    const bool causal = cap.causal();
    // Causal rows: query 0 sees one key and says nothing; open rows (encoder, cross) all count.
    const int64_t q0 = causal ? 1 : 0;
    if (T - q0 < 1 || K < 2)
        return s;
    for (int64_t l = 0; l < cap.layers; ++l)
        for (int64_t h = 0; h < cap.heads; ++h) {
            const int64_t i = l * cap.heads + h;
            double ent = 0, prev = 0, first = 0, diag = 0;
            for (int64_t q = q0; q < T; ++q) {
                const int64_t seen = causal ? q + 1 : K;
                double e = 0;
                for (int64_t k = 0; k < seen; ++k) {
                    const double w = cap.at(l, h, q, k);
                    if (w > 0)
                        e -= w * std::log(w);
                }
                ent += e / std::log(static_cast<double>(seen));  // 1 = uniform over what the query sees
                if (q >= 1 && q - 1 < K)
                    prev += cap.at(l, h, q, q - 1);
                first += cap.at(l, h, q, 0);
                if (q < K)
                    diag += cap.at(l, h, q, q);
            }
            const double m = static_cast<double>(T - q0);
            s.entropy[i] = static_cast<float>(ent / m);
            s.previous[i] = static_cast<float>(prev / m);
            s.first[i] = static_cast<float>(first / m);
            s.diagonal[i] = static_cast<float>(diag / m);
        }
    return s;
}

std::vector<float> mean_over_heads(const AttentionCapture& cap, int64_t layer) {
    const int64_t T = cap.length, K = cap.keys();
    std::vector<float> out(static_cast<size_t>(T * K), 0.f);
    if (cap.heads == 0)
        return out;
    for (int64_t h = 0; h < cap.heads; ++h)
        for (int64_t q = 0; q < T; ++q)
            for (int64_t k = 0; k < K; ++k)
                out[q * K + k] += cap.at(layer, h, q, k);
    for (auto& v : out)
        v /= static_cast<float>(cap.heads);
    return out;
}

std::vector<float> attention_rollout(const AttentionCapture& cap, int64_t upto) {
    if (cap.kind == AttentionKind::Cross)
        return {};
    const int64_t T = cap.length;
    const bool causal = cap.causal();
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
            for (int64_t m = 0; m < (causal ? q + 1 : T); ++m) {
                const double w = a[q * T + m];
                if (w == 0)
                    continue;
                for (int64_t k = 0; k < (causal ? m + 1 : T); ++k)
                    next[q * T + k] += w * acc[m * T + k];
            }
        acc.swap(next);
    }
    return std::vector<float>(acc.begin(), acc.end());
}

}  // namespace twb
