// Architecture options of the decoder (RunConfig's ffn_hidden, activation, head_size, norm, norm_position,
// norm_eps, qk_norm, freeze_embeddings): the norms and activations against their definitions, parameter_count
// against the real model, readable validation, old configs reading as today's defaults, each variant
// training, the KV cache and checkpoints with a head size apart from n_embd / n_head, frozen embeddings;
// qk_norm: off is the model of before, on normalises each head's queries and keys (both families), and
// the bf16 decoder and the GPT-2/GGUF exports refuse it by name.
#include "nn/analysis/attention_capture.h"
#include "nn/decoding/fast_decode.h"
#include "nn/decoding/gpt_source.h"
#include "nn/interchange/checkpoint.h"
#include "nn/models/seq2seq_model.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/gguf_export.h"
#include "twb/model_exchange.h"
#include "twb/training.h"

#include <cmath>
#include <map>

using namespace twb;
using namespace twb::nn;

namespace {

RunConfig small_model() {
    RunConfig c = preset_config("tiny");
    c.vocab_size = 23;
    c.block_size = 16;
    c.n_layer = 2;
    c.n_head = 2;
    c.n_embd = 16;
    return c;
}

/// Two alternating verses (as in tst_golden): structure a small model learns within a few dozen steps.
std::string verses() {
    std::string s;
    for (int i = 0; i < 120; ++i)
        s += (i % 3 == 0) ? "the cat sat on the mat.\n" : "a dog ran to the park!\n";
    return s;
}

/// Entropy in nats of the text's character frequencies: the loss of the best model that ignores context.
double unigram_entropy(const std::string& s) {
    std::map<char, double> n;
    for (char ch : s)
        n[ch] += 1;
    double h = 0;
    for (auto& [ch, k] : n)
        h -= k / s.size() * std::log(k / s.size());
    return h;
}

bool contains(const std::vector<std::string>& problems, const std::string& part) {
    for (auto& p : problems)
        if (p.find(part) != std::string::npos)
            return true;
    return false;
}

std::string joined(const std::vector<std::string>& problems) {
    std::string s;
    for (auto& p : problems)
        s += p + " | ";
    return s;
}

}  // namespace

class TestArchitecture : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_data;

