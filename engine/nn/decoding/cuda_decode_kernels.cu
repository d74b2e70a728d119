// The GPU decoder's kernels (cuda_decode_kernels.h). A decoding step for one token is latency-bound: the
// weights of a small model stream in microseconds, and what costs is the number of kernels. So a whole
// linear layer is one kernel, its input's norm and its output's activation and residual sum included, and
// a layer's attention (rotary, the cache write, scores, softmax, the weighted sum) is another: five
// kernels a layer. Everything computes in float32, as the libtorch path does.
#include "nn/decoding/cuda_decode_kernels.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace twb::nn::cuda_kernels {

namespace {

constexpr int kGemvThreads = 128;  // four warps: a row per warp at a time, more blocks for the SMs
constexpr int kThreads = 256;
constexpr int kPickThreads = 1024;
constexpr int kSplitThreads = 256;  // attend_split_kernel: 8 threads a position for the scores
/// float4 of its first row a lane of norm_gemv loads before it waits for its input: rows up to 1536 wide.
constexpr int kHeld = 12;

thread_local bool g_dependent_launch = false;  // each thread sets it before its launches
thread_local bool g_warp_norm = true;          // and these (set_warp_norm)
thread_local bool g_norm_ahead = false;

/// With programmatic dependent launch, the next kernel may start now (its blocks wait in
/// wait_for_predecessor until this kernel has finished); a no-op before compute capability 9.
__device__ __forceinline__ void let_dependents_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// Waits until the kernel before has finished and its writes are visible: nothing the kernel before writes
/// may be read, and nothing it reads may be written, before this.
__device__ __forceinline__ void wait_for_predecessor() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

/// The sum (or the maximum) of every thread's v, returned to every thread. `red` holds 32 floats.
template <bool Max>
__device__ float block_reduce(float v, float* red) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    v = Max ? warp_max(v) : warp_sum(v);
    __syncthreads();  // red may still be read by an earlier reduction
    if (lane == 0)
        red[warp] = v;
    __syncthreads();
    float t = lane < warps ? red[lane] : (Max ? -INFINITY : 0.f);
    return Max ? warp_max(t) : warp_sum(t);
}

/// in's n values copied into xs (shared memory) and normalised there; every thread of the block calls it.
__device__ void load_normalised(const float* in, float* xs, int n, const NormParams& p) {
    __shared__ float red[32];
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        xs[i] = in[i];
    __syncthreads();
    if (p.op == NormOp::None)
        return;
    float inv, mean = 0.f;
    if (p.op == NormOp::Layer) {
        float s = 0.f;
        for (int i = threadIdx.x; i < n; i += blockDim.x)
            s += xs[i];
        mean = block_reduce<false>(s, red) / static_cast<float>(n);
        float q = 0.f;
        for (int i = threadIdx.x; i < n; i += blockDim.x)
            q += (xs[i] - mean) * (xs[i] - mean);
        inv = 1.f / sqrtf(block_reduce<false>(q, red) / static_cast<float>(n) + p.eps);
    } else {
        float q = 0.f;
        for (int i = threadIdx.x; i < n; i += blockDim.x)
            q += xs[i] * xs[i];
        inv = 1.f / sqrtf(block_reduce<false>(q, red) / static_cast<float>(n) + p.eps);
    }
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const float v = (xs[i] - mean) * inv * p.weight[i];
        xs[i] = p.bias ? v + p.bias[i] : v;
    }
    __syncthreads();
}

