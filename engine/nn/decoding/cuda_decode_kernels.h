// The CUDA kernels of the GPU decoder (nn/decoding/cuda_decoder.h), behind a plain C++ interface: raw
// device pointers and sizes, no libtorch, so that nvcc compiles cuda_decode_kernels.cu alone. Each
// launcher queues one kernel on `stream` (a cudaStream_t) and returns; nothing waits for the GPU.
#pragma once
#include <cstdint>

namespace twb::nn::cuda_kernels {

/// What a norm_gemv applies to its input vector first.
enum class NormOp { None = 0, Layer = 1, Rms = 2 };
/// The activation applied to each output (the model's Activation, numbered here for the kernels).
enum class Act { None = 0, Relu = 1, Silu = 2, GeluTanh = 3, Gelu = 4 };

struct NormParams {
    NormOp op = NormOp::None;
    const float* weight = nullptr;
    const float* bias = nullptr;  // null when none
    float eps = 1e-5f;
};

/// The largest input of norm_gemv, in floats (it is held in shared memory).
constexpr int kMaxGemvInput = 12 * 1024;
/// attend's threads per head, and the most floats it holds in shared memory: head_dim (rounded up to 4)
/// + block_size + max(head_dim, kAttendThreads).
constexpr int kAttendThreads = 512;
constexpr int kMaxAttendShared = 11 * 1024;

/// x[i] = table[token * C + i] (+ positions[pos * C + i] when positions is not null); token and pos are
/// device scalars.
void embed(const float* table, const float* positions, const int64_t* token, const int64_t* pos, float* x, int C,
           void* stream);

/// out[r] (+)= act(W[r, :] . norm(in) + bias[r]) for the N rows of W (N x K, row-major): a whole linear
/// layer, with the norm of its input (computed by every block) and its activation, and with accumulate
/// the residual sum. in and out must not overlap.
void norm_gemv(const float* in, int K, const NormParams& norm, const float* W, const float* bias, int N, Act act,
               float* out, bool accumulate, void* stream);

/// x = norm(x) in place over C values (a post-norm model's norm after the residual sum).
void norm_inplace(float* x, int C, const NormParams& norm, void* stream);

/// One token's attention at position *pos: per head, its query and key rotated (when rope_cos is not
/// null: tables of (block, D/2)), the key and value written into the caches (H, cap, D) at *pos, then the
/// query attends to positions 0..*pos; out is (H * D). qkv holds q, k and v of all heads one after the
/// other (3 * H * D).
void attend(const float* qkv, float* k_cache, float* v_cache, const int64_t* pos, int H, int D, int cap, float scale,
            const float* rope_cos, const float* rope_sin, float* out, void* stream);

}  // namespace twb::nn::cuda_kernels
