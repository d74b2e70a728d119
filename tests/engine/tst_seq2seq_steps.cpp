// The encoder-decoder's training against its definitions, on a tiny parallel dataset made here: the Noam
// rate at named steps, two steps with label smoothing and gradient accumulation against a reference
// computed here, validation without dropout, and the validation loss, accuracy and BLEU of a model whose
// outputs are known. (The family's data, model and decoding are tst_seq2seq.)
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
#include "train_outcome.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/schedule.h"
#include "twb/training.h"
#include "twb/translation.h"

#include <cmath>
#include <random>

using namespace twb;
using namespace twb::nn;
namespace fs = std::filesystem;

namespace {
RunConfig tiny_config(Position pos = Position::Sinusoidal) {
    return twbtest::tiny_seq2seq_config(1, pos);
}

/// Vaswani et al.'s schedule written out here: steps counted from 1, learning_rate the scale factor.
double noam_by_hand(double factor, int d_model, int warmup, int64_t step) {
    const double s = static_cast<double>(step);
    return factor * std::pow(static_cast<double>(d_model), -0.5) *
           std::min(std::pow(s, -0.5), s * std::pow(static_cast<double>(warmup), -1.5));
}

std::string words(const std::string& w, int n) {
    std::string s;
    for (int i = 0; i < n; ++i)
        s += (i ? " " : "") + w;
    return s;
}
}  // namespace

