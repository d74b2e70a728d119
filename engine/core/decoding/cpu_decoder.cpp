// The fast single-token CPU decoder: bf16 weights (every matrix, the token embedding included), an AVX2+FMA gemv chosen
// at run time, and one token's pass through the model in plain C++ (see fast_decode.h).
#include "core/decoding/cpu_decoder.h"

#include "core/decoding/position_values.h"
#include "core/decoding/spin_pool.h"
#include "twb/errors.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TWB_X86 1
#else
#define TWB_X86 0
#endif

namespace twb {

bool cpu_has_avx2_fma() {
#if TWB_X86 && (defined(__GNUC__) || defined(__clang__))
    static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return yes;
#else
    return false;
#endif
}

uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)  // NaN: keep it a (quiet) NaN
        return static_cast<uint16_t>((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest, ties to even
    return static_cast<uint16_t>(u >> 16);
}

float from_bf16(uint16_t b) {
    const uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

Bf16Matrix Bf16Matrix::from(const float* p, int64_t rows, int64_t cols, const float* bias) {
    Bf16Matrix m;
    m.rows = rows;
    m.cols = cols;
    m.w.resize(static_cast<size_t>(m.rows * m.cols));
    uint16_t* q = m.w.data();
    // Over the decoder's pool of threads: a model's weights are converted once per load, before its first
    // token.
    const int64_t per = std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(1, m.cols));  // rows a job
    SpinPool::shared(decode_threads())->run((m.rows + per - 1) / per, [&](int64_t job) {
        for (int64_t r = job * per, end = std::min(m.rows, r + per); r < end; ++r)
            for (int64_t c = 0; c < m.cols; ++c)
                q[m.index(r, c)] = to_bf16(p[r * m.cols + c]);
    });
    if (bias)
        m.bias.assign(bias, bias + rows);
    return m;
}

void gemv_bf16_reference(const Bf16Matrix& m, const float* x, float* y) {
    for (int64_t r = 0; r < m.rows; ++r) {
        float s = 0;
        for (int64_t c = 0; c < m.cols; ++c)
            s += m.at(r, c) * x[c];
        y[r] = m.bias.empty() ? s : s + m.bias[static_cast<size_t>(r)];
    }
}

namespace {

// ---------------------------------------------------------------- kernels

// Rows r0..r1 of Y (n x rows) for the n inputs X (n x cols).
void gemm_rows_portable(const Bf16Matrix& m, const float* X, float* Y, int64_t n, int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
        for (int64_t t = 0; t < n; ++t) {
            const float* x = X + t * m.cols;
            float s = 0;
            for (int64_t c = 0; c < m.cols; ++c)
                s += m.at(r, c) * x[c];
            Y[t * m.rows + r] = s;
        }
    }
}

float dot_portable(const float* a, const float* b, int64_t n) {
    float s = 0;
    for (int64_t i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

void axpy_portable(float a, const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        y[i] += a * x[i];
}

#if TWB_X86
__attribute__((target("avx2,fma"))) inline float hsum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
}

// Four rows at a time share each load of x. Sixteen bf16 weights come in one 256-bit load whose eight
// 32-bit lanes each hold two of them: the low halves shifted up and the high halves masked are the even
// and the odd columns as fp32, two ALU operations per 16 weights. XP holds each x in that order (per block
// of 16 columns: the 8 even, then the 8 odd ones). Two accumulators per row keep eight FMA chains in
// flight. A group of four rows is one contiguous run of w (Bf16Matrix::index), read front to back, which
// the hardware prefetcher follows; with n inputs the group (at most 12 KB) stays in L1 while every input
// passes over it. r0 is a multiple of 4; rows past the last group are row-major.
__attribute__((target("avx2,fma"))) void gemm_rows_avx2(const Bf16Matrix& m, const float* X, const float* XP, float* Y,
                                                        int64_t n, int64_t r0, int64_t r1) {
    const int64_t C = m.cols, R = m.rows, c16 = C & ~int64_t{15}, tail = C - c16;
    const __m256i hiMask = _mm256_set1_epi32(static_cast<int>(0xFFFF0000u));
    int64_t r = r0;
    for (; r + 4 <= r1; r += 4) {
        const uint16_t* group = m.w.data() + r * C;
        for (int64_t t = 0; t < n; ++t) {
            const float *x = X + t * C, *xp = XP + t * C;
            __m256 a[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
            __m256 b[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
            const uint16_t* w = group;
            for (int64_t c = 0; c < c16; c += 16, w += 64) {
                const __m256 xe = _mm256_loadu_ps(xp + c), xo = _mm256_loadu_ps(xp + c + 8);
                for (int k = 0; k < 4; ++k) {
                    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 16 * k));
                    a[k] = _mm256_fmadd_ps(_mm256_castsi256_ps(_mm256_slli_epi32(v, 16)), xe, a[k]);
                    b[k] = _mm256_fmadd_ps(_mm256_castsi256_ps(_mm256_and_si256(v, hiMask)), xo, b[k]);
                }
            }
            for (int k = 0; k < 4; ++k) {
                float s = hsum(_mm256_add_ps(a[k], b[k]));
                for (int64_t c = 0; c < tail; ++c)
                    s += from_bf16(w[k * tail + c]) * x[c16 + c];
                Y[t * R + r + k] = s;
            }
        }
    }
    for (; r < r1; ++r) {
        const uint16_t* w = m.w.data() + r * C;
        for (int64_t t = 0; t < n; ++t) {
            const float *x = X + t * C, *xp = XP + t * C;
            __m256 a = _mm256_setzero_ps(), b = _mm256_setzero_ps();
            for (int64_t c = 0; c < c16; c += 16) {
                const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + c));
                a = _mm256_fmadd_ps(_mm256_castsi256_ps(_mm256_slli_epi32(v, 16)), _mm256_loadu_ps(xp + c), a);
                b = _mm256_fmadd_ps(_mm256_castsi256_ps(_mm256_and_si256(v, hiMask)), _mm256_loadu_ps(xp + c + 8), b);
            }
            float s = hsum(_mm256_add_ps(a, b));
            for (int64_t c = c16; c < C; ++c)
                s += from_bf16(w[c]) * x[c];
            Y[t * R + r] = s;
        }
    }
}