__device__ float activate(float v, Act a) {
    switch (a) {
        case Act::Relu:
            return v > 0.f ? v : 0.f;
        case Act::Silu:
            return v / (1.f + expf(-v));
        case Act::GeluTanh:
            return 0.5f * v * (1.f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
        case Act::Gelu:
            return 0.5f * v * (1.f + erff(v * 0.7071067811865476f));
        default:
            return v;
    }
}

__global__ void embed_kernel(const float* table, const float* positions, const int64_t* token, const int64_t* pos,
                             float* x, int C) {
    let_dependents_launch();
    wait_for_predecessor();
    const int64_t t = *token, p = *pos;
    for (int i = threadIdx.x; i < C; i += blockDim.x)
        x[i] = positions ? table[t * C + i] + positions[p * C + i] : table[t * C + i];
}

/// A norm's 4 weights (or biases) at float4 index c, read as floats (a norm's tensors need not be 16-byte
/// aligned); zeros without them.
__device__ __forceinline__ float4 norm_quad(const float* v, int c) {
    return v ? make_float4(__ldg(v + 4 * c), __ldg(v + 4 * c + 1), __ldg(v + 4 * c + 2), __ldg(v + 4 * c + 3))
             : make_float4(0.f, 0.f, 0.f, 0.f);
}

/// The float4s lane, lane + 32, ... (Held of them) of the K4 float4s at in4, normalised, in each lane's
/// registers: the warp computes the norm on its own, summed with shuffles, with no shared memory and no
/// barrier. The same arithmetic as load_normalised, its sums taken in another order. With Ahead, g and b
/// hold the norm's weights and biases for those float4s already (loaded before the kernel waited).
template <int Held, bool Ahead>
__device__ void warp_normalised(const float4* in4, int K4, const NormParams& p, float4 (&x)[Held],
                                const float4 (&g)[Held], const float4 (&b)[Held], const EmbedParams& e) {
    const int lane = threadIdx.x & 31;
    // The embedding fused in: the token's row (plus its position's) is the input, as embed_kernel adds it.
    const float4* row = e.table ? reinterpret_cast<const float4*>(e.table) + e.tokpos[0] * K4 : nullptr;
    const float4* at = e.positions ? reinterpret_cast<const float4*>(e.positions) + e.tokpos[1] * K4 : nullptr;
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < Held; ++i) {
        const int c = lane + 32 * i;
        if (c >= K4)
            x[i] = make_float4(0.f, 0.f, 0.f, 0.f);
        else if (!row)
            x[i] = in4[c];
        else if (!at)
            x[i] = row[c];
        else
            x[i] = make_float4(row[c].x + at[c].x, row[c].y + at[c].y, row[c].z + at[c].z, row[c].w + at[c].w);
        if (e.x && blockIdx.x == 0 && threadIdx.x < 32 && c < K4)
            reinterpret_cast<float4*>(e.x)[c] = x[i];  // the residual stream, once
        s += (x[i].x + x[i].y) + (x[i].z + x[i].w);
    }
    if (p.op == NormOp::None)
        return;
    const float n = 4.f * static_cast<float>(K4);
    const float mean = p.op == NormOp::Layer ? warp_sum(s) / n : 0.f;
    float q = 0.f;
#pragma unroll
    for (int i = 0; i < Held; ++i)
        if (lane + 32 * i < K4) {  // the padding's zeros minus the mean are no deviation
            const float4 d = make_float4(x[i].x - mean, x[i].y - mean, x[i].z - mean, x[i].w - mean);
            q += (d.x * d.x + d.y * d.y) + (d.z * d.z + d.w * d.w);
        }
    const float inv = 1.f / sqrtf(warp_sum(q) / n + p.eps);
#pragma unroll
    for (int i = 0; i < Held; ++i) {
        const int c = lane + 32 * i;
        if (c < K4) {
            const float4 wq = Ahead ? g[i] : norm_quad(p.weight, c), bq = Ahead ? b[i] : norm_quad(p.bias, c);
            const float w4[4] = {wq.x, wq.y, wq.z, wq.w}, b4[4] = {bq.x, bq.y, bq.z, bq.w};
            float* v = &x[i].x;
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const float y = (v[j] - mean) * inv * w4[j];
                v[j] = p.bias ? y + b4[j] : y;
            }
        }
    }
}

/// out[r] (+)= act(acc + bias[r]), by the warp's first lane.
__device__ __forceinline__ void finish_row(float acc, int r, const float* bias, Act act, float* out, bool accumulate) {
    acc = warp_sum(acc);
    if ((threadIdx.x & 31) == 0) {
        const float v = activate(bias ? acc + bias[r] : acc, act);
        out[r] = accumulate ? out[r] + v : v;
    }
}