class TestSeq2SeqSteps : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_pairs;  // 40 training and 8 validation pairs, every side 3 words (see initTestCase)

    /// A tiny encoder-decoder on m_pairs, float32, one thread, no dropout, no BLEU.
    RunConfig train_config() const {
        RunConfig c = tiny_config();
        c.vocab_size = 0;  // from the dataset
        c.data_dir = m_pairs.string();
        c.dtype = DType::Float32;  // pinned: auto would be bf16 on a CPU with AVX512-BF16
        c.batch_tokens = 32;       // 4 pairs of (3 + <eos>) + (<bos> + 3) tokens: every batch alike
        c.max_epochs = 0;
        c.eval_iters = 100;  // every validation batch
        c.bleu_pairs = 0;
        c.log_interval = 1;
        c.threads = 1;
        c.seed = 42;
        return c;
    }

    struct ReferenceSteps {
        std::vector<double> losses, norms, lrs, nll, smooth;  // per step; nll, smooth: token means
        std::map<std::string, torch::Tensor> weights;         // float64, after the last step
        // Per weight, its elements whose gradient was rounding noise at every step (below 1e-6 of the
        // global norm): the keys' bias, whose exact gradient is zero (softmax ignores a constant added to
        // every score of a query). AdamW divides such a gradient by its own size, so float32's summation
        // order decides where those elements go, by up to the learning rate a step.
        std::map<std::string, torch::Tensor> noise;
        double lr_sum = 0;
    };
    /// The trainer's first steps recomputed from the definitions: the same initial weights (seeded, then
    /// built) and batches (a PairBatcher with the same seed), the k micro-batches of a step concatenated
    /// into ONE batch of k times the size (every pair here has the same lengths, so no padding is added),
    /// the loss with label smoothing written out as its formula, the global norm and clipping, the Noam
    /// rate written out, and AdamW in float64 (decoupled decay for matrices, embeddings as configured).
    ReferenceSteps reference_steps(RunConfig c, int steps) const {
        const auto ds = open_prepared(m_pairs);
        c.vocab_size = ds.vocab_size;
        torch::manual_seed(c.seed);
        Seq2Seq model(c);
        model->train();
        const auto tok = load_tokenizer(m_pairs);
        PairBatcher batcher(read_pairs(ds, "train"), {tok->bos_id(), tok->eos_id(), tok->pad_id()}, c.block_size,
                            c.batch_tokens, c.seed);
        ReferenceSteps out;
        std::map<std::string, torch::Tensor> m1, v1;
        for (int step = 0; step < steps; ++step) {
            for (auto& [name, p] : model->named_weights())
                if (p.grad().defined())
                    p.grad().zero_();
            std::vector<torch::Tensor> src, srcPad, tgtIn, tgtPad, tgtOut;
            for (int i = 0; i < c.gradient_accumulation_steps; ++i) {
                const auto b = batcher.next(torch::kCPU);
                src.push_back(b.src);
                srcPad.push_back(b.src_pad);
                tgtIn.push_back(b.tgt_in);
                tgtPad.push_back(b.tgt_pad);
                tgtOut.push_back(b.tgt_out);
                if (b.src.sizes() != src[0].sizes() || b.tgt_in.sizes() != tgtIn[0].sizes())
                    throw std::runtime_error("reference: the micro-batches differ in shape");
            }
            const auto logits =
                model->forward(torch::cat(src), torch::cat(srcPad), torch::cat(tgtIn), torch::cat(tgtPad));
            const auto lp = torch::log_softmax(logits.to(torch::kFloat64), -1).reshape({-1, c.vocab_size});
            const auto y = torch::cat(tgtOut).reshape({-1});
            const auto real = y.ne(nn::kIgnoreIndex);
            const auto nll = (-lp.gather(1, y.clamp_min(0).unsqueeze(1)).squeeze(1)).masked_select(real);
            const auto smooth = (-lp.mean(1)).masked_select(real);  // cross-entropy against the uniform
            const double eps = c.label_smoothing;
            const auto loss = ((1 - eps) * nll + eps * smooth).mean();
            loss.backward();
            out.losses.push_back(loss.item<double>());
            out.nll.push_back(nll.mean().item<double>());
            out.smooth.push_back(smooth.mean().item<double>());
            double sq = 0;
            for (auto& [name, p] : model->named_weights())
                sq += p.grad().to(torch::kFloat64).pow(2).sum().item<double>();
            const double norm = std::sqrt(sq);
            out.norms.push_back(norm);
            const double scale = c.grad_clip > 0 && norm > c.grad_clip ? c.grad_clip / (norm + 1e-6) : 1.0;
            const double lr = noam_by_hand(c.learning_rate, c.n_embd, c.warmup_iters, step + 1);
            out.lrs.push_back(lr);
            const double t = step + 1, bc1 = 1 - std::pow(c.beta1, t), bc2 = 1 - std::pow(c.beta2, t);
            torch::NoGradGuard ng;
            out.lr_sum += lr;
            for (auto& [name, p] : model->named_weights()) {
                const auto g = p.grad().to(torch::kFloat64) * scale;
                const auto tiny = g.abs().lt(1e-6 * norm);
                out.noise[name] = out.noise.count(name) ? out.noise[name].logical_and(tiny) : tiny;
                if (!out.weights.count(name)) {
                    out.weights[name] = p.detach().to(torch::kFloat64);
                    m1[name] = torch::zeros_like(g);
                    v1[name] = torch::zeros_like(g);
                }
                const bool emb = name.find("wte") != std::string::npos || name.find("wpe") != std::string::npos;
                const bool decay = p.dim() >= 2 && (c.decay_embeddings || !emb);
                m1[name] = c.beta1 * m1[name] + (1 - c.beta1) * g;
                v1[name] = c.beta2 * v1[name] + (1 - c.beta2) * g * g;
                auto& w = out.weights[name];
                w = w * (1 - (decay ? lr * c.weight_decay : 0.0)) -
                    lr / bc1 * m1[name] / (v1[name].sqrt() / std::sqrt(bc2) + 1e-8);
                p.copy_(w);
            }
        }
        return out;
    }