private slots:
    void initTestCase() {
        twbtest::write(twbtest::path(m_dir, "verses.txt"), verses());
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "verses.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        prepare_dataset(o);
        m_data = o.out;
    }

    void rmsnormMatchesDefinition() {
        Norm norm(4, NormKind::RmsNorm, /*bias=*/true, 1e-5);
        QVERIFY(!norm->bias.defined());  // RMSNorm has a weight only, even with bias=true
        QCOMPARE(norm->parameters().size(), size_t(1));
        const double w[4] = {0.5, 1.0, 2.0, -1.0};
        const double x[2][4] = {{1.0, -2.0, 3.0, 0.5}, {0.01, 0.02, -0.03, 0.0}};
        {
            torch::NoGradGuard ng;
            norm->weight.copy_(torch::tensor({0.5f, 1.0f, 2.0f, -1.0f}));
        }
        auto in = torch::tensor({1.0f, -2.0f, 3.0f, 0.5f, 0.01f, 0.02f, -0.03f, 0.0f}).view({2, 4});
        auto out = norm(in);
        for (int r = 0; r < 2; ++r) {
            double ms = 0;
            for (int i = 0; i < 4; ++i)
                ms += x[r][i] * x[r][i] / 4;
            for (int i = 0; i < 4; ++i) {
                const double want = x[r][i] / std::sqrt(ms + 1e-5) * w[i];  // x / sqrt(mean(x^2) + eps) * weight
                QVERIFY2(std::abs(out[r][i].item<double>() - want) < 1e-5,
                         qPrintable(
                             QString("row %1 col %2: %3 vs %4").arg(r).arg(i).arg(out[r][i].item<double>()).arg(want)));
            }
        }
        // LayerNorm with a non-default epsilon: (x - mean) / sqrt(var + eps) (biased variance)
        Norm ln(4, NormKind::LayerNorm, true, 0.5);
        auto y = ln(in);
        double mean = (1.0 - 2.0 + 3.0 + 0.5) / 4, var = 0;
        for (int i = 0; i < 4; ++i)
            var += (x[0][i] - mean) * (x[0][i] - mean) / 4;
        for (int i = 0; i < 4; ++i)
            QVERIFY(std::abs(y[0][i].item<double>() - (x[0][i] - mean) / std::sqrt(var + 0.5)) < 1e-5);
    }

    void activationsMatchFormulas() {
        const std::vector<float> xs = {-3.0f, -1.0f, -0.25f, 0.0f, 0.5f, 1.0f, 2.5f};
        auto x = torch::tensor(xs);
        auto tanhGelu = activate(x, Activation::GeluTanh), exact = activate(x, Activation::Gelu),
             relu = activate(x, Activation::Relu);
        const double pi = std::acos(-1.0);
        for (size_t i = 0; i < xs.size(); ++i) {
            const double v = xs[i];
            const double wantTanh = 0.5 * v * (1 + std::tanh(std::sqrt(2 / pi) * (v + 0.044715 * v * v * v)));
            const double wantExact = 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
            QVERIFY(std::abs(tanhGelu[i].item<double>() - wantTanh) < 1e-6);
            QVERIFY(std::abs(exact[i].item<double>() - wantExact) < 1e-6);
            QCOMPARE(relu[i].item<double>(), std::max(v, 0.0));
        }
        // the two GELUs differ (by up to about 1e-3 near |x| = 2): the choice is not a no-op
        QVERIFY((tanhGelu - exact).abs().max().item<double>() > 1e-5);
    }

    void parameterCountEqualsModel_data() {
        QTest::addColumn<QStringList>("sets");
        QTest::newRow("default") << QStringList{};
        QTest::newRow("rmsnorm post bias") << QStringList{"norm=rmsnorm", "norm_position=post"};
        QTest::newRow("head_size 6 of 3") << QStringList{"n_head=3", "head_size=6"};
        QTest::newRow("head_size wider") << QStringList{"n_head=4", "head_size=10", "position=learned"};
        QTest::newRow("ffn 50 untied") << QStringList{"ffn_hidden=50", "tie_embeddings=false", "activation=relu"};
        QTest::newRow("no bias rmsnorm") << QStringList{"bias=false", "norm=rmsnorm", "position=sinusoidal"};
        QTest::newRow("post layernorm no bias") << QStringList{"bias=false", "norm_position=post", "head_size=4"};
        QTest::newRow("qk_norm") << QStringList{"qk_norm=true"};
        QTest::newRow("qk_norm rmsnorm head_size 6")
            << QStringList{"qk_norm=true", "norm=rmsnorm", "n_head=3", "head_size=6", "bias=false"};
    }
    void parameterCountEqualsModel() {
        QFETCH(QStringList, sets);
        RunConfig c = small_model();
        for (auto& s : sets)
            c.set(s.toStdString());
        QVERIFY2(c.validate().empty(), joined(c.validate()).c_str());
        GPT m(c);
        QCOMPARE(c.parameter_count(), m->num_parameters());
        // the parts add up, and each part is the numel of the parameters it names
        const auto parts = c.parameter_parts();
        int64_t attn = 0, ffn = 0, norms = 0;
        for (auto& [name, p] : m->named_weights()) {
            if (name.find("_norm.") != std::string::npos)  // qk_norm's q_norm, k_norm
                norms += p.numel();
            else if (name.find(".attn.") != std::string::npos)
                attn += p.numel();
            else if (name.find(".mlp.") != std::string::npos)
                ffn += p.numel();
            else if (name.find("ln_") != std::string::npos)
                norms += p.numel();
        }
        QCOMPARE(parts.attention, attn);
        QCOMPARE(parts.feed_forward, ffn);
        QCOMPARE(parts.norms, norms);
        QCOMPARE(parts.total(), c.parameter_count());
    }

    void memoryEstimateFollowsWidths() {
        RunConfig c = small_model();
        const int64_t base = c.estimated_memory_bytes();
        c.ffn_hidden = 8 * c.n_embd;
        QVERIFY(c.estimated_memory_bytes() > base);
        c = small_model();
        c.head_size = 2 * c.n_embd / c.n_head;
        QVERIFY(c.estimated_memory_bytes() > base);
    }

    void validationSaysWhatIsWrong() {
        RunConfig c = small_model();
        c.n_embd = 30;
        c.n_head = 4;
        auto p = c.validate();
        QVERIFY2(contains(p, "n_embd 30 must be divisible by n_head 4") && contains(p, "head_size"), joined(p).c_str());
        c.head_size = 8;  // 4 heads of 8 over a width of 30: fine
        QVERIFY2(c.validate().empty(), joined(c.validate()).c_str());
        c.head_size = 5;  // rotary needs pairs
        p = c.validate();
        QVERIFY2(contains(p, "even head size (head_size = 5)"), joined(p).c_str());
        c.position = Position::Learned;
        QVERIFY(c.validate().empty());
        c.head_size = -1;
        QVERIFY(contains(c.validate(), "head_size must be 0"));
        c = small_model();
        c.n_head = 1000;
        c.head_size = 100;
        QVERIFY2(contains(c.validate(), "n_head * head_size = 1000 * 100 = 100000"), joined(c.validate()).c_str());
        c = small_model();
        c.ffn_hidden = -3;
        QVERIFY(contains(c.validate(), "ffn_hidden must be between 0 (4 * n_embd) and 1048576"));
        c = small_model();
        c.norm_eps = 0;
        QVERIFY(contains(c.validate(), "norm_eps must be positive"));
        try {
            c.set("activation=swish");
            QFAIL("expected ConfigError");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("gelu, gelu_tanh, relu or silu") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(ConfigError, c.set("norm=batchnorm"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, c.set("norm_position=middle"));
    }

    void oldConfigReadsAsTodaysDefaults() {
        RunConfig v = small_model();
        for (auto s : {"ffn_hidden=40", "activation=gelu_tanh", "head_size=6", "norm=rmsnorm", "norm_position=post",
                       "norm_eps=1e-6", "freeze_embeddings=true"})
            v.set(s);
        nlohmann::json j = v;
        QCOMPARE(j.get<RunConfig>().head_size, 6);  // the keys round-trip
        QCOMPARE(j.get<RunConfig>().norm_position, NormPosition::Post);
        for (auto k :
             {"ffn_hidden", "activation", "head_size", "norm", "norm_position", "norm_eps", "freeze_embeddings"})
            j.erase(k);  // a config.json written before these keys existed
        const RunConfig old = j.get<RunConfig>();
        QCOMPARE(old.ffn_hidden, 0);
        QCOMPARE(old.ffn_dim(), 4 * old.n_embd);
        QCOMPARE(old.activation, Activation::Gelu);
        QCOMPARE(old.head_size, 0);
        QCOMPARE(old.head_dim(), old.n_embd / old.n_head);
        QCOMPARE(old.norm, NormKind::LayerNorm);
        QCOMPARE(old.norm_position, NormPosition::Pre);
        QCOMPARE(old.norm_eps, 1e-5);
        QCOMPARE(old.freeze_embeddings, false);
        // and it builds today's model: the same tensors and shapes as the defaults
        GPT a(old), b(small_model());
        auto wa = a->named_weights(), wb = b->named_weights();
        QCOMPARE(wa.size(), wb.size());
        for (size_t i = 0; i < wa.size(); ++i) {
            QCOMPARE(wa[i].first, wb[i].first);
            QCOMPARE(wa[i].second.sizes().vec(), wb[i].second.sizes().vec());
        }
    }

    void variantsTrain_data() {
        QTest::addColumn<QStringList>("sets");
        QTest::newRow("rmsnorm") << QStringList{"norm=rmsnorm"};
        QTest::newRow("relu") << QStringList{"activation=relu"};
        QTest::newRow("gelu_tanh") << QStringList{"activation=gelu_tanh"};
        QTest::newRow("post-norm") << QStringList{"norm_position=post"};
        QTest::newRow("head_size 6 x 3") << QStringList{"n_head=3", "head_size=6"};
        QTest::newRow("ffn_hidden 48, relu, rmsnorm")
            << QStringList{"ffn_hidden=48", "activation=relu", "norm=rmsnorm", "position=learned"};
        QTest::newRow("qk_norm") << QStringList{"qk_norm=true"};
    }
    void variantsTrain() {
        QFETCH(QStringList, sets);
        RunConfig c = preset_config("tiny");
        c.data_dir = m_data.string();
        c.n_layer = 2;
        c.n_head = 2;
        c.n_embd = 32;
        c.block_size = 16;
        c.batch_size = 8;
        c.max_iters = 40;
        c.warmup_iters = 5;
        c.lr_decay_iters = 40;
        c.eval_interval = 40;
        c.eval_iters = 4;
        c.log_interval = 1;
        c.threads = 1;
        c.seed = 7;
        for (auto& s : sets)
            c.set(s.toStdString());
        TrainJob job;
        job.config = c;
        job.run_dir = twbtest::path(m_dir, ("run-" + sets.join("-")).toStdString().c_str()).string();
        std::vector<double> losses;
        double val = std::nan("");
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& r) {
            losses.push_back(r.loss);
            return true;
        };
        cb.on_eval = [&](const EvalReport& e) { val = e.val_loss; };
        train(job, cb);
        QCOMPARE(losses.size(), size_t(40));
        // Starts near ln(vocab) (an untrained model guesses uniformly) and ends below the character
        // frequencies' entropy: only a model that uses the context gets there.
        const double h = unigram_entropy(verses());
        QVERIFY2(losses.front() > h,
                 qPrintable(QString("first loss %1, unigram entropy %2").arg(losses.front()).arg(h)));
        double tail = 0;
        for (size_t i = losses.size() - 5; i < losses.size(); ++i)
            tail += losses[i] / 5;
        qInfo("first loss %.3f, mean of the last 5 %.3f, val %.3f, unigram entropy %.3f", losses.front(), tail, val, h);
        QVERIFY2(tail < h && val < h,
                 qPrintable(QString("last losses %1, val %2, unigram entropy %3").arg(tail).arg(val).arg(h)));
    }

    void headSizeCacheGivesSameGreedyText_data() {
        QTest::addColumn<QString>("position");
        QTest::newRow("rotary") << "rotary";
        QTest::newRow("learned") << "learned";
    }
    void headSizeCacheGivesSameGreedyText() {
        QFETCH(QString, position);
        RunConfig c = small_model();
        c.n_head = 3;
        c.head_size = 6;  // 18 channels of attention over a width of 16
        c.norm = NormKind::RmsNorm;
        c.activation = Activation::GeluTanh;
        c.position = parse_choice<Position>(position.toStdString(), "position");
        torch::manual_seed(11);
        GPT m(c);
        QCOMPARE(m->transformer->h[0]->as<Block>()->attn->c_attn->weight.sizes().vec(), (std::vector<int64_t>{54, 16}));
        SamplingOptions o;
        o.temperature = 0;
        o.max_new_tokens = 40;  // past block_size 16: the window slides
        GptSource cached(m, torch::kCPU, true), plain(m, torch::kCPU, false);
        auto a = generate_ids(cached, {1, 2, 3}, o, -1,
                              [](const std::vector<int32_t>& ids) { return std::string(ids.size(), 'x'); });
        auto b = generate_ids(plain, {1, 2, 3}, o, -1,
                              [](const std::vector<int32_t>& ids) { return std::string(ids.size(), 'x'); });
        QCOMPARE(a.tokens, b.tokens);
        // attention capture: 3 heads, each row a distribution over the earlier positions
        auto cap = capture_attention_ids(m, {1, 2, 3, 4, 5}, torch::kCPU);
        QCOMPARE(cap.heads, int64_t(3));
        QCOMPARE(cap.weights.size(), size_t(2 * 3 * 5 * 5));
        for (size_t row = 0; row < cap.weights.size() / 5; ++row) {
            double sum = 0;
            for (size_t k = 0; k < 5; ++k)
                sum += cap.weights[row * 5 + k];
            QVERIFY(std::abs(sum - 1.0) < 1e-5);
        }
    }

    void checkpointOfVariantReloads() {
        QTemporaryDir d;
        RunConfig c = small_model();
        for (auto s : {"ffn_hidden=40", "activation=gelu_tanh", "head_size=6", "n_head=3", "norm=rmsnorm",
                       "norm_position=post", "norm_eps=1e-6", "tie_embeddings=false"})
            c.set(s);
        torch::manual_seed(3);
        GPT m(c);
        CheckpointState st;
        st.step = 5;
        st.config = c;
        const auto dir = save_checkpoint(twbtest::path(d, "run"), m, nullptr, st);
        auto loaded = read_checkpoint(dir);
        QCOMPARE(loaded.state.config.head_size, 6);
        QCOMPARE(loaded.state.config.norm, NormKind::RmsNorm);
        torch::manual_seed(99);  // a different initialisation, overwritten by the checkpoint
        GPT m2(loaded.state.config);
        load_weights(m2, loaded.weights, dir.string());
        m->eval();
        m2->eval();
        torch::NoGradGuard ng;
        auto idx = torch::tensor({1, 5, 7, 2, 9, 11}, torch::kInt64).unsqueeze(0);
        QVERIFY(torch::equal(m->forward(idx), m2->forward(idx)));
        // a default-architecture model cannot take these weights: refused with the tensor's name
        GPT plain(small_model());
        QVERIFY_THROWS_EXCEPTION(FormatError, load_weights(plain, loaded.weights, dir.string()));
    }

    void qkNormOffIsTheModelOfBefore() {
        // A config.json without the key reads as qk_norm=false and builds the same tensors, drawn the same.
        nlohmann::json j = small_model();
        j.erase("qk_norm");
        const RunConfig old = j.get<RunConfig>();
        QCOMPARE(old.qk_norm, false);
        torch::manual_seed(5);
        GPT a(old);
        torch::manual_seed(5);
        GPT b(small_model());
        auto wa = a->named_weights(), wb = b->named_weights();
        QCOMPARE(wa.size(), wb.size());
        for (size_t i = 0; i < wa.size(); ++i) {
            QCOMPARE(wa[i].first, wb[i].first);
            QVERIFY(wa[i].first.find("_norm.") == std::string::npos);
            QVERIFY(torch::equal(wa[i].second, wb[i].second));
        }
    }

    void qkNormChangesTheModel() {
        RunConfig off = small_model(), on = off;
        on.qk_norm = true;
        torch::manual_seed(5);
        GPT a(off);
        torch::manual_seed(5);
        GPT b(on);
        // two norms of head_dim (weight + bias) per layer more; the norms start at 1 and 0 and every
        // other tensor is drawn as without them
        QCOMPARE(b->num_parameters() - a->num_parameters(), int64_t(off.n_layer) * 2 * 2 * off.head_dim());
        QCOMPARE(on.parameter_count(), b->num_parameters());
        auto* attn = b->transformer->h[0]->as<Block>()->attn.get();
        QVERIFY(attn->q_norm && attn->k_norm);
        QVERIFY(torch::equal(attn->q_norm->weight, torch::ones({off.head_dim()})));
        QVERIFY(torch::equal(a->transformer->h[0]->as<Block>()->attn->c_attn->weight, attn->c_attn->weight));
        a->eval();
        b->eval();
        torch::NoGradGuard ng;
        auto idx = torch::tensor({1, 5, 7, 2, 9, 11}, torch::kInt64).unsqueeze(0);
        QVERIFY(!torch::allclose(a->forward(idx), b->forward(idx)));
    }

    void qkNormMakesAttentionBlindToTheScaleOfQueriesAndKeys() {
        // RMSNorm of each head's q and k: scaling the query and key projections changes nothing (up to eps);
        // without qk_norm it sharpens the attention and changes the output.
        for (bool qk : {true, false}) {
            RunConfig c = small_model();
            c.norm = NormKind::RmsNorm;
            c.norm_eps = 1e-10;  // the norm's epsilon would be the only trace of the scale
            c.bias = false;
            c.qk_norm = qk;
            torch::manual_seed(8);
            GPT m(c);
            m->eval();
            torch::NoGradGuard ng;
            auto idx = torch::tensor({1, 5, 7, 2, 9, 11}, torch::kInt64).unsqueeze(0);
            const auto before = m->forward(idx);
            for (size_t i = 0; i < m->transformer->h->size(); ++i)
                m->transformer->h[i]->as<Block>()->attn->c_attn->weight.narrow(0, 0, 2 * c.n_embd).mul_(10.0);
            const auto after = m->forward(idx);
            QCOMPARE(torch::allclose(before, after, 1e-4, 1e-4), qk);
        }
    }

    void qkNormCacheGivesSameGreedyText() {
        RunConfig c = small_model();
        c.qk_norm = true;  // rotary after the norm, in the cached and the plain pass alike
        torch::manual_seed(11);
        GPT m(c);
        SamplingOptions o;
        o.temperature = 0;
        o.max_new_tokens = 30;
        GptSource cached(m, torch::kCPU, true), plain(m, torch::kCPU, false);
        auto text = [](const std::vector<int32_t>& ids) { return std::string(ids.size(), 'x'); };
        QCOMPARE(generate_ids(cached, {1, 2, 3}, o, -1, text).tokens,
                 generate_ids(plain, {1, 2, 3}, o, -1, text).tokens);
    }

    void qkNormInTheEncoderDecoder() {
        RunConfig c = small_model();
        c.model_kind = ModelKind::EncoderDecoder;
        c.position = Position::Sinusoidal;
        RunConfig on = c;
        on.qk_norm = true;
        torch::manual_seed(4);
        Seq2Seq a(c);
        torch::manual_seed(4);
        Seq2Seq b(on);
        QCOMPARE(on.parameter_count(), b->num_parameters());
        // encoder self-attention, decoder self- and cross-attention: 2 norms of weight + bias each
        QCOMPARE(b->num_parameters() - a->num_parameters(), int64_t(2 + 2 * 2) * 2 * 2 * c.head_dim());
        a->eval();
        b->eval();
        torch::NoGradGuard ng;
        auto src = torch::tensor({3, 4, 5, 2}, torch::kInt64).unsqueeze(0);
        auto tgt = torch::tensor({1, 6, 7}, torch::kInt64).unsqueeze(0);
        auto pad = torch::zeros({1, 4}, torch::kBool);
        const auto ya = a->forward(src, pad, tgt), yb = b->forward(src, pad, tgt);
        QCOMPARE(yb.sizes().vec(), ya.sizes().vec());
        QVERIFY(torch::isfinite(yb).all().item<bool>());
        QVERIFY(!torch::allclose(ya, yb));
    }

    void qkNormIsRefusedWhereItIsNotComputed() {
        RunConfig c = small_model();
        c.position = Position::Learned;
        c.activation = Activation::GeluTanh;
        QVERIFY(fast_decode_unsupported(c).empty());
        QVERIFY(hf_export_blocker(c).empty());
        QVERIFY(gguf_export_blocker(c).empty());
        c.qk_norm = true;
        for (const std::string& why : {fast_decode_unsupported(c), hf_export_blocker(c), gguf_export_blocker(c)})
            QVERIFY2(why.find("qk_norm") != std::string::npos, why.c_str());
        // and --resume cannot switch it (the option table marks it as shaping the model)
        RunConfig off = c;
        off.qk_norm = false;
        try {
            check_resume_config(c, off, "run");
            QFAIL("expected ConfigError");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("--resume cannot change qk_norm") != std::string::npos, e.what());
        }
        off.dropout = 0.3;  // a key that does not shape the model may change
        off.qk_norm = true;
        check_resume_config(c, off, "run");
    }

    void frozenEmbeddingsDoNotMove() {
        RunConfig c = small_model();
        c.freeze_embeddings = true;
        c.weight_decay = 0.1;  // decay would move the embedding too if it were not left out
        torch::manual_seed(1);
        GPT m(c);
        FlatAdamW opt(m->named_weights(), c);
        const auto wte = m->transformer->wte->weight.detach().clone();
        const auto fc = m->transformer->h[0]->as<Block>()->mlp->c_fc->weight.detach().clone();
        auto idx = torch::randint(0, c.vocab_size, {4, 9}, torch::kInt64);
        for (int step = 0; step < 3; ++step) {
            opt.zero_grad();
            auto logits = m->forward(idx.narrow(1, 0, 8));
            auto loss =
                torch::cross_entropy_loss(logits.reshape({-1, c.vocab_size}), idx.narrow(1, 1, 8).reshape({-1}));
            loss.backward();
            opt.step(1e-2);
        }
        QVERIFY(torch::equal(m->transformer->wte->weight, wte));  // tied: the LM head is this matrix
        QVERIFY(!torch::equal(m->transformer->h[0]->as<Block>()->mlp->c_fc->weight, fc));
    }
};

TWB_APPLESS_MAIN(TestArchitecture)
#include "tst_architecture.moc"
