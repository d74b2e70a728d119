// Scoring text and batch evaluation of generations: log-probabilities over long texts equal an
// independent forward pass over each token's window; a text's loss is the mean of its tokens' nats;
// each setting's figures follow from its outputs; BLEU against the outputs themselves is 100.
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/generation_eval.h"
#include "twb/session.h"
#include "twb/training.h"

using namespace twb;

class TestGenerationEval : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_run;

private slots:
    void initTestCase() {
        twbtest::write(twbtest::path(m_dir, "c.txt"), twbtest::english_like(30000));
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "c.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        prepare_dataset(o);
        RunConfig c = preset_config("tiny");
        c.data_dir = o.out.string();
        c.n_layer = 1;
        c.n_head = 2;
        c.n_embd = 32;
        c.block_size = 16;
        c.max_iters = 60;
        c.lr_decay_iters = 60;
        c.eval_interval = 60;
        c.eval_iters = 1;
        c.threads = 1;
        TrainJob job;
        job.config = c;
        job.run_dir = m_run = twbtest::path(m_dir, "run").string();
        train(job);
    }
    void logProbsOfALongTextMatchTheirWindows() {
        ModelSession s;
        s.open(m_run, "last");
        const std::string text = twbtest::english_like(200, 3);
        const auto ids = s.encode(text);
        QVERIFY(ids.size() > 40);  // longer than two blocks of 16
        const auto lp = s.log_probs(ids, 1);
        QCOMPARE(lp.size(), ids.size() - 1);
        // Independently: the model sees ids[w..t) when predicting ids[t], where the window w is the one
        // the scorer uses — windows start at multiples of block/2 = 8 and predict up to 16 tokens, each
        // token scored in the first window that reaches it. So for t <= 16, w = 0; for 16 < t <= 24,
        // w = 8; for 24 < t <= 32, w = 16; in general w = 8 * ceil((t - 16) / 8) once t > 16.
        for (size_t t : {size_t(1), size_t(7), size_t(16), size_t(17), size_t(24), size_t(25), ids.size() - 1}) {
            const size_t w = t <= 16 ? 0 : 8 * ((t - 16 + 7) / 8);
            std::vector<int32_t> window(ids.begin() + static_cast<long>(w), ids.begin() + static_cast<long>(t) + 1);
            const auto one = s.log_probs(window, window.size() - 1);  // the last token, given the window
            QCOMPARE(one.size(), size_t(1));
            QVERIFY2(std::abs(one[0] - lp[t - 1]) < 1e-5,
                     qPrintable(QString("t=%1: %2 vs %3").arg(t).arg(one[0]).arg(lp[t - 1])));
        }
        // score_text: the loss is the mean of those nats, perplexity its exp.
        const auto r = s.score_text(text);
        double nats = 0;
        for (double v : lp)
            nats -= v;
        QVERIFY(std::abs(r.loss - nats / static_cast<double>(lp.size())) < 1e-9);
        QVERIFY(std::abs(r.perplexity - std::exp(r.loss)) < 1e-9 * r.perplexity);
        QVERIFY_THROWS_EXCEPTION(InputError, s.score_text("t"));
    }
    void scoringIsFloat32UnlessAsked() {
        // The run trained with dtype=auto; with TWB_CPU_BF16=1 auto means bf16 on any CPU. Scores and
        // evaluations stay float32 unless bfloat16 or auto is asked for, and say which they used.
        const QByteArray before = qgetenv("TWB_CPU_BF16");
        qputenv("TWB_CPU_BF16", "1");
        ModelSession s;
        s.open(m_run, "last");
        QCOMPARE(s.config().dtype, DType::Auto);
        QCOMPARE(QString::fromStdString(s.scoring_precision()), QString("float32"));
        const std::string text = twbtest::english_like(120, 5);
        const EvalResult f32 = s.score_text(text);
        QCOMPARE(QString::fromStdString(f32.precision), QString("float32"));
        s.set_scoring_precision(DType::Auto);
        QCOMPARE(QString::fromStdString(s.scoring_precision()), QString("bfloat16"));
        const EvalResult bf16 = s.score_text(text);
        QCOMPARE(QString::fromStdString(bf16.precision), QString("bfloat16"));
        QVERIFY2(bf16.loss != f32.loss, "bf16 autocast should round differently from float32");
        QVERIFY(std::abs(bf16.loss - f32.loss) < 0.05 * f32.loss);
        // A text of two tokens is one position: the single-row products took a float32 path that bf16
        // autocast's inputs failed ("expected scalar type Float but found BFloat16").
        const EvalResult one = s.score_text(text.substr(0, 2));
        QCOMPARE(one.tokens, int64_t(1));
        QVERIFY(std::isfinite(one.loss));
        s.set_scoring_precision(DType::Float32);
        QCOMPARE(s.score_text(text).loss, f32.loss);  // the same figure again, bit for bit
        EvalOptions o;
        o.max_tokens = 256;
        QCOMPARE(QString::fromStdString(s.evaluate(o).precision), QString("float32"));
        o.precision = DType::BFloat16;
        QCOMPARE(QString::fromStdString(s.evaluate(o).precision), QString("bfloat16"));
        if (before.isNull())
            qunsetenv("TWB_CPU_BF16");
        else
            qputenv("TWB_CPU_BF16", before);
    }
    void settingsAreParsedAndChecked() {
        const auto g = parse_decoding_setting("greedy");
        QCOMPARE(g.options.temperature, 0.0);
        const auto b = parse_decoding_setting("beam=5,length_penalty=0.6,max_new_tokens=7");
        QCOMPARE(b.options.beam_width, 5);
        QCOMPARE(b.options.length_penalty, 0.6);
        QCOMPARE(b.options.max_new_tokens, 7);
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_decoding_setting("beams=5"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_decoding_setting("top_p=1.5"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_decoding_setting("temperature=hot"));
        // Settings that would change nothing, or say one thing twice, are refused rather than dropped.
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_decoding_setting(""));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_decoding_setting("temperature=0.5,temperature=0.9"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_decoding_setting("beam=3,temperature=0.8"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_decoding_setting("beam=3,seed=5"));
        QCOMPARE(parse_decoding_setting("beam=1").options.temperature, 0.0);  // a beam of one is greedy
    }
    void eachSettingsFiguresFollowFromItsOutputs() {
        ModelSession s;
        s.open(m_run, "last");
        const std::vector<std::string> prompts{"the quick", "a small cat", "over"};
        SamplingOptions base;
        base.max_new_tokens = 12;
        base.seed = 4;
        base.stop_at_eos = false;
        const std::vector<DecodingSetting> settings{parse_decoding_setting("greedy", base),
                                                    parse_decoding_setting("temperature=1.0,top_k=5", base)};
        const auto rows = evaluate_generations(s, prompts, {}, settings);
        QCOMPARE(rows.size(), size_t(2));
        for (const auto& r : rows) {
            QCOMPARE(r.outputs.size(), prompts.size());
            QCOMPARE(r.tokens, int64_t(36));
            QVERIFY(std::isnan(r.bleu));
            QVERIFY(r.distinct_1 > 0 && r.distinct_1 <= 1 && r.distinct_2 > 0 && r.distinct_2 <= 1);
            QVERIFY(r.repetition >= 0 && r.repetition < 1);
        }
        // The mean log-prob of the greedy row, recomputed by hand from its outputs.
        double lp = 0;
        for (size_t i = 0; i < prompts.size(); ++i) {
            const auto p = s.encode(prompts[i]);
            auto all = p;
            const auto gen = s.encode(rows[0].outputs[i]);
            all.insert(all.end(), gen.begin(), gen.end());
            for (double v : s.log_probs(all, p.size()))
                lp += v;
        }
        QVERIFY2(std::abs(rows[0].mean_logprob - lp / 36) < 1e-6,
                 qPrintable(QString("%1 vs %2").arg(rows[0].mean_logprob).arg(lp / 36)));
        QVERIFY(std::abs(rows[0].perplexity - std::exp(-rows[0].mean_logprob)) < 1e-9);
        // Greedy picks the most probable token every time: its text is more probable than sampling's.
        QVERIFY(rows[0].mean_logprob > rows[1].mean_logprob);
        // With its own outputs as references, greedy scores BLEU 100; a prompt count mismatch is refused.
        const auto again = evaluate_generations(s, prompts, rows[0].outputs, {settings[0]});
        QCOMPARE(again[0].outputs, rows[0].outputs);
        QVERIFY(std::abs(again[0].bleu - 100) < 1e-9);
        QVERIFY_THROWS_EXCEPTION(InputError, evaluate_generations(s, prompts, {"one"}, settings));
        // Cancelled: the finished settings' rows only, scored (a setting stopped halfway came back as a row
        // of zeros that read like results).
        auto stopAt = [](size_t at) { return [at](size_t done, size_t) { return done < at; }; };
        QVERIFY(evaluate_generations(s, prompts, {}, settings, stopAt(2)).empty());
        const auto first = evaluate_generations(s, prompts, {}, settings, stopAt(3));
        QCOMPARE(first.size(), size_t(1));
        QCOMPARE(first[0].mean_logprob, rows[0].mean_logprob);
        QVERIFY(first[0].perplexity > 1);
    }
};

TWB_APPLESS_MAIN(TestGenerationEval)
#include "tst_generation_eval.moc"
