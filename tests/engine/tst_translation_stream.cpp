// Translator::translate_stream on a tiny trained translation run: the streamed text and ids are exactly
// translate()'s (greedy, with and without the KV cache, and beam search), probabilities are probabilities,
// alternatives come sorted with the greedy token first, a beam hypothesis's per-token probabilities agree
// with greedy decoding's wherever the two share a prefix (the teacher-forced pass against the cached one),
// both ways of cancelling stop it, and a translation cut by the length limit says so.
#include "file_damage.h"
#include "tiny_translation.h"
#include "twb/errors.h"
#include "twb/run_folder.h"
#include "twb/translation.h"

using namespace twb;

class TestTranslationStream : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    Translator m_tr;
    // Copy-task sources (letters a..h).
    const std::vector<std::string> m_sources{"a b c d", "h g f e d c", "b b a", "c", "d e f g h a b"};

    struct Streamed {
        StreamedTranslation result;
        std::vector<TranslationToken> tokens;
        std::string joined;
    };
    Streamed stream(const std::string& src, const TranslateOptions& opt) {
        Streamed s;
        s.result = m_tr.translate_stream(src, opt, [&](const TranslationToken& t) {
            s.tokens.push_back(t);
            s.joined += t.text;
            return true;
        });
        return s;
    }
    static void checkProbabilities(const Streamed& s, bool greedy) {
        for (const auto& t : s.tokens) {
            QVERIFY2(t.prob > 0 && t.prob <= 1, std::to_string(t.prob).c_str());
            QCOMPARE(t.alternatives.size(), size_t(5));
            double sum = 0;
            for (size_t k = 0; k < t.alternatives.size(); ++k) {
                const auto& a = t.alternatives[k];
                QVERIFY(a.prob > 0 && a.prob <= 1);
                QVERIFY(!a.token_text.empty());
                if (k > 0)
                    QVERIFY(a.prob <= t.alternatives[k - 1].prob);
                sum += a.prob;
                if (a.token == t.token)
                    QCOMPARE(a.prob, t.prob);  // the same number, whichever list it came from
            }
            QVERIFY(sum <= 1 + 1e-6);  // top-5 of one distribution
            if (greedy) {              // greedy takes the argmax: the first alternative
                QCOMPARE(t.alternatives[0].token, t.token);
                QCOMPARE(t.alternatives[0].prob, t.prob);
            }
        }
    }

