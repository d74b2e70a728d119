// Batch sampling: the token stream and documents.
#include "nn/training/batcher.h"

#include "nn/device.h"
#include "twb/errors.h"

#include <algorithm>

namespace twb::nn {

DocumentSource document_source(const PreparedDataset& data) {
    const auto special = data.meta.value("special_tokens", nlohmann::json::object());
    DocumentSource src;
    src.bos = special.value("bos", -1);
    src.eos = special.value("eos", -1);
    src.pad = special.value("pad", -1);
    if (src.bos < 0 || src.eos < 0)
        throw ConfigError(data.dir.string() + ": its tokenizer has no <bos>/<eos>, which documents need");
    return src;
}

Batcher::Batcher(const TokenFile& file, int64_t block_size, int64_t batch_size, uint64_t seed)
    : m_file(file), m_block(block_size), m_batch(batch_size), m_state(seed * 0x9E3779B97F4A7C15ull + 1) {
    if (static_cast<int64_t>(file.size()) < block_size + 1)
        throw InputError("the token file has " + std::to_string(file.size()) + " tokens, fewer than block_size+1 = " +
                         std::to_string(block_size + 1) + "; use a smaller block_size or more text");
}

Batcher::Batcher(const TokenFile& file, const DocumentSource& docs, int64_t block_size, int64_t batch_size,
                 uint64_t seed)
    : m_file(file), m_block(block_size), m_batch(batch_size), m_state(seed * 0x9E3779B97F4A7C15ull + 1), m_docs(docs) {
    if (!docs.index || docs.index->docs.empty())
        throw InputError("the split holds no documents; prepare more text with --documents");
    if (docs.bos < 0 || docs.eos < 0)
        throw InputError("documents need <bos> and <eos> tokens, which this dataset's tokenizer lacks");
    m_pieceStart.reserve(docs.index->docs.size() + 1);
    m_pieceStart.push_back(0);
    for (const auto& [s, e] : docs.index->docs) {
        // <bos> doc <eos> has n+2 tokens, n+1 targets; a piece of at most T+1 tokens has at most T targets.
        const uint64_t targets = e - s + 1, T = static_cast<uint64_t>(m_block);
        m_pieceStart.push_back(m_pieceStart.back() + (targets + T - 1) / T);
    }
}

uint64_t Batcher::next_u64() {
    uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::pair<torch::Tensor, torch::Tensor> Batcher::next(const torch::Device& device) {
    if (m_docs)
        return next_documents(device);
    const uint64_t range = m_file.size() - static_cast<uint64_t>(m_block);  // start in [0, N - T - 1]
    auto buf = torch::empty({m_batch, m_block + 1}, torch::kInt64);
    int64_t* p = buf.data_ptr<int64_t>();
    for (int64_t r = 0; r < m_world; ++r)
        for (int64_t b = 0; b < m_batch; ++b) {
            const uint64_t start = next_u64() % range;
            if (r == m_rank)
                m_file.copy_to(start, static_cast<uint64_t>(m_block + 1), p + b * (m_block + 1));
        }
    if (!device.is_cpu()) {  // one upload; the GPU makes the two views contiguous
        auto d = upload(buf, device);
        return {d.narrow(1, 0, m_block).contiguous(), d.narrow(1, 1, m_block).contiguous()};
    }
    return {buf.narrow(1, 0, m_block).contiguous(), buf.narrow(1, 1, m_block).contiguous()};
}

std::vector<int64_t> Batcher::piece_tokens(uint64_t piece, std::vector<uint8_t>& trained) const {
    // Piece k of document d is the sequence s = <bos> doc <eos> from s[k*T] on, at most T+1 tokens.
    const auto& docs = m_docs->index->docs;
    const uint64_t T = static_cast<uint64_t>(m_block);
    const auto it = std::upper_bound(m_pieceStart.begin(), m_pieceStart.end(), piece) - 1;
    const auto d = static_cast<size_t>(it - m_pieceStart.begin());
    const uint64_t k = piece - *it, n = docs[d].second - docs[d].first, len = n + 2;
    const uint64_t from = k * T, to = std::min(len, from + T + 1);
    std::vector<int64_t> row(static_cast<size_t>(to - from));
    trained.assign(row.size(), 1);
    for (uint64_t i = from; i < to; ++i) {
        const bool inside = i > 0 && i < len - 1;  // s[i] is doc[i-1], at offset docs[d].first + i - 1
        row[static_cast<size_t>(i - from)] = i == 0         ? m_docs->bos
                                             : i == len - 1 ? m_docs->eos
                                                            : m_file.at(docs[d].first + i - 1);
        if (m_docs->trained)
            trained[static_cast<size_t>(i - from)] = inside && in_loss_span(docs[d].first + i - 1);
    }
    return row;
}

bool Batcher::in_loss_span(uint64_t at) const {
    const auto& spans = m_docs->trained->docs;  // ordered, disjoint
    const auto it = std::upper_bound(spans.begin(), spans.end(), at,
                                     [](uint64_t v, const std::pair<uint64_t, uint64_t>& s) { return v < s.second; });
    return it != spans.end() && it->first <= at;
}

std::pair<torch::Tensor, torch::Tensor> Batcher::padded(const std::vector<std::vector<int64_t>>& rows,
                                                        const std::vector<std::vector<uint8_t>>& trained,
                                                        const torch::Device& device) const {
    size_t longest = 0;
    for (const auto& row : rows)
        longest = std::max(longest, row.size());
    const auto B = static_cast<int64_t>(rows.size());
    const auto L = static_cast<int64_t>(longest) - 1;  // every piece has at least 2 tokens
    auto x = torch::full({B, L}, m_docs->pad >= 0 ? m_docs->pad : m_docs->eos, torch::kInt64);
    auto y = torch::full({B, L}, kIgnoreIndex, torch::kInt64);
    int64_t *px = x.data_ptr<int64_t>(), *py = y.data_ptr<int64_t>();
    for (size_t b = 0; b < rows.size(); ++b)
        for (size_t t = 0; t + 1 < rows[b].size(); ++t) {
            px[static_cast<int64_t>(b) * L + static_cast<int64_t>(t)] = rows[b][t];
            if (trained[b][t + 1])
                py[static_cast<int64_t>(b) * L + static_cast<int64_t>(t)] = rows[b][t + 1];
        }
    return {upload(x, device), upload(y, device)};
}

std::pair<torch::Tensor, torch::Tensor> Batcher::next_documents(const torch::Device& device) {
    // This rank's rows: B random pieces (every rank draws all world*B, so the data position is shared).
    std::vector<std::vector<int64_t>> rows;
    std::vector<std::vector<uint8_t>> trained;
    rows.reserve(static_cast<size_t>(m_batch));
    for (int64_t r = 0; r < m_world; ++r)
        for (int64_t b = 0; b < m_batch; ++b) {
            const uint64_t piece = next_u64() % pieces();
            if (r == m_rank) {
                trained.emplace_back();
                rows.push_back(piece_tokens(piece, trained.back()));
            }
        }
    return padded(rows, trained, device);
}

std::pair<torch::Tensor, torch::Tensor> Batcher::pieces_batch(uint64_t first, uint64_t count,
                                                              const torch::Device& device) const {
    std::vector<std::vector<int64_t>> rows;
    std::vector<std::vector<uint8_t>> trained;
    for (uint64_t p = first; p < std::min(first + count, pieces()); ++p) {
        trained.emplace_back();
        rows.push_back(piece_tokens(p, trained.back()));
    }
    return padded(rows, trained, device);
}

}  // namespace twb::nn
