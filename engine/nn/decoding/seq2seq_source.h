// Decoding the encoder-decoder: a LogitsSource over one source sentence, so decoding.h's strategies
// (greedy, beam search with a length penalty) serve it unchanged; and batched greedy decoding of many
// sources at once. The encoder runs once per source and every decoder block's cross-attention keys and
// values are projected once; the decoder's self-attention keeps a KV cache (or, without it, reruns the
// whole prefix: the two give the same tokens).
#pragma once
#include "nn/decoding/decoding.h"
#include "nn/models/seq2seq_model.h"

#include <vector>

namespace twb::nn {

class Seq2SeqSource : public LogitsSource {
public:
    /// source: ids without <eos> (it is appended here).
    Seq2SeqSource(Seq2Seq model, const std::vector<int32_t>& source, int64_t eos, torch::Device device, bool use_cache);
    torch::Tensor next_logits(const std::vector<std::vector<int32_t>>& seqs) override;
    void reorder(const std::vector<int64_t>& parents) override;
    void reset() override;
    /// Logits (n, V), float on the CPU, at every position of one whole target prefix seq (starting with <bos>)
    /// in one decoder pass without the cache: row i predicts seq[i + 1]. Scores a finished hypothesis.
    torch::Tensor prefix_logits(const std::vector<int32_t>& seq);

private:
    Seq2Seq m_model;
    torch::Device m_device;
    bool m_useCache;
    torch::Tensor m_srcPad;         // (rows, S)
    std::vector<MemoryKV> m_kv;     // per decoder block, (rows, H, S, D)
    std::vector<MemoryKV> m_kvOne;  // the single source's, for reset()
    std::vector<LayerCache> m_cache;
    int64_t m_cached = 0;  // target positions in the cache
};

/// Greedy translations of many sources at once (batch_size per encoder pass), each stopping at <eos> or
/// after max_length_ratio * source length + max_length_extra tokens (bounded by block_size). Returns the
/// generated ids per source, <eos> excluded.
std::vector<std::vector<int32_t>> greedy_translate(Seq2Seq& model, const std::vector<std::vector<int32_t>>& sources,
                                                   int64_t bos, int64_t eos, int64_t pad, double max_length_ratio,
                                                   int max_length_extra, const torch::Device& device, int batch_size,
                                                   bool use_cache = true);

/// The longest translation allowed for a source of n tokens.
int64_t max_target_length(const RunConfig& c, size_t n, double ratio, int extra);

/// Refuses a pair the viewers cannot run teacher-forced (attention capture, the decoder's logit lens): an
/// empty source (InputError saying to type one `what_for`), or a side longer than block_size - 1 tokens.
void check_view_pair(const RunConfig& c, size_t source, size_t target, const std::string& what_for);

}  // namespace twb::nn