private slots:
    void initTestCase() { m_tr.open(twbtest::tiny_translation_run(m_dir), "last"); }

    void greedyStreamIsTranslate() {
        for (const bool cache : {true, false}) {
            TranslateOptions opt;
            opt.use_kv_cache = cache;
            size_t tokens = 0;
            for (const auto& src : m_sources) {
                const std::string expected = m_tr.translate({src}, opt)[0];
                const auto s = stream(src, opt);
                QCOMPARE(s.result.text, expected);
                QCOMPARE(s.joined, expected);
                QCOMPARE(s.tokens.size(), s.result.ids.size());
                for (size_t k = 0; k < s.tokens.size(); ++k) {
                    QCOMPARE(s.tokens[k].index, int64_t(k));
                    QCOMPARE(s.tokens[k].token, s.result.ids[k]);
                    QCOMPARE(s.tokens[k].token_text, m_tr.token_text(s.result.ids[k]));
                }
                QVERIFY(!s.result.cancelled);
                QCOMPARE(s.result.step, m_tr.step());
                checkProbabilities(s, true);
                tokens += s.tokens.size();
            }
            QVERIFY(tokens > 5);  // the check above saw real tokens
        }
    }

    void beamStreamIsBeamTranslate() {
        TranslateOptions beam;
        beam.beam_width = 4;
        int shared = 0;
        for (const auto& src : m_sources) {
            const auto s = stream(src, beam);
            QCOMPARE(s.result.text, m_tr.translate({src}, beam)[0]);
            QCOMPARE(s.joined, s.result.text);
            QCOMPARE(s.tokens.size(), s.result.ids.size());
            checkProbabilities(s, false);
            // Where the beam's hypothesis and the greedy one agree, the two passes saw the same prefix: the same
            // distribution (teacher-forced over the hypothesis vs. step by step with the cache; float rounding).
            const auto g = stream(src, {});
            for (size_t k = 0; k < std::min(g.tokens.size(), s.tokens.size()); ++k) {
                if (g.tokens[k].token != s.tokens[k].token)
                    break;
                QVERIFY2(std::abs(g.tokens[k].prob - s.tokens[k].prob) < 1e-4,
                         (std::to_string(g.tokens[k].prob) + " vs " + std::to_string(s.tokens[k].prob)).c_str());
                ++shared;
            }
        }
        QVERIFY(shared > 3);
    }

    void beamWidthOneIsGreedy() {
        TranslateOptions one;
        one.beam_width = 1;
        one.length_penalty = 0.6;  // beam-only: greedy ignores it
        for (const auto& src : m_sources) {
            const auto a = stream(src, one), b = stream(src, {});
            QCOMPARE(a.result.ids, b.result.ids);
            QCOMPARE(a.joined, b.joined);
        }
    }

    void cancels() {
        // Through the callback: false after the second token stops there.
        const std::string src = "d e f g h a b";
        TranslateOptions opt;
        QVERIFY(m_tr.translate_stream(src, opt, [](const TranslationToken&) { return true; }).ids.size() > 2);
        int seen = 0;
        const auto r = m_tr.translate_stream(src, opt, [&](const TranslationToken&) { return ++seen < 2; });
        QCOMPARE(seen, 2);
        QVERIFY(r.cancelled);
        QVERIFY(r.ids.size() <= 3);  // the step after the refusal is the last one decoded
        // Through the flag, set before it starts: no token at all, greedy or beam.
        std::atomic<bool> cancel{true};
        for (const int w : {1, 4}) {
            opt.beam_width = w;
            seen = 0;
            const auto c = m_tr.translate_stream(
                src, opt, [&](const TranslationToken&) { return ++seen > 0; }, 5, &cancel);
            QVERIFY(c.cancelled);
            QCOMPARE(seen, 0);
        }
    }

    void blankLinesStayBlank() {
        // A blank line among others is an empty translation, the others as alone (it was made-up text).
        const std::string a = m_tr.translate({m_sources.at(0)})[0], b = m_tr.translate({m_sources.at(1)})[0];
        QVERIFY(!a.empty());
        const auto out = m_tr.translate({"", m_sources.at(0), " \t ", m_sources.at(1)});
        QCOMPARE(out, (std::vector<std::string>{"", a, "", b}));
        QCOMPARE(m_tr.translate({"", "  "}), (std::vector<std::string>{"", ""}));
    }

    void saysWhenTheLengthLimitCutsIt() {
        // A translation one token short of its end stops at the limit and says so, streamed and in a batch;
        // one with room to end does not.
        std::vector<size_t> expectCut;
        TranslateOptions tight;
        tight.max_length_ratio = 1e-9;  // ceil(ratio x source tokens) = 1: the limit is 1 + extra
        tight.max_length_extra = 0;     // room for one token
        for (size_t i = 0; i < m_sources.size(); ++i) {
            const auto full = stream(m_sources[i], {});
            const auto n = static_cast<int>(full.result.ids.size());
            QVERIFY(full.result.length_limit > n);  // the copy task ends well inside the default limit
            QVERIFY(!full.result.at_limit);
            if (n >= 1)
                expectCut.push_back(i + 2);  // translated below after a blank first line
            if (n < 2)
                continue;
            TranslateOptions cut;
            cut.max_length_ratio = 1e-9;
            cut.max_length_extra = n - 2;
            const auto s = stream(m_sources[i], cut);
            QVERIFY(s.result.at_limit);
            QCOMPARE(s.result.length_limit, int64_t(n - 1));
            QCOMPARE(s.result.ids, std::vector<int32_t>(full.result.ids.begin(), full.result.ids.end() - 1));
            cut.max_length_extra = n;  // room for <eos> after the last token
            const auto ended = stream(m_sources[i], cut);
            QVERIFY(!ended.result.at_limit);
            QCOMPARE(ended.result.ids, full.result.ids);
        }
        QVERIFY(expectCut.size() >= 3);
        std::vector<std::string> lines{""};
        lines.insert(lines.end(), m_sources.begin(), m_sources.end());
        m_tr.translate(lines, tight);
        QCOMPARE(m_tr.limited_lines(), expectCut);
        m_tr.translate(lines);
        QVERIFY(m_tr.limited_lines().empty());
    }

    void reopeningKeepsTheModelUnlessItsWeightsWereReplaced() {
        // The viewers open per request: the same checkpoint stays loaded (a head switched off stays off),
        // and weights replaced in place are loaded (they kept translating with the old ones).
        namespace fs = std::filesystem;
        const fs::path run = fs::path(m_tr.checkpoint()).parent_path().parent_path();
        const fs::path copy = twbtest::path(m_dir, "replaced");
        fs::copy(run, copy, fs::copy_options::recursive);
        Translator t;
        t.open(copy.string(), "last");
        const double before = t.evaluate("val").loss;
        t.set_ablated_heads({{0, 0, HeadStack::Cross}});
        const double off = t.evaluate("val").loss;
        QVERIFY(off != before);
        t.open(copy.string(), "last");
        QCOMPARE(t.evaluate("val").loss, off);  // kept, its head still off
        const fs::path weights = find_checkpoint(copy, "last") / "model.safetensors";
        // The final norm's first scale: a change every output sees (the first tensor by name, a key bias,
        // changes no attention weight at all).
        twbtest::poke_float(weights, "decoder.ln_f.weight", 100.f);
        t.open(copy.string(), "last");
        const double after = t.evaluate("val").loss;
        QVERIFY(after != off && after != before);
        Translator fresh;
        fresh.open(copy.string(), "last");
        QCOMPARE(fresh.evaluate("val").loss, after);
    }

    void refusesBadInput() {
        QVERIFY_THROWS_EXCEPTION(InputError, m_tr.translate_stream("a \xff b", {}, {}));
        QVERIFY_THROWS_EXCEPTION(ConfigError, m_tr.translate_stream("a b", {}, {}, -1));
        Translator closed;
        QVERIFY_THROWS_EXCEPTION(InputError, closed.translate_stream("a b", {}, {}));
    }
};

QTEST_APPLESS_MAIN(TestTranslationStream)
#include "tst_translation_stream.moc"
