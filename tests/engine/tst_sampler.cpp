// Decoding: each mode's defining property (a wide beam equals brute force, temperature's distribution by
// a chi-square fit), the KV cache's equivalence, reproducible seeds, and the attention capture against a
// reference computed the long way.
#include "nn/analysis/attention_capture.h"
#include "nn/decoding/gpt_source.h"
#include "nn/models/model_loader.h"
#include "random_model.h"
#include "test_util.h"
#include "twb/errors.h"
#include "twb/session.h"

#include <numeric>

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
    void expect_greedy(bool greedy) override { m_greedy.push_back(greedy); }
    torch::Tensor m_table;
    std::vector<bool> m_greedy;  // what the sampler told the source, call by call
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

/// A GPT over a vocabulary of 4 with sharp next-token distributions that depend on the whole prefix.
GPT sharp_four_token_model(uint64_t seed) {
    RunConfig c = tiny_model("learned");
    c.vocab_size = 4;
    c.block_size = 8;
    return twbtest::random_model(c, seed);
}

/// Pearson's chi-square statistic of observed counts against expected probabilities.
double chi_square(const std::vector<int64_t>& counts, const torch::Tensor& probs) {
    int64_t n = 0;
    for (int64_t c : counts)
        n += c;
    double x2 = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        const double e = static_cast<double>(n) * probs[static_cast<int64_t>(i)].item<double>();
        x2 += (static_cast<double>(counts[i]) - e) * (static_cast<double>(counts[i]) - e) / e;
    }
    return x2;
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
    void greedyIsAnnouncedOnlyWhenTheArgmaxIsTaken() {
        // A source may compute the next step on the argmax when told that greedy decoding takes it: only
        // one sequence at temperature 0 with no filter that changes the logits.
        auto told = [](const std::function<void(SamplingOptions&)>& change) {
            TableSource src(torch::randn({10, 10}));
            SamplingOptions o;
            o.temperature = 0;
            o.max_new_tokens = 4;
            change(o);
            generate_ids(src, {3}, o, -1, no_decode);
            return src.m_greedy.empty() ? false : static_cast<bool>(src.m_greedy.back());
        };
        QVERIFY(told([](SamplingOptions&) {}));
        QVERIFY(!told([](SamplingOptions& o) { o.temperature = 0.8; }));
        QVERIFY(!told([](SamplingOptions& o) { o.repetition_penalty = 1.3; }));
        QVERIFY(!told([](SamplingOptions& o) { o.no_repeat_ngram = 2; }));
        QVERIFY(!told([](SamplingOptions& o) { o.num_samples = 2; }));
        QVERIFY(!told([](SamplingOptions& o) { o.beam_width = 3; }));
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
    void wideBeamEqualsBruteForce() {
        // A real decoder (the prefix matters, not only the last token), a vocabulary of 4 and 4 new tokens:
        // 256 sequences, all scored in one forward pass. A beam of 64 = 4^3 (the widest allowed) keeps every
        // prefix of length 3, so it must find the most probable of the 256 exactly; greedy must not (so the
        // case tells them apart).
        auto m = sharp_four_token_model(52);
        const std::vector<int32_t> prompt{3};
        const int64_t V = 4, L = 4, N = 256;
        auto all = torch::empty({N, 1 + L}, torch::kInt64);
        for (int64_t i = 0; i < N; ++i) {
            all[i][0] = prompt[0];
            for (int64_t k = 0, r = i; k < L; ++k, r /= V)
                all[i][1 + k] = r % V;
        }
        torch::Tensor total;
        {
            torch::NoGradGuard ng;
            const auto lp = torch::log_softmax(m->forward(all.narrow(1, 0, L)).to(torch::kFloat64), -1);  // (N, L, V)
            total = lp.gather(2, all.narrow(1, 1, L).unsqueeze(2)).squeeze(2).sum(1);                     // (N)
        }
        const int64_t best = total.argmax().item<int64_t>();
        std::vector<int32_t> bestSeq;
        for (int64_t k = 0; k < L; ++k)
            bestSeq.push_back(static_cast<int32_t>(all[best][1 + k].item<int64_t>()));
        // No near tie: the runner-up is clearly less probable, so float rounding cannot flip the answer.
        QVERIFY(std::get<0>(total.topk(2))[1].item<double>() < total[best].item<double>() - 1e-3);

        SamplingOptions o;
        o.temperature = 0;
        o.max_new_tokens = static_cast<int>(L);
        o.stop_at_eos = false;
        o.length_penalty = 0;  // raw log-probabilities (all lengths are 4 anyway)
        GptSource src(m, torch::kCPU, true);
        const auto greedy = generate_ids(src, prompt, o, -1, no_decode);
        QVERIFY2(greedy.tokens[0] != bestSeq, "greedy finds the optimum here: the case cannot tell beam search apart");
        o.beam_width = 64;
        const auto beam = generate_ids(src, prompt, o, -1, no_decode);
        QCOMPARE(beam.tokens[0], bestSeq);
        QVERIFY2(std::abs(beam.logprob[0] - total[best].item<double>()) < 1e-4,
                 qPrintable(QString("%1 vs %2").arg(beam.logprob[0]).arg(total[best].item<double>())));
        // Narrower beams never beat the optimum and never lose to greedy on this case.
        for (int W : {2, 4, 16}) {
            o.beam_width = W;
            const auto b = generate_ids(src, prompt, o, -1, no_decode);
            QVERIFY(b.logprob[0] <= total[best].item<double>() + 1e-6);
            QVERIFY(b.logprob[0] >= greedy.logprob[0] - 1e-6);
        }
    }
    void temperatureShapesTheSampledDistribution() {
        // 4000 draws from one fixed row of logits per temperature, against softmax(logits / T) by Pearson's
        // chi-square with 4 degrees of freedom: 18.47 is its 0.1% critical value, so a correct sampler
        // passes (the seed is fixed: the same draws every run). The same counts must reject the
        // distributions a broken temperature would give: T ignored (softmax(logits)) and T multiplied
        // (softmax(logits * T)), and the two temperatures' counts must differ from each other.
        const auto row = torch::tensor({1.0f, 0.5f, 0.0f, -0.5f, -1.5f});
        TableSource src(torch::stack(std::vector<torch::Tensor>(5, row)));
        auto counts_at = [&](double T) {
            SamplingOptions o;
            o.temperature = T;
            o.max_new_tokens = 1000;
            o.num_samples = 4;
            o.stop_at_eos = false;
            o.alternatives = 0;
            o.seed = 2024;
            const auto r = generate_ids(src, {0}, o, -1, no_decode);
            std::vector<int64_t> c(5, 0);
            for (const auto& sample : r.tokens)
                for (int32_t t : sample)
                    ++c[static_cast<size_t>(t)];
            return c;
        };
        const double critical = 18.47;
        const auto logits = row.to(torch::kFloat64);
        const auto cold = counts_at(0.5), hot = counts_at(2.0);
        QCOMPARE(std::accumulate(cold.begin(), cold.end(), int64_t(0)), int64_t(4000));
        const double coldFit = chi_square(cold, torch::softmax(logits / 0.5, 0));
        const double hotFit = chi_square(hot, torch::softmax(logits / 2.0, 0));
        QVERIFY2(coldFit < critical, qPrintable(QString("T = 0.5: chi-square %1").arg(coldFit)));
        QVERIFY2(hotFit < critical, qPrintable(QString("T = 2: chi-square %1").arg(hotFit)));
        for (auto [counts, T] : {std::pair{cold, 0.5}, std::pair{hot, 2.0}}) {
            const double ignored = chi_square(counts, torch::softmax(logits, 0));
            const double multiplied = chi_square(counts, torch::softmax(logits * T, 0));
            QVERIFY2(ignored > 10 * critical, qPrintable(QString("T = %1 ignored: %2").arg(T).arg(ignored)));
            QVERIFY2(multiplied > 10 * critical, qPrintable(QString("T = %1 multiplied: %2").arg(T).arg(multiplied)));
        }
        QVERIFY(chi_square(cold, torch::softmax(logits / 2.0, 0)) > 10 * critical);
        QVERIFY(chi_square(hot, torch::softmax(logits / 0.5, 0)) > 10 * critical);
    }
    void beamReturnsOnlyFinishedOrFullLengthHypotheses() {
        // Beam 2, length penalty 0, <eos> = 4. From 0: 1 (p .5), <eos> (.3), 2 (.2). After 1: 3 (.4), 2 (.3),
        // 0 (.2), <eos> (.1). After 2: <eos> (.95). Step 1 finishes "" (ln .3 = -1.20) and keeps 1, 2; step 2
        // finishes "2" (ln .2 + ln .95 = -1.66) and keeps 1 3 (-1.61) and 1 2: two finished, and the best
        // live one is below the best finished, so the search stops. The most probable complete output is ""
        // (log-prob -1.20): nothing that continues 1 3 or 1 2 can beat it, and "1" then <eos> is .05.
        // The search must not return the live prefix "1" (whose -0.69 is the probability of a prefix, not of
        // any output): a hypothesis returned before max_new_tokens must have ended with <eos>.
        auto p = torch::full({5, 5}, 0.2f);
        p[0] = torch::tensor({0.0f, 0.5f, 0.2f, 0.0f, 0.3f});
        p[1] = torch::tensor({0.2f, 0.0f, 0.3f, 0.4f, 0.1f});
        p[2] = torch::tensor({0.0125f, 0.0125f, 0.0125f, 0.0125f, 0.95f});
        TableSource src(p.clamp_min(1e-9).log());
        SamplingOptions o;
        o.max_new_tokens = 5;
        o.temperature = 0;
        o.beam_width = 2;
        o.length_penalty = 0;
        const auto r = generate_ids(src, {0}, o, 4, no_decode);
        QCOMPARE(r.tokens[0], (std::vector<int32_t>{}));
        QVERIFY(std::abs(r.logprob[0] - std::log(0.3)) < 1e-5);
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
        qputenv("TWB_FIXED_STEP", "1");  // the GPU's fixed-shape step (a CUDA graph there), eager here
        GptSource fixed(m, torch::kCPU, true);
        qunsetenv("TWB_FIXED_STEP");
        auto a = generate_ids(cached, {1, 2, 3}, o, -1, no_decode);
        auto b = generate_ids(plain, {1, 2, 3}, o, -1, no_decode);
        QCOMPARE(a.tokens, b.tokens);
        QCOMPARE(generate_ids(fixed, {1, 2, 3}, o, -1, no_decode).tokens, a.tokens);
        // and the cached logits equal the uncached ones at a window edge
        std::vector<int32_t> seq;
        for (int i = 0; i < 20; ++i)
            seq.push_back(i % 23);
        cached.reset();
        plain.reset();
        fixed.reset();
        for (int n = 1; n <= 20; ++n) {  // n 17: the window moves, the fixed step's cache is refilled
            std::vector<std::vector<int32_t>> s{std::vector<int32_t>(seq.begin(), seq.begin() + n)};
            const auto want = plain.next_logits(s);
            if (n >= 15)
                QVERIFY(torch::allclose(cached.next_logits(s), want, 1e-4, 1e-5));
            QVERIFY2(torch::allclose(fixed.next_logits(s), want, 1e-4, 1e-5), qPrintable(QString("n %1").arg(n)));
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
