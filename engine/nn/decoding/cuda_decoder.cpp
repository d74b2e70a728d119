// CudaDecoder: a GPT's step for one token as twb's own CUDA kernels, replayed as a CUDA graph.
#include "nn/decoding/cuda_decoder.h"

#include "nn/cuda_graph.h"
#include "nn/decoding/cuda_decode_kernels.h"
#include "nn/decoding/fast_decode.h"
#include "nn/models/attention.h"
#include "nn/models/position_tables.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#if TWB_HAVE_CUDA_KERNELS
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

namespace twb::nn {

namespace k = cuda_kernels;

namespace {

/// A device copy in float32, contiguous (the parameter itself where it is already).
torch::Tensor on_device(const torch::Tensor& t, const torch::Device& device) {
    return t.defined() ? t.detach().to(device, torch::kFloat32).contiguous() : torch::Tensor();
}

float* ptr(const torch::Tensor& t) {
    return t.defined() ? t.data_ptr<float>() : nullptr;
}

struct DeviceNorm {
    torch::Tensor weight, bias;
};

struct DeviceLinear {
    torch::Tensor weight, bias;  // (out, in); bias undefined when none
};

/// Whether the environment variable `name` is "0": one of the decoder's steps switched off.
bool switched_off(const char* name) {
    const char* env = std::getenv(name);
    return env && std::string(env) == "0";
}

#if TWB_HAVE_CUDA_KERNELS
/// Whether it is "1": a step not yet measured on a GPU, so not the default, asked for.
bool switched_on(const char* name) {
    const char* env = std::getenv(name);
    return env && std::string(env) == "1";
}
#endif

struct DeviceLayer {
    DeviceNorm ln_1, ln_2;
    DeviceLinear c_attn, attn_proj, c_fc, mlp_proj;
    torch::Tensor k, v;  // the cache, (H, block, D)
};

DeviceNorm norm_of(const Norm& n, const torch::Device& device) {
    return {on_device(n->weight, device), on_device(n->bias, device)};
}

DeviceLinear linear_of(const Linear& l, const torch::Device& device) {
    return {on_device(l->weight, device), on_device(l->bias, device)};
}

#if TWB_HAVE_CUDA_KERNELS
k::Act act_of(Activation a) {
    switch (a) {
        case Activation::Relu:
            return k::Act::Relu;
        case Activation::Silu:
            return k::Act::Silu;
        case Activation::GeluTanh:
            return k::Act::GeluTanh;
        case Activation::Gelu:
            break;
    }
    return k::Act::Gelu;
}

#endif

}  // namespace

struct CudaDecoder::Impl {
    RunConfig config;
    torch::Device device = torch::kCPU;
    std::vector<DeviceLayer> layers;
    DeviceNorm ln_f;  // undefined weight: none (post-norm)
    torch::Tensor embedding, positions, rope_cos, rope_sin, lm_head;
    torch::Tensor tokpos;                   // int64 (2) on the device: the next step's token and position
    torch::Tensor x, qkv, att, ff, logits;  // the step's buffers
    torch::Tensor partial, counter;         // the split attention's (k::AttendSplit); undefined: not split
    torch::Tensor pick_counter;             // the head's fused pick (k::PickParams): one zero
    int64_t vocab = 0;
    bool tried = false, replaying = false;
    bool dependent = false;   // the kernels launched as programmatic dependents (k::set_dependent_launch)
    bool warp_norm = true;    // linear layers' inputs normalised in each warp's registers (k::set_warp_norm)
    bool norm_ahead = false;  // and the norms' weights loaded before the wait (TWB_CUDA_NORM_AHEAD=1)
    bool fuse_ends = false;   // the embedding and the pick fused into the linear layers (TWB_CUDA_FUSE_ENDS=1)
    bool graphs = false;      // CUDA graphs allowed (CudaGraph::unavailable: TWB_CUDA_GRAPHS=0)
    // Two slots, used in turn by the steps launched, so that a step can run while the host reads the one
    // before: each has its graph, its event and its host memory (the token picked, then the logits).
    int newest = 1;      // the slot of the step launched last
    bool ahead = false;  // a step launched on the device's greedy guess, not yet fed
    int32_t guess = -1;  // the token that step feeds: the argmax of the step before
    size_t slotBytes = 0;
    char* host = nullptr;          // pinned, 2 * slotBytes; the device writes it (cudaHostAllocMapped)
    char* hostOnDevice = nullptr;  // the same memory as the device addresses it
#if TWB_HAVE_CUDA_KERNELS
    // Its own (the default stream cannot be recorded, and a stream of c10's pool may be the one that a
    // training step in another thread records into at the same time).
    cudaStream_t stream = nullptr;
    std::array<cudaEvent_t, 2> done{};
    std::array<cudaGraphExec_t, 2> exec{};
#endif

