// The bf16 training kernels for CUDA (fused_cuda_kernels.h). A row of the LayerNorm is one warp's: its C
// values sit in the lanes' registers (V a lane, lane + 32 i), so the forward reads x once and the
// backward reads x and dy once. The weight's and the bias's gradients are summed per block over its
// rows, warp after warp in order, then over the blocks in order by a second kernel: no atomics, so the
// sums, and a run, are the same every time.
#include "nn/models/fused_cuda_kernels.h"

#include <cuda_bf16.h>
#include <cuda_runtime.h>

namespace twb::nn::cuda_kernels {

namespace {

constexpr int kThreads = 256;  // eight warps
constexpr int kWarps = kThreads / 32;
constexpr int kRowsPerBackwardBlock = 64;

__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

template <int V>
__global__ void __launch_bounds__(kThreads)
    ln_forward_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                      __nv_bfloat16* __restrict__ y, float* __restrict__ mean, float* __restrict__ rstd, int64_t rows,
                      int C, float eps) {
    const int lane = threadIdx.x & 31;
    const int64_t row = static_cast<int64_t>(blockIdx.x) * kWarps + (threadIdx.x >> 5);
    if (row >= rows)
        return;
    const float* xr = x + row * C;
    float v[V];
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < V; ++i) {
        const int c = lane + 32 * i;
        v[i] = c < C ? xr[c] : 0.f;
        s += v[i];
    }
    const float mu = warp_sum(s) / static_cast<float>(C);
    float q = 0.f;
#pragma unroll
    for (int i = 0; i < V; ++i) {
        const int c = lane + 32 * i;
        const float d = c < C ? v[i] - mu : 0.f;
        q += d * d;
    }
    const float rs = rsqrtf(warp_sum(q) / static_cast<float>(C) + eps);
    __nv_bfloat16* yr = y + row * C;
#pragma unroll
    for (int i = 0; i < V; ++i) {
        const int c = lane + 32 * i;
        if (c < C) {
            const float h = (v[i] - mu) * rs * w[c];
            yr[c] = __float2bfloat16_rn(b ? h + b[c] : h);
        }
    }
    if (lane == 0) {
        mean[row] = mu;
        rstd[row] = rs;
    }
}

// Block k takes rows [k * kRowsPerBackwardBlock, ...), each warp every kWarps-th of them; its sums of
// dy * xhat and dy per column go to partial_w / partial_b row k.
template <int V>
__global__ void __launch_bounds__(kThreads)
    ln_backward_kernel(const __nv_bfloat16* __restrict__ dy, const float* __restrict__ x, const float* __restrict__ w,
                       const float* __restrict__ mean, const float* __restrict__ rstd, float* __restrict__ dx,
                       float* __restrict__ partial_w, float* __restrict__ partial_b, int64_t rows, int C) {
    __shared__ float sw[kMaxLayerNormWidth], sb[kMaxLayerNormWidth];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const float invC = 1.f / static_cast<float>(C);
    float aw[V], ab[V], wv[V];
#pragma unroll
    for (int i = 0; i < V; ++i) {
        const int c = lane + 32 * i;
        aw[i] = 0.f;
        ab[i] = 0.f;
        wv[i] = c < C ? w[c] : 0.f;
    }
    const int64_t first = static_cast<int64_t>(blockIdx.x) * kRowsPerBackwardBlock;
    const int64_t last = first + kRowsPerBackwardBlock < rows ? first + kRowsPerBackwardBlock : rows;
    for (int64_t row = first + warp; row < last; row += kWarps) {
        const float mu = mean[row], rs = rstd[row];
        float h[V], g[V], sg = 0.f, sgh = 0.f;
#pragma unroll
        for (int i = 0; i < V; ++i) {
            const int c = lane + 32 * i;
            const float d = c < C ? __bfloat162float(dy[row * C + c]) : 0.f;
            h[i] = c < C ? (x[row * C + c] - mu) * rs : 0.f;
            g[i] = d * wv[i];
            sg += g[i];
            sgh += g[i] * h[i];
            aw[i] += d * h[i];
            ab[i] += d;
        }
        const float mg = warp_sum(sg) * invC, mgh = warp_sum(sgh) * invC;
#pragma unroll
        for (int i = 0; i < V; ++i) {
            const int c = lane + 32 * i;
            if (c < C)
                dx[row * C + c] = rs * (g[i] - mg - h[i] * mgh);
        }
    }
    // The warps' sums into shared memory one warp after the other: a fixed order.
    for (int k = 0; k < kWarps; ++k) {
        if (warp == k) {
#pragma unroll
            for (int i = 0; i < V; ++i) {
                const int c = lane + 32 * i;
                if (c < C) {
                    sw[c] = k == 0 ? aw[i] : sw[c] + aw[i];
                    sb[c] = k == 0 ? ab[i] : sb[c] + ab[i];
                }
            }
        }
        __syncthreads();
    }
    for (int c = threadIdx.x; c < C; c += blockDim.x) {
        partial_w[static_cast<int64_t>(blockIdx.x) * C + c] = sw[c];
        if (partial_b)
            partial_b[static_cast<int64_t>(blockIdx.x) * C + c] = sb[c];
    }
}

