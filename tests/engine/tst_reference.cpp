// The model's maths against an independent implementation written here from the definitions, in
// double precision and one position and head at a time: token and position embeddings (learned,
// sinusoidal per Vaswani et al., rotary in the GPT-NeoX half-split layout), pre-norm blocks, causal
// softmax attention, the GELU MLP, the final LayerNorm and a tied or untied head. Checked for every
// position kind, with and without bias, tied and untied: logits and attention weights of a full
// forward pass and of KV-cached decoding. Generation's sliding window is checked against what the
// model must see after the window moves; loss, accuracy, perplexity and bits per character against a
// hand-made model whose logits are known (the trainer's accuracy too, bits per character over multi-byte
// characters too), and evaluation without dropout. Weights are re-drawn large (std 0.5) so attention is
// sharp and a wrong sign or offset moves the logits by far more than the 1e-5 tolerance.
#include "core/data/token_file.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/decoding/decoding.h"
#include "nn/decoding/gpt_source.h"
#include "nn/interchange/checkpoint.h"
#include "nn/models/model.h"
#include "nn/training/evaluator.h"
#include "random_model.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/metrics.h"
#include "twb/session.h"
#include "twb/training.h"

#include <array>
#include <cmath>
#include <set>
#include <stdexcept>

using namespace twb;
using torch::indexing::Slice;

namespace {

RunConfig small_config(Position pos, bool bias, bool tie) {
    RunConfig c;
    c.dtype = DType::Float32;  // pinned: auto would be bf16 on a CPU with AVX512-BF16
    c.vocab_size = 11;
    c.n_layer = 2;
    c.n_head = 2;
    c.n_embd = 16;
    c.block_size = 12;
    c.dropout = 0;
    c.bias = bias;
    c.tie_embeddings = tie;
    c.position = pos;
    return c;
}

/// The reference: weights as double, every step written out from its definition.
struct Reference {
    RunConfig c;
    std::map<std::string, torch::Tensor> w;
    explicit Reference(const nn::GPT& m) : c(m->config()) {
        for (auto& item : m->named_parameters())
            w[item.key()] = item.value().detach().to(torch::kFloat64);
    }
    torch::Tensor p(const std::string& name) const {
        auto it = w.find(name);
        if (it == w.end())
            throw std::runtime_error("reference: no parameter " + name);
        return it->second;
    }
    bool has(const std::string& name) const { return w.count(name) > 0; }

