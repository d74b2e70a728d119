// at::scaled_dot_product_attention (libtorch >= 2's default kernel) against the explicit path: one layer
// over a full sequence (with gradients), the KV cache (prefill, one token at a time, a chunk after a
// cached prefix), a key-padding mask, and a whole model's logits, gradients and greedy text. Built only
// against libtorch >= 2 (tests/CMakeLists.txt); the wheel pass of scripts/test.sh runs it.
#include "attention_kernel_test.h"
#include "nn/decoding/decoding.h"
#include "nn/decoding/gpt_source.h"
#include "nn/models/model.h"
#include "twb/config.h"

using namespace attention_test;

class TestAttentionSdpa : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY2(sdpa_available(), "this libtorch should have scaled_dot_product_attention"); }
    void init() { set_explicit_attention(false); }
    void cleanup() { set_explicit_attention(false); }

    void bf16OnTheCpuTakesTheExplicitPath() {
        // libtorch 2.11's fused CPU kernel in bf16: 6.8 ms against 2.4 for a layer's forward and backward.
        QVERIFY(sdpa_serves(torch::zeros({1, 1, 2, 4})));
        QVERIFY(!sdpa_serves(torch::zeros({1, 1, 2, 4}, torch::kBFloat16)));
        set_explicit_attention(true);
        QVERIFY(!sdpa_serves(torch::zeros({1, 1, 2, 4})));
    }

    void sdpaMatchesExplicitFullSequence() {
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

TWB_APPLESS_MAIN(TestAttentionSdpa)
#include "tst_attention_sdpa.moc"