__attribute__((target("avx2,fma"))) float dot_avx2(const float* a, const float* b, int64_t n) {
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), s1);
    }
    for (; i + 8 <= n; i += 8)
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
    float s = hsum(_mm256_add_ps(s0, s1));
    for (; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

__attribute__((target("avx2,fma"))) void axpy_avx2(float a, const float* x, float* y, int64_t n) {
    const __m256 av = _mm256_set1_ps(a);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(y + i, _mm256_fmadd_ps(av, _mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
    for (; i < n; ++i)
        y[i] += a * x[i];
}
#endif

float dot(const float* a, const float* b, int64_t n, bool avx2) {
#if TWB_X86
    if (avx2)
        return dot_avx2(a, b, n);
#endif
    (void)avx2;
    return dot_portable(a, b, n);
}

void axpy(float a, const float* x, float* y, int64_t n, bool avx2) {
#if TWB_X86
    if (avx2)
        return axpy_avx2(a, x, y, n);
#endif
    (void)avx2;
    axpy_portable(a, x, y, n);
}

}  // namespace

void gemv_bf16(const Bf16Matrix& m, const float* x, float* y, bool avx2) {
    gemm_bf16(m, x, y, 1, avx2);
}

void gemm_bf16(const Bf16Matrix& m, const float* X, float* Y, int64_t n, bool avx2) {
    // Each x in the AVX2 kernel's order: per 16 columns, the even ones then the odd ones.
    thread_local std::vector<float> xp;
    const int64_t C = m.cols;
    if (avx2) {
        xp.resize(static_cast<size_t>(n * C));
        for (int64_t t = 0; t < n; ++t)
            for (int64_t c = 0; c + 16 <= C; c += 16)
                for (int64_t j = 0; j < 8; ++j) {
                    xp[static_cast<size_t>(t * C + c + j)] = X[t * C + c + 2 * j];
                    xp[static_cast<size_t>(t * C + c + 8 + j)] = X[t * C + c + 2 * j + 1];
                }
    }
    const float* xpp = xp.data();
    auto rows = [&](int64_t r0, int64_t r1) {
#if TWB_X86
        if (avx2)
            return gemm_rows_avx2(m, X, xpp, Y, n, r0, r1);
#endif
        gemm_rows_portable(m, X, Y, n, r0, r1);
    };
    // The rows split over the intra-op threads through the spinning pool (OpenMP's passive threads wake
    // too slowly for products this short), in chunks of whole four-row groups, four chunks a thread so
    // that a late helper holds up little; only products of 64K weights and up (the 384 x 384 projection).
    const int threads = decode_threads();
    constexpr int64_t kSplitFrom = 1 << 16;
    const int64_t blocks = (m.rows + 3) / 4;
    if (threads > 1 && m.rows * C * n >= kSplitFrom && blocks > 1) {
        const int64_t chunks = std::min<int64_t>(blocks, 4 * threads), per = (blocks + chunks - 1) / chunks;
        SpinPool::shared(threads)->run(
            chunks, [&](int64_t i) { rows(std::min(m.rows, i * per * 4), std::min(m.rows, (i + 1) * per * 4)); });
    } else {
        rows(0, m.rows);
    }
    if (!m.bias.empty())
        for (int64_t t = 0; t < n; ++t)
            for (int64_t r = 0; r < m.rows; ++r)
                Y[t * m.rows + r] += m.bias[static_cast<size_t>(r)];
}

// ---------------------------------------------------------------- weights

int64_t FastWeights::streamed_bytes() const {
    int64_t n = lm_head.rows * lm_head.cols;
    for (const auto& l : layers)
        n += l.c_attn.rows * l.c_attn.cols + l.attn_proj.rows * l.attn_proj.cols + l.c_fc.rows * l.c_fc.cols +
             l.mlp_proj.rows * l.mlp_proj.cols;
    return 2 * n;
}

std::string fast_decode_unsupported(const RunConfig& c) {
    if (c.head_dim() <= 0 || c.n_head <= 0)
        return "the model has no attention heads";
    if (c.position == Position::Rotary && c.head_dim() % 2 != 0)
        return "rotary positions need an even head size";
    if (c.qk_norm)
        return "qk_norm: the bf16 decoder has no norm of the heads' queries and keys";
    return {};
}

namespace {
/// The tensor `name` of the shape c gives it; FormatError otherwise.
const float* tensor_of(const WeightLookup& get, const std::string& name, const std::vector<int64_t>& shape) {
    const auto v = get(name);
    if (!v)
        throw FormatError("the checkpoint has no tensor '" + name + "'; it was written for a different model config");
    if (v->shape != shape) {
        auto dims = [](const std::vector<int64_t>& s) {
            std::string out = "[";
            for (size_t i = 0; i < s.size(); ++i)
                out += (i ? ", " : "") + std::to_string(s[i]);
            return out + "]";
        };
        throw FormatError("tensor '" + name + "' has shape " + dims(v->shape) + " but this config needs " +
                          dims(shape) +
                          " (check n_layer, n_head, n_embd, head_size, ffn_hidden, block_size, vocab_size)");
    }
    return v->data;
}

/// A norm's weight and, when the config gives it one (LayerNorm with bias), its bias.
FastWeights::Norm norm_of(const WeightLookup& get, const std::string& name, const RunConfig& c) {
    const int64_t C = c.n_embd;
    FastWeights::Norm out;
    const float* w = tensor_of(get, name + ".weight", {C});
    out.weight.assign(w, w + C);
    if (c.bias && c.norm == NormKind::LayerNorm) {
        const float* b = tensor_of(get, name + ".bias", {C});
        out.bias.assign(b, b + C);
    }
    return out;
}

/// A linear layer's (rows, cols) weight and, with the config's bias, its bias.
Bf16Matrix linear_of(const WeightLookup& get, const std::string& name, int64_t rows, int64_t cols, bool bias) {
    const float* w = tensor_of(get, name + ".weight", {rows, cols});
    const float* b = bias ? tensor_of(get, name + ".bias", {rows}) : nullptr;
    return Bf16Matrix::from(w, rows, cols, b);
}
}  // namespace

std::shared_ptr<const FastWeights> build_fast_weights(const RunConfig& c, bool avx2, const WeightLookup& get) {
    auto f = std::make_shared<FastWeights>();
    f->config = c;
    f->avx2 = avx2;
    const int64_t C = c.n_embd, A = static_cast<int64_t>(c.n_head) * c.head_dim(), F = c.ffn_dim(), V = c.vocab_size;
    if (c.position == Position::Learned) {
        const float* p = tensor_of(get, "transformer.wpe.weight", {c.block_size, C});
        f->pos_table.assign(p, p + c.block_size * C);
    } else if (c.position == Position::Sinusoidal) {
        f->pos_table = sinusoid_values(c.block_size, C, c.sinusoid_halves);
    } else {
        std::tie(f->rope_cos, f->rope_sin) = rotary_values(c.block_size, c.head_dim());
    }
    for (int64_t i = 0; i < c.n_layer; ++i) {
        const std::string b = "transformer.h." + std::to_string(i) + ".";
        FastWeights::Layer l;
        l.ln_1 = norm_of(get, b + "ln_1", c);
        l.ln_2 = norm_of(get, b + "ln_2", c);
        l.c_attn = linear_of(get, b + "attn.c_attn", 3 * A, C, c.bias);
        l.attn_proj = linear_of(get, b + "attn.c_proj", C, A, c.bias);
        l.c_fc = linear_of(get, b + "mlp.c_fc", F, C, c.bias);
        l.mlp_proj = linear_of(get, b + "mlp.c_proj", C, F, c.bias);
        f->layers.push_back(std::move(l));
    }
    if (c.norm_position == NormPosition::Pre) {  // the model's own rule (nn/models/model.cpp)
        f->ln_f = norm_of(get, "transformer.ln_f", c);
        f->has_ln_f = true;
    }
    const float* wte = tensor_of(get, "transformer.wte.weight", {V, C});
    if (!c.tie_embeddings) {
        f->lm_head = Bf16Matrix::from(tensor_of(get, "lm_head.weight", {V, C}), V, C);
        f->embed = Bf16Matrix::from(wte, V, C);
    } else {
        f->lm_head = Bf16Matrix::from(wte, V, C);
    }
    return f;
}

// ---------------------------------------------------------------- decoder

FastDecoder::FastDecoder(std::shared_ptr<const FastWeights> w) : m_w(std::move(w)) {
    const auto& c = m_w->config;
    const int64_t A = static_cast<int64_t>(c.n_head) * c.head_dim();
    const size_t cache = static_cast<size_t>(A) * static_cast<size_t>(c.block_size);
    m_k.assign(m_w->layers.size(), std::vector<float>(cache));
    m_v.assign(m_w->layers.size(), std::vector<float>(cache));
    m_logits.resize(static_cast<size_t>(m_w->lm_head.rows));
}

namespace {

/// LayerNorm (torch's: biased variance, eps inside the root) or RMSNorm, of n values into out.
void normalise(const float* x, float* out, int64_t n, const FastWeights::Norm& p, NormKind kind, double eps) {
    if (kind == NormKind::LayerNorm) {
        double mean = 0, var = 0;
        for (int64_t i = 0; i < n; ++i)
            mean += x[i];
        mean /= static_cast<double>(n);
        for (int64_t i = 0; i < n; ++i)
            var += (x[i] - mean) * (x[i] - mean);
        var /= static_cast<double>(n);
        const double inv = 1.0 / std::sqrt(var + eps);
        for (int64_t i = 0; i < n; ++i) {
            const float v = static_cast<float>((x[i] - mean) * inv) * p.weight[static_cast<size_t>(i)];
            out[i] = p.bias.empty() ? v : v + p.bias[static_cast<size_t>(i)];
        }
        return;
    }
    double ms = 0;
    for (int64_t i = 0; i < n; ++i)
        ms += static_cast<double>(x[i]) * x[i];
    const float inv = static_cast<float>(1.0 / std::sqrt(ms / static_cast<double>(n) + eps));
    for (int64_t i = 0; i < n; ++i)
        out[i] = x[i] * inv * p.weight[static_cast<size_t>(i)];
}

/// The activation in place, with libm's erf and tanh (what libtorch's kernels compute, to within an ulp
/// or two): a libtorch op per row cost ~100 us, more than the row's MLP product.
void activate_inplace(float* h, int64_t n, Activation a) {
    switch (a) {
        case Activation::Relu:
            for (int64_t i = 0; i < n; ++i)
                h[i] = h[i] > 0.0f ? h[i] : 0.0f;
            return;
        case Activation::Silu:
            for (int64_t i = 0; i < n; ++i)
                h[i] = h[i] / (1.0f + std::exp(-h[i]));
            return;
        case Activation::GeluTanh: {
            const float k = 0.7978845608028654f;  // sqrt(2 / pi)
            for (int64_t i = 0; i < n; ++i) {
                const float x = h[i];
                h[i] = 0.5f * x * (1.0f + std::tanh(k * (x + 0.044715f * x * x * x)));
            }
            return;
        }
        case Activation::Gelu:
            for (int64_t i = 0; i < n; ++i)
                h[i] = 0.5f * h[i] * (1.0f + std::erf(h[i] * 0.7071067811865476f));
            return;
    }
}

/// Rotates the two halves of a head's D channels (GPT-NeoX layout) by position p.
void rotate(float* v, int64_t D, const float* cs, const float* sn) {
    const int64_t half = D / 2;
    for (int64_t i = 0; i < half; ++i) {
        const float a = v[i], b = v[i + half];
        v[i] = a * cs[i] - b * sn[i];
        v[i + half] = a * sn[i] + b * cs[i];
    }
}

}  // namespace

const std::vector<float>& FastDecoder::feed(const int32_t* tokens, int64_t n) {
    if (n <= 0)
        throw std::logic_error("fast decoder: nothing to feed");
    // Chunks of 32 tokens: each weight matrix is streamed once per chunk, while the chunk's activations
    // (at most 32 x 4 x n_embd floats per matrix input) stay in the caches.
    constexpr int64_t kChunk = 32;
    for (int64_t done = 0; done < n;) {
        const int64_t len = std::min(kChunk, n - done);
        feed_chunk(tokens + done, len, done + len == n);
        done += len;
    }
    return m_logits;
}

// A chunk goes through the same blocks as the model's forward (nn/models/model.cpp): the embedding and
// positions, per layer an attention block and an MLP block (each with its norm before or after the
// residual sum), the final norm and the head, over raw bf16 weights instead of modules.
void FastDecoder::feed_chunk(const int32_t* tokens, int64_t n, bool logits) {
    const RunConfig& c = m_w->config;
    if (m_len + n > c.block_size)
        throw std::logic_error("fast decoder: position " + std::to_string(m_len + n - 1) + " is past block_size " +
                               std::to_string(c.block_size));
    const Bf16Matrix& E = m_w->embedding();
    for (int64_t t = 0; t < n; ++t)
        if (tokens[t] < 0 || tokens[t] >= E.rows)
            throw std::logic_error("fast decoder: token " + std::to_string(tokens[t]) + " is outside the vocabulary");
    auto fit = [n](std::vector<float>& v, int64_t per) {
        if (static_cast<int64_t>(v.size()) < n * per)
            v.resize(static_cast<size_t>(n * per));
    };
    const int64_t C = c.n_embd, A = c.n_head * c.head_dim();
    for (auto [buffer, per] : {std::pair<std::vector<float>*, int64_t>{&m_x, C},
                               {&m_h, C},
                               {&m_qkv, 3 * A},
                               {&m_att, A},
                               {&m_y, C},
                               {&m_ff, c.ffn_dim()}})
        fit(*buffer, per);
    fit(m_scores, c.n_head * c.block_size);  // a row of scores per (token, head)
    embed_chunk(tokens, n);
    for (size_t li = 0; li < m_w->layers.size(); ++li) {
        attention_block(li, n);
        mlp_block(li, n);
    }
    m_len += n;
    if (logits)
        head_logits(n);
}

void FastDecoder::embed_chunk(const int32_t* tokens, int64_t n) {
    const FastWeights& w = *m_w;
    const int64_t C = w.config.n_embd;
    const Bf16Matrix& E = w.embedding();
    for (int64_t t = 0; t < n; ++t) {
        float* x = m_x.data() + t * C;
        for (int64_t i = 0; i < C; ++i)
            x[i] = E.at(tokens[t], i);
        if (!w.pos_table.empty()) {
            const float* pe = w.pos_table.data() + (m_len + t) * C;
            for (int64_t i = 0; i < C; ++i)
                x[i] += pe[i];
        }
    }
}

void FastDecoder::norm_chunk(const FastWeights::Norm& p, float* out, int64_t n) {
    const RunConfig& c = m_w->config;
    for (int64_t t = 0; t < n; ++t)
        normalise(m_x.data() + t * c.n_embd, out + t * c.n_embd, c.n_embd, p, c.norm, c.norm_eps);
}

void FastDecoder::add_residual(int64_t n) {
    float* x = m_x.data();
    const float* y = m_y.data();
    for (int64_t i = 0; i < n * m_w->config.n_embd; ++i)
        x[i] += y[i];
}

// Attention: pre-norm reads ln_1(x), post-norm reads x and normalises after the sum.
void FastDecoder::attention_block(size_t li, int64_t n) {
    const FastWeights::Layer& L = m_w->layers[li];
    const bool post = m_w->config.norm_position == NormPosition::Post;
    if (!post)
        norm_chunk(L.ln_1, m_h.data(), n);
    gemm_bf16(L.c_attn, post ? m_x.data() : m_h.data(), m_qkv.data(), n, m_w->avx2);
    cache_keys_values(li, n);
    attend(li, n);
    gemm_bf16(L.attn_proj, m_att.data(), m_y.data(), n, m_w->avx2);
    add_residual(n);
    if (post)
        norm_chunk(L.ln_1, m_x.data(), n);
}

// Every token's key and value into the cache (rotated first when rotary), before any token attends.
void FastDecoder::cache_keys_values(size_t li, int64_t n) {
    const FastWeights& w = *m_w;
    const int64_t H = w.config.n_head, D = w.config.head_dim(), A = H * D, cap = w.config.block_size;
    float *kc = m_k[li].data(), *vc = m_v[li].data();
    for (int64_t t = 0; t < n; ++t) {
        const int64_t P = m_len + t;
        float *q = m_qkv.data() + t * 3 * A, *k = q + A, *v = q + 2 * A;
        if (!w.rope_cos.empty())
            for (int64_t h = 0; h < H; ++h) {
                rotate(q + h * D, D, w.rope_cos.data() + P * (D / 2), w.rope_sin.data() + P * (D / 2));
                rotate(k + h * D, D, w.rope_cos.data() + P * (D / 2), w.rope_sin.data() + P * (D / 2));
            }
        for (int64_t h = 0; h < H; ++h) {
            std::memcpy(kc + (h * cap + P) * D, k + h * D, static_cast<size_t>(D) * 4);
            std::memcpy(vc + (h * cap + P) * D, v + h * D, static_cast<size_t>(D) * 4);
        }
    }
}

// Each token's heads attend to the positions up to its own, a (token, head) per job of the pool.
void FastDecoder::attend(size_t li, int64_t n) {
    const FastWeights& w = *m_w;
    const bool avx2 = w.avx2;
    const int64_t H = w.config.n_head, D = w.config.head_dim(), A = H * D, cap = w.config.block_size, P0 = m_len;
    const double scale = 1.0 / std::sqrt(static_cast<double>(D));
    const float *kc = m_k[li].data(), *vc = m_v[li].data(), *qkv = m_qkv.data();
    float *att = m_att.data(), *scores = m_scores.data();
    SpinPool::shared(decode_threads())->run(n * H, [&](int64_t job) {
        const int64_t t = job / H, h = job % H, S = P0 + t + 1;
        const float* q = qkv + t * 3 * A;
        const float* kh = kc + h * cap * D;
        const float* vh = vc + h * cap * D;
        float* s = scores + job * cap;
        float mx = -std::numeric_limits<float>::infinity();
        for (int64_t j = 0; j < S; ++j) {
            s[j] = static_cast<float>(dot(q + h * D, kh + j * D, D, avx2) * scale);
            mx = std::max(mx, s[j]);
        }
        float sum = 0;
        for (int64_t j = 0; j < S; ++j) {
            s[j] = std::exp(s[j] - mx);
            sum += s[j];
        }
        float* y = att + t * A + h * D;
        std::fill(y, y + D, 0.0f);
        const float inv = 1.0f / sum;
        for (int64_t j = 0; j < S; ++j)
            axpy(s[j] * inv, vh + j * D, y, D, avx2);
    });
}

// The MLP: pre-norm reads ln_2(x), post-norm reads x and normalises after the sum.
void FastDecoder::mlp_block(size_t li, int64_t n) {
    const FastWeights::Layer& L = m_w->layers[li];
    const RunConfig& c = m_w->config;
    const bool post = c.norm_position == NormPosition::Post;
    if (!post)
        norm_chunk(L.ln_2, m_h.data(), n);
    gemm_bf16(L.c_fc, post ? m_x.data() : m_h.data(), m_ff.data(), n, m_w->avx2);
    for (int64_t t = 0; t < n; ++t)  // a row at a time, as one token's step does (the same rounding)
        activate_inplace(m_ff.data() + t * c.ffn_dim(), c.ffn_dim(), c.activation);
    gemm_bf16(L.mlp_proj, m_ff.data(), m_y.data(), n, m_w->avx2);
    add_residual(n);
    if (post)
        norm_chunk(L.ln_2, m_x.data(), n);
}

// The last token's logits: the final norm (pre-norm models) and the head.
void FastDecoder::head_logits(int64_t n) {
    const FastWeights& w = *m_w;
    const int64_t C = w.config.n_embd;
    const float* fin = m_x.data() + (n - 1) * C;
    if (w.has_ln_f) {
        normalise(fin, m_h.data(), C, w.ln_f, w.config.norm, w.config.norm_eps);
        fin = m_h.data();
    }
    gemv_bf16(w.lm_head, fin, m_logits.data(), w.avx2);
}

}  // namespace twb
