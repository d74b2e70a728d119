// The encoder-decoder's attention: the three captures of a sentence pair (shapes, rows that sum to 1,
// a causal decoder, cross-attention against an independent recomputation from the weights), the
// export format (round trip, version 1 files still read), head scores of non-square maps, and the
// trainer's cross-attention probe timeline (frames per evaluation, exact across a resume, equal to a
// capture of the checkpoint).
#include "core/tokenizers/tokenizer.h"
#include "nn/analysis/seq2seq_attention.h"
#include "nn/models/seq2seq_model.h"
#include "seq2seq_reference.h"
#include "test_util.h"
#include "tiny_translation.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/probe.h"
#include "twb/training.h"
#include "twb/translation.h"
#include "twb/translation_attention.h"

#include <cmath>

using namespace twb;
using namespace twb::nn;
namespace fs = std::filesystem;

namespace {
RunConfig tiny_config() {
    return twbtest::tiny_seq2seq_config(2);
}
/// Cross-attention weights [layer][head] (Tn, S) of one pair: src ids (with <eos>), tgt inputs (<bos> first).
std::vector<torch::Tensor> reference_cross(Seq2Seq& model, const std::vector<int64_t>& src,
                                           const std::vector<int64_t>& tgt) {
    std::vector<torch::Tensor> probs;
    twbtest::reference_forward(model, src, static_cast<int64_t>(src.size()), tgt, &probs);
    return probs;
}

/// Largest |row sum - 1| over every row of a capture.
double worst_row(const AttentionCapture& c) {
    double worst = 0;
    for (int64_t l = 0; l < c.layers; ++l)
        for (int64_t h = 0; h < c.heads; ++h)
            for (int64_t q = 0; q < c.length; ++q) {
                double s = 0;
                for (int64_t k = 0; k < c.keys(); ++k)
                    s += c.at(l, h, q, k);
                worst = std::max(worst, std::abs(s - 1));
            }
    return worst;
}
}  // namespace

class TestSeq2SeqAttention : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path m_data;

    TranslationAttention tiny_capture(Seq2Seq& m) {
        // bos 1, eos 2; source 3 4 5 6 (+ <eos>), target 7 8 9.
        return capture_seq2seq_attention(m, {3, 4, 5, 6}, {7, 8, 9}, 1, 2, torch::kCPU);
    }

    RunConfig train_config(int iters, int every) const {
        RunConfig c = twbtest::small_seq2seq_config(m_data.string());
        c.n_layer = 2;
        c.max_iters = iters;
        c.warmup_iters = 2;
        c.eval_interval = every;
        c.log_interval = 1;
        c.threads = 1;
        return c;
    }
    TrainSummary run(const RunConfig& c, const fs::path& dir, bool resume = false, int stopAt = -1) {
        TrainJob job;
        job.config = c;
        job.run_dir = dir.string();
        job.resume = resume;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) { return s.step != stopAt; };
        return train(job, cb);
    }