// A warp a row. The first row's weights are loaded into registers before the kernel waits for its input
// (with programmatic dependent launch, while the kernel before still runs) and before the input's norm, so
// that their latency overlaps both; the sum's order is the same as without. Regs > 0 (an input of at most
// 32 * Regs float4s): each warp holds the normalised input in registers and normalises it itself
// (warp_normalised), instead of every block copying it to shared memory and normalising it there, which
// took four barriers a kernel; with Regs <= 4 the norm's weights are loaded before the wait too.
/// The shared memory path's rows: every block has the normalised input in xs (shared4), the first row's
/// weights in `held`.
template <int Held>
__device__ void rows_from_shared(const float* xs, const float4 (&held)[Held], int K, int K4, bool vec4,
                                 const float* __restrict__ W, const float* __restrict__ bias, int N, Act act,
                                 float* out, bool accumulate) {
    const float4* shared4 = reinterpret_cast<const float4*>(xs);
    const int warps = blockDim.x >> 5, lane = threadIdx.x & 31, first = blockIdx.x * warps + (threadIdx.x >> 5);
    for (int r = first; r < N; r += gridDim.x * warps) {
        const float* w = W + static_cast<size_t>(r) * K;
        float acc = 0.f;
        if (vec4) {
            const float4* w4 = reinterpret_cast<const float4*>(w);
            int c = lane;
            if (r == first) {
#pragma unroll
                for (int i = 0; i < Held; ++i, c += 32)
                    if (c < K4) {
                        const float4 a = held[i], b = shared4[c];
                        acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
                    }
            }
            for (; c < K4; c += 32) {
                const float4 a = __ldg(w4 + c), b = shared4[c];
                acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
            }
        } else {
            for (int c = lane; c < K; c += 32)
                acc += __ldg(w + c) * xs[c];
        }
        finish_row(acc, r, bias, act, out, accumulate);
    }
}

__device__ void last_block_picks(const float* logits, int V, const PickParams& p);

// A warp a row. The first row's weights are loaded into registers before the kernel waits for its input
// (with programmatic dependent launch, while the kernel before still runs) and before the input's norm, so
// that their latency overlaps both; the sum's order is the same as without. Regs > 0 (an input of at most
// 32 * Regs float4s): each warp holds the normalised input in registers and normalises it itself
// (warp_normalised), instead of every block copying it to shared memory and normalising it there, which
// took four barriers a kernel; with Regs <= 4 the norm's weights are loaded before the wait too. The
// embedding (Regs > 0 only) and the greedy pick may be fused in (EmbedParams, PickParams).
template <int Regs>
__global__ void norm_gemv_kernel(const float* in, int K, NormParams norm, const float* __restrict__ W,
                                 const float* __restrict__ bias, int N, Act act, float* out, bool accumulate, bool vec4,
                                 EmbedParams embed, PickParams pick) {
    constexpr int Held = Regs > 0 ? Regs : kHeld;
    constexpr bool Ahead = Regs > 0 && Regs <= 4;
    extern __shared__ float4 shared4[];
    const int warps = blockDim.x >> 5, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int first = blockIdx.x * warps + warp, K4 = vec4 ? K / 4 : 0;
    float4 held[Held];
    if (first < N) {
        const float4* w4 = reinterpret_cast<const float4*>(W + static_cast<size_t>(first) * K);
#pragma unroll
        for (int i = 0; i < Held; ++i) {
            const int c = lane + 32 * i;
            held[i] = c < K4 ? __ldg(w4 + c) : make_float4(0.f, 0.f, 0.f, 0.f);
        }
    }
    float4 g[Held], b[Held];
    if (Ahead && first < N && norm.op != NormOp::None) {
#pragma unroll
        for (int i = 0; i < Held; ++i) {
            const int c = lane + 32 * i;
            g[i] = c < K4 ? norm_quad(norm.weight, c) : make_float4(0.f, 0.f, 0.f, 0.f);
            b[i] = c < K4 ? norm_quad(norm.bias, c) : make_float4(0.f, 0.f, 0.f, 0.f);
        }
    }
    let_dependents_launch();
    wait_for_predecessor();
    if (Regs == 0) {
        load_normalised(in, reinterpret_cast<float*>(shared4), K, norm);
        rows_from_shared<Held>(reinterpret_cast<const float*>(shared4), held, K, K4, vec4, W, bias, N, act, out,
                               accumulate);
    } else if (first < N) {
        float4 x[Held];
        warp_normalised<Held, Ahead>(reinterpret_cast<const float4*>(in), K4, norm, x, g, b, embed);
        for (int r = first; r < N; r += gridDim.x * warps) {
            const float4* w4 = reinterpret_cast<const float4*>(W + static_cast<size_t>(r) * K);
            float acc = 0.f;
#pragma unroll
            for (int i = 0; i < Held; ++i) {
                const int c = lane + 32 * i;
                if (c < K4) {
                    const float4 a = r == first ? held[i] : __ldg(w4 + c), v = x[i];
                    acc += a.x * v.x + a.y * v.y + a.z * v.z + a.w * v.w;
                }
            }
            finish_row(acc, r, bias, act, out, accumulate);
        }
    }
    if (pick.counter)
        last_block_picks(out, N, pick);
}