    torch::Tensor layer_norm(const torch::Tensor& x, const std::string& pre) const {  // x: (T, C)
        auto mean = x.mean(-1, true);
        auto var = (x - mean).pow(2).mean(-1, true);  // biased variance, as LayerNorm defines it
        auto y = (x - mean) / torch::sqrt(var + 1e-5) * p(pre + ".weight");
        return has(pre + ".bias") ? y + p(pre + ".bias") : y;
    }
    torch::Tensor affine(const torch::Tensor& x, const std::string& pre) const {
        auto y = x.matmul(p(pre + ".weight").t());
        return has(pre + ".bias") ? y + p(pre + ".bias") : y;
    }
    /// Rotates the pair (v[i], v[i + D/2]) by the angle pos * 10000^(-2i/D): counter-clockwise.
    static void rotate(double* v, int64_t D, int64_t pos) {
        for (int64_t i = 0; i < D / 2; ++i) {
            const double th = static_cast<double>(pos) * std::pow(10000.0, -2.0 * static_cast<double>(i) / D);
            const double a = v[i], b = v[i + D / 2];
            v[i] = a * std::cos(th) - b * std::sin(th);
            v[i + D / 2] = a * std::sin(th) + b * std::cos(th);
        }
    }
    /// Logits (T, V) for ids; attention[l] receives (H, T, T) weights.
    torch::Tensor forward(const std::vector<int64_t>& ids, std::vector<torch::Tensor>* attention = nullptr) const {
        const int64_t T = static_cast<int64_t>(ids.size()), C = c.n_embd, H = c.n_head, D = C / H;
        auto x = torch::zeros({T, C}, torch::kFloat64);
        const auto wte = p("transformer.wte.weight");
        for (int64_t t = 0; t < T; ++t) {
            x[t] = wte[ids[static_cast<size_t>(t)]];
            if (c.position == Position::Learned)
                x[t] += p("transformer.wpe.weight")[t];
            if (c.position == Position::Sinusoidal)
                for (int64_t i = 0; i < C; ++i) {
                    const double ang = static_cast<double>(t) / std::pow(10000.0, static_cast<double>(i - i % 2) / C);
                    x[t][i] += i % 2 == 0 ? std::sin(ang) : std::cos(ang);
                }
        }
        if (attention)
            attention->clear();
        for (int l = 0; l < c.n_layer; ++l) {
            const std::string pre = "transformer.h." + std::to_string(l) + ".";
            auto qkv = affine(layer_norm(x, pre + "ln_1"), pre + "attn.c_attn").contiguous();  // (T, 3C)
            auto y = torch::zeros({T, C}, torch::kFloat64);
            auto weights = torch::zeros({H, T, T}, torch::kFloat64);
            for (int64_t h = 0; h < H; ++h) {
                std::vector<std::vector<double>> q(T, std::vector<double>(D)), k = q, v = q;
                auto acc = qkv.accessor<double, 2>();
                for (int64_t t = 0; t < T; ++t) {
                    for (int64_t d = 0; d < D; ++d) {
                        q[t][d] = acc[t][h * D + d];
                        k[t][d] = acc[t][C + h * D + d];
                        v[t][d] = acc[t][2 * C + h * D + d];
                    }
                    if (c.position == Position::Rotary) {
                        rotate(q[t].data(), D, t);
                        rotate(k[t].data(), D, t);
                    }
                }
                for (int64_t t = 0; t < T; ++t) {
                    std::vector<double> s(t + 1);
                    double mx = -1e300, sum = 0;
                    for (int64_t j = 0; j <= t; ++j) {  // causal: keys up to the query's own position
                        double dot = 0;
                        for (int64_t d = 0; d < D; ++d)
                            dot += q[t][d] * k[j][d];
                        s[j] = dot / std::sqrt(static_cast<double>(D));
                        mx = std::max(mx, s[j]);
                    }
                    for (auto& e : s)
                        sum += (e = std::exp(e - mx));
                    for (int64_t j = 0; j <= t; ++j) {
                        weights[h][t][j] = s[j] / sum;
                        for (int64_t d = 0; d < D; ++d)
                            y[t][h * D + d] += s[j] / sum * v[j][d];
                    }
                }
            }
            if (attention)
                attention->push_back(weights);
            x = x + affine(y, pre + "attn.c_proj");
            auto m = affine(layer_norm(x, pre + "ln_2"), pre + "mlp.c_fc");
            m = 0.5 * m * (1.0 + torch::erf(m / std::sqrt(2.0)));  // exact GELU
            x = x + affine(m, pre + "mlp.c_proj");
        }
        x = layer_norm(x, "transformer.ln_f");
        return x.matmul((c.tie_embeddings ? wte : p("lm_head.weight")).t());
    }
};

std::vector<int64_t> ids_of(int n, int vocab, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<int64_t> ids(static_cast<size_t>(n));
    for (auto& i : ids)
        i = static_cast<int64_t>(rng() % static_cast<unsigned>(vocab));
    return ids;
}

/// A model whose logits are l at every position: all block weights zero (each block adds nothing), the
/// final LayerNorm's gain 0 and bias e0, so logits[v] = wte[v] . e0 = l[v]. Needs bias and a tied head.
nn::GPT constant_model(const RunConfig& cfg, const std::vector<double>& l) {
    nn::GPT model(cfg);
    torch::NoGradGuard ng;
    for (auto& p : model->parameters())
        p.zero_();
    model->transformer->ln_f->bias[0] = 1.0;
    for (size_t v = 0; v < l.size(); ++v)
        model->transformer->wte->weight[static_cast<int64_t>(v)][0] = l[v];
    return model;
}

/// A run folder whose checkpoint holds constant_model(l): a one-step run of a tiny rotary model (1 layer,
/// 1 head, 4 wide, block 8) on the prepared dataset `data`, its checkpoint then replaced (step 1).
RunConfig constant_model_run(const std::filesystem::path& data, int vocab, const std::filesystem::path& run_dir,
                             const std::vector<double>& l, int eval_iters) {
    RunConfig cfg = small_config(Position::Rotary, true, true);
    cfg.data_dir = data.string();
    cfg.vocab_size = vocab;
    cfg.n_layer = 1;
    cfg.n_head = 1;
    cfg.n_embd = 4;
    cfg.block_size = 8;
    cfg.batch_size = 4;
    cfg.max_iters = 1;
    cfg.eval_interval = 1;
    cfg.eval_iters = eval_iters;
    cfg.threads = 1;
    TrainJob job;
    job.config = cfg;
    job.run_dir = run_dir.string();
    train(job, {});
    CheckpointState st;
    st.step = 1;
    st.config = cfg;
    auto model = constant_model(cfg, l);
    nn::save_checkpoint(run_dir, model, nullptr, st);
    return cfg;
}

/// The first evaluation (step 0) of a new run of cfg at `out` that starts from run_dir's last checkpoint
/// (init_from): the trainer's own figures for that checkpoint's model.
EvalReport first_evaluation_from(const RunConfig& cfg, const std::filesystem::path& run_dir,
                                 const std::filesystem::path& out) {
    TrainJob fine;
    fine.config = cfg;
    fine.run_dir = out.string();
    fine.init_from = run_dir.string();
    fine.init_checkpoint = "last";
    std::vector<EvalReport> evals;
    TrainCallbacks cb;
    cb.on_eval = [&](const EvalReport& e) { evals.push_back(e); };
    train(fine, cb);
    if (evals.empty())
        throw std::runtime_error("the run reported no evaluation");
    return evals[0];
}

/// Next-token logits that depend only on the last token: row t of a table.
class TableSource : public nn::LogitsSource {
public:
    explicit TableSource(torch::Tensor table) : m_table(std::move(table)) {}
    torch::Tensor next_logits(const std::vector<std::vector<int32_t>>& seqs) override {
        std::vector<torch::Tensor> rows;
        for (auto& q : seqs)
            rows.push_back(m_table[q.back()]);
        return torch::stack(rows);
    }

private:
    torch::Tensor m_table;
};

std::string letters(const std::vector<int32_t>& ids) {
    std::string s;
    for (int32_t i : ids)
        s += static_cast<char>('a' + i);
    return s;
}

double max_diff(const torch::Tensor& a, const torch::Tensor& b) {
    return (a.to(torch::kFloat64) - b.to(torch::kFloat64)).abs().max().item<double>();
}
/// max_diff against the reference's own scale (at least 1): float32 logits up to ~6 differ by up to ~1e-5 with
/// the CPU's kernels (1.16e-5 against logits to 5.8 on an Intel CPU with AMX, model 207, failing an absolute
/// 1e-5; 2.0e-6 of their scale, the others 2.7e-7 to 9.4e-7)
double off_by(const torch::Tensor& got, const torch::Tensor& expect) {
    return max_diff(got, expect) / std::max(1.0, expect.abs().max().item<double>());
}

}  // namespace

