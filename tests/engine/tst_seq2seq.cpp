// The encoder-decoder family: parallel datasets (records round-trip, counts, refusals), the model (padding
// mask, causality, and its logits against an independent forward pass written here with plain tensor
// ops), the padded loss, and decoding (KV cache or not, beam width 1 and greedy agree, beam 3 at least as
// probable as greedy, a wide beam equal to brute force). Its training steps are tst_seq2seq_steps.
#include "core/data/document_index.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/decoding/seq2seq_source.h"
#include "nn/interchange/checkpoint.h"
#include "nn/models/seq2seq_model.h"
#include "nn/training/batcher.h"
#include "nn/training/evaluator.h"
#include "nn/training/pair_batcher.h"
#include "seq2seq_reference.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/schedule.h"
#include "twb/training.h"
#include "twb/translation.h"

#include <cmath>
#include <limits>
#include <random>

using namespace twb;
using namespace twb::nn;
namespace fs = std::filesystem;

namespace {
using twbtest::reference_forward;
RunConfig tiny_config(Position pos = Position::Sinusoidal) {
    return twbtest::tiny_seq2seq_config(1, pos);
}

torch::Tensor ids_tensor(const std::vector<std::vector<int64_t>>& rows) {
    const int64_t B = static_cast<int64_t>(rows.size()), L = static_cast<int64_t>(rows[0].size());
    auto t = torch::empty({B, L}, torch::kInt64);
    for (int64_t b = 0; b < B; ++b)
        for (int64_t i = 0; i < L; ++i)
            t[b][i] = rows[static_cast<size_t>(b)][static_cast<size_t>(i)];
    return t;
}

/// The model of c with every weight redrawn large (N(0, 0.5^2), norm gains near 1), in eval mode: sharp
/// next-token distributions, so decoding strategies give clearly different outputs and there are no near ties.
Seq2Seq sharp_model(const RunConfig& c, uint64_t seed) {
    torch::manual_seed(seed);
    Seq2Seq m(c);
    torch::NoGradGuard ng;
    for (auto& [name, p] : m->named_weights()) {
        if (name.find("ln_") != std::string::npos && name.find("weight") != std::string::npos)
            p.normal_(1.0, 0.2);
        else
            p.normal_(0.0, 0.5);
    }
    m->eval();
    return m;
}
}  // namespace