private slots:
    void initTestCase() {
        // The copy task on letters a..h, 3 to 6 of them: small and quick to learn a diagonal alignment.
        std::mt19937 rng(3);
        std::string src;
        for (int i = 0; i < 200; ++i) {
            const int n = 3 + static_cast<int>(rng() % 4);
            for (int k = 0; k < n; ++k)
                src += std::string(1, static_cast<char>('a' + rng() % 8)) + (k + 1 < n ? " " : "\n");
        }
        twbtest::write(twbtest::path(m_dir, "s.txt"), src);
        ParallelPrepareOptions o;
        o.source = o.target = twbtest::path(m_dir, "s.txt").string();
        o.val_fraction = 0.1;
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(m_dir, "data");
        prepare_parallel(o);
        m_data = o.out;
    }

    void shapesRowsAndCausality() {
        torch::manual_seed(1);
        Seq2Seq m(tiny_config());
        const auto a = tiny_capture(m);
        QCOMPARE(a.encoder.kind, AttentionKind::EncoderSelf);
        QCOMPARE(a.encoder.layers, int64_t(2));
        QCOMPARE(a.encoder.heads, int64_t(2));
        QCOMPARE(a.encoder.length, int64_t(5));  // 4 source tokens + <eos>
        QCOMPARE(a.encoder.keys(), int64_t(5));
        QCOMPARE(a.decoder.kind, AttentionKind::DecoderSelf);
        QCOMPARE(a.decoder.length, int64_t(4));  // <bos> + 3 target tokens
        QCOMPARE(a.cross.kind, AttentionKind::Cross);
        QCOMPARE(a.cross.layers, int64_t(2));
        QCOMPARE(a.cross.length, int64_t(4));  // one row per decoder step
        QCOMPARE(a.cross.keys(), int64_t(5));  // one column per source token
        QCOMPARE(a.cross.weights.size(), size_t(2 * 2 * 4 * 5));
        for (const auto* c : {&a.encoder, &a.decoder, &a.cross})
            QVERIFY2(worst_row(*c) < 1e-5, to_string(c->kind));
        // Causal decoder: nothing above the diagonal, something on and below it.
        for (int64_t l = 0; l < 2; ++l)
            for (int64_t h = 0; h < 2; ++h)
                for (int64_t q = 0; q < 4; ++q)
                    for (int64_t k = 0; k < 4; ++k)
                        QVERIFY(k > q ? a.decoder.at(l, h, q, k) == 0.f : a.decoder.at(l, h, q, k) > 0.f);
        // The encoder and cross-attention see every key (no padding in a single pair).
        for (float w : a.encoder.weights)
            QVERIFY(w > 0.f);
        for (float w : a.cross.weights)
            QVERIFY(w > 0.f);
        QVERIFY(m->is_training());  // capture leaves a training model training (dropout is off only inside)...
        m->eval();
        tiny_capture(m);
        QVERIFY(!m->is_training());  // ...and an eval model in eval mode
    }

    void crossMatchesIndependentPass() {
        torch::manual_seed(2);
        Seq2Seq m(tiny_config());
        const auto a = tiny_capture(m);
        const auto ref = reference_cross(m, {3, 4, 5, 6, 2}, {1, 7, 8, 9});
        QCOMPARE(ref.size(), size_t(4));  // 2 layers x 2 heads
        double worst = 0;
        for (int64_t l = 0; l < 2; ++l)
            for (int64_t h = 0; h < 2; ++h) {
                const auto& r = ref[static_cast<size_t>(l * 2 + h)];
                for (int64_t q = 0; q < 4; ++q)
                    for (int64_t k = 0; k < 5; ++k)
                        worst = std::max(worst, std::abs(r[q][k].item<double>() - a.cross.at(l, h, q, k)));
            }
        qInfo("largest difference from the independent pass: %.3g", worst);
        QVERIFY(worst < 1e-5);
        QVERIFY(worst_row(a.cross) < 1e-5);
    }

    void tooLongIsRefused() {
        Seq2Seq m(tiny_config());
        QVERIFY_THROWS_EXCEPTION(InputError, capture_seq2seq_attention(m, std::vector<int32_t>(12, 3), {4}, 1, 2,
                                                                       torch::kCPU));  // 12 + <eos> > 12
        QVERIFY_THROWS_EXCEPTION(InputError, capture_seq2seq_attention(m, {}, {4}, 1, 2, torch::kCPU));
    }

    void exportRoundTrip() {
        torch::manual_seed(3);
        Seq2Seq m(tiny_config());
        auto a = tiny_capture(m);
        a.encoder.tokens = {"a", "b", "c", "d", "</s>"};
        a.decoder.tokens = {"<s>", "x", "y", "z"};
        a.cross.tokens = {"x", "y", "z", "</s>"};
        a.cross.key_tokens = a.encoder.tokens;
        a.source = "a b c d";
        a.target = "x y z";
        AttentionExportInfo info;
        info.step = 7;
        const auto f = twbtest::path(m_dir, "pair.json");
        write_translation_attention_json(f, a, info);
        const auto b = read_translation_attention_json(f);
        QCOMPARE(b.source, a.source);
        QCOMPARE(b.target, a.target);
        QCOMPARE(b.cross.kind, AttentionKind::Cross);
        QCOMPARE(b.cross.key_tokens, a.cross.key_tokens);
        QCOMPARE(b.cross.key_length, int64_t(5));
        QCOMPARE(b.cross.weights, a.cross.weights);
        QCOMPARE(b.encoder.weights, a.encoder.weights);
        QCOMPARE(b.decoder.tokens, a.decoder.tokens);
        // One capture alone (the panel's export of the cross view) reads back with its kind and columns.
        write_attention_json(twbtest::path(m_dir, "cross.json"), a.cross, info);
        const auto c = read_attention_json(twbtest::path(m_dir, "cross.json"));
        QCOMPARE(c.kind, AttentionKind::Cross);
        QCOMPARE(c.keys(), int64_t(5));
        QCOMPARE(c.weights, a.cross.weights);
        QVERIFY_THROWS_EXCEPTION(FormatError, read_attention_json(f));  // the three-capture file is not one capture
        // A version 1 file (no "kind") still reads, as a decoder LM's.
        twbtest::write(twbtest::path(m_dir, "v1.json"),
                       R"({"format":"twb-attention","version":1,"checkpoint":"","step":0,"tokens":["a","b"],)"
                       R"("layers":1,"heads":1,"length":2,"weights":[[[[1,0],[0.25,0.75]]]],"next_token_top":[]})");
        const auto v1 = read_attention_json(twbtest::path(m_dir, "v1.json"));
        QCOMPARE(v1.kind, AttentionKind::Decoder);
        QCOMPARE(v1.at(0, 0, 1, 1), 0.75f);
    }

    void scoresOfNonSquareMaps() {
        // Two target rows over three source tokens: row 0 = (1, 0, 0), row 1 uniform.
        AttentionCapture c;
        c.kind = AttentionKind::Cross;
        c.layers = c.heads = 1;
        c.length = 2;
        c.key_length = 3;
        c.weights = {1.f, 0.f, 0.f, 1.f / 3, 1.f / 3, 1.f / 3};
        const auto s = head_scores(c);
        // Every row counts; entropy / log 3: row 0 -> 0, row 1 -> 1; mean 0.5.
        QVERIFY(std::abs(s.entropy[0] - 0.5f) < 1e-6f);
        QVERIFY(std::abs(s.first[0] - 2.f / 3) < 1e-6f);     // (1 + 1/3) / 2
        QVERIFY(std::abs(s.diagonal[0] - 2.f / 3) < 1e-6f);  // row 0 key 0, row 1 key 1
        QVERIFY(std::abs(s.previous[0] - 1.f / 6) < 1e-6f);  // row 1 key 0, over 2 rows
        QCOMPARE(mean_over_heads(c, 0).size(), size_t(6));
        QVERIFY(attention_rollout(c, 0).empty());  // rows and columns are different sequences
    }

    void probeTimelineAcrossResume() {
        const auto full = twbtest::path(m_dir, "full"), split = twbtest::path(m_dir, "split");
        const auto cfg = train_config(20, 10);
        run(cfg, full);
        const auto t = read_cross_probe(full);
        QCOMPARE(t.kind, AttentionKind::Cross);
        QCOMPARE(t.steps, (std::vector<int64_t>{0, 10, 20}));
        // The pair is the first validation pair: its target (+ <eos>) down, its source (+ <eos>) across.
        const auto first = read_pairs(open_prepared(m_data), "val").at(0);
        QCOMPARE(t.length, static_cast<int64_t>(first.target.size() + 1));
        QCOMPARE(t.key_length, static_cast<int64_t>(first.source.size() + 1));
        QCOMPARE(t.layers, int64_t(2));
        QCOMPARE(t.heads, int64_t(2));
        QVERIFY(read_probe(full).empty() || read_probe(full).kind == AttentionKind::Decoder);
        for (size_t i = 0; i < t.steps.size(); ++i) {
            const auto c = t.at(i);
            QCOMPARE(c.kind, AttentionKind::Cross);
            QVERIFY(worst_row(c) <= static_cast<double>(c.keys()) * 0.5 / 255 + 1e-6);  // each weight rounded to 1/255
        }
        QVERIFY(t.at(0).weights != t.at(2).weights);  // training moved the alignment
        // Frame 20 is the capture of the step-20 checkpoint (teacher-forced with the reference), quantised.
        Translator tr;
        tr.open(full.string(), "last");
        QCOMPARE(tr.step(), int64_t(20));
        const auto tok = load_tokenizer(m_data);
        const auto live = tr.attention(tok->decode(first.source), tok->decode(first.target));
        QCOMPARE(live.cross.tokens, t.tokens);
        QCOMPARE(live.cross.key_tokens, t.key_tokens);
        const auto last = t.at(2);
        for (size_t k = 0; k < last.weights.size(); ++k)
            QVERIFY(std::abs(last.weights[k] - live.cross.weights[k]) <= 0.5f / 255 + 1e-5f);
        // Stopped at step 13 and resumed: the timeline is the uninterrupted run's, byte for byte.
        run(cfg, split, false, 13);
        QCOMPARE(read_cross_probe(split).steps, (std::vector<int64_t>{0, 10}));
        run(cfg, split, true);
        const auto r = read_cross_probe(split);
        QCOMPARE(r.steps, t.steps);
        QVERIFY(r.data == t.data);
    }
};

QTEST_APPLESS_MAIN(TestSeq2SeqAttention)
#include "tst_seq2seq_attention.moc"
