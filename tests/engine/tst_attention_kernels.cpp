// The two attention kernels compute one function: the explicit path (matmul + masked softmax, the only one
// under libtorch 1.13 and the one that returns the weights) against its definition written out here, and,
// with libtorch >= 2, at::scaled_dot_product_attention against the explicit path: one layer over a full
// sequence (with gradients), the KV cache (prefill, one token at a time, a chunk after a cached prefix),
// a key-padding mask, and a whole model's logits, gradients and greedy text. Under 1.13 the SDPA
// comparisons QSKIP (there is nothing to compare); the definition test runs on both.
#include "nn/attention.h"
#include "nn/decoding.h"
#include "nn/gpt_source.h"
#include "nn/model.h"
#include "test_util.h"
#include "twb/config.h"
#include "twb/doctor.h"

#include <cmath>

using namespace twb;
using namespace twb::nn;

namespace {

constexpr int64_t kB = 2, kT = 7, kH = 3, kD = 8, kC = 16;

/// The additive causal mask of query positions [S - T, S) over keys [0, S).
torch::Tensor causal_mask(int64_t T, int64_t S) {
    return torch::full({S, S}, -std::numeric_limits<float>::infinity()).triu(1).narrow(0, S - T, T);
}

/// softmax(q k^T / sqrt(D) + mask) v, head by head, from the layer's own weights: the definition.
torch::Tensor reference(CausalSelfAttention& m, const torch::Tensor& x, const torch::Tensor& pad = {}) {
    const int64_t B = x.size(0), T = x.size(1);
    auto qkv = torch::matmul(x, m->c_attn->weight.t()) + m->c_attn->bias;  // (B, T, 3HD)
    auto split = qkv.view({B, T, 3, kH, kD});
    // Written with einsum so it shares no code with either kernel.
    auto q = split.select(2, 0), k = split.select(2, 1), v = split.select(2, 2);  // (B, T, H, D)
    auto s = torch::einsum("bthd,bshd->bhts", {q, k}) / std::sqrt(static_cast<double>(kD)) + causal_mask(T, T);
    if (pad.defined())
        s = s + pad;
    auto w = torch::softmax(s, -1);
    auto out = torch::einsum("bhts,bshd->bthd", {w, v}).reshape({B, T, kH * kD});
    return torch::matmul(out, m->c_proj->weight.t()) + m->c_proj->bias;
}

CausalSelfAttention layer() {
    torch::manual_seed(5);
    CausalSelfAttention m(kC, kH, kD, 0.0, true);
    m->eval();
    return m;
}

/// A forward pass through one of the two kernels: asking for the weights selects the explicit one.
torch::Tensor run(CausalSelfAttention& m, const torch::Tensor& x, bool explicit_path, LayerCache* cache = nullptr,
                  int64_t prefix = 0, const torch::Tensor& pad = {}) {
    const int64_t T = x.size(1), S = prefix + T;
    AttentionContext ctx;
    ctx.mask = causal_mask(T, S);
    ctx.cache = cache;
    ctx.cache_capacity = 16;
    ctx.key_padding = pad;
    torch::Tensor w;
    if (explicit_path)
        ctx.weights_out = &w;
    return m->forward(x, ctx);
}

void close(const torch::Tensor& a, const torch::Tensor& b, double tol = 1e-5) {
    QCOMPARE(a.sizes().vec(), b.sizes().vec());
    const double d = (a - b).abs().max().item<double>();
    QVERIFY2(d < tol, qPrintable(QString("max difference %1 >= %2").arg(d).arg(tol)));
}

bool have_sdpa() {
    return TORCH_VERSION_MAJOR >= 2;
}

#define REQUIRE_SDPA()                                                                                       \
    do {                                                                                                     \
        if (!have_sdpa())                                                                                    \
            QSKIP("libtorch < 2 has no scaled_dot_product_attention: the explicit path is the only kernel"); \
    } while (0)

}  // namespace

class TestAttentionKernels : public QObject {
    Q_OBJECT
private slots:
    void init() { set_explicit_attention(false); }
    void cleanup() { set_explicit_attention(false); }

    void kernelNameFollowsVersion() {
        QCOMPARE(QString(attention_kernel_name()), QString(have_sdpa() ? "sdpa" : "explicit"));
        QCOMPARE(QString::fromStdString(run_doctor(1, false).attention_kernel), QString(attention_kernel_name()));
        set_explicit_attention(true);
        QCOMPARE(QString(attention_kernel_name()), QString("explicit"));
        QVERIFY(!sdpa_available());
    }

