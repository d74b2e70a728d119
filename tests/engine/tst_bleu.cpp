// BLEU and chrF against values worked out from their definitions on small cases (the bench script
// bench/bleu_vs_sacrebleu.sh compares with sacreBLEU itself on Multi30k).
#include "test_util.h"
#include "twb/bleu.h"
#include "twb/errors.h"

using namespace twb;

namespace {
bool near(double a, double b, double tol = 1e-9) {
    return std::abs(a - b) <= tol;
}
}  // namespace

class TestBleu : public QObject {
    Q_OBJECT
private slots:
    void tokenizes13a() {
        QCOMPARE(tokenize_13a("Hello, world."), std::string("Hello , world ."));
        QCOMPARE(tokenize_13a("It costs 3.5 or 1,000 (approx.)"), std::string("It costs 3.5 or 1,000 ( approx . )"));
        QCOMPARE(tokenize_13a("well-known 2-3 &quot;x&quot;"),
                 std::string("well-known 2 - 3 \" x \""));  // as sacreBLEU 2.6
        QCOMPARE(tokenize_13a("  spaced\tout  "), std::string("spaced out"));
    }
    void perfectMatchIs100() {
        const auto b = corpus_bleu({"a cat sat on the mat ."}, {"a cat sat on the mat ."});
        QVERIFY(near(b.score, 100));
        QVERIFY(near(b.brevity_penalty, 1));
        QCOMPARE(b.correct, (std::vector<int64_t>{7, 6, 5, 4}));
    }
    void noMatchIsSmoothedToNearlyZero() {
        // 4 hypothesis tokens, none in the reference: every order has 0 matches, so the exp smoothing
        // gives precisions 100/(2*4), 100/(4*3), 100/(8*2), 100/(16*1); equal lengths: BP = 1.
        const auto b = corpus_bleu({"w x y z"}, {"a b c d"});
        const double p[4] = {100.0 / 8, 100.0 / 12, 100.0 / 16, 100.0 / 16};
        for (int i = 0; i < 4; ++i)
            QVERIFY(near(b.precisions[static_cast<size_t>(i)], p[i]));
        const double expected = std::exp((std::log(p[0]) + std::log(p[1]) + std::log(p[2]) + std::log(p[3])) / 4);
        QVERIFY(near(b.score, expected));
        QVERIFY(b.score < 10);
    }
    void shortHypothesisPaysTheBrevityPenalty() {
        // Hypothesis "the cat sat" (3 tokens) against "the cat sat on the mat" (6): every n-gram of the
        // hypothesis matches (3/3, 2/2, 1/1), the 4-gram order has no n-gram at all (total 0), so its
        // precision stays 0 and BLEU is 0 — sacreBLEU's rule for orders the hypothesis cannot have.
        auto b = corpus_bleu({"the cat sat"}, {"the cat sat on the mat"});
        QCOMPARE(b.total, (std::vector<int64_t>{3, 2, 1, 0}));
        QVERIFY(near(b.brevity_penalty, std::exp(1.0 - 6.0 / 3.0)));
        QVERIFY(near(b.score, 0));
        // Five tokens, all matching: precisions 100; BP = exp(1 - 6/5).
        b = corpus_bleu({"the cat sat on the"}, {"the cat sat on the mat"});
        QVERIFY(near(b.score, 100 * std::exp(1.0 - 6.0 / 5.0)));
    }
    void corpusCountsAreSummedOverSentences() {
        // Sentence 1 matches fully (4 tokens), sentence 2 has 4 tokens with 2 unigram matches and one
        // bigram match ("big dog"): unigrams (4+2)/8, bigrams (3+1)/6, trigrams (2+0)/4, 4-grams (1+0)/2.
        const auto b = corpus_bleu({"a b c d", "big dog x y"}, {"a b c d", "the big dog runs"});
        QCOMPARE(b.correct, (std::vector<int64_t>{6, 4, 2, 1}));
        QCOMPARE(b.total, (std::vector<int64_t>{8, 6, 4, 2}));
        const double expected =
            std::exp((std::log(600.0 / 8) + std::log(400.0 / 6) + std::log(200.0 / 4) + std::log(100.0 / 2)) / 4);
        QVERIFY(near(b.score, expected));
        // Clipping: a word repeated more often than in the reference counts only as often as there.
        const auto c = corpus_bleu({"the the the the"}, {"the cat"});
        QCOMPARE(c.correct[0], int64_t(1));
    }
    void smallCorpusByHand() {
        // Every order matched in part, clipping and the brevity penalty at once. Hypotheses "a" x 12 and
        // "a" x 13 against "a a a a a b" + "c" x 14 (20 words) and "b a a c a c c c c c" (10 words). Clipped
        // matches: 1-grams 5 + 3, 2-grams 4 + 1, 3-grams 3 + 0, 4-grams 2 + 0 of 25, 23, 21, 19; lengths 25
        // and 30, so BP = exp(1 - 30/25): BLEU = 100 * BP * exp(mean of log(8/25, 5/23, 3/21, 2/19)) = 14.72.
        auto repeat = [](const std::string& w, int n) {
            std::string s;
            for (int i = 0; i < n; ++i)
                s += (i ? " " : "") + w;
            return s;
        };
        const auto b = corpus_bleu({repeat("a", 12), repeat("a", 13)},
                                   {"a a a a a b " + repeat("c", 14), "b a a c a " + repeat("c", 5)});
        QCOMPARE(b.correct, (std::vector<int64_t>{8, 5, 3, 2}));
        QCOMPARE(b.total, (std::vector<int64_t>{25, 23, 21, 19}));
        QVERIFY(near(b.brevity_penalty, std::exp(-0.2)));
        const double expected =
            100 * std::exp(-0.2) *
            std::exp((std::log(8.0 / 25) + std::log(5.0 / 23) + std::log(3.0 / 21) + std::log(2.0 / 19)) / 4);
        QVERIFY2(near(b.score, expected), qPrintable(QString("%1 vs %2").arg(b.score).arg(expected)));
        QVERIFY(std::abs(expected - 14.7243) < 1e-4);  // the figure, written out
    }
    void mismatchedCountsAreRefused() { QVERIFY_THROWS_EXCEPTION(InputError, corpus_bleu({"a"}, {"a", "b"})); }
    void chrfFromItsDefinition() {
        QVERIFY(near(corpus_chrf({"abc"}, {"abc"}).score, 100));
        QVERIFY(near(corpus_chrf({"xyz"}, {"abc"}).score, 0));
        // "ab" against "abc": orders 1 and 2 have counts (hyp 2, ref 3, match 2) and (1, 2, 1); order 3
        // has no hypothesis n-gram. Precision averages over the 2 effective orders: (1 + 1 + eps)/2 ~ 1,
        // recall (2/3 + 1/2 + 0)/2 = 7/12; F2 = 5 P R / (4 P + R).
        const double P = 1.0, R = 7.0 / 12;
        QVERIFY(near(corpus_chrf({"ab"}, {"abc"}).score, 100 * 5 * P * R / (4 * P + R), 1e-6));
        // Whitespace is ignored.
        QVERIFY(near(corpus_chrf({"a b c"}, {"abc"}).score, 100));
    }
};

TWB_APPLESS_MAIN(TestBleu)
#include "tst_bleu.moc"