__global__ void norm_inplace_kernel(float* x, int C, NormParams norm) {
    extern __shared__ float4 shared4[];
    float* xs = reinterpret_cast<float*>(shared4);
    let_dependents_launch();
    wait_for_predecessor();
    load_normalised(x, xs, C, norm);
    for (int i = threadIdx.x; i < C; i += blockDim.x)
        x[i] = xs[i];
}

/// Element i of a head's vector v (D values) rotated for position pos: the two halves rotated (GPT-NeoX's
/// layout), as nn/models/attention.cpp's apply_rotary, with tables of (block, D/2); v[i] without tables.
__device__ float rotated(const float* v, int i, int pos, int D, const float* rc, const float* rs) {
    if (!rc)
        return v[i];
    const int half = D / 2, j = i < half ? i : i - half;
    const float c = rc[static_cast<size_t>(pos) * half + j], s = rs[static_cast<size_t>(pos) * half + j];
    return i < half ? v[i] * c - v[i + half] * s : v[j] * s + v[i] * c;
}

/// The softmax of the n scores in sc (left there as exp(s - max)) and the weighted sum of the n value rows
/// at v (D floats each, one row after the other) into y[0, D): divided by the softmax's sum when
/// `normalise`, else left for a later sum over blocks; returns the maximum and the sum. Every thread of
/// the block calls it; `part` holds D * (blockDim / D) floats (D at least), `red` 32.
__device__ float2 softmax_values(float* sc, int n, const float* v, int D, float* part, float* red, float* y,
                                 bool normalise) {
    float mx = -INFINITY;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        mx = fmaxf(mx, sc[i]);
    mx = block_reduce<true>(mx, red);
    float sum = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const float e = expf(sc[i] - mx);
        sc[i] = e;
        sum += e;
    }
    sum = block_reduce<false>(sum, red);  // its barriers also publish sc
    __syncthreads();
    // G groups of positions per channel (a warp reads a row's consecutive channels), then the groups added.
    const int G = blockDim.x >= D ? blockDim.x / D : 1;
    for (int e = threadIdx.x; e < D * G; e += blockDim.x) {
        const int d = e % D, g = e / D;
        float acc = 0.f;
#pragma unroll 8
        for (int i = g; i < n; i += G)
            acc += sc[i] * v[static_cast<size_t>(i) * D + d];
        part[e] = acc;
    }
    __syncthreads();
    const float inv = normalise ? 1.f / sum : 1.f;
    for (int d = threadIdx.x; d < D; d += blockDim.x) {
        float t = 0.f;
        for (int g = 0; g < G; ++g)
            t += part[g * D + d];
        y[d] = t * inv;
    }
    return make_float2(mx, sum);
}

// One block per head, every thread busy: a key per thread for the scores, then the channels times a
// share of the positions for the weighted sum, so that the loads of the cache are all in flight at once
// instead of one warp-wide dot product after another (which made this kernel the slowest of the step).
// The caches are read with ordinary loads, never __ldg: this block writes the row at pos before reading it.
__global__ void attend_kernel(const float* qkv, float* kc, float* vc, const int64_t* pos_p, int H, int D, int cap,
                              float scale, const float* rc, const float* rs, float* out) {
    extern __shared__ float4 shared4[];
    __shared__ float red[32];
    float* qs = reinterpret_cast<float*>(shared4);  // D (first: 16-byte aligned)
    float* sc = qs + ((D + 3) & ~3);                // cap
    float* part = sc + cap;                         // max(D, blockDim)
    const int h = blockIdx.x, A = H * D;
    let_dependents_launch();
    wait_for_predecessor();
    const int pos = static_cast<int>(*pos_p);
    const float *q = qkv + h * D, *k = qkv + A + h * D, *v = qkv + 2 * A + h * D;
    float* kh = kc + static_cast<size_t>(h) * cap * D;
    float* vh = vc + static_cast<size_t>(h) * cap * D;
    for (int i = threadIdx.x; i < D; i += blockDim.x) {
        qs[i] = rotated(q, i, pos, D, rc, rs);
        kh[static_cast<size_t>(pos) * D + i] = rotated(k, i, pos, D, rc, rs);
        vh[static_cast<size_t>(pos) * D + i] = v[i];
    }
    __syncthreads();
    const int S = pos + 1;
    const bool vec4 = D % 4 == 0;  // the rows are 16-byte aligned then (the cache's base is)
    for (int j = threadIdx.x; j < S; j += blockDim.x) {
        const float* kj = kh + static_cast<size_t>(j) * D;
        float acc = 0.f;
        if (vec4) {
            const float4 *k4 = reinterpret_cast<const float4*>(kj), *q4 = shared4;
#pragma unroll 4
            for (int c = 0; c < D / 4; ++c) {
                const float4 a = k4[c], b = q4[c];
                acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
            }
        } else {
            for (int d = 0; d < D; ++d)
                acc += qs[d] * kj[d];
        }
        sc[j] = acc * scale;
    }
    __syncthreads();
    softmax_values(sc, S, vh, D, part, red, out + h * D, true);
}

