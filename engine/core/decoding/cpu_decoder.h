// The fast single-token decoder for CPUs: a GPT's weights converted once to bfloat16 (half the bytes
// to stream per token, so near twice the memory-bandwidth limit), a hand-written AVX2+FMA matrix-vector
// product (bf16 widened to fp32 by a shift, fp32 accumulation, four rows at a time), and the whole
// per-layer step for one token in plain C++ over raw pointers: norm, qkv, rotary, attention over an
// fp32 KV cache, output projection, MLP; a prompt or a refilled window goes through in chunks of
// tokens, and the products and heads are split over a spinning thread pool (core/decoding/spin_pool.h). The AVX2
// kernels are compiled with per-function target attributes and chosen at run time (__builtin_cpu_supports), so the
// binary still runs on a CPU without AVX2 (portable loops, same results within fp32 rounding); CUDA devices keep
// libtorch. Torch-free: libtorch's side converts a loaded model (nn/decoding/fast_decode.h), `twb sample` without
// libtorch reads a checkpoint's file (core/decoding/checkpoint_weights.h).
#pragma once
#include "twb/config.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace twb {

/// True when this CPU has AVX2 and FMA (the fast kernels' instructions).
bool cpu_has_avx2_fma();

/// fp32 -> bf16, rounding to nearest even (NaN stays NaN); bf16 -> fp32 is exact.
uint16_t to_bf16(float f);
float from_bf16(uint16_t b);

/// A weight matrix (rows x cols) in bf16, with an optional fp32 bias, laid out in the order the kernel reads
/// it, so that one product is one sequential stream (3x the row-major layout's speed on the bench model):
/// each group of four rows holds, per 16 columns, the four rows' 16 values one after the other, then the
/// four rows' columns past the last multiple of 16; rows past the last multiple of 4 follow row-major.
struct Bf16Matrix {
    int64_t rows = 0, cols = 0;
    std::vector<uint16_t> w;  // in the order index() gives
    std::vector<float> bias;  // empty or rows
    /// From a row-major (rows, cols) fp32 weight and an optional (rows) bias (null: none).
    static Bf16Matrix from(const float* weight, int64_t rows, int64_t cols, const float* bias = nullptr);
    /// Where element (r, c) is in w.
    int64_t index(int64_t r, int64_t c) const {
        const int64_t c16 = cols & ~int64_t{15};
        if (r >= (rows & ~int64_t{3}))
            return r * cols + c;
        const int64_t group = (r & ~int64_t{3}) * cols, k = r & 3;
        return c < c16 ? group + (c & ~int64_t{15}) * 4 + k * 16 + (c & 15)
                       : group + 4 * c16 + k * (cols - c16) + c - c16;
    }
    /// Element (r, c) as fp32 (inline: the portable loops read every weight through it).
    float at(int64_t r, int64_t c) const { return from_bf16(w[static_cast<size_t>(index(r, c))]); }
};

/// y = W x (+ bias) with a plain loop in column order: the definition the kernels are tested against.
void gemv_bf16_reference(const Bf16Matrix& m, const float* x, float* y);
/// y = W x (+ bias): the AVX2 kernel when avx2 is true (requires cpu_has_avx2_fma()), else the portable
/// loop; the rows of large matrices are split over decode_threads() (spin_pool.h).
void gemv_bf16(const Bf16Matrix& m, const float* x, float* y, bool avx2);
/// Y = X W^T (+ bias) for n inputs at once (X: n x cols, Y: n x rows, row-major), each block of rows read
/// once for all of them; every output is bit for bit what gemv_bf16 gives for its input alone.
void gemm_bf16(const Bf16Matrix& m, const float* X, float* Y, int64_t n, bool avx2);

/// The decoder's weights, converted once per loaded model.
struct FastWeights {
    RunConfig config;
    bool avx2 = false;                      // kernels used
    std::vector<float> pos_table;           // (block, C) learned or sinusoidal positions, else empty
    std::vector<float> rope_cos, rope_sin;  // (block, D/2) when rotary
    struct Norm {
        std::vector<float> weight, bias;  // bias empty when none
    };
    struct Layer {
        Norm ln_1, ln_2;
        Bf16Matrix c_attn, attn_proj, c_fc, mlp_proj;
    };
    std::vector<Layer> layers;
    Norm ln_f;  // pre-norm only
    bool has_ln_f = false;
    Bf16Matrix lm_head;  // the tied embedding or the untied head
    Bf16Matrix embed;    // the token embedding when untied (tied: lm_head's rows)
    const Bf16Matrix& embedding() const { return embed.w.empty() ? lm_head : embed; }
    /// Bytes of weights streamed per token (the matrices).
    int64_t streamed_bytes() const;
};

/// Empty when the fast decoder computes this model; otherwise why not.
std::string fast_decode_unsupported(const RunConfig& c);

/// A weight as the decoder reads it: row-major fp32 values and their shape.
struct WeightView {
    const float* data = nullptr;
    std::vector<int64_t> shape;
};
/// A GPT's tensor by its name in the model (transformer.h.0.attn.c_attn.weight, ...); nullopt when absent.
using WeightLookup = std::function<std::optional<WeightView>(const std::string& name)>;
/// Converts a GPT's weights, found by name, for config c; avx2 picks the kernels (false = the portable loops).
/// Throws FormatError naming the tensor when one is missing or of another shape than c gives it.
std::shared_ptr<const FastWeights> build_fast_weights(const RunConfig& c, bool avx2, const WeightLookup& get);

/// One sequence decoded a token at a time over the converted weights, with its own KV cache.
class FastDecoder {
public:
    explicit FastDecoder(std::shared_ptr<const FastWeights> w);
    void reset() { m_len = 0; }
    int64_t length() const { return m_len; }
    /// Feeds the token at the next position (0-based within the window) and returns the next-token
    /// logits (vocab_size values, valid until the next call).
    const std::vector<float>& step(int32_t token) { return feed(&token, 1); }
    /// Feeds n tokens at the next positions and returns the logits after the last: a prompt or a slid
    /// window refilled with each weight matrix streamed once per chunk of tokens instead of once per
    /// token, with the same results, bit for bit, as n calls of step().
    const std::vector<float>& feed(const int32_t* tokens, int64_t n);

private:
    // One chunk of at most 32 tokens at positions m_len.. through the blocks (fast_decode.cpp).
    void feed_chunk(const int32_t* tokens, int64_t n, bool logits);
    void embed_chunk(const int32_t* tokens, int64_t n);
    void attention_block(size_t layer, int64_t n);
    void cache_keys_values(size_t layer, int64_t n);
    void attend(size_t layer, int64_t n);
    void mlp_block(size_t layer, int64_t n);
    void head_logits(int64_t n);
    /// The norm of each token's residual stream (m_x) into out (m_h, or m_x itself after the sum).
    void norm_chunk(const FastWeights::Norm& p, float* out, int64_t n);
    /// m_x += m_y over the chunk.
    void add_residual(int64_t n);

    std::shared_ptr<const FastWeights> m_w;
    int64_t m_len = 0;
    std::vector<std::vector<float>> m_k, m_v;  // per layer: (H, block, D)
    // Per token of a chunk: the residual stream, its norm, q/k/v, the heads' outputs, a projection, the MLP.
    std::vector<float> m_x, m_h, m_qkv, m_att, m_y, m_ff, m_scores, m_logits;
};

}  // namespace twb