    void explicitMatchesDefinition() {
        torch::NoGradGuard ng;
        auto m = layer();
        auto x = torch::randn({kB, kT, kC});
        close(run(m, x, true), reference(m, x));
    }

    void sdpaMatchesExplicitFullSequence() {
        REQUIRE_SDPA();
        auto m = layer();
        auto x = torch::randn({kB, kT, kC}, torch::requires_grad());
        auto a = run(m, x, false), b = run(m, x, true);
        close(a, b);
        close(a, reference(m, x));
        // Training: the same gradients through either kernel.
        auto g = torch::randn_like(a);
        auto ga = torch::autograd::grad({a}, {x, m->c_attn->weight}, {g}, true);
        auto gb = torch::autograd::grad({b}, {x, m->c_attn->weight}, {g});
        close(ga[0], gb[0]);
        close(ga[1], gb[1]);
    }

    void sdpaMatchesExplicitWithCache() {
        REQUIRE_SDPA();
        torch::NoGradGuard ng;
        auto m = layer();
        auto x = torch::randn({kB, kT, kC});
        const auto full = run(m, x, true);
        // Prefill 3, then a chunk of 2 after the cached prefix (S > T > 1: an explicit mask), then one
        // token at a time: each step's output is the full sequence's row at that position.
        LayerCache c;
        std::vector<torch::Tensor> rows{run(m, x.narrow(1, 0, 3), false, &c, 0)};
        rows.push_back(run(m, x.narrow(1, 3, 2), false, &c, 3));
        for (int64_t t = 5; t < kT; ++t)
            rows.push_back(run(m, x.narrow(1, t, 1), false, &c, t));
        close(torch::cat(rows, 1), full);
    }

    void sdpaMatchesExplicitWithKeyPadding() {
        REQUIRE_SDPA();
        torch::NoGradGuard ng;
        auto m = layer();
        auto x = torch::randn({kB, kT, kC});
        // Row 1's last two keys are padding; the first query still sees key 0, so no row is all -inf.
        auto pad = torch::zeros({kB, 1, 1, kT});
        pad.index_put_({1, 0, 0, torch::indexing::Slice(kT - 2, kT)}, -std::numeric_limits<float>::infinity());
        close(run(m, x, false, nullptr, 0, pad), run(m, x, true, nullptr, 0, pad));
        close(run(m, x, true, nullptr, 0, pad), reference(m, x, pad));
    }

    void modelSameLogitsGradientsAndText() {
        REQUIRE_SDPA();
        RunConfig c = preset_config("tiny");
        c.vocab_size = 29;
        c.block_size = 16;
        c.n_layer = 2;
        c.n_head = 2;
        c.n_embd = 16;
        c.position = Position::Rotary;
        torch::manual_seed(3);
        GPT m(c);
        m->eval();
        auto idx = torch::randint(0, c.vocab_size, {2, 12}, torch::kInt64);
        auto logits_of = [&](bool explicit_path) {
            set_explicit_attention(explicit_path);
            m->zero_grad();
            auto l = m->forward(idx);
            l.logsumexp(-1).sum().backward();
            return std::pair{l.detach(), m->transformer->h[0]->as<Block>()->attn->c_attn->weight.grad().clone()};
        };
        auto [la, ga] = logits_of(false);
        auto [lb, gb] = logits_of(true);
        close(la, lb, 1e-4);
        close(ga, gb, 1e-4);
        // Greedy generation through the KV cache: the same tokens either way.
        SamplingOptions o;
        o.temperature = 0;
        o.max_new_tokens = 30;
        auto text = [](const std::vector<int32_t>& ids) { return std::string(ids.size(), 'x'); };
        torch::NoGradGuard ng;
        GptSource src(m, torch::kCPU, true);
        set_explicit_attention(false);
        auto a = generate_ids(src, {1, 2, 3}, o, -1, text);
        set_explicit_attention(true);
        auto b = generate_ids(src, {1, 2, 3}, o, -1, text);
        QCOMPARE(a.tokens, b.tokens);
    }
};

TWB_APPLESS_MAIN(TestAttentionKernels)
#include "tst_attention_kernels.moc"
