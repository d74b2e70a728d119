// Decoding: each mode's defining property, the KV cache's equivalence, reproducible seeds, and the
// attention capture against a reference computed the long way.
#include "nn/attention_capture.h"
#include "nn/gpt_source.h"
#include "nn/model_loader.h"
#include "test_util.h"
#include "twb/errors.h"
#include "twb/session.h"

using namespace twb;
using namespace twb::nn;

namespace {
/// Next-token logits from a fixed table indexed by the last token.
class TableSource : public LogitsSource {
public:
    explicit TableSource(torch::Tensor table) : m_table(std::move(table)) {}
    torch::Tensor next_logits(const std::vector<std::vector<int32_t>>& seqs) override {
        std::vector<torch::Tensor> rows;
        for (auto& s : seqs)
            rows.push_back(m_table[s.back()]);
        return torch::stack(rows);
    }
    torch::Tensor m_table;
};

std::string no_decode(const std::vector<int32_t>& ids) {
    return std::string(ids.size(), 'x');
}

RunConfig tiny_model(const std::string& position) {
    RunConfig c = preset_config("tiny");
    c.vocab_size = 23;
    c.block_size = 16;
    c.n_layer = 2;
    c.n_head = 2;
    c.n_embd = 16;
    c.position = parse_choice<Position>(position, "position");
    return c;
}
}  // namespace