    Impl() = default;
    ~Impl();
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    k::NormParams norm(const DeviceNorm& n) const {
        k::NormParams p;
        if (!n.weight.defined())
            return p;
        p.op = config.norm == NormKind::RmsNorm ? k::NormOp::Rms : k::NormOp::Layer;
        p.weight = ptr(n.weight);
        p.bias = ptr(n.bias);
        p.eps = static_cast<float>(config.norm_eps);
        return p;
    }
    int64_t* hostToken(int slot) const {
        return reinterpret_cast<int64_t*>(host + slot * slotBytes);
    }
    float* hostLogits(int slot) const {
        return reinterpret_cast<float*>(host + slot * slotBytes + 16);
    }
    /// A linear layer's kernel (k::norm_gemv), with the embedding or the greedy pick fused in when given;
    /// false when that embedding cannot be (nothing launched).
    bool linear(const float* in, const DeviceNorm* n, const DeviceLinear& l, k::Act act, float* out, bool accumulate,
                const k::EmbedParams& embed = {}, const k::PickParams& pick = {}) const;
    void run(int slot);                        // the step's kernels, queued on the stream, its output to `slot`
    void launch(int64_t token, int64_t pos);   // a step for `token` at `pos`
    void launch_ahead();                       // a step for the device's greedy guess after the newest
    void run_step(int slot);                   // the graph of `slot` (or its kernels), then its event
    void prepare(int64_t token, int64_t pos);  // at the first step: a warm-up, then the graphs recorded
    bool record(int slot);                     // the graph of `slot`; false where recording failed
    void wait(int slot);                       // until the step in `slot` is done
};

std::string CudaDecoder::unavailable(const GPT& model, const torch::Device& device) {
    if (!device.is_cuda())
        return "not a GPU";
#if !TWB_HAVE_CUDA_KERNELS
    (void)model;
    return "this build has no CUDA kernels (its libtorch has no CUDA, or nvcc was missing)";
#else
    if (switched_off("TWB_CUDA_DECODER"))
        return "TWB_CUDA_DECODER=0";
    int major = 0, minor = 0;
    const int index = device.has_index() ? device.index() : c10::cuda::current_device();
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, index) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, index) != cudaSuccess) {
        (void)cudaGetLastError();
        return "the CUDA device " + std::to_string(index) + " does not answer";
    }
    if (major < 8)  // engine/CMakeLists.txt: CUDA_ARCHITECTURES 80;90
        return "compute capability " + std::to_string(major) + "." + std::to_string(minor) +
               ": the kernels are built for 8.0 and later";
    const RunConfig& c = model->config();
    if (model->has_head_gates())
        return "heads are switched off";
    if (const std::string why = fast_decode_unsupported(c); !why.empty())
        return why;
    const int64_t widest = std::max({c.n_embd, c.n_head * c.head_dim(), c.ffn_dim()});
    if (widest > k::kMaxGemvInput)
        return "a layer " + std::to_string(widest) + " wide is wider than the kernels' " +
               std::to_string(k::kMaxGemvInput);
    if (switched_off("TWB_CUDA_ATTEND_SPLIT") &&
        (c.head_dim() + 3) / 4 * 4 + c.block_size + std::max<int64_t>(c.head_dim(), k::kAttendThreads) >
            k::kMaxAttendShared)
        return "block_size " + std::to_string(c.block_size) + " is longer than the attention kernel holds";
    return {};
#endif
}

