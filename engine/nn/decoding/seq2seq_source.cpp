// Encoder-decoder decoding.
#include "nn/decoding/seq2seq_source.h"

#include "nn/device.h"
#include "twb/errors.h"

#include <algorithm>
#include <cmath>

namespace twb::nn {

namespace {
/// (B, S) ids and padding of sources (each + <eos>), right-padded.
std::pair<torch::Tensor, torch::Tensor> source_batch(const std::vector<std::vector<int32_t>>& sources, size_t first,
                                                     size_t count, int64_t eos, int64_t pad, int64_t block) {
    int64_t S = 1;
    for (size_t i = first; i < first + count; ++i)
        S = std::max<int64_t>(S, std::min<int64_t>(block, static_cast<int64_t>(sources[i].size()) + 1));
    auto ids = torch::full({static_cast<int64_t>(count), S}, pad >= 0 ? pad : eos, torch::kInt64);
    auto isPad = torch::ones({static_cast<int64_t>(count), S}, torch::kBool);
    auto a = ids.accessor<int64_t, 2>();
    auto p = isPad.accessor<bool, 2>();
    for (size_t r = 0; r < count; ++r) {
        const auto& s = sources[first + r];
        const int64_t n = std::min<int64_t>(static_cast<int64_t>(s.size()), block - 1);  // cropped to fit
        for (int64_t k = 0; k < n; ++k)
            a[static_cast<int64_t>(r)][k] = s[static_cast<size_t>(k)];
        a[static_cast<int64_t>(r)][n] = eos;
        for (int64_t k = 0; k <= n; ++k)
            p[static_cast<int64_t>(r)][k] = false;
    }
    return {ids, isPad};
}
}  // namespace

void check_view_pair(const RunConfig& c, size_t source, size_t target, const std::string& what_for) {
    const int64_t block = c.block_size;
    if (source == 0)
        throw InputError("the source sentence is empty; type one " + what_for);
    if (static_cast<int64_t>(source) + 1 > block || static_cast<int64_t>(target) + 1 > block)
        throw InputError("the pair has " + std::to_string(source) + " source and " + std::to_string(target) +
                         " target tokens; the model takes at most " + std::to_string(block - 1) +
                         " per side (block_size " + std::to_string(block) + " with <bos>/<eos>): shorten the sentence");
}

int64_t max_target_length(const RunConfig& c, size_t n, double ratio, int extra) {
    // Bounded as a double first: --max-ratio 1e18 (or inf) overflowed the cast and gave one-token output.
    const double want = std::ceil(ratio * static_cast<double>(n)) + extra;
    return std::max<int64_t>(1, static_cast<int64_t>(std::min<double>(want, c.block_size - 1)));
}

Seq2SeqSource::Seq2SeqSource(Seq2Seq model, const std::vector<int32_t>& source, int64_t eos, torch::Device device,
                             bool use_cache)
    : m_model(std::move(model)), m_device(device), m_useCache(use_cache) {
    torch::NoGradGuard ng;
    auto [ids, pad] = source_batch({source}, 0, 1, eos, -1, m_model->config().block_size);
    m_srcPad = upload(pad, device);
    m_kvOne = m_model->project_memory(m_model->encode(upload(ids, device), m_srcPad));
    reset();
}

void Seq2SeqSource::reset() {
    m_kv = m_kvOne;
    m_srcPad = m_srcPad.narrow(0, 0, 1);
    m_cache.assign(m_model->decoder->h->size(), LayerCache());
    m_cached = 0;
}

torch::Tensor Seq2SeqSource::next_logits(const std::vector<std::vector<int32_t>>& seqs) {
    torch::NoGradGuard ng;
    const int64_t B = static_cast<int64_t>(seqs.size()), n = static_cast<int64_t>(seqs[0].size());
    if (m_kv[0].k.size(0) != B) {  // the first call of a batch of rows (beam search starts with one)
        const auto rows = upload(torch::zeros({B}, torch::kInt64), m_device);
        for (auto& kv : m_kv)
            kv.reorder(rows);
        m_srcPad = m_srcPad.index_select(0, rows);
    }
    const int64_t from = m_useCache ? m_cached : 0;
    auto ids = torch::empty({B, n - from}, torch::kInt64);
    for (int64_t b = 0; b < B; ++b)
        for (int64_t k = from; k < n; ++k)
            ids[b][k - from] = seqs[static_cast<size_t>(b)][static_cast<size_t>(k)];
    DecodeOptions opt;
    opt.pos_offset = from;
    opt.last_only = true;
    opt.cache = m_useCache ? &m_cache : nullptr;
    auto logits = m_model->decode(upload(ids, m_device), m_kv, m_srcPad, opt);
    if (m_useCache)
        m_cached = n;
    return logits.select(1, 0).to(torch::kFloat32).cpu();
}

void Seq2SeqSource::reorder(const std::vector<int64_t>& parents) {
    const auto rows = upload(torch::tensor(parents, torch::kInt64), m_device);
    for (auto& kv : m_kv)
        kv.reorder(rows);
    m_srcPad = m_srcPad.index_select(0, rows);
    for (auto& c : m_cache)
        c.reorder(rows);
}

torch::Tensor Seq2SeqSource::prefix_logits(const std::vector<int32_t>& seq) {
    torch::NoGradGuard ng;
    const int64_t n = static_cast<int64_t>(seq.size());
    auto ids = torch::empty({1, n}, torch::kInt64);
    for (int64_t k = 0; k < n; ++k)
        ids[0][k] = seq[static_cast<size_t>(k)];
    DecodeOptions opt;  // every position, no cache: the beam's rows and the cache stay as they are
    return m_model->decode(upload(ids, m_device), m_kvOne, m_srcPad.narrow(0, 0, 1), opt)
        .select(0, 0)
        .to(torch::kFloat32)
        .cpu();
}

std::vector<std::vector<int32_t>> greedy_translate(Seq2Seq& model, const std::vector<std::vector<int32_t>>& sources,
                                                   int64_t bos, int64_t eos, int64_t pad, double ratio, int extra,
                                                   const torch::Device& device, int batch_size, bool use_cache) {
    torch::NoGradGuard ng;
    const bool wasTraining = model->is_training();
    model->eval();
    std::vector<std::vector<int32_t>> out(sources.size());
    const auto& cfg = model->config();
    for (size_t first = 0; first < sources.size(); first += static_cast<size_t>(batch_size)) {
        const size_t count = std::min(sources.size() - first, static_cast<size_t>(batch_size));
        auto [ids, isPad] = source_batch(sources, first, count, eos, pad, cfg.block_size);
        ids = upload(ids, device);
        isPad = upload(isPad, device);
        const auto kv = model->project_memory(model->encode(ids, isPad));
        std::vector<int64_t> limit(count);
        int64_t longest = 0;
        for (size_t r = 0; r < count; ++r) {
            limit[r] = max_target_length(cfg, sources[first + r].size(), ratio, extra);
            longest = std::max(longest, limit[r]);
        }
        std::vector<LayerCache> cache(model->decoder->h->size());
        auto prefix = upload(torch::full({static_cast<int64_t>(count), 1}, bos, torch::kInt64), device);
        std::vector<bool> done(count, false);
        for (int64_t step = 0; step < longest; ++step) {
            DecodeOptions opt;
            opt.last_only = true;
            torch::Tensor logits;
            if (use_cache) {
                opt.cache = &cache;
                opt.pos_offset = step;
                logits = model->decode(prefix.narrow(1, step, 1), kv, isPad, opt);
            } else {
                logits = model->decode(prefix, kv, isPad, opt);
            }
            const auto chosen = logits.select(1, 0).argmax(-1);  // (B), on the device: the next input
            const auto next = chosen.cpu();
            auto nextA = next.accessor<int64_t, 1>();
            bool all = true;
            for (size_t r = 0; r < count; ++r) {
                if (done[r])
                    continue;
                const int64_t t = nextA[static_cast<int64_t>(r)];
                if (t == eos)
                    done[r] = true;
                else
                    out[first + r].push_back(static_cast<int32_t>(t));
                if (static_cast<int64_t>(out[first + r].size()) >= limit[r])
                    done[r] = true;
                all = all && done[r];
            }
            if (all)
                break;
            prefix = torch::cat({prefix, chosen.unsqueeze(1)}, 1);
        }
    }
    if (wasTraining)
        model->train();
    return out;
}

}  // namespace twb::nn