// The attention split over blocks of kSplitChunk positions (flash-decoding): a head's positions are read
// by several blocks at once instead of one, each block's softmax kept as its maximum, its sum and its
// weighted sum of the values, and the last block of the head to finish (a counter) adds those up. The
// grid is fixed (the positions a cache can hold), so that a CUDA graph holds it; blocks past the current
// position only report that they have nothing. Only the block that holds the current position writes the
// cache row there, before it reads it.
__global__ void attend_split_kernel(const float* qkv, float* kc, float* vc, const int64_t* pos_p, int H, int D, int cap,
                                    float scale, const float* rc, const float* rs, float* partial, unsigned* counter,
                                    float* out) {
    extern __shared__ float4 shared4[];
    __shared__ float red[32];
    __shared__ bool last;
    float* qs = reinterpret_cast<float*>(shared4);  // D
    float* sc = qs + ((D + 3) & ~3);                // kSplitChunk
    float* part = sc + kSplitChunk;                 // D * G
    const int h = blockIdx.x, P = gridDim.y, A = H * D, stride = D + 2;
    let_dependents_launch();
    wait_for_predecessor();
    const int pos = static_cast<int>(*pos_p), from = blockIdx.y * kSplitChunk;
    const int n = min(kSplitChunk, pos + 1 - from);  // this block's positions (none when <= 0)
    float* mine = partial + (static_cast<size_t>(h) * P + blockIdx.y) * stride;  // max, sum, D weighted sums
    if (n > 0) {
        const float *q = qkv + h * D, *k = qkv + A + h * D, *v = qkv + 2 * A + h * D;
        const float* kh = kc + static_cast<size_t>(h) * cap * D;
        const float* vh = vc + static_cast<size_t>(h) * cap * D;
        const bool holds = pos < from + kSplitChunk;
        for (int i = threadIdx.x; i < D; i += blockDim.x) {
            qs[i] = rotated(q, i, pos, D, rc, rs);
            if (holds) {
                kc[(static_cast<size_t>(h) * cap + pos) * D + i] = rotated(k, i, pos, D, rc, rs);
                vc[(static_cast<size_t>(h) * cap + pos) * D + i] = v[i];
            }
        }
        __syncthreads();
        // The scores: tp threads a position, each a strided share of the channels, summed in the warp.
        const int tp = blockDim.x / kSplitChunk, j = threadIdx.x / tp, share = threadIdx.x % tp;
        float dot = 0.f;
        if (j < n)
            for (int d = share; d < D; d += tp)
                dot += qs[d] * kh[static_cast<size_t>(from + j) * D + d];
        for (int o = tp / 2; o > 0; o >>= 1)
            dot += __shfl_xor_sync(0xffffffffu, dot, o);
        if (share == 0 && j < n)
            sc[j] = dot * scale;
        __syncthreads();
        const float2 ms = softmax_values(sc, n, vh + static_cast<size_t>(from) * D, D, part, red, mine + 2, false);
        if (threadIdx.x == 0) {
            mine[0] = ms.x;
            mine[1] = ms.y;
        }
    } else if (threadIdx.x == 0) {
        mine[0] = -INFINITY;
        mine[1] = 0.f;
    }
    // Every thread's writes visible to the other blocks before the count says this block is done.
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(counter + h, 1u) == static_cast<unsigned>(P - 1);
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    const float* all = partial + static_cast<size_t>(h) * P * stride;
    float M = -INFINITY;
    for (int b = 0; b < P; ++b)
        M = fmaxf(M, __ldcg(all + b * stride));
    float L = 0.f;
    for (int b = 0; b < P; ++b) {
        const float m = __ldcg(all + b * stride);
        if (m != -INFINITY)
            L += __ldcg(all + b * stride + 1) * expf(m - M);
    }
    const float inv = 1.f / L;
    for (int d = threadIdx.x; d < D; d += blockDim.x) {
        float y = 0.f;
        for (int b = 0; b < P; ++b) {
            const float m = __ldcg(all + b * stride);
            if (m != -INFINITY)
                y += __ldcg(all + b * stride + 2 + d) * expf(m - M);
        }
        out[h * D + d] = y * inv;
    }
    if (threadIdx.x == 0)
        counter[h] = 0;  // for the next step
}