CudaDecoder::CudaDecoder(const GPT& model_, torch::Device device) : d(std::make_unique<Impl>()) {
    torch::NoGradGuard ng;
    GPT model = model_;  // a handle to the same module (ModuleList's operator[] is not const)
    const RunConfig& c = model->config();
    d->config = c;
    d->device = device;
    auto tr = model->transformer;
    const auto f32 = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    const int64_t H = c.n_head, D = c.head_dim(), A = H * D;
    for (size_t i = 0; i < tr->h->size(); ++i) {
        const auto* b = tr->h[i]->as<Block>();
        DeviceLayer l;
        l.ln_1 = norm_of(b->ln_1, device);
        l.ln_2 = norm_of(b->ln_2, device);
        l.c_attn = linear_of(b->attn->c_attn, device);
        l.attn_proj = linear_of(b->attn->c_proj, device);
        l.c_fc = linear_of(b->mlp->c_fc, device);
        l.mlp_proj = linear_of(b->mlp->c_proj, device);
        l.k = torch::zeros({H, c.block_size, D}, f32);
        l.v = torch::zeros({H, c.block_size, D}, f32);
        d->layers.push_back(std::move(l));
    }
    if (tr->ln_f)
        d->ln_f = norm_of(tr->ln_f, device);
    d->embedding = on_device(tr->wte->weight, device);
    d->lm_head = model->lm_head ? on_device(model->lm_head->weight, device) : d->embedding;
    if (c.position == Position::Learned)
        d->positions = on_device(tr->wpe->weight, device);
    else if (c.position == Position::Sinusoidal)
        d->positions = on_device(sinusoidal_table(c.block_size, c.n_embd, c.sinusoid_halves), device);
    else
        std::tie(d->rope_cos, d->rope_sin) = rotary_tables(c.block_size, D);
    d->rope_cos = on_device(d->rope_cos, device);
    d->rope_sin = on_device(d->rope_sin, device);
    const auto i64 = torch::TensorOptions().dtype(torch::kInt64).device(device);
    d->tokpos = torch::zeros({2}, i64);
    d->x = torch::zeros({c.n_embd}, f32);
    d->qkv = torch::zeros({3 * A}, f32);
    d->att = torch::zeros({A}, f32);
    d->ff = torch::zeros({c.ffn_dim()}, f32);
    d->vocab = d->lm_head.size(0);
    d->logits = torch::zeros({d->vocab}, f32);
    d->graphs = CudaGraph::unavailable(device).empty();
#if TWB_HAVE_CUDA_KERNELS
    if (!switched_off("TWB_CUDA_ATTEND_SPLIT")) {  // the attention split over blocks of positions
        d->partial = torch::zeros({H * k::split_blocks(static_cast<int>(c.block_size)) * (D + 2)}, f32);
        d->counter = torch::zeros({H}, torch::TensorOptions().dtype(torch::kInt32).device(device));
    }
    d->pick_counter = torch::zeros({1}, torch::TensorOptions().dtype(torch::kInt32).device(device));
    if (!device.has_index())  // "cuda": the current device, named, for the calls below that need its number
        d->device = torch::Device(torch::kCUDA, c10::cuda::current_device());
    const c10::cuda::CUDAGuard guard(d->device);
    C10_CUDA_CHECK(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    for (auto& e : d->done)
        C10_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    d->slotBytes = static_cast<size_t>(16 + d->vocab * 4 + 15) / 16 * 16;
    void* host = nullptr;
    C10_CUDA_CHECK(cudaHostAlloc(&host, 2 * d->slotBytes, cudaHostAllocMapped));
    d->host = static_cast<char*>(host);
    std::memset(d->host, 0, 2 * d->slotBytes);
    void* onDevice = nullptr;
    C10_CUDA_CHECK(cudaHostGetDevicePointer(&onDevice, host, 0));
    d->hostOnDevice = static_cast<char*>(onDevice);
    int major = 0;
    C10_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d->device.index()));
    d->dependent = major >= 9 && !switched_off("TWB_CUDA_PDL");
    d->warp_norm = !switched_off("TWB_CUDA_WARP_NORM");
    d->norm_ahead = switched_on("TWB_CUDA_NORM_AHEAD");
    d->fuse_ends = switched_on("TWB_CUDA_FUSE_ENDS");
    // What was made above on the current stream is ready before the decoder's stream reads it.
    C10_CUDA_CHECK(cudaDeviceSynchronize());
#endif
}

CudaDecoder::~CudaDecoder() = default;

CudaDecoder::Impl::~Impl() {
#if TWB_HAVE_CUDA_KERNELS
    // A step may still run (one launched ahead): the buffers go back to the allocator only after it.
    if (stream)
        cudaStreamSynchronize(stream);
    for (auto& e : exec)
        if (e)
            cudaGraphExecDestroy(e);
    for (auto& e : done)
        if (e)
            cudaEventDestroy(e);
    if (host)
        cudaFreeHost(host);
    if (stream)
        cudaStreamDestroy(stream);
#endif
}

