// Training batches from a memory-mapped token file. Stream mode, as nanoGPT's get_batch: B random
// offsets, x = tokens[i : i+T], y = tokens[i+1 : i+T+1]. Documents mode (sequences=documents): B random
// pieces of documents, each document seen as <bos> doc <eos> and cut into pieces of at most T+1
// tokens (overlapping by one, so every target is predicted once), x and y padded to the batch's
// longest piece; padded targets are kIgnoreIndex, which the loss, accuracy and perplexity skip (so are a
// chat dataset's targets outside its loss spans: DocumentSource::trained). Its own
// seeded generator (a splitmix64 stream) whose state is one integer, so checkpoints resume the exact
// batch sequence in both modes.
#pragma once
#include "core/data/document_index.h"
#include "core/data/token_file.h"
#include "twb/dataset.h"

#include <torch/torch.h>

#include <optional>

namespace twb::nn {

/// The target id that marks padding: cross_entropy's ignore_index and the accuracy's mask.
inline constexpr int64_t kIgnoreIndex = -1;

/// What documents mode needs besides the token file: the split's index and the special ids.
struct DocumentSource {
    const DocumentIndex* index = nullptr;
    int64_t bos = -1, eos = -1, pad = -1;  // pad < 0: pad inputs with eos (never a target anyway)
    /// A chat dataset's loss spans (core/data/chat_data.h): only targets at token offsets inside a span
    /// are trained; every other target (prompts, headers, the <bos>/<eos> the batch adds) is kIgnoreIndex,
    /// as padding is. Null: every real target is trained.
    const DocumentIndex* trained = nullptr;
};

/// A prepared dataset's special ids for documents mode (index left null). ConfigError when its
/// tokenizer has no <bos>/<eos>.
DocumentSource document_source(const PreparedDataset& data);

class Batcher {
public:
    Batcher(const TokenFile& file, int64_t block_size, int64_t batch_size, uint64_t seed);
    /// Documents mode over file with docs' index. Throws InputError when the split holds no document.
    Batcher(const TokenFile& file, const DocumentSource& docs, int64_t block_size, int64_t batch_size, uint64_t seed);
    /// Data parallelism: every rank draws the same world*B offsets per batch and takes rows
    /// [rank*B, (rank+1)*B), so the ranks see different data, the data position (state) stays one
    /// number shared by all, and W ranks of B see exactly what one process of W*B would.
    void set_shard(int rank, int world) {
        m_rank = rank;
        m_world = world;
    }
    /// Next (x, y), each (B, T) int64, on device (documents: T is the batch's longest piece, <= block_size).
    std::pair<torch::Tensor, torch::Tensor> next(const torch::Device& device);
    uint64_t state() const { return m_state; }
    void set_state(uint64_t s) { m_state = s; }
    /// Documents mode: pieces to draw from (a document of n tokens gives ceil((n+1)/T) pieces).
    uint64_t pieces() const { return m_pieceStart.empty() ? 0 : m_pieceStart.back(); }
    /// Documents mode: pieces [first, first+count) in order, padded as next() pads (for a whole pass over
    /// a split: every piece once, so every real target once). The random stream is untouched.
    std::pair<torch::Tensor, torch::Tensor> pieces_batch(uint64_t first, uint64_t count,
                                                         const torch::Device& device) const;

private:
    uint64_t next_u64();
    std::pair<torch::Tensor, torch::Tensor> next_documents(const torch::Device& device);
    /// Piece `piece`'s tokens and, per token, whether it is a trained target (all when no loss spans).
    std::vector<int64_t> piece_tokens(uint64_t piece, std::vector<uint8_t>& trained) const;
    /// Whether the token at offset `at` of the file lies in a loss span.
    bool in_loss_span(uint64_t at) const;
    /// (x, y) of rows padded to the longest: inputs with pad (or eos), targets beyond a row or untrained
    /// kIgnoreIndex.
    std::pair<torch::Tensor, torch::Tensor> padded(const std::vector<std::vector<int64_t>>& rows,
                                                   const std::vector<std::vector<uint8_t>>& trained,
                                                   const torch::Device& device) const;
    const TokenFile& m_file;
    int64_t m_block, m_batch;
    int m_rank = 0, m_world = 1;
    uint64_t m_state;
    std::optional<DocumentSource> m_docs;
    std::vector<uint64_t> m_pieceStart;  // documents: prefix sums of pieces per document (size docs+1)
};

}  // namespace twb::nn