private slots:
    void initTestCase() {
        torch::manual_seed(3);
        // Pairs whose sides are all 3 words of a..h (the target: the source's words shifted by one letter),
        // so every token-budget batch holds the same number of pairs and tokens.
        std::mt19937 rng(17);
        auto line = [&](std::string& src, std::string& tgt) {
            for (int k = 0; k < 3; ++k) {
                const int w = static_cast<int>(rng() % 8);
                src += std::string(k ? " " : "") + static_cast<char>('a' + w);
                tgt += std::string(k ? " " : "") + static_cast<char>('a' + (w + 1) % 8);
            }
            src += "\n";
            tgt += "\n";
        };
        std::string s, t, vs, vt;
        for (int i = 0; i < 40; ++i)
            line(s, t);
        for (int i = 0; i < 8; ++i)
            line(vs, vt);
        for (auto [name, text] : {std::pair{"s.txt", s}, {"t.txt", t}, {"vs.txt", vs}, {"vt.txt", vt}})
            twbtest::write(twbtest::path(m_dir, name), text);
        ParallelPrepareOptions o;
        o.source = twbtest::path(m_dir, "s.txt").string();
        o.target = twbtest::path(m_dir, "t.txt").string();
        o.val_source = twbtest::path(m_dir, "vs.txt").string();
        o.val_target = twbtest::path(m_dir, "vt.txt").string();
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = m_pairs = twbtest::path(m_dir, "pairs");
        const auto r = prepare_parallel(o);
        QCOMPARE(r.train_pairs, uint64_t(40));
        QCOMPARE(r.val_pairs, uint64_t(8));
    }

    // ---------------------------------------------------------------- data

    void noamScheduleAtNamedSteps() {
        // learning_rate_at(c, i) is the rate of the step the loop numbers i (from 0), which Vaswani et al.
        // number i + 1: lr = factor * d^-0.5 * min(s^-0.5, s * warmup^-1.5), factor = learning_rate. With
        // d = 64, warmup 50, factor 0.15 (tst_seq2seq_training's settings), by hand: 64^-0.5 = 1/8.
        RunConfig c = tiny_config();
        c.schedule = Schedule::Noam;
        c.n_embd = 64;
        c.warmup_iters = 50;
        c.learning_rate = 0.15;
        const double f = 0.15 / 8;
        const struct {
            int64_t loopStep;
            double lr;
        } named[] = {
            {0, f / (50 * std::sqrt(50.0))},        // s = 1: 1 * 50^-1.5
            {1, f * 2 / (50 * std::sqrt(50.0))},    // s = 2: still rising linearly
            {48, f * 49 / (50 * std::sqrt(50.0))},  // s = 49
            {49, f / std::sqrt(50.0)},              // s = warmup: the peak, 2.65e-3
            {50, f / std::sqrt(51.0)},              // s = 51: falling as s^-0.5
            {99, f / 10},                           // s = 2 * warmup = 100: 100^-0.5 = 0.1
            {9999, f / 100},                        // s = 10000
        };
        for (const auto& n : named) {
            const double got = learning_rate_at(c, n.loopStep);
            QVERIFY2(std::abs(got - n.lr) <= 1e-15 + 1e-12 * n.lr, qPrintable(QString("loop step %1: %2, by hand %3")
                                                                                  .arg(n.loopStep)
                                                                                  .arg(got, 0, 'g', 17)
                                                                                  .arg(n.lr, 0, 'g', 17)));
        }
        // The peak is at the warmup step and the schedule is not linear warmup + cosine (the default).
        QVERIFY(learning_rate_at(c, 48) < learning_rate_at(c, 49));
        QVERIFY(learning_rate_at(c, 50) < learning_rate_at(c, 49));
    }
    void smoothedAccumulatedStepsMatchDefinition() {
        // Two steps of 3 micro-batches with label smoothing 0.1 under the Noam schedule: the reported loss,
        // norm and rate of each step and the weights after the second (where Adam's update depends on the
        // two gradients' relative sizes, not only their signs) equal the reference's, which takes the 3
        // micro-batches as one batch of 3 times the size.
        RunConfig c = train_config();
        c.gradient_accumulation_steps = 3;
        c.label_smoothing = 0.1;
        c.schedule = Schedule::Noam;
        c.learning_rate = 0.5;
        c.warmup_iters = 4;
        c.weight_decay = 0.1;
        c.decay_embeddings = false;
        c.beta2 = 0.98;
        c.grad_clip = 0;
        c.max_iters = 2;
        c.eval_interval = 2;
        const auto dir = twbtest::path(m_dir, "smoothed");
        const auto o = twbtest::run_training(c, dir);
        const auto ref = reference_steps(c, 2);
        QCOMPARE(o.steps.size(), size_t(2));
        for (size_t i = 0; i < 2; ++i) {
            const auto& s = o.steps[i];
            QCOMPARE(s.step, static_cast<int64_t>(i + 1));
            QVERIFY2(
                std::abs(s.loss - ref.losses[i]) < 1e-5,
                qPrintable(QString("step %1: loss %2, by definition %3").arg(i + 1).arg(s.loss).arg(ref.losses[i])));
            QVERIFY2(std::abs(s.grad_norm - ref.norms[i]) < 1e-4 * ref.norms[i],
                     qPrintable(
                         QString("step %1: norm %2, by definition %3").arg(i + 1).arg(s.grad_norm).arg(ref.norms[i])));
            QVERIFY2(std::abs(s.lr - ref.lrs[i]) < 1e-12 * ref.lrs[i],
                     qPrintable(QString("step %1: lr %2, by hand %3").arg(i + 1).arg(s.lr).arg(ref.lrs[i])));
        }
        const auto ck = nn::read_checkpoint(nn::find_checkpoint(dir, "last"));
        QCOMPARE(ck.state.step, int64_t(2));
        QCOMPARE(ck.weights.tensors.size(), ref.weights.size());
        double worst = 0, worstNoise = 0;
        int64_t noise = 0, all = 0;
        for (const auto& [name, w] : ref.weights) {
            QVERIFY2(ck.weights.tensors.count(name), name.c_str());
            const auto d = (ck.weights.tensors.at(name).to(torch::kFloat64) - w).abs();
            const auto& n = ref.noise.at(name);
            worst = std::max(worst, d.masked_fill(n, 0).max().item<double>());
            worstNoise = std::max(worstNoise, d.masked_fill(n.logical_not(), 0).max().item<double>());
            noise += n.sum().item<int64_t>();
            all += n.numel();
        }
        // Each step moves a weight by about lr (2e-2 and 4e-2 here); float32 rounding stays far below 1e-5.
        QVERIFY2(worst < 1e-5, qPrintable(QString("weights differ by %1").arg(worst)));
        // The elements whose gradient is zero or rounding noise (the keys' bias, the rows of tokens that no
        // batch held): no further apart than the steps' learning rates allow.
        QVERIFY2(noise < all, "every gradient is noise");
        QVERIFY2(worstNoise <= 2 * ref.lr_sum,
                 qPrintable(QString("noise-driven weights differ by %1 (lr sum %2)").arg(worstNoise).arg(ref.lr_sum)));
    }
    void labelSmoothingChangesTheLossByItsFormula() {
        // The same first step (same weights, same batch) with smoothing 0 and 0.1: the loss moves by
        // eps * (mean cross-entropy against the uniform - mean NLL), the formula's amount.
        RunConfig c = train_config();
        c.max_iters = 1;
        c.eval_interval = 1;
        c.label_smoothing = 0;
        const auto plain = twbtest::run_training(c, twbtest::path(m_dir, "ls0"));
        c.label_smoothing = 0.1;
        const auto smoothed = twbtest::run_training(c, twbtest::path(m_dir, "ls1"));
        const auto ref = reference_steps(c, 1);
        QVERIFY2(std::abs(plain.steps[0].loss - ref.nll[0]) < 1e-5,
                 qPrintable(QString("%1, by definition %2").arg(plain.steps[0].loss).arg(ref.nll[0])));
        QVERIFY2(std::abs(smoothed.steps[0].loss - ref.losses[0]) < 1e-5,
                 qPrintable(QString("%1, by definition %2").arg(smoothed.steps[0].loss).arg(ref.losses[0])));
        const double expectShift = 0.1 * (ref.smooth[0] - ref.nll[0]);
        QVERIFY(std::abs(expectShift) > 1e-3);  // large enough to see (the fresh model is nearly uniform)
        const double shift = smoothed.steps[0].loss - plain.steps[0].loss;
        QVERIFY2(
            std::abs(shift - expectShift) < 1e-5,
            qPrintable(QString("smoothing moved the loss by %1, the formula says %2").arg(shift).arg(expectShift)));
    }
    void evaluationRunsWithoutDropout() {
        // Dropout 0.5: the trainer's validation loss at step 2 equals the loss of the checkpointed weights
        // computed here in eval mode over every validation batch; the same in train mode differs (so the
        // comparison can fail), and two eval-mode passes agree exactly.
        RunConfig c = train_config();
        c.dropout = 0.5;
        c.max_iters = 2;
        c.eval_interval = 2;
        const auto dir = twbtest::path(m_dir, "dropout");
        const auto o = twbtest::run_training(c, dir);
        QCOMPARE(o.evals.back().step, int64_t(2));
        const auto ds = open_prepared(m_pairs);
        c.vocab_size = ds.vocab_size;
        Seq2Seq model(c);
        nn::load_weights(model->named_weights(), nn::read_checkpoint(nn::find_checkpoint(dir, "last")).weights,
                         "step 2");
        const auto tok = load_tokenizer(m_pairs);
        const PairBatcher val(read_pairs(ds, "val"), {tok->bos_id(), tok->eos_id(), tok->pad_id()}, c.block_size,
                              c.batch_tokens, c.seed);
        torch::NoGradGuard ng;
        auto loss = [&] {
            double sum = 0;
            int64_t n = 0;
            for (size_t i = 0; i < val.batches(); ++i) {
                const auto b = val.batch(i, torch::kCPU);
                const auto logits = model->forward(b.src, b.src_pad, b.tgt_in, b.tgt_pad);
                sum += masked_cross_entropy(logits.reshape({-1, c.vocab_size}), b.tgt_out.reshape({-1}), torch::kSum)
                           .item<double>();
                n += b.target_tokens;
            }
            return sum / static_cast<double>(n);
        };
        model->eval();
        const double evalLoss = loss();
        QCOMPARE(loss(), evalLoss);
        model->train();
        const double trainLoss = loss();
        QVERIFY2(std::abs(trainLoss - evalLoss) > 1e-3, qPrintable(QString("%1 vs %2").arg(trainLoss).arg(evalLoss)));
        QVERIFY2(std::abs(o.evals.back().val_loss - evalLoss) < 1e-5,
                 qPrintable(QString("the trainer's %1, eval mode's %2").arg(o.evals.back().val_loss).arg(evalLoss)));
    }
    void valBleuOfAKnownModel() {
        // A model whose every output is " a" (the word tokenizer's "a" after a space): all weights 0 but the
        // decoder's final norm bias (1 at channel 0) and wte[" a"][0] = 1, so the logits are 1 for " a" and 0
        // for the rest. Greedy decoding writes " a" up to the length limit ceil(1.5 * source tokens) + 10:
        // 12 times for the source "x", 13 for "y z". The references (validation targets):
        //   1: a a a a a b c c c c c c c c c c c c c c  (20 words)
        //   2: b a a c a c c c c c                        (10 words)
        // n-gram matches, clipped by the reference counts: 1-grams 5 + 3, 2-grams ("a a") 4 + 1, 3-grams
        // 3 + 0, 4-grams 2 + 0 = 8, 5, 3, 2 of 25, 23, 21, 19 hypothesis n-grams; hypothesis length 25,
        // reference length 30, so BP = exp(1 - 30/25). sacreBLEU: 100 * BP * exp(mean of log precisions).
        const double expectBleu =
            100 * std::exp(1.0 - 30.0 / 25.0) *
            std::exp((std::log(8.0 / 25) + std::log(5.0 / 23) + std::log(3.0 / 21) + std::log(2.0 / 19)) / 4);
        // Targets with <eos>: 21 + 11 = 32 tokens, 7 of them " a" (4 + 3: a sentence's first "a" has no
        // space): accuracy 7/32; the loss is log Z - 1 for each " a" and log Z otherwise, Z = e + V - 1.
        QTemporaryDir d;
        std::mt19937 rng(3);
        std::string s, t;
        for (int i = 0; i < 30; ++i) {
            const int ns = 1 + static_cast<int>(rng() % 2), nt = 1 + static_cast<int>(rng() % 4);
            for (int k = 0; k < ns; ++k)
                s += std::string(k ? " " : "") + "xyz"[rng() % 3];
            for (int k = 0; k < nt; ++k)
                t += std::string(k ? " " : "") + "abc"[rng() % 3];
            s += "\n";
            t += "\n";
        }
        twbtest::write(twbtest::path(d, "s.txt"), s);
        twbtest::write(twbtest::path(d, "t.txt"), t);
        twbtest::write(twbtest::path(d, "vs.txt"), "x\ny z\n");
        twbtest::write(twbtest::path(d, "vt.txt"),
                       "a a a a a b " + words("c", 14) + "\nb a a c a " + words("c", 5) + "\n");
        ParallelPrepareOptions po;
        po.source = twbtest::path(d, "s.txt").string();
        po.target = twbtest::path(d, "t.txt").string();
        po.val_source = twbtest::path(d, "vs.txt").string();
        po.val_target = twbtest::path(d, "vt.txt").string();
        po.tokenizer.kind = TokenizerKind::Word;
        po.out = twbtest::path(d, "data");
        prepare_parallel(po);
        const auto ds = open_prepared(po.out);
        const int V = ds.vocab_size;
        const auto tok = load_tokenizer(po.out);
        const auto a = tok->encode(" a");  // the word tokenizer joins a space to the word after it
        QCOMPARE(a.size(), size_t(1));

        RunConfig c = tiny_config();
        c.vocab_size = 0;
        c.data_dir = po.out.string();
        c.dtype = DType::Float32;
        c.block_size = 24;
        c.batch_tokens = 64;
        c.max_epochs = 0;
        c.max_iters = 100;
        c.eval_interval = 1000;
        c.eval_iters = 100;
        c.bleu_pairs = 10;
        c.log_interval = 1;
        c.threads = 1;
        // Train one step and stop (a checkpoint without a validation loss, so a resume evaluates first),
        // put the known weights in it, and resume to step 1: the resumed run evaluates them and stops.
        const auto runDir = twbtest::path(d, "run");
        QVERIFY(twbtest::run_training(c, runDir, false, 1).summary.stopped);
        const auto file = nn::find_checkpoint(runDir, "last") / "model.safetensors";
        auto w = nn::load_safetensors(file);
        for (auto& [name, tensor] : w.tensors)
            tensor.zero_();
        w.tensors.at("decoder.ln_f.bias")[0] = 1.0;
        w.tensors.at("wte.weight")[a[0]][0] = 1.0;
        nn::save_safetensors(file, {w.tensors.begin(), w.tensors.end()}, w.metadata);
        c.max_iters = 1;
        const auto o = twbtest::run_training(c, runDir, true);
        QCOMPARE(o.evals.size(), size_t(1));
        const auto& e = o.evals[0];
        QCOMPARE(e.step, int64_t(1));
        const double logZ = std::log(std::exp(1.0) + V - 1);
        QVERIFY2(std::abs(e.val_bleu - expectBleu) < 1e-9,
                 qPrintable(QString("%1 vs %2").arg(e.val_bleu).arg(expectBleu)));
        QVERIFY2(std::abs(e.val_accuracy - 7.0 / 32) < 1e-12, qPrintable(QString::number(e.val_accuracy)));
        QVERIFY2(std::abs(e.val_loss - (logZ - 7.0 / 32)) < 1e-6, qPrintable(QString::number(e.val_loss)));
        // The run's own evaluation through the public API gives the same figures and shows the outputs.
        Translator tr;
        tr.open(runDir.string(), "last");
        const auto ev = tr.evaluate("val");
        QCOMPARE(ev.hypotheses, (std::vector<std::string>{" " + words("a", 12), " " + words("a", 13)}));
        QCOMPARE(ev.bleu.correct, (std::vector<int64_t>{8, 5, 3, 2}));
        QCOMPARE(ev.bleu.total, (std::vector<int64_t>{25, 23, 21, 19}));
        QVERIFY2(std::abs(ev.bleu.score - expectBleu) < 1e-9, qPrintable(QString::number(ev.bleu.score)));
        QVERIFY(std::abs(ev.accuracy - 7.0 / 32) < 1e-12);
    }
};

QTEST_APPLESS_MAIN(TestSeq2SeqSteps)
#include "tst_seq2seq_steps.moc"