bool CudaDecoder::replaying() const {
    return d->replaying;
}

bool CudaDecoder::dependent_launch() const {
    return d->dependent;
}

#if TWB_HAVE_CUDA_KERNELS  // without the kernels nothing calls these
bool CudaDecoder::Impl::linear(const float* in, const DeviceNorm* n, const DeviceLinear& l, k::Act act, float* out,
                               bool accumulate, const k::EmbedParams& embed, const k::PickParams& pick) const {
    return k::norm_gemv(in, static_cast<int>(l.weight.size(1)), n ? norm(*n) : k::NormParams(), ptr(l.weight),
                        ptr(l.bias), static_cast<int>(l.weight.size(0)), act, out, accumulate, embed, pick, stream);
}

// The model's forward for one token (nn/models/model.cpp; FastDecoder::feed_chunk on the CPU): embedding and
// positions, per layer attention and MLP with their norms before (pre-norm) or after the residual sum
// (post-norm), the final norm and the head; then the greedy pick, which also moves the position on.
void CudaDecoder::Impl::run(int slot) {
    const RunConfig& c = config;
    const bool post = c.norm_position == NormPosition::Post;
    const int H = static_cast<int>(c.n_head), D = static_cast<int>(c.head_dim());
    const auto scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(D)));
    float *px = ptr(x), *pqkv = ptr(qkv), *patt = ptr(att), *pff = ptr(ff);
    k::set_dependent_launch(dependent);  // this decoder's choice, for the launches below
    k::set_warp_norm(warp_norm, norm_ahead);
    auto* tok = tokpos.data_ptr<int64_t>();
    const auto* pos = tok + 1;
    k::AttendSplit split;
    if (partial.defined()) {
        split.partial = ptr(partial);
        split.counter = reinterpret_cast<unsigned*>(counter.data_ptr<int32_t>());
    }
    // The embedding, or with TWB_CUDA_FUSE_ENDS=1 the first layer's first linear layer reading it itself.
    const bool embedded = fuse_ends && !layers.empty() &&
                          linear(nullptr, post ? nullptr : &layers.front().ln_1, layers.front().c_attn, k::Act::None,
                                 pqkv, false, k::EmbedParams{ptr(embedding), ptr(positions), tok, px});
    if (!embedded)
        k::embed(ptr(embedding), ptr(positions), tok, pos, px, static_cast<int>(c.n_embd), stream);
    for (auto& l : layers) {
        if (!embedded || &l != &layers.front())
            linear(px, post ? nullptr : &l.ln_1, l.c_attn, k::Act::None, pqkv, false);
        k::attend(pqkv, ptr(l.k), ptr(l.v), pos, H, D, static_cast<int>(c.block_size), scale, ptr(rope_cos),
                  ptr(rope_sin), split, patt, stream);
        linear(patt, nullptr, l.attn_proj, k::Act::None, px, true);
        if (post)
            k::norm_inplace(px, static_cast<int>(c.n_embd), norm(l.ln_1), stream);
        linear(px, post ? nullptr : &l.ln_2, l.c_fc, act_of(c.activation), pff, false);
        linear(pff, nullptr, l.mlp_proj, k::Act::None, px, true);
        if (post)
            k::norm_inplace(px, static_cast<int>(c.n_embd), norm(l.ln_2), stream);
    }
    const DeviceLinear head{lm_head, torch::Tensor()};
    char* out = hostOnDevice + slot * slotBytes;
    auto* host_logits = reinterpret_cast<float*>(out + 16);
    auto* host_token = reinterpret_cast<int64_t*>(out);
    k::PickParams pick;  // with TWB_CUDA_FUSE_ENDS=1 the head's last block picks
    if (fuse_ends)
        pick = {tok, host_logits, host_token, reinterpret_cast<unsigned*>(pick_counter.data_ptr<int32_t>())};
    linear(px, ln_f.weight.defined() ? &ln_f : nullptr, head, k::Act::None, ptr(logits), false, {}, pick);
    if (!fuse_ends)
        k::pick_greedy(ptr(logits), static_cast<int>(vocab), tok, host_logits, host_token, stream);
}

