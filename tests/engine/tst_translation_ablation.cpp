// Head ablation of a translation (encoder-decoder) model, against what it must equal: a head switched off
// in any of the three attentions (the encoder's, the decoder's, cross-attention) is that head's columns
// of its output projection zeroed; a translation run's table with nothing off is the split's plain loss,
// one row per head of the three in HeadLayout::all()'s order, its cross-attention heads worth something
// on a copy task and all of them together worth much more; the heads set on the translator stay off in
// evaluation until cleared, and the table's job leaves them as they were. Head lists name the stack.
#include "nn/analysis/model_inspection.h"
#include "seq2seq_reference.h"
#include "test_util.h"
#include "tiny_translation.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/inspection.h"
#include "twb/training.h"
#include "twb/translation.h"

#include <nlohmann/json.hpp>

#include <random>

using namespace twb;
namespace fs = std::filesystem;

namespace {
/// Zeroes head h's columns of an output projection (n_embd x heads * head_size).
void zero_head(nn::Linear& proj, int64_t h, int64_t D) {
    torch::NoGradGuard ng;
    proj->weight.narrow(1, h * D, D).zero_();
}
}  // namespace

class TestTranslationAblation : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_run;  // a translation run of one letter to another

private slots:
    void initTestCase() {
        // One letter of a..h to another (a -> d, b -> e, ...): the decoder learns it only through
        // cross-attention, in a few hundred steps (copying a sentence waits out a long plateau first).
        std::mt19937 rng(3);
        std::string src, tgt;
        for (int i = 0; i < 400; ++i) {
            const int k = static_cast<int>(rng() % 8);
            src += std::string(1, static_cast<char>('a' + k)) + "\n";
            tgt += std::string(1, static_cast<char>('a' + (k + 3) % 8)) + "\n";
        }
        twbtest::write(twbtest::path(m_dir, "s.txt"), src);
        twbtest::write(twbtest::path(m_dir, "t.txt"), tgt);
        ParallelPrepareOptions o;
        o.source = twbtest::path(m_dir, "s.txt").string();
        o.target = twbtest::path(m_dir, "t.txt").string();
        o.val_fraction = 0.1;
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(m_dir, "data");
        prepare_parallel(o);
        RunConfig c = twbtest::small_seq2seq_config(o.out.string());
        c.n_layer = 1;
        c.n_encoder_layer = 2;
        c.max_iters = 200;
        c.warmup_iters = 10;
        c.eval_interval = 200;
        c.threads = 2;
        m_run = twbtest::path(m_dir, "run").string();
        TrainJob job;
        job.config = c;
        job.run_dir = m_run;
        QVERIFY(train(job, {}).last_val_loss < 0.5);  // learned: ln 8 = 2.08 knows nothing
    }

    void headListsNameTheStack() {
        const HeadLayout layout{2, 3, 4};  // decoder 2 layers, 3 heads, encoder 4 layers
        const auto h = parse_heads("enc.3.2, cross.1.*, dec.0.1, 0.1", layout);
        QCOMPARE(h.size(), size_t{5});  // dec.0.1 and 0.1 are one head
        QVERIFY((h[0] == HeadRef{3, 2, HeadStack::Encoder}));
        QVERIFY((h[1] == HeadRef{1, 0, HeadStack::Cross}) && (h[3] == HeadRef{1, 2, HeadStack::Cross}));
        QVERIFY((h[4] == HeadRef{0, 1, HeadStack::Decoder}));
        QCOMPARE(to_string(h[0]), std::string("enc.3.2"));
        QCOMPARE(to_string(h[1]), std::string("cross.1.0"));
        QCOMPARE(to_string(h[4]), std::string("0.1"));
        for (const auto& r : h)  // what to_string writes parses back to the same head
            QVERIFY(parse_heads(to_string(r), layout).front() == r);
        const auto all = layout.all();
        QCOMPARE(all.size(), size_t{(4 + 2 + 2) * 3});
        QVERIFY((all.front() == HeadRef{0, 0, HeadStack::Encoder}));
        QVERIFY((all[12] == HeadRef{0, 0, HeadStack::Decoder}) && (all[18] == HeadRef{0, 0, HeadStack::Cross}));
        QCOMPARE(HeadLayout({2, 3, 0}).all().size(), size_t{6});  // a language model: its blocks only
        auto refused = [](const std::string& text, const HeadLayout& l, const std::string& says) {
            try {
                parse_heads(text, l);
            } catch (const ConfigError& e) {
                return std::string(e.what()).find(says) != std::string::npos;
            }
            return false;
        };
        QVERIFY(refused("enc.4.0", layout, "encoder layer 4 does not exist"));
        QVERIFY(refused("cross.2.0", layout, "decoder layer 2 does not exist"));
        QVERIFY(refused("enc.0.0", HeadLayout{2, 3, 0}, "a language model has no encoder"));
        QVERIFY(refused("enc.1", layout, "enc.L.H for the encoder's"));
    }

    void aHeadOffIsItsOutputProjectionWithoutIt() {
        RunConfig c = twbtest::tiny_seq2seq_config(2);
        c.bias = true;
        const int64_t D = c.head_dim();
        auto model = [&c] {
            torch::manual_seed(21);
            nn::Seq2Seq m(c);
            torch::NoGradGuard ng;
            for (auto& [name, p] : m->named_weights())
                if (name.find("ln_") == std::string::npos)
                    p.normal_(0, 0.5);
            return m;
        };
        const auto src = torch::tensor(std::vector<int64_t>{5, 6, 7, 8, 2}).unsqueeze(0);
        const auto tgt = torch::tensor(std::vector<int64_t>{1, 9, 4, 6}).unsqueeze(0);
        const auto pad = torch::zeros_like(src, torch::kBool);
        torch::NoGradGuard ng;
        const auto plain = model()->forward(src, pad, tgt);
        for (HeadStack stack : {HeadStack::Encoder, HeadStack::Decoder, HeadStack::Cross}) {
            auto gated = model(), removed = model();
            gated->set_head_gates(nn::seq2seq_head_gates(c, {{1, 1, stack}}, torch::kCPU));
            if (stack == HeadStack::Encoder)
                zero_head(removed->encoder->h[1]->as<nn::Block>()->attn->c_proj, 1, D);
            else if (stack == HeadStack::Decoder)
                zero_head(removed->decoder->h[1]->as<nn::DecoderBlock>()->self_attn->c_proj, 1, D);
            else
                zero_head(removed->decoder->h[1]->as<nn::DecoderBlock>()->cross_attn->c_proj, 1, D);
            const auto a = gated->forward(src, pad, tgt), b = removed->forward(src, pad, tgt);
            QVERIFY2(torch::allclose(a, b, 1e-6, 1e-6), to_string(HeadRef{1, 1, stack}).c_str());
            QVERIFY(!torch::allclose(a, plain, 1e-3, 1e-3));
            gated->set_head_gates({});
            QVERIFY(torch::allclose(gated->forward(src, pad, tgt), plain, 1e-6, 1e-6));
        }
        try {
            nn::seq2seq_head_gates(c, {{2, 0, HeadStack::Cross}}, torch::kCPU);
            QFAIL("a cross-attention layer the model lacks was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("cross.2.0") != std::string::npos, e.what());
        }
    }

    void aTranslationRunsTableCoversItsThreeAttentions() {
        Translator tr;
        tr.open(m_run, "last");
        const HeadLayout layout = tr.head_layout();
        QCOMPARE(layout.layers, 1);
        QCOMPARE(layout.encoder_layers, 2);
        QCOMPARE(layout.heads, 2);
        TranslateOptions greedy;
        const double plain = tr.evaluate("val", greedy).loss;
        AblationOptions ao;
        ao.max_tokens = 0;  // the whole split, as evaluate scores it
        ao.every_head = true;
        ao.heads = parse_heads("cross.0.*", layout);
        int calls = 0;
        const auto t = tr.ablation_table(ao, [&](int done, int total) {
            ++calls;
            return done <= total;
        });
        QVERIFY(std::abs(t.base_loss - plain) < 1e-9);
        QCOMPARE(t.encoder_layers, 2);
        QCOMPARE(t.every_head.size(), layout.all().size());  // (2 + 1 + 1) x 2
        for (size_t i = 0; i < t.every_head.size(); ++i)
            QVERIFY(t.every_head[i].head == layout.all()[i]);
        QCOMPARE(calls, 2 + 8);
        double cross = 0;
        for (int h = 0; h < 2; ++h)
            cross = std::max(cross, t.cost(0, h, HeadStack::Cross));
        QVERIFY2(cross > 1e-2, qPrintable(QString::number(cross)));  // the answer is in the source
        QVERIFY2(t.set_loss > t.base_loss + 0.5, qPrintable(QString("%1 %2").arg(t.set_loss).arg(t.base_loss)));
        QCOMPARE(tr.evaluate("val", greedy).loss, plain);  // the job leaves every head on
        // Heads set on the translator stay off until cleared, and are what the set costs.
        tr.set_ablated_heads(ao.heads);
        QVERIFY(std::abs(tr.evaluate("val", greedy).loss - t.set_loss) < 1e-9);
        const auto again = tr.ablation_table(AblationOptions{}, {});  // the job runs with every head on...
        QVERIFY(std::abs(again.base_loss - plain) < 1e-9);
        QVERIFY(std::abs(tr.evaluate("val", greedy).loss - t.set_loss) < 1e-9);  // ...and leaves the set off
        tr.set_ablated_heads({});
        QCOMPARE(tr.evaluate("val", greedy).loss, plain);
        const auto cancelled = tr.ablation_table(ao, [](int, int) { return false; });
        QVERIFY(cancelled.cancelled && cancelled.every_head.empty());
        try {
            tr.set_ablated_heads({{0, 2, HeadStack::Encoder}});
            QFAIL("a head the model lacks was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("enc.0.2") != std::string::npos, e.what());
        }
        // The files say which attention each row is.
        const auto j = nlohmann::json::parse(ablation_to_json(t));
        QCOMPARE(j["encoder_layers"].get<int>(), 2);
        QCOMPARE(j["every_head"][0]["stack"].get<std::string>(), std::string("encoder"));
        QCOMPARE(j["every_head"][7]["stack"].get<std::string>(), std::string("cross"));
        QCOMPARE(j["set"][0].get<std::string>(), std::string("cross.0.0"));
        QVERIFY(ablation_to_csv(t).find("\n\"enc.1.1\",") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestTranslationAblation)
#include "tst_translation_ablation.moc"