__global__ void set_step_kernel(int64_t* tokpos, int64_t token, int64_t pos) {
    tokpos[0] = token;
    tokpos[1] = pos;
}

/// The larger of two (value, index) pairs, the smaller index on a tie: torch's argmax is the first maximum.
__device__ void keep_best(float& v, int& i, float ov, int oi) {
    if (ov > v || (ov == v && oi < i)) {
        v = ov;
        i = oi;
    }
}

/// The first index of the V logits' maximum (torch's argmax) into tokpos[0], tokpos[1] moved on by one, the
/// logits and the index copied to host memory; every thread of the block calls it. The logits are read
/// from L2 (__ldcg): in the head's fused kernel other blocks wrote them.
__device__ void pick_first_max(const float* logits, int V, int64_t* tokpos, float* host_logits, int64_t* host_token) {
    __shared__ float bestv[32];
    __shared__ int besti[32];
    float v = -INFINITY;
    int idx = V;  // past the end: any logit wins over it, -inf included
    for (int i = threadIdx.x; i < V; i += blockDim.x) {
        const float l = __ldcg(logits + i);
        host_logits[i] = l;
        if (l > v || idx == V) {
            v = l;
            idx = i;
        }
    }
    for (int o = 16; o > 0; o >>= 1)
        keep_best(v, idx, __shfl_xor_sync(0xffffffffu, v, o), __shfl_xor_sync(0xffffffffu, idx, o));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    if (lane == 0) {
        bestv[warp] = v;
        besti[warp] = idx;
    }
    __syncthreads();
    if (warp == 0) {
        v = lane < warps ? bestv[lane] : -INFINITY;
        idx = lane < warps ? besti[lane] : V;
        for (int o = 16; o > 0; o >>= 1)
            keep_best(v, idx, __shfl_xor_sync(0xffffffffu, v, o), __shfl_xor_sync(0xffffffffu, idx, o));
        if (lane == 0) {
            tokpos[0] = idx;
            tokpos[1] += 1;
            *host_token = idx;
        }
    }
}

__global__ void pick_greedy_kernel(const float* logits, int V, int64_t* tokpos, float* host_logits,
                                   int64_t* host_token) {
    let_dependents_launch();
    wait_for_predecessor();
    pick_first_max(logits, V, tokpos, host_logits, host_token);
}

/// The head's fused pick: the last of the kernel's blocks to finish its rows picks from all of them.
__device__ void last_block_picks(const float* logits, int V, const PickParams& p) {
    __shared__ bool last;
    __threadfence();  // this block's logits visible to the others before the count says it is done
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(p.counter, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    pick_first_max(logits, V, p.tokpos, p.host_logits, p.host_token);
    if (threadIdx.x == 0)
        *p.counter = 0;  // for the next step
}

cudaStream_t as_stream(void* s) {
    return static_cast<cudaStream_t>(s);
}

/// kernel<<<grid, block, shared, stream>>>(args...), a programmatic dependent of the kernel before when
/// set_dependent_launch(true).
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, int block, size_t shared, void* stream, Args... args) {
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = dim3(static_cast<unsigned>(block));
    config.dynamicSmemBytes = shared;
    config.stream = as_stream(stream);
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute[0].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = attribute;
    config.numAttrs = g_dependent_launch ? 1 : 0;
    cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
}

}  // namespace