class TestReference : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void rotaryRotatesCounterClockwise() {
        // D = 2, one pair: position p turns (1, 0) into (cos p, sin p) and (0, 1) into (-sin p, cos p).
        auto [cs, sn] = nn::rotary_tables(4, 2);
        auto x = torch::tensor({1.0f, 0.0f, 0.0f, 1.0f}).view({1, 2, 1, 2}).expand({1, 2, 4, 2}).contiguous();
        auto r = nn::apply_rotary(x, cs, sn);
        for (int64_t pos = 0; pos < 4; ++pos) {
            const double c = std::cos(pos), s = std::sin(pos);
            QVERIFY(std::abs(r[0][0][pos][0].item<double>() - c) < 1e-6);
            QVERIFY(std::abs(r[0][0][pos][1].item<double>() - s) < 1e-6);
            QVERIFY(std::abs(r[0][1][pos][0].item<double>() + s) < 1e-6);
            QVERIFY(std::abs(r[0][1][pos][1].item<double>() - c) < 1e-6);
        }
        // D = 8: pair i turns at 10000^(-2i/8) radians per position.
        auto [c8, s8] = nn::rotary_tables(6, 8);
        for (int64_t i = 0; i < 4; ++i)
            QVERIFY(std::abs(c8[5][i].item<double>() - std::cos(5 * std::pow(10000.0, -2.0 * i / 8))) < 1e-6);
    }

    void forwardMatchesReference_data() {
        QTest::addColumn<int>("position");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<bool>("tie");
        const char* names[] = {"learned", "sinusoidal", "rotary"};
        for (int p = 0; p < 3; ++p)
            for (bool bias : {true, false})
                for (bool tie : {true, false})
                    QTest::newRow(qPrintable(
                        QString("%1%2%3").arg(names[p]).arg(bias ? "" : " nobias").arg(tie ? " tied" : " untied")))
                        << p << bias << tie;
    }
    void forwardMatchesReference() {
        QFETCH(int, position);
        QFETCH(bool, bias);
        QFETCH(bool, tie);
        const auto cfg = small_config(static_cast<Position>(position), bias, tie);
        auto model = twbtest::random_model(cfg, 5);
        const Reference ref(model);
        const auto ids = ids_of(static_cast<int>(cfg.block_size), static_cast<int>(cfg.vocab_size), 9);
        std::vector<torch::Tensor> refAtt;
        const auto expect = ref.forward(ids, &refAtt);
        QVERIFY(expect.abs().max().item<double>() > 1.0);  // the logits are not all near zero

        torch::NoGradGuard ng;
        std::vector<torch::Tensor> att;
        nn::ForwardOptions fo;
        fo.attention = &att;
        const auto got = model->forward(torch::tensor(ids).unsqueeze(0), fo)[0];
        QVERIFY2(off_by(got, expect) < 1e-5, qPrintable(QString::number(off_by(got, expect))));
        QCOMPARE(att.size(), size_t(2));
        for (size_t l = 0; l < 2; ++l)
            QVERIFY2(off_by(att[l][0], refAtt[l]) < 1e-5, qPrintable(QString::number(off_by(att[l][0], refAtt[l]))));

        // KV-cached decoding: a prefill of 5 tokens, then one token at a time.
        std::vector<nn::LayerCache> cache(2);
        nn::ForwardOptions cf;
        cf.cache = &cache;
        auto idsT = torch::tensor(ids).unsqueeze(0);
        auto pre = model->forward(idsT.narrow(1, 0, 5), cf)[0];
        QVERIFY(off_by(pre, expect.narrow(0, 0, 5)) < 1e-5);
        for (int64_t t = 5; t < cfg.block_size; ++t) {
            cf.pos_offset = t;
            auto one = model->forward(idsT.narrow(1, t, 1), cf)[0][0];
            QVERIFY2(off_by(one, expect[t]) < 1e-5,
                     qPrintable(QString("position %1: %2").arg(t).arg(off_by(one, expect[t]))));
        }
    }

    void slidingWindowSeesTheRightTokens_data() {
        QTest::addColumn<bool>("cache");
        QTest::newRow("cached") << true;
        QTest::newRow("uncached") << false;
    }
    void slidingWindowSeesTheRightTokens() {
        // Once a sequence passes block_size, the model sees its tokens from the window start on, where
        // the window start is the smallest multiple of block/2 that leaves at most block_size tokens.
        QFETCH(bool, cache);
        const auto cfg = small_config(Position::Rotary, true, true);
        auto model = twbtest::random_model(cfg, 6);
        const Reference ref(model);
        nn::GptSource src(model, torch::kCPU, cache);
        const auto ids = ids_of(static_cast<int>(3 * cfg.block_size + 5), static_cast<int>(cfg.vocab_size), 4);
        std::vector<int32_t> seq;
        for (size_t n = 1; n <= ids.size(); ++n) {
            seq.push_back(static_cast<int32_t>(ids[n - 1]));
            int64_t start = 0;
            while (static_cast<int64_t>(n) - start > cfg.block_size)
                start += cfg.block_size / 2;
            QCOMPARE(src.window_start(static_cast<int64_t>(n)), start);
            const auto got = src.next_logits({seq});  // (1, V)
            const std::vector<int64_t> window(ids.begin() + start, ids.begin() + static_cast<long>(n));
            const auto expect = ref.forward(window);
            const double d = off_by(got[0], expect[expect.size(0) - 1]);
            QVERIFY2(d < 1e-5, qPrintable(QString("length %1: %2").arg(n).arg(d)));
        }
    }

    void generationStopsAndPenalties() {
        // A chain a -> b -> c -> d -> a (logit 5), token e = 4 is <eos>; greedy decoding.
        auto table = torch::zeros({5, 5});
        for (int t = 0; t < 4; ++t)
            table[t][(t + 1) % 4] = 5.0;
        SamplingOptions o;
        o.temperature = 0;
        o.max_new_tokens = 9;
        TableSource chain(table.clone());
        auto r = nn::generate_ids(chain, {0}, o, 4, letters);
        QCOMPARE(r.texts[0], std::string("bcdabcdab"));
        // A stop string ends the text where it begins; the token that completed it is the last one.
        o.stop_strings = {"da"};
        r = nn::generate_ids(chain, {0}, o, 4, letters);
        QCOMPARE(r.texts[0], std::string("bc"));
        QCOMPARE(r.tokens[0], (std::vector<int32_t>{1, 2, 3, 0}));
        o.stop_strings.clear();
        // <eos> after c: generation ends there, <eos> not in the text; without stop_at_eos it goes on.
        auto withEos = table.clone();
        withEos[2][4] = 6.0;
        TableSource eos(withEos);
        r = nn::generate_ids(eos, {0}, o, 4, letters);
        QCOMPARE(r.tokens[0], (std::vector<int32_t>{1, 2}));
        QCOMPARE(r.generated, int64_t(3));
        o.stop_at_eos = false;
        r = nn::generate_ids(eos, {0}, o, 4, letters);
        QCOMPARE(r.tokens[0].size(), size_t(9));
        o.stop_at_eos = true;
        // Repetition penalty (CTRL): after a, b scores 3 and c 2; b is in the prompt, so with r = 2 its
        // logit becomes 1.5 and c wins.
        auto rep = torch::full({5, 5}, -5.0);
        rep[0][1] = 3.0;
        rep[0][2] = 2.0;
        TableSource repSrc(rep);
        o.max_new_tokens = 1;
        QCOMPARE(nn::generate_ids(repSrc, {1, 0}, o, -1, letters).tokens[0], (std::vector<int32_t>{1}));
        o.repetition_penalty = 2.0;
        QCOMPARE(nn::generate_ids(repSrc, {1, 0}, o, -1, letters).tokens[0], (std::vector<int32_t>{2}));
        o.repetition_penalty = 1.0;
        // No-repeat bigrams: from the prompt a b c the chain writes d a and would go on with b, but
        // "a b" is taken, so the second best after a (d, logit 4) comes instead; no bigram repeats.
        auto ng = table.clone();
        ng[0][3] = 4.0;
        TableSource ngSrc(ng);
        o.max_new_tokens = 6;
        o.no_repeat_ngram = 2;
        r = nn::generate_ids(ngSrc, {0, 1, 2}, o, -1, letters);
        QCOMPARE(std::vector<int32_t>(r.tokens[0].begin(), r.tokens[0].begin() + 3), (std::vector<int32_t>{3, 0, 3}));
        std::vector<int32_t> all = {0, 1, 2};
        all.insert(all.end(), r.tokens[0].begin(), r.tokens[0].end());
        std::set<std::pair<int32_t, int32_t>> seen;
        for (size_t i = 1; i < all.size(); ++i)
            QVERIFY2(seen.insert({all[i - 1], all[i]}).second, letters(all).c_str());
    }

    void metricsOfAKnownModel() {
        RunConfig cfg = small_config(Position::Rotary, true, true);
        cfg.vocab_size = 4;
        cfg.n_embd = 4;
        cfg.block_size = 5;
        const std::vector<double> l = {2.0, 1.0, 0.0, -1.0};
        auto model = constant_model(cfg, l);
        // A known text: 1 + 3 blocks of 5 tokens; targets are ids[1..15].
        const std::vector<int32_t> ids = {3, 0, 0, 1, 2, 0, 3, 3, 1, 0, 0, 2, 0, 1, 0, 3};
        const auto file = twbtest::path(m_dir, "known.bin");
        {
            TokenWriter w(file, TokenDtype::U16);
            w.write(ids.data(), ids.size());
            w.close();
        }
        TokenFile tf(file, TokenDtype::U16);
        // By hand: log Z = log(e^2 + e^1 + e^0 + e^-1); targets hold seven 0s, three 1s, two 2s, three 3s.
        const double logZ = std::log(std::exp(2.0) + std::exp(1.0) + 1.0 + std::exp(-1.0));
        const double counts[4] = {7, 3, 2, 3};
        double nll = 0, n = 0;
        for (int v = 0; v < 4; ++v) {
            nll += counts[v] * (logZ - l[v]);
            n += counts[v];
        }
        QCOMPARE(n, 15.0);
        const double loss = nll / n, accuracy = 7.0 / 15.0;  // argmax is token 0 everywhere
        // Batches of 2 blocks: the second holds one block, so a mean of batch means would differ.
        const auto r = nn::evaluate_sequential(model, tf, 2, 0, torch::kCPU, false);
        QCOMPARE(r.tokens, int64_t(15));
        QVERIFY2(std::abs(r.loss - loss) < 1e-6, qPrintable(QString("%1 vs %2").arg(r.loss).arg(loss)));
        QVERIFY2(std::abs(r.accuracy - accuracy) < 1e-12, qPrintable(QString::number(r.accuracy)));
        const auto m = split_metrics(r.loss, r.accuracy, 2.5);
        QVERIFY(std::abs(m.perplexity - std::exp(loss)) < 1e-5);
        QVERIFY(std::abs(m.bits_per_char - loss / std::log(2.0) / 2.5) < 1e-6);
        QCOMPARE(m.accuracy, r.accuracy);
        // Per-token log-probabilities: log p(t) = l[t] - log Z, from the second token on.
        const auto lp = nn::token_log_probs(model, ids, 1, torch::kCPU, false);
        QCOMPARE(lp.size(), ids.size() - 1);
        for (size_t i = 0; i < lp.size(); ++i)
            QVERIFY(std::abs(lp[i] - (l[static_cast<size_t>(ids[i + 1])] - logZ)) < 1e-6);
    }

    void evaluationPathsOfAKnownModel() {
        // The same figures through the run folder: a constant-logit checkpoint evaluated by ModelSession
        // (what `twb eval` prints) and by the trainer's evaluation (what metrics.csv and the GUI show).
        twbtest::write(twbtest::path(m_dir, "text.txt"), twbtest::english_like(6000));
        PrepareOptions po;
        po.corpus.inputs = {twbtest::path(m_dir, "text.txt").string()};
        po.out = twbtest::path(m_dir, "data");
        prepare_dataset(po);
        const int V = open_prepared(po.out).vocab_size;
        // A run whose checkpoint is the known model: logit v is (v % 5) / 2.
        std::vector<double> l(static_cast<size_t>(V));
        for (int v = 0; v < V; ++v)
            l[static_cast<size_t>(v)] = (v % 5) / 2.0;
        const auto runDir = twbtest::path(m_dir, "run");
        const RunConfig cfg = constant_model_run(po.out, V, runDir, l, 2);

        // Expected from the definitions over the val split's consecutive blocks of 8.
        const auto data = open_prepared(po.out);
        TokenFile val(po.out / "val.bin", data.dtype);
        const uint64_t n = (val.size() - 1) / 8 * 8;
        double logZ = 0;
        for (double x : l)
            logZ += std::exp(x);
        logZ = std::log(logZ);
        const auto best = static_cast<int32_t>(std::max_element(l.begin(), l.end()) - l.begin());  // first max
        double nll = 0, hits = 0;
        for (uint64_t i = 1; i <= n; ++i) {
            nll += logZ - l[static_cast<size_t>(val.at(i))];
            hits += val.at(i) == best;
        }
        QVERIFY(hits > 0 && hits < static_cast<double>(n));
        const double cpt = split_chars_per_token(data, "val");
        QCOMPARE(cpt, 1.0);  // ASCII text, one character per token
        ModelSession session;
        session.open(runDir.string(), "last");
        EvalOptions eo;
        eo.batch_size = 3;
        const auto r = session.evaluate(eo);
        QCOMPARE(r.tokens, static_cast<int64_t>(n));
        const double loss = nll / static_cast<double>(n);
        QVERIFY2(std::abs(r.loss - loss) < 1e-6, qPrintable(QString("%1 vs %2").arg(r.loss).arg(loss)));
        QVERIFY2(std::abs(r.accuracy - hits / static_cast<double>(n)) < 1e-12, qPrintable(QString::number(r.accuracy)));
        QVERIFY(std::abs(r.perplexity - std::exp(loss)) < 1e-6 * std::exp(loss));
        QVERIFY(std::abs(r.bits_per_char - loss / std::log(2.0)) < 1e-6);

        // The trainer's evaluation (at step 0) of a uniform model (all logits 0) from init_from: whatever
        // its random batches hold, every target costs ln V nats, so loss = ln V, perplexity = V and
        // bits per character = log2 V.
        CheckpointState st;
        st.step = 1;
        st.config = cfg;
        auto uniform = constant_model(cfg, std::vector<double>(l.size(), 0.0));
        nn::save_checkpoint(runDir, uniform, nullptr, st);
        const EvalReport e = first_evaluation_from(cfg, runDir, twbtest::path(m_dir, "fine"));
        QCOMPARE(e.step, int64_t(0));
        QVERIFY2(std::abs(e.val_loss - std::log(V)) < 1e-6, qPrintable(QString::number(e.val_loss)));
        QVERIFY2(std::abs(e.train_loss - std::log(V)) < 1e-6, qPrintable(QString::number(e.train_loss)));
        QVERIFY2(std::abs(e.val_perplexity - V) < 1e-4, qPrintable(QString::number(e.val_perplexity)));
        QVERIFY2(std::abs(e.val_bpc - std::log2(V)) < 1e-6, qPrintable(QString::number(e.val_bpc)));
        QVERIFY(e.val_accuracy >= 0 && e.val_accuracy <= 1);
    }

    void trainerAccuracyOfAKnownModel() {
        // The trainer's evaluation draws random windows, but on the text "abcd" repeated every window of 8
        // inputs holds each letter twice. A bigram model made by hand predicts a -> b, b -> c, c -> a and
        // d -> a: right after a, b and d, wrong after c (which d follows). So exactly 6 of every 8 targets
        // are right, whatever windows are drawn: train and val accuracy 0.75 exactly; and the loss is the
        // mean over the four letters of that letter's cross-entropy, worked out below from the weights.
        QTemporaryDir d;
        std::string text;
        for (int i = 0; i < 3000; ++i)
            text += "abcd";
        twbtest::write(twbtest::path(d, "abcd.txt"), text);
        PrepareOptions po;
        po.corpus.inputs = {twbtest::path(d, "abcd.txt").string()};
        po.out = twbtest::path(d, "data");
        prepare_dataset(po);
        const int V = open_prepared(po.out).vocab_size;
        const auto tok = load_tokenizer(po.out);
        std::array<int32_t, 4> id{};
        for (int k = 0; k < 4; ++k)
            id[static_cast<size_t>(k)] = tok->encode(std::string(1, static_cast<char>('a' + k)))[0];
        RunConfig cfg = small_config(Position::Rotary, true, false);  // untied: the head maps freely
        cfg.data_dir = po.out.string();
        cfg.vocab_size = V;
        cfg.n_layer = 1;
        cfg.n_head = 1;
        cfg.n_embd = 4;
        cfg.block_size = 8;
        cfg.batch_size = 4;
        cfg.max_iters = 1;
        cfg.eval_interval = 1;
        cfg.eval_iters = 3;
        cfg.threads = 1;
        const auto runDir = twbtest::path(d, "run");
        TrainJob job;
        job.config = cfg;
        job.run_dir = runDir.string();
        train(job, {});
        // The bigram model: blocks all zero (each adds nothing), letter k embedded as channel k (one-hot), the
        // final LayerNorm's gain 1 and bias 0, and head row "next(u)" reading channel u.
        const int predicted[4] = {1, 2, 0, 0};  // a -> b, b -> c, c -> a, d -> a
        const int truth[4] = {1, 2, 3, 0};      // the text: a -> b, b -> c, c -> d, d -> a
        nn::GPT model(cfg);
        {
            torch::NoGradGuard ng;
            for (auto& p : model->parameters())
                p.zero_();
            model->transformer->ln_f->weight.fill_(1.0);
            for (int u = 0; u < 4; ++u) {
                model->transformer->wte->weight[id[static_cast<size_t>(u)]][u] = 1.0;
                model->lm_head->weight[id[static_cast<size_t>(predicted[u])]][u] = 1.0;
            }
        }
        CheckpointState st;
        st.step = 1;
        st.config = cfg;
        nn::save_checkpoint(runDir, model, nullptr, st);
        // By hand: LayerNorm of a one-hot vector over 4 channels is hi = (3/4) / s at the hot channel and
        // lo = -(1/4) / s elsewhere, s = sqrt(3/16 + eps); logit[w] sums the channels u with next(u) = w.
        const double sd = std::sqrt(3.0 / 16 + cfg.norm_eps), hi = 0.75 / sd, lo = -0.25 / sd;
        double loss = 0;
        for (int u = 0; u < 4; ++u) {
            std::vector<double> logit(static_cast<size_t>(V), 0.0);
            for (int c = 0; c < 4; ++c)
                logit[static_cast<size_t>(id[static_cast<size_t>(predicted[c])])] += c == u ? hi : lo;
            double z = 0;
            for (double l : logit)
                z += std::exp(l);
            loss += (std::log(z) - logit[static_cast<size_t>(id[static_cast<size_t>(truth[u])])]) / 4;
        }
        const EvalReport e = first_evaluation_from(cfg, runDir, twbtest::path(d, "fine"));
        QCOMPARE(e.step, int64_t(0));
        QVERIFY2(std::abs(e.val_accuracy - 0.75) < 1e-12, qPrintable(QString::number(e.val_accuracy)));
        QVERIFY2(std::abs(e.train_accuracy - 0.75) < 1e-12, qPrintable(QString::number(e.train_accuracy)));
        QVERIFY2(std::abs(e.val_loss - loss) < 1e-5, qPrintable(QString("%1 vs %2").arg(e.val_loss).arg(loss)));
    }

    void evaluationRunsWithoutDropout() {
        // Dropout 0.5, the model left in train mode: the evaluators' loss equals the loss computed here with
        // the model in eval mode, two eval-mode passes agree exactly, train-mode passes differ from them (the
        // comparison can fail), and the evaluators hand the model back in train mode.
        RunConfig cfg = small_config(Position::Rotary, true, true);
        cfg.dropout = 0.5;
        auto model = twbtest::random_model(cfg, 12);
        const auto ids = ids_of(4 * 12 + 1, static_cast<int>(cfg.vocab_size), 8);
        const auto file = twbtest::path(m_dir, "dropout.bin");
        {
            std::vector<int32_t> v(ids.begin(), ids.end());
            TokenWriter w(file, TokenDtype::U16);
            w.write(v.data(), v.size());
            w.close();
        }
        TokenFile tf(file, TokenDtype::U16);
        auto loss_of = [&](const torch::Tensor& x, const torch::Tensor& y) {
            const auto logits = model->forward(x);
            return torch::nn::functional::cross_entropy(logits.reshape({-1, cfg.vocab_size}), y.reshape({-1}))
                .item<double>();
        };
        auto blocks = torch::tensor(ids).narrow(0, 0, 48).view({4, 12});
        auto targets = torch::tensor(ids).narrow(0, 1, 48).view({4, 12});
        double evalLoss = 0, trainLoss = 0;
        {
            torch::NoGradGuard ng;
            model->eval();
            const auto a = model->forward(blocks), b = model->forward(blocks);
            QVERIFY(torch::equal(a, b));
            evalLoss = loss_of(blocks, targets);
            model->train();
            const auto c = model->forward(blocks);
            QVERIFY(max_diff(a, c) > 1e-2);
            trainLoss = loss_of(blocks, targets);
        }
        QVERIFY2(std::abs(trainLoss - evalLoss) > 1e-3, qPrintable(QString("%1 vs %2").arg(trainLoss).arg(evalLoss)));
        QVERIFY(model->is_training());
        const auto seq = nn::evaluate_sequential(model, tf, 3, 0, torch::kCPU, false);
        QCOMPARE(seq.tokens, int64_t(48));
        QVERIFY2(std::abs(seq.loss - evalLoss) < 1e-6, qPrintable(QString("%1 vs %2").arg(seq.loss).arg(evalLoss)));
        QVERIFY(model->is_training());
        // Random batches: the same draws as a Batcher with the evaluator's seed, in eval mode here.
        const auto r1 = nn::evaluate_random(model, tf, 2, 3, 77, torch::kCPU, false);
        QVERIFY(model->is_training());
        nn::Batcher batcher(tf, cfg.block_size, 2, 77);
        double sum = 0;
        {
            torch::NoGradGuard ng;
            model->eval();
            for (int i = 0; i < 3; ++i) {
                auto [x, y] = batcher.next(torch::kCPU);
                sum += loss_of(x, y);
            }
            model->train();
        }
        QVERIFY2(std::abs(r1.loss - sum / 3) < 1e-6, qPrintable(QString("%1 vs %2").arg(r1.loss).arg(sum / 3)));
    }

    void bitsPerCharacterCountCharactersNotBytes() {
        // Byte tokens over text of 1-, 2- and 3-byte characters ("aé日\n": 7 bytes, 4 characters), scored by a
        // uniform model (every token costs ln V nats, V = 259): bits per character are the total bits over
        // the characters, which here are fewer than the bytes, so counting bytes would give another figure.
        QTemporaryDir d;
        std::string text;
        for (int i = 0; i < 1000; ++i)
            text += "a\xc3\xa9\xe6\x97\xa5\n";  // a, é (2 bytes), 日 (3 bytes), newline
        twbtest::write(twbtest::path(d, "utf8.txt"), text);
        PrepareOptions po;
        po.corpus.inputs = {twbtest::path(d, "utf8.txt").string()};
        po.tokenizer.kind = TokenizerKind::Byte;
        po.out = twbtest::path(d, "data");
        prepare_dataset(po);
        const auto data = open_prepared(po.out);
        const int V = data.vocab_size;
        QCOMPARE(V, 259);
        const auto runDir = twbtest::path(d, "run");
        constant_model_run(po.out, V, runDir, std::vector<double>(static_cast<size_t>(V), 0.0), 1);  // uniform
        ModelSession session;
        session.open(runDir.string(), "last");
        const double bitsPerToken = std::log2(static_cast<double>(V));
        // score_text: "añ€日b" is 10 bytes, 5 characters; the first byte ("a", one character) is context only,
        // so 9 tokens are predicted, covering 4 characters.
        const auto r = session.score_text(
            "a\xc3\xb1\xe2\x82\xac\xe6\x97\xa5"
            "b");
        QCOMPARE(r.tokens, int64_t(9));
        QVERIFY2(std::abs(r.bits_per_char - 9 * bitsPerToken / 4) < 1e-5,
                 qPrintable(QString("%1 vs %2").arg(r.bits_per_char).arg(9 * bitsPerToken / 4)));
        // The validation split (the corpus's tail: whole "aé日\n" units, then the <eos> prepare appends):
        // its characters counted here by Qt's UTF-8 decoder over its bytes (ids below 256).
        TokenFile val(po.out / "val.bin", data.dtype);
        QCOMPARE(val.at(0), int32_t('a'));  // the split starts at a character boundary
        std::string valBytes;
        for (uint64_t i = 0; i < val.size(); ++i)
            if (val.at(i) < 256)
                valBytes += static_cast<char>(val.at(i));
        const auto chars = static_cast<double>(
            QString::fromUtf8(valBytes.data(), static_cast<qsizetype>(valBytes.size())).toUcs4().size());
        QVERIFY(chars < 0.6 * static_cast<double>(valBytes.size()));  // 4 characters per 7 bytes
        const double charsPerToken = chars / static_cast<double>(val.size());
        QVERIFY2(std::abs(split_chars_per_token(data, "val") - charsPerToken) < 1e-12,
                 qPrintable(QString("%1 vs %2").arg(split_chars_per_token(data, "val")).arg(charsPerToken)));
        EvalOptions eo;
        eo.batch_size = 2;
        const auto ev = session.evaluate(eo);
        QVERIFY2(std::abs(ev.bits_per_char - bitsPerToken / charsPerToken) < 1e-5,
                 qPrintable(QString("%1 vs %2").arg(ev.bits_per_char).arg(bitsPerToken / charsPerToken)));
    }
};

TWB_APPLESS_MAIN(TestReference)
#include "tst_reference.moc"
