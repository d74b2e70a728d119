// Byte-level BPE of our own: lossless on any bytes (random bytes, invalid UTF-8), merges learned as a
// hand count says, the same ids after save and load, GPT-2's split pattern as published.
#include "core/tokenizers/bytebpe.h"
#include "core/tokenizers/tokenizer.h"
#include "test_util.h"
#include "twb/errors.h"

#include <algorithm>
#include <random>

using namespace twb;

class TestByteBpe : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::unique_ptr<Tokenizer> train(const std::string& text, int vocab, const char* pattern = "gpt2") {
        twbtest::write(twbtest::path(m_dir, "corpus.txt"), text);
        TokenizerSpec spec;
        spec.kind = TokenizerKind::ByteBpe;
        spec.vocab_size = vocab;
        spec.split_pattern = pattern;
        return train_tokenizer(spec, twbtest::path(m_dir, "corpus.txt"));
    }

private slots:
    void mergesFollowAHandCount() {
        // Pieces (GPT-2 pattern): "aaab" x3 and " aaab" x2 ... the pair counts, weighted by piece count:
        // (a,a): 2 per piece x 5 = 10, (a,b): 5, (' ',a): 2. So the first merge is "aa" (id 256); then
        // the pieces read [aa,a,b] and [' ',aa,a,b]: (aa,a) 5, (a,b) 5, (' ',aa) 2 — equal counts take
        // the smaller pair, (a,b) = (97,98) < (256,97): "ab" is 257; then (aa,ab) 5 -> "aaab" = 258.
        const auto tok = train("aaab aaab aaab\naaab aaab\n", 256 + 3 + 3);
        const auto& model = dynamic_cast<const Tokenizer&>(*tok);
        QCOMPARE(model.vocab_size(), 262);
        QCOMPARE(tok->token_text(256), std::string("aa"));
        QCOMPARE(tok->token_text(257), std::string("ab"));
        QCOMPARE(tok->token_text(258), std::string("aaab"));
        QCOMPARE(tok->encode("aaab"), (std::vector<int32_t>{258}));
        QCOMPARE(tok->encode(" aaab"), (std::vector<int32_t>{' ', 258}));
        QCOMPARE(tok->token_text(259), std::string("<pad>"));
        QCOMPARE(tok->eos_id(), 261);
    }
    void losslessOnAnyBytes() {
        const auto tok = train(twbtest::english_like(20000) + twbtest::hard_unicode(), 400);
        std::mt19937 rng(5);
        for (int round = 0; round < 50; ++round) {
            std::string s(static_cast<size_t>(rng() % 300), '\0');
            for (auto& c : s)
                c = static_cast<char>(rng() % 256);
            QCOMPARE(tok->decode(tok->encode(s)), s);
        }
        const std::string invalid = std::string("ok \xC3\x28 \xFF\xFE half \xE6\x97 end\x80", 22);
        QCOMPARE(tok->decode(tok->encode(invalid)), invalid);
        QCOMPARE(tok->decode(tok->encode(twbtest::hard_unicode())), twbtest::hard_unicode());
        QVERIFY(tok->lossless());
    }
    void savedAndLoadedGivesTheSameIds() {
        const auto tok = train(twbtest::syllable_text(30000), 500, "gpt4");
        const auto dir = twbtest::path(m_dir, "saved");
        std::filesystem::create_directories(dir);
        tok->save(dir);
        const auto back = load_tokenizer(dir);
        QCOMPARE(back->vocab_size(), tok->vocab_size());
        QCOMPARE(back->fingerprint(), tok->fingerprint());
        const std::string probe = twbtest::syllable_text(5000, 3) + twbtest::hard_unicode();
        QCOMPARE(back->encode(probe), tok->encode(probe));
    }
    void gpt2PatternSplitsAsPublished() {
        // GPT-2's encoder splits "I've 3 cats!  Yes" into "I", "'ve", " 3", " cats", "!", " ", " Yes".
        // With no merges at all every piece is its bytes, so the pieces show in where ids restart.
        const ByteBpeModel m = ByteBpeModel::from_parts("gpt2",
                                                        [] {
                                                            std::vector<std::string> t(256);
                                                            for (int b = 0; b < 256; ++b)
                                                                t[static_cast<size_t>(b)] =
                                                                    std::string(1, static_cast<char>(b));
                                                            t.push_back("'v");
                                                            t.push_back("'ve");
                                                            return t;
                                                        }(),
                                                        {{'\'', 'v'}, {256, 'e'}}, {256, 257}, {});
        std::vector<int32_t> ids;
        m.encode("I've", ids);
        QCOMPARE(ids, (std::vector<int32_t>{'I', 257}));  // "'ve" is one piece, merged whole
        ids.clear();
        m.encode("x've", ids);  // still its own piece after a letter
        QCOMPARE(ids, (std::vector<int32_t>{'x', 257}));
        // A merge that does not produce its token is refused.
        QVERIFY_THROWS_EXCEPTION(FormatError,
                                 ByteBpeModel::from_parts("gpt2", std::vector<std::string>(256, "x"), {}, {}, {}));
    }
    void progressFollowsEachMerge() {
        // Progress came every 64 merges: a vocabulary of a few hundred merges over a large text sat at "50%"
        // (the count of pieces done) for seconds, and one under 64 merges never moved past it.
        twbtest::write(twbtest::path(m_dir, "corpus.txt"), twbtest::english_like(20000));
        TokenizerSpec spec;
        spec.kind = TokenizerKind::ByteBpe;
        spec.vocab_size = 256 + 3 + 40;
        std::vector<uint64_t> merging;  // the second half: done of 100
        train_tokenizer(spec, twbtest::path(m_dir, "corpus.txt"), [&](uint64_t done, uint64_t total) {
            if (total == 100 && done >= 50)
                merging.push_back(done);
            return true;
        });
        QVERIFY2(merging.size() >= 40, qPrintable(QString::number(merging.size())));
        QVERIFY(std::is_sorted(merging.begin(), merging.end()));
        QCOMPARE(merging.back(), uint64_t(100));
    }
    void tooSmallAVocabularyIsRefused() { QVERIFY_THROWS_EXCEPTION(ConfigError, train("abc", 100)); }
};

TWB_APPLESS_MAIN(TestByteBpe)
#include "tst_bytebpe.moc"