/// out[c] = sum over k of partial[k * C + c], k in order.
__global__ void column_sum_kernel(const float* __restrict__ partial, int blocks, int C, float* __restrict__ out) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C)
        return;
    float s = 0.f;
    for (int k = 0; k < blocks; ++k)
        s += partial[static_cast<int64_t>(k) * C + c];
    out[c] = s;
}

int backward_blocks(int64_t rows) {
    return static_cast<int>((rows + kRowsPerBackwardBlock - 1) / kRowsPerBackwardBlock);
}

/// fn.template operator()<V>() with the smallest V of {4, 8, 12, 16, 24, 32} that holds C / 32 values.
template <class Fn>
void with_lanes(int C, const Fn& fn) {
    const int need = (C + 31) / 32;
    if (need <= 4)
        fn.template operator()<4>();
    else if (need <= 8)
        fn.template operator()<8>();
    else if (need <= 12)
        fn.template operator()<12>();
    else if (need <= 16)
        fn.template operator()<16>();
    else if (need <= 24)
        fn.template operator()<24>();
    else
        fn.template operator()<32>();
}

cudaStream_t as_stream(void* s) {
    return static_cast<cudaStream_t>(s);
}

struct ForwardLaunch {
    const float *x, *w, *b;
    __nv_bfloat16* y;
    float *mean, *rstd;
    int64_t rows;
    int C;
    float eps;
    cudaStream_t stream;
    template <int V>
    void operator()() const {
        const auto blocks = static_cast<unsigned>((rows + kWarps - 1) / kWarps);
        ln_forward_kernel<V><<<blocks, kThreads, 0, stream>>>(x, w, b, y, mean, rstd, rows, C, eps);
    }
};

struct BackwardLaunch {
    const __nv_bfloat16* dy;
    const float *x, *w, *mean, *rstd;
    float *dx, *partial_w, *partial_b;
    int64_t rows;
    int C;
    cudaStream_t stream;
    template <int V>
    void operator()() const {
        ln_backward_kernel<V>
            <<<backward_blocks(rows), kThreads, 0, stream>>>(dy, x, w, mean, rstd, dx, partial_w, partial_b, rows, C);
    }
};

}  // namespace

void layer_norm_bf16_forward(const float* x, const float* w, const float* b, uint16_t* y, float* mean, float* rstd,
                             int64_t rows, int C, float eps, void* stream) {
    if (rows == 0)
        return;
    with_lanes(
        C, ForwardLaunch{x, w, b, reinterpret_cast<__nv_bfloat16*>(y), mean, rstd, rows, C, eps, as_stream(stream)});
}

int64_t layer_norm_backward_scratch(int64_t rows, int C) {
    return 2 * static_cast<int64_t>(backward_blocks(rows)) * C;
}

void layer_norm_bf16_backward(const uint16_t* dy, const float* x, const float* w, const float* mean, const float* rstd,
                              float* dx, float* dw, float* db, float* scratch, int64_t rows, int C, void* stream) {
    const int blocks = backward_blocks(rows);
    float* partial_w = scratch;
    float* partial_b = db ? scratch + static_cast<int64_t>(blocks) * C : nullptr;
    if (rows > 0)
        with_lanes(C, BackwardLaunch{reinterpret_cast<const __nv_bfloat16*>(dy), x, w, mean, rstd, dx, partial_w,
                                     partial_b, rows, C, as_stream(stream)});
    const unsigned colBlocks = static_cast<unsigned>((C + 127) / 128);
    column_sum_kernel<<<colBlocks, 128, 0, as_stream(stream)>>>(partial_w, blocks, C, dw);
    if (db)
        column_sum_kernel<<<colBlocks, 128, 0, as_stream(stream)>>>(partial_b, blocks, C, db);
}

}  // namespace twb::nn::cuda_kernels