bool CudaDecoder::Impl::record(int slot) {
    cudaGraph_t graph = nullptr;
    cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    if (e == cudaSuccess) {
        run(slot);
        e = cudaStreamEndCapture(stream, &graph);
    }
    auto& made = exec[static_cast<size_t>(slot)];
    if (made) {  // an earlier recording, with dependent launches
        cudaGraphExecDestroy(made);
        made = nullptr;
    }
    if (e == cudaSuccess)
        e = cudaGraphInstantiate(&made, graph, 0);
    if (graph)
        cudaGraphDestroy(graph);
    (void)cudaGetLastError();  // a failed recording leaves its error behind
    return e == cudaSuccess;
}

void CudaDecoder::Impl::prepare(int64_t token, int64_t pos) {
    tried = true;
    // A warm-up (the kernels loaded, the dependent launches tried) computes the first step, as it must be.
    run(newest);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess && dependent) {
        (void)cudaGetLastError();  // a driver without programmatic dependent launch: ordinary launches
        dependent = false;
        k::set_step(tokpos.data_ptr<int64_t>(), token, pos, stream);
        run(newest);
        e = cudaGetLastError();
    }
    C10_CUDA_CHECK(e);  // what the ordinary launches still refuse (read above, so not left for later)
    C10_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (!graphs)
        return;
    replaying = record(0) && record(1);
    if (!replaying && dependent) {  // recorded without dependent launches
        dependent = false;
        replaying = record(0) && record(1);
    }  // else the steps run their kernels one by one
}

void CudaDecoder::Impl::run_step(int slot) {
    if (replaying)
        C10_CUDA_CHECK(cudaGraphLaunch(exec[static_cast<size_t>(slot)], stream));
    else
        run(slot);
    C10_CUDA_CHECK(cudaGetLastError());
    C10_CUDA_CHECK(cudaEventRecord(done[static_cast<size_t>(slot)], stream));
    newest = slot;
}

void CudaDecoder::Impl::launch(int64_t token, int64_t pos) {
    // Set by a kernel that takes the values as arguments: no copy from the host to wait for.
    k::set_step(tokpos.data_ptr<int64_t>(), token, pos, stream);
    if (!tried) {
        prepare(token, pos);
        k::set_step(tokpos.data_ptr<int64_t>(), token, pos, stream);  // the warm-up moved it on
    }
    run_step(1 - newest);
}

void CudaDecoder::Impl::launch_ahead() {
    run_step(1 - newest);  // its token and position are where the newest step's pick left them
    ahead = true;
}

void CudaDecoder::Impl::wait(int slot) {
    C10_CUDA_CHECK(cudaEventSynchronize(done[static_cast<size_t>(slot)]));
}

#endif

torch::Tensor CudaDecoder::feed(const int32_t* tokens, int64_t n) {
    TORCH_CHECK(n > 0, "CUDA decoder: nothing to feed");
#if TWB_HAVE_CUDA_KERNELS
    const c10::cuda::CUDAGuard guard(d->device);
    int64_t i = 0;
    if (d->ahead) {
        d->ahead = false;
        if (tokens[0] == d->guess) {  // the step launched ahead fed this token: it is this step
            ++m_len;
            ++m_hits;
            i = 1;
        }  // else its keys and values at m_len are written over by the step below
    }
    for (; i < n; ++i) {
        TORCH_CHECK(tokens[i] >= 0 && tokens[i] < d->embedding.size(0), "CUDA decoder: token ", tokens[i],
                    " is outside the vocabulary of ", d->embedding.size(0));
        TORCH_CHECK(m_len < d->config.block_size, "CUDA decoder: position ", m_len, " is past block_size ",
                    d->config.block_size);
        d->launch(tokens[i], m_len);
        ++m_len;
    }
    const int slot = d->newest;
    if (m_greedy && m_len < d->config.block_size)
        d->launch_ahead();
    d->wait(slot);
    d->guess = static_cast<int32_t>(*d->hostToken(slot));
    auto out = torch::empty({1, d->vocab}, torch::kFloat32);
    std::memcpy(out.data_ptr<float>(), d->hostLogits(slot), static_cast<size_t>(d->vocab) * sizeof(float));
    return out;
#else
    (void)tokens;
    TORCH_CHECK(false, "CudaDecoder: this build has no CUDA kernels");
#endif
}

void CudaDecoder::expect_greedy(bool greedy) {
    m_greedy = greedy && !switched_off("TWB_CUDA_AHEAD");
}

void CudaDecoder::reset() {
    m_len = 0;
    d->ahead = false;  // a step still running writes keys and values that the next steps write over
}

}  // namespace twb::nn
