// The CUDA kernels of the GPU decoder (nn/decoding/cuda_decoder.h), behind a plain C++ interface: raw
// device pointers and sizes, no libtorch, so that nvcc compiles cuda_decode_kernels.cu alone. Each
// launcher queues one kernel on `stream` (a cudaStream_t) and returns; nothing waits for the GPU.
//
// On Hopper (compute capability 9) the kernels are launched as programmatic dependents of the one before
// (set_dependent_launch): a kernel starts while its predecessor still runs, loads what does not depend on
// it (a linear layer's weights) and then waits for it. A token's step is some 36 small kernels one after
// the other, and what this hides (each launch's latency, each layer's first weight loads) is most of the
// step's time.
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

/// The largest input of norm_gemv, in floats: it is held in dynamic shared memory, beside the 32 floats of
/// the norm's reduction, and a block may have 48 KiB without asking for more.
constexpr int kMaxGemvInput = 12 * 1024 - 32;
/// attend's threads per head, and the most floats it holds in shared memory: head_dim (rounded up to 4)
/// + block_size + max(head_dim, kAttendThreads).
constexpr int kAttendThreads = 512;
constexpr int kMaxAttendShared = 11 * 1024;

/// Whether the launchers below make each kernel a programmatic dependent of the one before (Hopper's
/// "programmatic dependent launch"), from now on in this thread; off at first. GPUs before compute
/// capability 9 must not be asked for it.
void set_dependent_launch(bool on);

/// Whether norm_gemv may hold an input of up to 1536 floats (16-byte aligned) in each warp's registers and
/// normalise it there, and for inputs up to 512 wide load the norm's weights before it waits for its
/// input (`ahead`), from now on in this thread; on and off at first. Off: every block normalises the
/// input in shared memory (what wider inputs always take).
void set_warp_norm(bool on, bool ahead);

/// tokpos[0] = token, tokpos[1] = pos: the next step's input, from the host.
void set_step(int64_t* tokpos, int64_t token, int64_t pos, void* stream);

/// The greedy choice, kept on the device: the first index of logits' maximum (as torch's argmax) becomes
/// tokpos[0] and tokpos[1] moves on by one, so that the next step can be launched before the host has
/// read this one; the logits and that index are written to host_logits and host_token (host memory the
/// device can write: cudaHostAlloc'd).
void pick_greedy(const float* logits, int V, int64_t* tokpos, float* host_logits, int64_t* host_token, void* stream);

/// x[i] = table[token * C + i] (+ positions[pos * C + i] when positions is not null); token and pos are
/// device scalars.
void embed(const float* table, const float* positions, const int64_t* token, const int64_t* pos, float* x, int C,
           void* stream);

/// A token's first and last kernels fused into the linear layers beside them (TWB_CUDA_FUSE_ENDS=1): the
/// embedding into the first layer's first linear layer, whose input is then table[token] (+ positions[pos])
/// and which also writes it to x; and the greedy pick into the head, whose last block to finish picks as
/// pick_greedy does. Null pointers: not fused.
struct EmbedParams {
    const float* table = nullptr;
    const float* positions = nullptr;  // null: no learned or sinusoidal positions
    const int64_t* tokpos = nullptr;   // the token and its position
    float* x = nullptr;                // the residual stream, written by the first block
};
struct PickParams {
    int64_t* tokpos = nullptr;
    float* host_logits = nullptr;
    int64_t* host_token = nullptr;
    unsigned* counter = nullptr;  // one zero, back at zero after every call
};

/// out[r] (+)= act(W[r, :] . norm(in) + bias[r]) for the N rows of W (N x K, row-major): a whole linear
/// layer, with the norm of its input (computed by every block, or by every warp: set_warp_norm) and its
/// activation, and with accumulate the residual sum; in and out must not overlap. With `embed` its input
/// is the embedding (in unused), with `pick` the greedy pick follows. False, with nothing launched, when
/// the embedding is asked for an input the registers' path cannot hold (the caller launches embed then).
bool norm_gemv(const float* in, int K, const NormParams& norm, const float* W, const float* bias, int N, Act act,
               float* out, bool accumulate, const EmbedParams& embed, const PickParams& pick, void* stream);

/// x = norm(x) in place over C values (a post-norm model's norm after the residual sum).
void norm_inplace(float* x, int C, const NormParams& norm, void* stream);

/// Positions a block of the split attention reads, and the blocks a head takes for a cache of `cap`.
constexpr int kSplitChunk = 32;
constexpr int split_blocks(int cap) {
    return (cap + kSplitChunk - 1) / kSplitChunk;
}

/// The split attention's device memory: partial holds H * split_blocks(cap) * (D + 2) floats (each
/// block's maximum, sum and weighted sums), counter H zeros (each head's blocks done; back at zero after
/// every call). partial null: one block a head instead.
struct AttendSplit {
    float* partial = nullptr;
    unsigned* counter = nullptr;
};

/// One token's attention at position *pos: per head, its query and key rotated (when rope_cos is not
/// null: tables of (block, D/2)), the key and value written into the caches (H, cap, D) at *pos, then the
/// query attends to positions 0..*pos; out is (H * D). qkv holds q, k and v of all heads one after the
/// other (3 * H * D).
void attend(const float* qkv, float* k_cache, float* v_cache, const int64_t* pos, int H, int D, int cap, float scale,
            const float* rope_cos, const float* rope_sin, const AttendSplit& split, float* out, void* stream);

}  // namespace twb::nn::cuda_kernels
