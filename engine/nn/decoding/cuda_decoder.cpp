// CudaDecoder: a GPT's step for one token as twb's own CUDA kernels, replayed as a CUDA graph.
#include "nn/decoding/cuda_decoder.h"

#include "nn/cuda_graph.h"
#include "nn/decoding/cuda_decode_kernels.h"
#include "nn/decoding/fast_decode.h"
#include "nn/models/attention.h"
#include "nn/models/position_tables.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#if TWB_HAVE_CUDA_KERNELS
#include <c10/cuda/CUDAStream.h>
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
    torch::Tensor token, position;          // int64 device scalars the host fills
    torch::Tensor x, qkv, att, ff, logits;  // the step's buffers
    CudaGraph graph;
    bool tried = false, replaying = false;
    std::string eagerReason;

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
    void linear(const float* in, const DeviceNorm* n, const DeviceLinear& l, k::Act act, float* out, bool accumulate,
                void* stream) const;
    void run(void* stream);  // the step's kernels, queued on `stream`
};

std::string CudaDecoder::unavailable(const GPT& model, const torch::Device& device) {
    if (!device.is_cuda())
        return "not a GPU";
#if !TWB_HAVE_CUDA_KERNELS
    (void)model;
    return "this build has no CUDA kernels (its libtorch has no CUDA, or nvcc was missing)";
#else
    const char* env = std::getenv("TWB_CUDA_DECODER");
    if (env && std::string(env) == "0")
        return "TWB_CUDA_DECODER=0";
    const RunConfig& c = model->config();
    if (model->has_head_gates())
        return "heads are switched off";
    if (const std::string why = fast_decode_unsupported(c); !why.empty())
        return why;
    const int64_t widest = std::max({c.n_embd, c.n_head * c.head_dim(), c.ffn_dim()});
    if (widest > k::kMaxGemvInput)
        return "a layer " + std::to_string(widest) + " wide is wider than the kernels' " +
               std::to_string(k::kMaxGemvInput);
    if ((c.head_dim() + 3) / 4 * 4 + c.block_size + std::max<int64_t>(c.head_dim(), k::kAttendThreads) >
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
    d->token = torch::zeros({1}, i64);
    d->position = torch::zeros({1}, i64);
    d->x = torch::zeros({c.n_embd}, f32);
    d->qkv = torch::zeros({3 * A}, f32);
    d->att = torch::zeros({A}, f32);
    d->ff = torch::zeros({c.ffn_dim()}, f32);
    d->logits = torch::zeros({d->lm_head.size(0)}, f32);
    d->eagerReason = CudaGraph::unavailable(device);
}

CudaDecoder::~CudaDecoder() = default;

bool CudaDecoder::replaying() const {
    return d->replaying;
}

#if TWB_HAVE_CUDA_KERNELS  // without the kernels nothing calls these
void CudaDecoder::Impl::linear(const float* in, const DeviceNorm* n, const DeviceLinear& l, k::Act act, float* out,
                               bool accumulate, void* stream) const {
    k::norm_gemv(in, static_cast<int>(l.weight.size(1)), n ? norm(*n) : k::NormParams(), ptr(l.weight), ptr(l.bias),
                 static_cast<int>(l.weight.size(0)), act, out, accumulate, stream);
}

// The model's forward for one token (nn/models/model.cpp; FastDecoder::feed_chunk on the CPU): embedding and
// positions, per layer attention and MLP with their norms before (pre-norm) or after the residual sum
// (post-norm), the final norm and the head.
void CudaDecoder::Impl::run(void* stream) {
    const RunConfig& c = config;
    const bool post = c.norm_position == NormPosition::Post;
    const int H = static_cast<int>(c.n_head), D = static_cast<int>(c.head_dim());
    const auto scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(D)));
    float *px = ptr(x), *pqkv = ptr(qkv), *patt = ptr(att), *pff = ptr(ff);
    const auto* tok = token.data_ptr<int64_t>();
    const auto* pos = position.data_ptr<int64_t>();
    k::embed(ptr(embedding), ptr(positions), tok, pos, px, static_cast<int>(c.n_embd), stream);
    for (auto& l : layers) {
        linear(px, post ? nullptr : &l.ln_1, l.c_attn, k::Act::None, pqkv, false, stream);
        k::attend(pqkv, ptr(l.k), ptr(l.v), pos, H, D, static_cast<int>(c.block_size), scale, ptr(rope_cos),
                  ptr(rope_sin), patt, stream);
        linear(patt, nullptr, l.attn_proj, k::Act::None, px, true, stream);
        if (post)
            k::norm_inplace(px, static_cast<int>(c.n_embd), norm(l.ln_1), stream);
        linear(px, post ? nullptr : &l.ln_2, l.c_fc, act_of(c.activation), pff, false, stream);
        linear(pff, nullptr, l.mlp_proj, k::Act::None, px, true, stream);
        if (post)
            k::norm_inplace(px, static_cast<int>(c.n_embd), norm(l.ln_2), stream);
    }
    const DeviceLinear head{lm_head, torch::Tensor()};
    linear(px, ln_f.weight.defined() ? &ln_f : nullptr, head, k::Act::None, ptr(logits), false, stream);
}

#endif

void CudaDecoder::step(int32_t token) {
#if TWB_HAVE_CUDA_KERNELS
    const int64_t vocab = d->embedding.size(0);
    TORCH_CHECK(token >= 0 && token < vocab, "CUDA decoder: token ", token, " is outside the vocabulary of ", vocab);
    TORCH_CHECK(m_len < d->config.block_size, "CUDA decoder: position ", m_len, " is past block_size ",
                d->config.block_size);
    // Filled by kernels that take the value as an argument: no copy from the host to wait for.
    d->token.fill_(static_cast<int64_t>(token));
    d->position.fill_(m_len);
    auto current = [] { return static_cast<void*>(c10::cuda::getCurrentCUDAStream().stream()); };
    if (!d->tried) {
        d->tried = true;
        if (d->eagerReason.empty()) {
            // The warm-up writes this position's keys and values; the replay after the recording writes the
            // same ones.
            const std::string failed = d->graph.record(
                d->device, [&] { d->run(current()); }, [&] { d->run(current()); });
            d->replaying = failed.empty();
            if (!d->replaying)
                d->eagerReason = "the CUDA graph capture failed: " + failed;
        }
    }
    if (d->replaying)
        d->graph.replay();
    else
        d->run(current());
    ++m_len;
#else
    (void)token;
    TORCH_CHECK(false, "CudaDecoder: this build has no CUDA kernels");
#endif
}

torch::Tensor CudaDecoder::feed(const int32_t* tokens, int64_t n) {
    TORCH_CHECK(n > 0, "CUDA decoder: nothing to feed");
    torch::NoGradGuard ng;
    for (int64_t i = 0; i < n; ++i)
        step(tokens[i]);
    return d->logits.to(torch::kCPU).view({1, -1});
}

}  // namespace twb::nn