class TestSeq2Seq : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { torch::manual_seed(3); }

    void parallelRecordsRoundTrip() {
        QTemporaryDir d;
        std::string src, tgt;
        const std::vector<std::string> words = {"alpha", "beta", "gamma", "delta", "eps"};
        for (int i = 0; i < 40; ++i) {
            src += words[static_cast<size_t>(i) % 5] + " " + words[static_cast<size_t>(i * 3) % 5] + "\n";
            tgt += words[static_cast<size_t>(i * 2) % 5] + "\n";
        }
        twbtest::write(twbtest::path(d, "s.txt"), src);
        twbtest::write(twbtest::path(d, "t.txt"), tgt);
        twbtest::write(twbtest::path(d, "vs.txt"), "beta gamma\nalpha\n");
        twbtest::write(twbtest::path(d, "vt.txt"), "delta\neps beta\n");
        ParallelPrepareOptions o;
        o.source = twbtest::path(d, "s.txt").string();
        o.target = twbtest::path(d, "t.txt").string();
        o.val_source = twbtest::path(d, "vs.txt").string();
        o.val_target = twbtest::path(d, "vt.txt").string();
        o.test_fraction = 0.25;  // 10 of the 40 held out for test
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(d, "out");
        const auto r = prepare_parallel(o);
        QCOMPARE(r.train_pairs, uint64_t(30));
        QCOMPARE(r.val_pairs, uint64_t(2));
        QCOMPARE(r.test_pairs, uint64_t(10));
        const auto ds = open_prepared(o.out);
        QVERIFY(ds.parallel);
        QCOMPARE(ds.val_pairs, uint64_t(2));
        const auto tok = load_tokenizer(o.out);
        const auto val = read_pairs(ds, "val");
        QCOMPARE(tok->decode(val[0].source), std::string("beta gamma"));
        QCOMPARE(tok->decode(val[1].target), std::string("eps beta"));
        // Every pair of train + test is one of the input pairs, each exactly once.
        std::multiset<std::pair<std::string, std::string>> in, out;
        for (int i = 0; i < 40; ++i)
            in.insert({words[static_cast<size_t>(i) % 5] + " " + words[static_cast<size_t>(i * 3) % 5],
                       words[static_cast<size_t>(i * 2) % 5]});
        for (const char* split : {"train", "test"})
            for (const auto& p : read_pairs(ds, split))
                out.insert({tok->decode(p.source), tok->decode(p.target)});
        QVERIFY(in == out);
        // On disk: source ids, <eos>, target ids, <eos> per pair; the index ranges exclude the <eos>.
        const TokenFile f(o.out / "val.bin", ds.dtype);
        const auto idx = DocumentIndex::read(o.out / "val.pairs", f.size(), 4);
        QCOMPARE(f.at(idx.docs[0].second), tok->eos_id());
        QCOMPARE(f.at(idx.docs[1].second), tok->eos_id());
        QCOMPARE(f.size(), uint64_t(2 + 1 + 1 + 1 + 1 + 1 + 2 + 1));
    }
    void tsvColumnsAndLengthFilter() {
        QTemporaryDir d;
        twbtest::write(twbtest::path(d, "p.tsv"),
                       "Who?\tHvem?\tCC-BY #1\nFire!\tBrann!\tCC-BY #2\n"
                       "one two three four five\ten\tCC #3\n");
        ParallelPrepareOptions o;
        o.pairs = twbtest::path(d, "p.tsv").string();
        o.val_fraction = 0;
        o.max_tokens = 3;
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(d, "out");
        const auto r = prepare_parallel(o);
        QCOMPARE(r.train_pairs, uint64_t(2));
        QCOMPARE(r.dropped_long, uint64_t(1));
        const auto tok = load_tokenizer(o.out);
        const auto train = read_pairs(open_prepared(o.out), "train");
        QCOMPARE(tok->decode(train[1].target), std::string("Brann!"));
    }
    void badParallelInputRefused() {
        QTemporaryDir d;
        twbtest::write(twbtest::path(d, "s.txt"), "a\nb\nc\n");
        twbtest::write(twbtest::path(d, "t.txt"), "x\ny\n");
        twbtest::write(twbtest::path(d, "e.txt"), "");
        twbtest::write(twbtest::path(d, "hole.txt"), "x\n\nz\n");
        twbtest::write(twbtest::path(d, "nul.bin"), std::string("a\0\0\0\0\x01\x02\nb\0\0\0\x03\nc\0\0\0\n", 20));
        twbtest::write(twbtest::path(d, "latin1.txt"), "a\nb\xe9\nc\n");
        ParallelPrepareOptions o;
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(d, "out");
        o.source = twbtest::path(d, "s.txt").string();
        auto refused = [&](const std::string& target, const std::string& expect) {
            o.target = twbtest::path(d, target.c_str()).string();
            try {
                prepare_parallel(o);
            } catch (const InputError& e) {
                const std::string m = e.what();
                if (m.find(expect) == std::string::npos)
                    qWarning("message: %s", m.c_str());
                return m.find(expect) != std::string::npos && m.find('\n') == std::string::npos;
            }
            return false;
        };
        QVERIFY(refused("t.txt", "t.txt has 2"));                     // unaligned: names both files and counts
        QVERIFY(refused("e.txt", "e.txt: the file is empty"));        // empty
        QVERIFY(refused("hole.txt", "hole.txt:2: the target side"));  // an empty side, file and line
        // binary or not UTF-8: refused as the corpus reader refuses them (they trained a tokenizer)
        QVERIFY(refused("nul.bin", "nul.bin: looks like a binary file"));
        QVERIFY(refused("latin1.txt", "latin1.txt: not UTF-8 text"));
        QVERIFY(!fs::exists(o.out));
        size_t left = 0;
        for (auto& e : fs::directory_iterator(twbtest::path(d)))
            left += e.path().filename().string().rfind(".out.tmp", 0) == 0;
        QCOMPARE(left, size_t(0));  // nothing half-written
    }

    // ---------------------------------------------------------------- model
    void hugeLengthRatiosStopAtTheContext() {
        // --max-ratio 1e18 (or inf) overflowed the length limit's cast: one-token translations.
        const RunConfig c = tiny_config();
        for (double ratio : {1e17, 1e18, 1e300, std::numeric_limits<double>::infinity()})
            QCOMPARE(max_target_length(c, 12, ratio, 10), int64_t(c.block_size - 1));
        QCOMPARE(max_target_length(c, 4, 1.5, 2), int64_t(8));
    }
    void logitsEqualAnIndependentForwardPass() {
        Seq2Seq m(tiny_config());
        m->eval();
        torch::NoGradGuard ng;
        const std::vector<int64_t> srcA = {3, 4, 5, 6, 2}, srcB = {7, 8, 2};
        const std::vector<int64_t> tgt = {1, 9, 10, 11};
        auto src = ids_tensor({srcA, {7, 8, 2, 0, 0}});
        auto pad = torch::zeros({2, 5}, torch::kBool);
        pad[1][3] = true;
        pad[1][4] = true;
        const auto logits = m->forward(src, pad, ids_tensor({tgt, tgt})).to(torch::kFloat64);
        const auto refA = reference_forward(m, srcA, 5, tgt), refB = reference_forward(m, srcB, 5, tgt);
        QVERIFY((logits[0] - refA).abs().max().item<double>() < 1e-5);
        QVERIFY((logits[1] - refB).abs().max().item<double>() < 1e-5);
        QVERIFY((refA - refB).abs().max().item<double>() > 1e-3);  // the comparison can fail
    }
    void paddingDoesNotLeak() {
        for (Position pos : {Position::Sinusoidal, Position::Learned, Position::Rotary}) {
            Seq2Seq m(tiny_config(pos));
            m->eval();
            torch::NoGradGuard ng;
            auto src = ids_tensor({{3, 4, 2, 0, 0}}), src2 = ids_tensor({{3, 4, 2, 9, 11}});
            auto pad = torch::tensor({false, false, false, true, true}).view({1, 5});
            auto tgt = ids_tensor({{1, 5, 6, 0}}), tgt2 = ids_tensor({{1, 5, 6, 12}});
            auto tpad = torch::tensor({false, false, false, true}).view({1, 4});
            const auto a = m->forward(src, pad, tgt, tpad), b = m->forward(src2, pad, tgt2, tpad);
            // Non-pad target positions see neither the padded source tokens nor the padded target token.
            QVERIFY(torch::allclose(a.narrow(1, 0, 3), b.narrow(1, 0, 3), 1e-5, 1e-6));
            // ...but unmasked, the same change does change them (the test can fail).
            const auto c = m->forward(src2, torch::zeros({1, 5}, torch::kBool), tgt2);
            QVERIFY(!torch::allclose(a.narrow(1, 0, 3), c.narrow(1, 0, 3), 1e-5, 1e-6));
        }
    }
    void decoderIsCausal() {
        Seq2Seq m(tiny_config(Position::Rotary));
        m->eval();
        torch::NoGradGuard ng;
        auto src = ids_tensor({{3, 4, 5, 2}});
        auto pad = torch::zeros({1, 4}, torch::kBool);
        const auto a = m->forward(src, pad, ids_tensor({{1, 5, 6, 7, 8}}));
        const auto b = m->forward(src, pad, ids_tensor({{1, 5, 6, 9, 10}}));
        QVERIFY(torch::allclose(a.narrow(1, 0, 3), b.narrow(1, 0, 3), 1e-5, 1e-6));
        QVERIFY(!torch::allclose(a.narrow(1, 3, 1), b.narrow(1, 3, 1), 1e-5, 1e-6));
    }
    void weightNamesAreClear() {
        Seq2Seq m(tiny_config());
        std::set<std::string> names;
        for (auto& [n, p] : m->named_weights())
            names.insert(n);
        for (const char* n : {"wte.weight", "encoder.h.1.attn.c_attn.weight", "encoder.ln_f.weight",
                              "decoder.h.0.self_attn.c_attn.weight", "decoder.h.0.cross_attn.c_kv.weight",
                              "decoder.h.0.ln_3.weight", "decoder.ln_f.bias"})
            QVERIFY2(names.count(n), n);
        QVERIFY(!names.count("lm_head.weight"));  // tied to wte
        RunConfig c = tiny_config();
        c.vocab_size = 13;
        QCOMPARE(c.parameter_count(), m->num_parameters());
    }

    // ---------------------------------------------------------------- loss and batches
    void separateSourceEmbedding() {
        RunConfig c = tiny_config();
        c.source_vocab_size = 20;  // the source side's vocabulary, larger than the target's 13
        Seq2Seq m(c);
        m->eval();
        torch::NoGradGuard ng;
        QCOMPARE(m->src_wte->weight.size(0), int64_t(20));
        QCOMPARE(c.parameter_count(), m->num_parameters());
        auto src = ids_tensor({{3, 17, 19, 2}});  // ids past the target vocabulary are fine on the source side
        auto pad = torch::zeros({1, 4}, torch::kBool);
        const auto a = m->encode(src, pad);
        // (random changes: a constant added to every entry would vanish in the first LayerNorm)
        m->wte->weight.add_(torch::randn_like(m->wte->weight));  // the target's embedding does not feed the encoder...
        QVERIFY(torch::allclose(a, m->encode(src, pad), 1e-6, 1e-7));
        m->src_wte->weight.add_(torch::randn_like(m->src_wte->weight));  // ...the source's does
        QVERIFY(!torch::allclose(a, m->encode(src, pad), 1e-3, 1e-4));
        QCOMPARE(m->forward(src, pad, ids_tensor({{1, 5, 12}})).size(2), int64_t(13));
    }
    void paddedLossIsTheMeanOverRealTokens() {
        std::vector<TokenPair> pairs = {{{3, 4, 5}, {6}}, {{7}, {8, 9, 10, 11}}};
        PairBatcher pb(pairs, {1, 2, 0}, 12, 1000, 7);
        QCOMPARE(pb.batches(), size_t(1));
        const auto b = pb.batch(0, torch::kCPU);
        QCOMPARE(b.target_tokens, int64_t(2 + 5));
        QCOMPARE(b.tgt_out.size(1), int64_t(5));
        Seq2Seq m(tiny_config());
        torch::NoGradGuard ng;
        const auto logits = m->forward(b.src, b.src_pad, b.tgt_in, b.tgt_pad);
        const auto loss = masked_cross_entropy(logits.view({-1, 13}), b.tgt_out.reshape({-1})).item<double>();
        // By hand: -log softmax at each real target, averaged over the 7 real targets.
        const auto lp = torch::log_softmax(logits.to(torch::kFloat64), -1);
        const std::vector<std::vector<int64_t>> targets = {{6, 2}, {8, 9, 10, 11, 2}};
        double sum = 0;
        for (size_t r = 0; r < 2; ++r) {
            const int64_t row =
                b.src[0][0].item<int64_t>() == 7 ? 1 - static_cast<int64_t>(r) : static_cast<int64_t>(r);
            for (size_t k = 0; k < targets[r].size(); ++k)
                sum -= lp[row][static_cast<int64_t>(k)][targets[r][k]].item<double>();
        }
        QVERIFY(std::abs(loss - sum / 7) < 1e-5);
    }
    void tokenBudgetBatches() {
        std::vector<TokenPair> pairs;
        for (int i = 0; i < 50; ++i)
            pairs.push_back({std::vector<int32_t>(static_cast<size_t>(1 + i % 9), 3),
                             std::vector<int32_t>(static_cast<size_t>(1 + (i * 7) % 9), 4)});
        pairs.push_back({std::vector<int32_t>(20, 3), {4}});  // longer than block_size: skipped, counted
        PairBatcher pb(pairs, {1, 2, 0}, 12, 60, 7);
        QCOMPARE(pb.skipped(), uint64_t(1));
        size_t seen = 0;
        for (size_t i = 0; i < pb.batches(); ++i) {
            const auto b = pb.batch(i, torch::kCPU);
            QVERIFY(b.tokens <= 60);
            seen += static_cast<size_t>(b.pairs);
        }
        QCOMPARE(seen, size_t(50));
        // The state resumes the same batch sequence.
        PairBatcher a(pairs, {1, 2, 0}, 12, 60, 7), c(pairs, {1, 2, 0}, 12, 60, 7);
        for (size_t i = 0; i < pb.batches() + 3; ++i)
            a.next(torch::kCPU);
        c.set_state(a.state());
        QVERIFY(torch::equal(a.next(torch::kCPU).src, c.next(torch::kCPU).src));
    }

    // ---------------------------------------------------------------- decoding
    void greedyWithAndWithoutCacheAgree() {
        Seq2Seq m(tiny_config());
        m->eval();
        const std::vector<std::vector<int32_t>> sources = {{3, 4, 5}, {6}, {7, 8, 9, 10, 11}};
        const auto a = greedy_translate(m, sources, 1, 2, 0, 1.5, 3, torch::kCPU, 2, true);
        const auto b = greedy_translate(m, sources, 1, 2, 0, 1.5, 3, torch::kCPU, 2, false);
        QVERIFY(a == b);
        QVERIFY(!a[2].empty());
        // One source at a time gives the same as batched (padding does not leak).
        for (size_t i = 0; i < sources.size(); ++i)
            QVERIFY(greedy_translate(m, {sources[i]}, 1, 2, 0, 1.5, 3, torch::kCPU, 1, true)[0] == a[i]);
    }
    void beamWidthOneEqualsGreedy() {
        Seq2Seq m(tiny_config());
        m->eval();
        const std::vector<int32_t> source = {7, 8, 9, 10};
        const auto greedy = greedy_translate(m, {source}, 1, 2, 0, 1.5, 3, torch::kCPU, 1, true)[0];
        for (int W : {1, 3})
            for (bool cache : {true, false}) {
                Seq2SeqSource src(m, source, 2, torch::kCPU, cache);
                SamplingOptions so;
                so.beam_width = W;
                so.temperature = 0;
                so.max_new_tokens = static_cast<int>(max_target_length(m->config(), source.size(), 1.5, 3));
                const auto r = generate_ids(src, {1}, so, 2, [](const std::vector<int32_t>&) { return std::string(); });
                if (W == 1)
                    QVERIFY(r.tokens[0] == greedy);
                else  // beam 3 runs with and without the cache (beamIsAtLeastAsProbableAsGreedy compares scores)
                    QVERIFY(!r.tokens[0].empty() || greedy.empty());
            }
    }
    void beamIsAtLeastAsProbableAsGreedy() {
        // Length penalty 0, so the beam ranks by total log-probability, the quantity compared. Both outputs
        // are scored here by the model itself, in one decoder pass over <bos>, the tokens and <eos> when the
        // output ended with it (shorter than the length limit); the beam's own score must be that figure.
        auto m = sharp_model(tiny_config(), 8);
        const int64_t bos = 1, eos = 2;
        const std::vector<std::vector<int32_t>> sources = {{3, 4, 5},    {6},    {7, 8, 9, 10, 11}, {12, 3},
                                                           {5, 5, 6, 7}, {9, 4}, {11, 10, 3},       {8}};
        int beamBetter = 0;
        for (const auto& source : sources) {
            const int64_t limit = max_target_length(m->config(), source.size(), 1.5, 3);
            const auto greedy = greedy_translate(m, {source}, bos, eos, 0, 1.5, 3, torch::kCPU, 1, true)[0];
            Seq2SeqSource src(m, source, eos, torch::kCPU, true);
            SamplingOptions so;
            so.beam_width = 3;
            so.temperature = 0;
            so.length_penalty = 0;
            so.max_new_tokens = static_cast<int>(limit);
            const auto r = generate_ids(src, {static_cast<int32_t>(bos)}, so, eos,
                                        [](const std::vector<int32_t>&) { return std::string(); });
            auto score = [&](const std::vector<int32_t>& tokens) {
                std::vector<int32_t> seq{static_cast<int32_t>(bos)};
                seq.insert(seq.end(), tokens.begin(), tokens.end());
                if (static_cast<int64_t>(tokens.size()) < limit)  // stopped by <eos>, not by the limit
                    seq.push_back(static_cast<int32_t>(eos));
                const auto lp = torch::log_softmax(src.prefix_logits(seq).to(torch::kFloat64), -1);
                double sum = 0;
                for (size_t i = 0; i + 1 < seq.size(); ++i)
                    sum += lp[static_cast<int64_t>(i)][seq[i + 1]].item<double>();
                return sum;
            };
            const double g = score(greedy), b = score(r.tokens[0]);
            QVERIFY2(b >= g - 1e-6, qPrintable(QString("beam %1 < greedy %2").arg(b).arg(g)));
            QVERIFY2(
                std::abs(b - r.logprob[0]) < 1e-4,
                qPrintable(QString("the beam's score %1, its output's log-probability %2").arg(r.logprob[0]).arg(b)));
            beamBetter += b > g + 1e-6;
        }
        QVERIFY(beamBetter > 0);  // somewhere the beam finds a more probable output than greedy (the test can fail)
    }
    void wideBeamEqualsBruteForce() {
        // Vocabulary 4, 4 target tokens without stopping at <eos>: 256 sequences, all scored in one batched
        // forward pass. A beam of 64 = 4^3 (the widest allowed) keeps every prefix of length 3, so it must
        // find the best exactly; greedy must not (so the case tells them apart).
        RunConfig c = tiny_config();
        c.vocab_size = 4;
        auto m = sharp_model(c, 34);
        const std::vector<int32_t> source = {3, 1, 3};
        const int64_t V = 4, L = 4, N = 256, bos = 1, eos = 2;
        auto tgt = torch::empty({N, 1 + L}, torch::kInt64);
        for (int64_t i = 0; i < N; ++i) {
            tgt[i][0] = bos;
            for (int64_t k = 0, r = i; k < L; ++k, r /= V)
                tgt[i][1 + k] = r % V;
        }
        torch::Tensor total;
        {
            torch::NoGradGuard ng;
            const auto src = ids_tensor({{3, 1, 3, eos}}).expand({N, 4});
            const auto logits = m->forward(src, torch::zeros({N, 4}, torch::kBool), tgt.narrow(1, 0, L));
            const auto lp = torch::log_softmax(logits.to(torch::kFloat64), -1);
            total = lp.gather(2, tgt.narrow(1, 1, L).unsqueeze(2)).squeeze(2).sum(1);
        }
        const int64_t best = total.argmax().item<int64_t>();
        std::vector<int32_t> bestSeq;
        for (int64_t k = 0; k < L; ++k)
            bestSeq.push_back(static_cast<int32_t>(tgt[best][1 + k].item<int64_t>()));
        QVERIFY(std::get<0>(total.topk(2))[1].item<double>() < total[best].item<double>() - 1e-3);  // no near tie
        Seq2SeqSource src(m, source, eos, torch::kCPU, true);
        SamplingOptions so;
        so.temperature = 0;
        so.max_new_tokens = static_cast<int>(L);
        so.stop_at_eos = false;
        so.length_penalty = 0;
        auto none = [](const std::vector<int32_t>&) { return std::string(); };
        const auto greedy = generate_ids(src, {static_cast<int32_t>(bos)}, so, eos, none);
        QVERIFY2(greedy.tokens[0] != bestSeq, "greedy finds the optimum here: the case cannot tell beam search apart");
        so.beam_width = 64;
        const auto beam = generate_ids(src, {static_cast<int32_t>(bos)}, so, eos, none);
        QCOMPARE(beam.tokens[0], bestSeq);
        QVERIFY(std::abs(beam.logprob[0] - total[best].item<double>()) < 1e-4);
    }

    // ---------------------------------------------------------------- training
};

QTEST_APPLESS_MAIN(TestSeq2Seq)
#include "tst_seq2seq.moc"
