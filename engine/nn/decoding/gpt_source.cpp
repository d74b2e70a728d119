// GptSource: a GPT's next-token logits with the KV cache and the context window policy.
#include "nn/decoding/gpt_source.h"

#include "core/decoding/context_window.h"
#include "nn/device.h"

#include <algorithm>
#include <cstdlib>

namespace twb::nn {

GptSource::GptSource(GPT model, torch::Device device, bool use_cache, std::shared_ptr<const FastWeights> fast)
    : m_model(std::move(model)), m_device(device), m_useCache(use_cache) {
    m_model->eval();
    if (fast)
        m_fast = std::make_unique<FastDecoder>(std::move(fast));
    const char* fixed = std::getenv("TWB_FIXED_STEP");
    const std::string f = fixed ? fixed : "";
    m_useFixed = use_cache && !m_fast && f != "0" && (device.is_cuda() || f == "1");
    m_useCuda = use_cache && !m_fast && CudaDecoder::unavailable(m_model, device).empty();
}

int64_t GptSource::window_start(int64_t n) const {
    return twb::window_start(n, m_model->config().block_size);
}

void GptSource::reset() {
    m_cache.clear();
    m_cacheStart = -1;
    m_cacheLen = 0;
    m_fastStart = -1;
    m_fixedStart = -1;
    m_cudaStart = -1;
}

void GptSource::expect_greedy(bool greedy) {
    m_greedy = greedy;
    if (m_cuda)
        m_cuda->expect_greedy(greedy);
}

void GptSource::reorder(const std::vector<int64_t>& parents) {
    m_fastStart = -1;  // the rows are other sequences now
    m_fixedStart = -1;
    m_cudaStart = -1;
    if (m_cache.empty())
        return;
    auto idx = torch::tensor(parents, torch::kInt64).to(m_device);
    for (auto& c : m_cache)
        c.reorder(idx);
}

torch::Tensor GptSource::fast_logits(const std::vector<int32_t>& seq) {
    const std::vector<float>& logits =
        feed_window(*m_fast, m_fastStart, window_start(static_cast<int64_t>(seq.size())), seq, m_useCache);
    auto out = torch::empty({1, static_cast<int64_t>(logits.size())}, torch::kFloat32);
    std::copy(logits.begin(), logits.end(), out.data_ptr<float>());
    return out;
}

torch::Tensor GptSource::cuda_logits(const std::vector<int32_t>& seq) {
    if (!m_cuda) {
        m_cuda = std::make_unique<CudaDecoder>(m_model, m_device);
        m_cuda->expect_greedy(m_greedy);
    }
    return feed_window(*m_cuda, m_cudaStart, window_start(static_cast<int64_t>(seq.size())), seq, true);
}

torch::Tensor GptSource::ids(const std::vector<std::vector<int32_t>>& seqs, int64_t from, int64_t to) const {
    const auto B = static_cast<int64_t>(seqs.size());
    auto t = torch::empty({B, to - from}, torch::kInt64);
    auto* p = t.data_ptr<int64_t>();
    for (int64_t b = 0; b < B; ++b)
        for (int64_t i = from; i < to; ++i)
            p[b * (to - from) + (i - from)] = seqs[static_cast<size_t>(b)][static_cast<size_t>(i)];
    return upload(t, m_device);
}

torch::Tensor GptSource::fixed_logits(const std::vector<std::vector<int32_t>>& seqs) {
    const auto& seq = seqs[0];
    // The window policy of the other paths. What the cache lacks but the last token (a prompt, a refilled
    // window) goes through the ordinary cached forward into the fixed step's cache; the last token is the
    // fixed step.
    const int64_t n = static_cast<int64_t>(seq.size()), ws = window_start(n);
    if (!m_fixed)
        m_fixed = std::make_unique<FixedStep>(m_model, m_device);
    auto& cache = m_fixed->cache();
    if (m_fixedStart != ws || cache[0].len >= n - ws) {
        m_fixed->reset();
        m_fixedStart = ws;
    }
    const int64_t from = ws + cache[0].len, last = n - 1;
    if (last > from) {
        ForwardOptions fo;
        fo.cache = &cache;
        fo.pos_offset = from - ws;
        fo.last_only = true;
        m_model->forward(ids(seqs, from, last), fo);
    }
    return m_fixed->step(seq[static_cast<size_t>(last)]).to(torch::kCPU, torch::kFloat32);  // (1, V)
}

torch::Tensor GptSource::next_logits(const std::vector<std::vector<int32_t>>& seqs) {
    torch::NoGradGuard ng;
    m_trace.before_step(m_calls++);
    const int64_t B = static_cast<int64_t>(seqs.size()), n = static_cast<int64_t>(seqs[0].size());
    if (m_fast && B == 1) {
        m_cache.clear();  // the libtorch cache no longer matches
        return fast_logits(seqs[0]);
    }
    m_fastStart = -1;
    if (m_useCuda && B == 1 && !m_model->has_head_gates()) {
        m_cache.clear();  // the libtorch cache no longer matches
        return cuda_logits(seqs[0]);
    }
    m_cudaStart = -1;
    if (m_useFixed && B == 1 && !m_model->has_head_gates()) {
        m_cache.clear();  // the libtorch cache no longer matches
        return fixed_logits(seqs);
    }
    m_fixedStart = -1;
    const int64_t ws = window_start(n);
    ForwardOptions fo;
    fo.last_only = true;
    torch::Tensor logits;
    if (!m_useCache) {
        logits = m_model->forward(ids(seqs, ws, n), fo);
    } else {
        // A new window, a sequence that did not grow, or another batch size: start the cache afresh.
        const bool refill = m_cache.empty() || m_cacheStart != ws || m_cacheLen >= n - ws ||
                            (m_cache[0].k.defined() && m_cache[0].k.size(0) != B);
        if (refill) {
            m_cache.assign(m_model->transformer->h->size(), LayerCache());
            m_cacheStart = ws;
            m_cacheLen = 0;
        }
        fo.cache = &m_cache;
        fo.pos_offset = m_cacheLen;
        logits = m_model->forward(ids(seqs, ws + m_cacheLen, n), fo);
        m_cacheLen = n - ws;
    }
    return logits.select(1, 0).to(torch::kCPU, torch::kFloat32);  // (B, V)
}

}  // namespace twb::nn
