// Tokenizers: lossless round trips on hard Unicode, vocabulary rules, unknown characters, save/load.
#include "core/tokenizers/tokenizer.h"
#include "test_util.h"
#include "twb/errors.h"

using namespace twb;

class TestTokenizers : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path corpus() {
        auto p = twbtest::path(m_dir, "corpus.txt");
        if (!std::filesystem::exists(p))
            twbtest::write(p, twbtest::english_like(100000) + twbtest::syllable_text(200000) + twbtest::hard_unicode());
        return p;
    }

private slots:
    void charRoundTripAndVocabOrder() {
        auto tok = train_char_tokenizer(corpus(), {});
        const std::string text = twbtest::hard_unicode();
        QCOMPARE(tok->decode(tok->encode(text)), text);
        // ids follow code-point order, like nanoGPT's sorted(set(text))
        QVERIFY(tok->encode("\n")[0] < tok->encode("a")[0]);
        QVERIFY(tok->encode("a")[0] < tok->encode("b")[0]);
    }
    void charUnknownNamesTheCharacters() {
        auto tok = train_char_tokenizer(corpus(), {});
        try {
            tok->encode("ok \u00DF");
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find("\u00DF") != std::string::npos);
        }
    }
    void byteRoundTrip() {
        auto tok = make_byte_tokenizer();
        const std::string text = twbtest::hard_unicode();
        QCOMPARE(static_cast<int>(tok->encode(text).size()), static_cast<int>(text.size()));
        QCOMPARE(tok->decode(tok->encode(text)), text);
        QCOMPARE(tok->vocab_size(), 259);
    }
    void sentencepieceRoundTripOnUnseenText_data() {
        QTest::addColumn<QString>("kind");
        QTest::newRow("bpe") << "bpe";
        QTest::newRow("unigram") << "unigram";
    }
    void sentencepieceRoundTripOnUnseenText() {
        QFETCH(QString, kind);
        TokenizerSpec spec;
        spec.kind = parse_choice<TokenizerKind>(kind.toStdString(), "tokenizer");
        spec.vocab_size = 400;
        QTemporaryDir work;
        auto c = twbtest::path(work, "c.txt");
        std::filesystem::copy_file(corpus(), c);
        auto tok = train_tokenizer(spec, c);
        QCOMPARE(tok->vocab_size(), 400);
        QCOMPARE(tok->eos_id(), 3);
        // Text never seen in training, with every hard case.
        const std::string unseen =
            "Zebra\u2019s \u201Cquiz\u201D \u2014 \u00E9t\u00E9 \u6F22\u5B57 \U0001F680\t\tx\r\n  y\n\n";
        const auto ids = tok->encode(unseen);
        QVERIFY(!ids.empty());
        QCOMPARE(tok->decode(ids), unseen);
        QCOMPARE(tok->decode(tok->encode(twbtest::hard_unicode())), twbtest::hard_unicode());
        // Concatenating encodings of lines equals encoding the whole (prepare encodes line by line).
        auto a = tok->encode("the fox\n"), b = tok->encode("the dog\n");
        a.insert(a.end(), b.begin(), b.end());
        QCOMPARE(tok->decode(a), std::string("the fox\nthe dog\n"));
        // A long text (encoded in pieces on several threads) gives exactly the ids of line-by-line encoding.
        const std::string big = twbtest::syllable_text(120000, 5);
        std::vector<int32_t> perLine;
        for (size_t pos = 0; pos < big.size();) {
            size_t nl = big.find('\n', pos);
            nl = nl == std::string::npos ? big.size() : nl + 1;
            tok->encode(std::string_view(big).substr(pos, nl - pos), perLine);
            pos = nl;
        }
        QCOMPARE(tok->encode(big), perLine);
        QVERIFY(tok->newline_id() >= 0);
        // Saved and loaded back: same ids.
        QTemporaryDir out;
        tok->save(twbtest::path(out));
        QVERIFY(std::filesystem::exists(twbtest::path(out, "tokenizer.model")));
        auto loaded = load_tokenizer(twbtest::path(out));
        QCOMPARE(loaded->encode(unseen), ids);
    }
    void sentencepieceVocabTooLargeIsClear() {
        QTemporaryDir work;
        auto c = twbtest::path(work, "c.txt");
        twbtest::write(c, "tiny corpus\n");
        TokenizerSpec spec;
        spec.kind = TokenizerKind::Bpe;
        spec.vocab_size = 5000;
        try {
            train_tokenizer(spec, c);
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find("vocab size 5000") != std::string::npos);
        }
    }
    void wordTokenizerKeepsSpacesAndUnk() {
        TokenizerSpec spec;
        spec.kind = TokenizerKind::Word;
        spec.vocab_size = 0;  // every piece seen
        auto tok = train_tokenizer(spec, corpus());
        const std::string s = "the fox runs.\n";
        QCOMPARE(tok->decode(tok->encode(s)), s);
        const auto ids = tok->encode(" zyzzyva");
        QCOMPARE(ids.size(), size_t(1));
        QCOMPARE(ids[0], tok->unk_id());
        QTemporaryDir out;
        tok->save(twbtest::path(out));
        QCOMPARE(load_tokenizer(twbtest::path(out))->encode(s), tok->encode(s));
        spec.vocab_size = 30;  // capped: 4 specials + the 26 most frequent pieces
        auto small = train_tokenizer(spec, corpus());
        QCOMPARE(small->vocab_size(), 30);
        const auto capped = small->encode(s);
        QVERIFY(std::count(capped.begin(), capped.end(), small->unk_id()) > 0);
    }
};

TWB_APPLESS_MAIN(TestTokenizers)
#include "tst_tokenizers.moc"