void set_dependent_launch(bool on) {
    g_dependent_launch = on;
}

void set_warp_norm(bool on, bool ahead) {
    g_warp_norm = on;
    g_norm_ahead = ahead;
}

void set_step(int64_t* tokpos, int64_t token, int64_t pos, void* stream) {
    // An ordinary launch: it must not overlap a step still in flight, which reads and moves tokpos.
    set_step_kernel<<<1, 1, 0, as_stream(stream)>>>(tokpos, token, pos);
}

void pick_greedy(const float* logits, int V, int64_t* tokpos, float* host_logits, int64_t* host_token, void* stream) {
    launch(pick_greedy_kernel, dim3(1), kPickThreads, 0, stream, logits, V, tokpos, host_logits, host_token);
}

void embed(const float* table, const float* positions, const int64_t* token, const int64_t* pos, float* x, int C,
           void* stream) {
    launch(embed_kernel, dim3(1), kThreads, 0, stream, table, positions, token, pos, x, C);
}

bool norm_gemv(const float* in, int K, const NormParams& norm, const float* W, const float* bias, int N, Act act,
               float* out, bool accumulate, const EmbedParams& embed, const PickParams& pick, void* stream) {
    const int warps = kGemvThreads / 32;
    const int blocks = (N + warps - 1) / warps < 4096 ? (N + warps - 1) / warps : 4096;
    const bool vec4 = K % 4 == 0 && reinterpret_cast<uintptr_t>(W) % 16 == 0;
    const bool aligned = embed.table ? reinterpret_cast<uintptr_t>(embed.table) % 16 == 0 &&
                                           reinterpret_cast<uintptr_t>(embed.positions) % 16 == 0 &&
                                           reinterpret_cast<uintptr_t>(embed.x) % 16 == 0
                                     : reinterpret_cast<uintptr_t>(in) % 16 == 0;
    if (g_warp_norm && vec4 && K / 4 <= 32 * kHeld && aligned) {
        launch(g_norm_ahead && K / 4 <= 32 * 4 ? norm_gemv_kernel<4> : norm_gemv_kernel<kHeld>,
               dim3(static_cast<unsigned>(blocks)), kGemvThreads, 0, stream, in, K, norm, W, bias, N, act, out,
               accumulate, vec4, embed, pick);
        return true;
    }
    if (embed.table)
        return false;  // the embedding is fused into the registers' path only
    const size_t shared = static_cast<size_t>((K + 3) / 4) * sizeof(float4);
    launch(norm_gemv_kernel<0>, dim3(static_cast<unsigned>(blocks)), kGemvThreads, shared, stream, in, K, norm, W, bias,
           N, act, out, accumulate, vec4, embed, pick);
    return true;
}

void norm_inplace(float* x, int C, const NormParams& norm, void* stream) {
    const size_t shared = static_cast<size_t>((C + 3) / 4) * sizeof(float4);
    launch(norm_inplace_kernel, dim3(1), kThreads, shared, stream, x, C, norm);
}

void attend(const float* qkv, float* k_cache, float* v_cache, const int64_t* pos, int H, int D, int cap, float scale,
            const float* rope_cos, const float* rope_sin, const AttendSplit& split, float* out, void* stream) {
    if (split.partial) {
        const int G = kSplitThreads >= D ? kSplitThreads / D : 1;
        const int floats = ((D + 3) & ~3) + kSplitChunk + D * G;
        const size_t shared = static_cast<size_t>((floats + 3) / 4) * sizeof(float4);
        launch(attend_split_kernel, dim3(static_cast<unsigned>(H), static_cast<unsigned>(split_blocks(cap))),
               kSplitThreads, shared, stream, qkv, k_cache, v_cache, pos, H, D, cap, scale, rope_cos, rope_sin,
               split.partial, split.counter, out);
        return;
    }
    const int floats = ((D + 3) & ~3) + cap + (D > kAttendThreads ? D : kAttendThreads);
    const size_t shared = static_cast<size_t>((floats + 3) / 4) * sizeof(float4);
    launch(attend_kernel, dim3(static_cast<unsigned>(H)), kAttendThreads, shared, stream, qkv, k_cache, v_cache, pos, H,
           D, cap, scale, rope_cos, rope_sin, out);
}

}  // namespace twb::nn::cuda_kernels