class TestSampler : public QObject {
    Q_OBJECT
private slots:
    void greedyFollowsArgmax() {
        torch::manual_seed(1);
        TableSource src(torch::randn({10, 10}));
        SamplingOptions o;
        o.temperature = 0;
        o.max_new_tokens = 8;
        auto r = generate_ids(src, {3}, o, -1, no_decode);
        int32_t last = 3;
        for (int32_t t : r.tokens[0]) {
            QCOMPARE(t, static_cast<int32_t>(src.m_table[last].argmax().item<int64_t>()));
            last = t;
        }
    }
    void topKStaysInTopK() {
        torch::manual_seed(2);
        auto row = torch::randn({50});
        auto filtered = row.clone();
        apply_top_k(filtered, 5);
        const auto top = std::get<1>(row.topk(5));
        QCOMPARE(torch::isfinite(filtered).sum().item<int64_t>(), int64_t(5));
        for (int64_t i = 0; i < 5; ++i)
            QVERIFY(std::isfinite(filtered[top[i]].item<float>()));
        // sampling many times never leaves the top k
        TableSource src(torch::stack(std::vector<torch::Tensor>(50, row)));
        SamplingOptions o;
        o.top_k = 5;
        o.temperature = 1.5;
        o.max_new_tokens = 300;
        o.seed = 4;
        std::set<int64_t> allowed;
        for (int64_t i = 0; i < 5; ++i)
            allowed.insert(top[i].item<int64_t>());
        const auto r = generate_ids(src, {0}, o, -1, no_decode);
        for (int32_t t : r.tokens[0])
            QVERIFY(allowed.count(t));
    }
    void topPKeepsSmallestSetReachingP() {
        auto probs = torch::tensor({0.5f, 0.3f, 0.15f, 0.05f});
        auto logits = probs.log();
        apply_top_p(logits, 0.8);  // 0.5 + 0.3 reaches 0.8: exactly two kept
        QCOMPARE(torch::isfinite(logits).sum().item<int64_t>(), int64_t(2));
        logits = probs.log();
        apply_top_p(logits, 0.81);  // needs the third
        QCOMPARE(torch::isfinite(logits).sum().item<int64_t>(), int64_t(3));
        logits = probs.log();
        apply_top_p(logits, 0.3);  // the top token alone
        QCOMPARE(torch::isfinite(logits).sum().item<int64_t>(), int64_t(1));
    }
    void beamBeatsGreedyOnConstructedCase() {
        // From 0: token 1 (p .6) or 2 (p .4). After 1 everything is flat; after 2, token 3 is near certain.
        auto p = torch::full({5, 5}, 0.2f);
        p[0] = torch::tensor({0.0f, 0.6f, 0.4f, 0.0f, 0.0f});
        p[2] = torch::tensor({0.0025f, 0.0025f, 0.0025f, 0.99f, 0.0025f});
        TableSource src(p.clamp_min(1e-9).log());
        SamplingOptions o;
        o.max_new_tokens = 2;
        o.temperature = 0;
        auto g = generate_ids(src, {0}, o, -1, no_decode);
        o.beam_width = 3;
        auto b = generate_ids(src, {0}, o, -1, no_decode);
        QCOMPARE(g.tokens[0], (std::vector<int32_t>{1, 0}));
        QCOMPARE(b.tokens[0], (std::vector<int32_t>{2, 3}));
        QVERIFY(b.logprob[0] > g.logprob[0]);
    }
    void lengthPenaltyTradesScoreForLength() {
        // From 0: <eos> (token 4) at once with p .55, or 1 (p .45) then 2 then <eos>, each near certain.
        // Raw log-probs prefer the short one (ln .55 > ln .45); divided by length^1 the long one wins
        // (ln .45 / 2 > ln .55 / 1): beam score = log-prob / length^length_penalty.
        auto p = torch::full({5, 5}, 1e-9f);
        p[0] = torch::tensor({1e-9f, 0.45f, 1e-9f, 1e-9f, 0.55f});
        p[1][2] = 1.0f;
        p[2][4] = 1.0f;
        TableSource src(p.log());
        SamplingOptions o;
        o.max_new_tokens = 5;
        o.temperature = 0;
        o.beam_width = 2;
        o.length_penalty = 0;
        auto shortest = generate_ids(src, {0}, o, 4, no_decode);
        QCOMPARE(shortest.tokens[0], (std::vector<int32_t>{}));
        o.length_penalty = 1;
        auto longer = generate_ids(src, {0}, o, 4, no_decode);
        QCOMPARE(longer.tokens[0], (std::vector<int32_t>{1, 2}));
    }
    void repetitionControls() {
        auto row = torch::tensor({2.0f, -1.0f, 0.5f});
        apply_repetition_penalty(row, {0, 1}, 2.0);
        QCOMPARE(row[0].item<float>(), 1.0f);
        QCOMPARE(row[1].item<float>(), -2.0f);
        auto r2 = torch::zeros({5});
        apply_no_repeat_ngram(r2, {1, 2, 3, 1, 2}, 3);  // "1 2" seen before, followed by 3
        QVERIFY(std::isinf(r2[3].item<float>()));
        QCOMPARE(torch::isfinite(r2).sum().item<int64_t>(), int64_t(4));
    }
    void seededSamplingIsReproducible() {
        torch::manual_seed(5);
        TableSource src(torch::randn({10, 10}));
        SamplingOptions o;
        o.seed = 99;
        o.max_new_tokens = 30;
        o.num_samples = 3;
        auto a = generate_ids(src, {1}, o, -1, no_decode), b = generate_ids(src, {1}, o, -1, no_decode);
        QCOMPARE(a.tokens, b.tokens);
        QVERIFY(a.tokens[0] != a.tokens[1] || a.tokens[1] != a.tokens[2]);
    }
    void cacheGivesSameGreedyText_data() {
        QTest::addColumn<QString>("position");
        QTest::newRow("learned") << "learned";
        QTest::newRow("sinusoidal") << "sinusoidal";
        QTest::newRow("rotary") << "rotary";
    }
    void cacheGivesSameGreedyText() {
        QFETCH(QString, position);
        torch::manual_seed(11);
        GPT m(tiny_model(position.toStdString()));
        SamplingOptions o;
        o.temperature = 0;
        o.max_new_tokens = 40;  // well past block_size 16: the window slides twice
        GptSource cached(m, torch::kCPU, true), plain(m, torch::kCPU, false);
        auto a = generate_ids(cached, {1, 2, 3}, o, -1, no_decode);
        auto b = generate_ids(plain, {1, 2, 3}, o, -1, no_decode);
        QCOMPARE(a.tokens, b.tokens);
        // and the cached logits equal the uncached ones at a window edge
        std::vector<int32_t> seq;
        for (int i = 0; i < 20; ++i)
            seq.push_back(i % 23);
        cached.reset();
        plain.reset();
        for (int n = 15; n <= 20; ++n) {
            std::vector<std::vector<int32_t>> s{std::vector<int32_t>(seq.begin(), seq.begin() + n)};
            QVERIFY(torch::allclose(cached.next_logits(s), plain.next_logits(s), 1e-4, 1e-5));
        }
    }
    void cancelStopsWithinOneToken() {
        torch::manual_seed(5);
        TableSource src(torch::randn({10, 10}));
        std::atomic<bool> cancel{false};
        SamplingOptions o;
        o.max_new_tokens = 100;
        int seen = 0;
        auto r = generate_ids(
            src, {1}, o, -1, no_decode,
            [&](const TokenEvent&) {
                if (++seen == 5)
                    cancel = true;
            },
            &cancel);
        QVERIFY(r.cancelled);
        QCOMPARE(seen, 5);
    }
    void badOptionsAreRefused() {
        SamplingOptions o;
        o.top_p = 1.5;
        QVERIFY_THROWS_EXCEPTION(ConfigError, o.validate());
        o.top_p = 0.9;
        o.temperature = -1;
        QVERIFY_THROWS_EXCEPTION(ConfigError, o.validate());
    }
    void attentionCaptureMatchesLongWay() {
        torch::manual_seed(3);
        RunConfig c = tiny_model("learned");
        GPT m(c);
        const std::vector<int32_t> ids{4, 8, 15, 16, 2, 9};
        const auto cap = capture_attention_ids(m, ids, torch::kCPU);
        QCOMPARE(cap.layers, int64_t(2));
        QCOMPARE(cap.heads, int64_t(2));
        QCOMPARE(cap.length, int64_t(6));
        QCOMPARE(cap.weights.size(), size_t(2 * 2 * 6 * 6));
        for (int64_t l = 0; l < 2; ++l)
            for (int64_t h = 0; h < 2; ++h)
                for (int64_t q = 0; q < 6; ++q) {
                    double sum = 0;
                    for (int64_t k = 0; k < 6; ++k) {
                        sum += cap.at(l, h, q, k);
                        if (k > q)
                            QCOMPARE(cap.at(l, h, q, k), 0.0f);
                    }
                    QVERIFY(std::abs(sum - 1.0) < 1e-5);
                }
        // Layer 0 the long way: embeddings, LayerNorm, q and k per head, masked softmax by loops.
        torch::NoGradGuard ng;
        std::vector<int64_t> v(ids.begin(), ids.end());
        auto x = m->transformer->wte(torch::tensor(v)) + m->transformer->wpe(torch::arange(6));
        auto blk = m->transformer->h[0]->as<BlockImpl>();
        auto qkv = blk->attn->c_attn(blk->ln_1(x));  // (T, 3C)
        const int64_t C = c.n_embd, D = C / c.n_head;
        for (int64_t h = 0; h < c.n_head; ++h)
            for (int64_t q = 0; q < 6; ++q) {
                std::vector<double> s;
                for (int64_t k = 0; k <= q; ++k) {
                    double dot = 0;
                    for (int64_t d = 0; d < D; ++d)
                        dot += qkv[q][h * D + d].item<double>() * qkv[k][C + h * D + d].item<double>();
                    s.push_back(dot / std::sqrt(static_cast<double>(D)));
                }
                const double mx = *std::max_element(s.begin(), s.end());
                double z = 0;
                for (double& e : s)
                    z += (e = std::exp(e - mx));
                for (int64_t k = 0; k <= q; ++k)
                    QVERIFY(std::abs(s[static_cast<size_t>(k)] / z - cap.at(0, h, q, k)) < 1e-5);
            }
    }
    void headScoresTellPatternsApart() {
        // Three constructed heads: previous-token, first-token and uniform.
        AttentionCapture cap;
        cap.layers = 1;
        cap.heads = 3;
        cap.length = 8;
        cap.weights.assign(3 * 8 * 8, 0.f);
        auto set = [&](int64_t h, int64_t q, int64_t k, float w) { cap.weights[(h * 8 + q) * 8 + k] = w; };
        for (int64_t q = 0; q < 8; ++q) {
            set(0, q, std::max<int64_t>(0, q - 1), 1.f);
            set(1, q, 0, 1.f);
            for (int64_t k = 0; k <= q; ++k)
                set(2, q, k, 1.f / static_cast<float>(q + 1));
        }
        const auto s = head_scores(cap);
        QCOMPARE(s.previous[0], 1.0f);
        QVERIFY(s.previous[1] < 0.2f);
        QCOMPARE(s.first[1], 1.0f);
        QVERIFY(s.entropy[0] < 1e-6f && s.entropy[1] < 1e-6f);
        QVERIFY(std::abs(s.entropy[2] - 1.0f) < 1e-5f);  // uniform = 1 after normalising
        // Rollout of a layer that only looks back one token: row q spreads over q and q-1 (rows sum to 1).
        const auto one = [&] {
            AttentionCapture c = cap;
            c.heads = 1;
            c.weights.resize(64);
            return c;
        }();
        const auto r = attention_rollout(one, 0);
        for (int64_t q = 1; q < 8; ++q) {
            QVERIFY(std::abs(r[q * 8 + q] - 0.5f) < 1e-6f);
            QVERIFY(std::abs(r[q * 8 + q - 1] - 0.5f) < 1e-6f);
        }
        const auto mean = mean_over_heads(cap, 0);
        QVERIFY(std::abs(mean[7 * 8 + 0] - (0.f + 1.f + 1.f / 8.f) / 3.f) < 1e-6f);
    }
};

TWB_APPLESS_MAIN(TestSampler)
#include "tst_sampler.moc"
