// Dataset preparation: split sizes, formats, cleaning reports, refusal of bad input with no partial output.
#include <nlohmann/json.hpp>
#include "core/data/cleaning.h"
#include "core/data/token_file.h"
#include "core/tokenizers/tokenizer.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/text.h"

using namespace twb;

class TestPrepare : public QObject {
    Q_OBJECT

    static size_t entries(const std::filesystem::path& dir) {
        size_t n = 0;
        for (auto& e : std::filesystem::directory_iterator(dir))
            n += e.path().filename() != "in" ? 1 : 0;
        return n;
    }

private slots:
    void charTailSplitLikeNanoGPT() {
        QTemporaryDir d;
        const std::string text = twbtest::english_like(10007);
        twbtest::write(twbtest::path(d, "a.txt"), text);
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(d, "a.txt").string()};
        o.val_fraction = 0.1;
        o.out = twbtest::path(d, "out");
        const auto r = prepare_dataset(o);
        const auto n = static_cast<uint64_t>(text.size());
        QCOMPARE(r.train_tokens, static_cast<uint64_t>(n * 0.9));
        QCOMPARE(r.train_tokens + r.val_tokens, n);
        const auto ds = open_prepared(o.out);
        QCOMPARE(ds.train_tokens, r.train_tokens);
        QCOMPARE(ds.meta["tokenizer"].get<std::string>(), std::string("char"));
        QCOMPARE(ds.meta["sources"][0]["sha256"].get<std::string>().size(), size_t(64));
        // train.bin followed by val.bin decodes back to the text
        auto tok = load_tokenizer(o.out);
        TokenFile tr(o.out / "train.bin", ds.dtype), va(o.out / "val.bin", ds.dtype);
        std::vector<int32_t> ids;
        for (uint64_t i = 0; i < tr.size(); ++i)
            ids.push_back(tr.at(i));
        for (uint64_t i = 0; i < va.size(); ++i)
            ids.push_back(va.at(i));
        QCOMPARE(tok->decode(ids), text);
    }
    void shuffledSplitHoldsOutWholeDocumentsOrRefuses() {
        QTemporaryDir d;
        std::string records;
        for (int i = 0; i < 5; ++i)
            records += twbtest::english_like(300 + 50 * i) + "\n%\n";
        twbtest::write(twbtest::path(d, "five"), records);
        twbtest::write(twbtest::path(d, "one.txt"), twbtest::english_like(3000));
        PrepareOptions o;
        o.split = "shuffle";
        o.val_fraction = 0.05;  // 5 % of five documents rounds to none: one is held out all the same
        o.corpus.format = InputFormat::Records;
        o.corpus.inputs = {twbtest::path(d, "five").string()};
        o.out = twbtest::path(d, "five-out");
        const auto r = prepare_dataset(o);
        QVERIFY(r.val_tokens >= 300);
        QVERIFY(r.train_tokens >= 4 * 300);
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY(QString::fromStdString(r.warnings[0]).contains("one document is held out"));
        // One document cannot be split by documents: "validation" would be the training text.
        o.corpus.format = InputFormat::Text;
        o.corpus.inputs = {twbtest::path(d, "one.txt").string()};
        o.val_fraction = 0.1;
        o.out = twbtest::path(d, "one-out");
        QVERIFY_THROWS_EXCEPTION(InputError, prepare_dataset(o));
        QVERIFY(!std::filesystem::exists(o.out));
        o.val_fraction = 0;  // no validation asked for: nothing to refuse
        QCOMPARE(prepare_dataset(o).val_tokens, uint64_t(0));
    }
    void recordsJsonlCsvAndParallel() {
        QTemporaryDir d;
        twbtest::write(twbtest::path(d, "f"), "first fortune\nline two\n%\nsecond\n%\nthird\n");
        twbtest::write(twbtest::path(d, "x.jsonl"), "{\"text\": \"alpha\"}\n{\"text\": \"beta\", \"id\": 2}\n");
        twbtest::write(twbtest::path(d, "x.csv"), "id,body\n1,\"hello, world\"\n2,\"say \"\"hi\"\"\"\n");
        twbtest::write(twbtest::path(d, "s.txt"), "ein Hund\nzwei Katzen\n");
        twbtest::write(twbtest::path(d, "t.txt"), "a dog\ntwo cats\n");
        struct Case {
            InputFormat f;
            std::vector<std::string> in;
            uint64_t docs;
        } cases[] = {{InputFormat::Records, {"f"}, 3},
                     {InputFormat::Jsonl, {"x.jsonl"}, 2},
                     {InputFormat::Csv, {"x.csv"}, 2},
                     {InputFormat::Parallel, {"s.txt", "t.txt"}, 2}};
        int k = 0;
        for (auto& c : cases) {
            PrepareOptions o;
            for (auto& f : c.in)
                o.corpus.inputs.push_back(twbtest::path(d, f.c_str()).string());
            o.corpus.format = c.f;
            o.corpus.column = "body";
            o.tokenizer.kind = TokenizerKind::Byte;
            o.val_fraction = 0;
            o.out = twbtest::path(d, ("o" + std::to_string(k++)).c_str());
            const auto r = prepare_dataset(o);
            QCOMPARE(r.stats.documents, c.docs);
            // byte tokenizer has <eos>: one per document
            TokenFile tf(o.out / "train.bin", TokenDtype::U16);
            uint64_t eos = 0;
            std::string text;
            for (uint64_t i = 0; i < tf.size(); ++i) {
                if (tf.at(i) == 258)
                    ++eos;
                else
                    text += static_cast<char>(tf.at(i));
            }
            QCOMPARE(eos, c.docs);
            if (c.f == InputFormat::Csv)
                QVERIFY(text.find("say \"hi\"") != std::string::npos);
            if (c.f == InputFormat::Parallel)
                QVERIFY(text.find("ein Hund\ta dog") != std::string::npos);
            if (c.f == InputFormat::Records)
                QVERIFY(text.find("first fortune\nline two") != std::string::npos);
        }
    }
    void cleaningIsReported() {
        QTemporaryDir d;
        twbtest::write(twbtest::path(d, "a.txt"), "Caf\u00E9  \u201Cx\u201D\nsame\nsame\n\n\uFB01ne\n");
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(d, "a.txt").string()};
        o.cleaning.enable("nfkc");
        o.cleaning.enable("ascii");
        o.cleaning.enable("whitespace");
        o.cleaning.enable("drop-empty");
        o.cleaning.enable("dedupe");
        o.val_fraction = 0;
        o.out = twbtest::path(d, "out");
        const auto r = prepare_dataset(o);
        auto tok = load_tokenizer(o.out);
        TokenFile tf(o.out / "train.bin", TokenDtype::U16);
        std::vector<int32_t> ids;
        for (uint64_t i = 0; i < tf.size(); ++i)
            ids.push_back(tf.at(i));
        QCOMPARE(tok->decode(ids), std::string("Cafe \"x\"\nsame\nfine\n"));
        std::map<std::string, CleaningEffect> eff;
        for (auto& e : r.cleaning.effects)
            eff[e.option] = e;
        QCOMPARE(eff["nfkc"].lines_changed, uint64_t(1));
        QCOMPARE(eff["ascii"].lines_changed, uint64_t(1));
        QCOMPARE(eff["dedupe"].lines_removed, uint64_t(1));
        QCOMPARE(eff["drop-empty"].lines_removed, uint64_t(1));
    }
    void gutenbergHeaderAndFooterRemoved() {
        Cleaner c([] {
            CleaningOptions o;
            o.strip_gutenberg = true;
            return o;
        }());
        const auto out = c.clean(
            "Title page\nlicence\n*** START OF THE PROJECT GUTENBERG EBOOK X ***\nBody one\nBody two\n"
            "*** END OF THE PROJECT GUTENBERG EBOOK X ***\nfooter\n");
        QCOMPARE(out, std::string("Body one\nBody two\n"));
        QCOMPARE(c.report().effects[0].lines_removed, uint64_t(5));
    }
    void badInputIsRefusedAndLeavesNothing_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expect");
        QTest::newRow("binary") << QByteArray(
                                       "\x7f"
                                       "ELF\x02\x01\x00\x00\x00\x00",
                                       10)
                                << "binary";
        QTest::newRow("utf8") << QByteArray("good text\nbad \xff here\n") << "byte offset 14";
        QTest::newRow("empty") << QByteArray() << "empty";
    }
    void badInputIsRefusedAndLeavesNothing() {
        QFETCH(QByteArray, content);
        QFETCH(QString, expect);
        QTemporaryDir d;
        const auto in = twbtest::path(d, "in");
        twbtest::write(in, content.toStdString());
        PrepareOptions o;
        o.corpus.inputs = {in.string()};
        o.out = twbtest::path(d, "out");
        try {
            prepare_dataset(o);
            QFAIL("expected an InputError");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find(expect.toStdString()) != std::string::npos, e.what());
            QVERIFY(std::string(e.what()).find(in.string()) != std::string::npos);
        }
        QCOMPARE(entries(twbtest::path(d)), size_t(0));  // no output, no temp folder left
    }
    void aFileGivenTwiceIsReadOnce() {
        // Once on its own and once in its folder (the Datasets panel's Add files, then Add folder): it was read
        // twice, so its text could be in both splits.
        QTemporaryDir d;
        std::filesystem::create_directories(twbtest::path(d, "texts"));
        twbtest::write(twbtest::path(d, "texts/a.txt"), twbtest::english_like(3000));
        twbtest::write(twbtest::path(d, "texts/b.txt"), twbtest::english_like(2000));
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(d, "texts/a.txt").string(), twbtest::path(d, "texts").string(),
                           twbtest::path(d, "texts/../texts/b.txt").string()};
        o.tokenizer.kind = TokenizerKind::Byte;
        o.out = twbtest::path(d, "out");
        const auto r = prepare_dataset(o);
        const auto meta = nlohmann::json::parse(read_file(o.out / "meta.json"));
        QCOMPARE(meta["sources"].size(), size_t(2));
        QCOMPARE(meta["sources"][0]["path"].get<std::string>(), twbtest::path(d, "texts/a.txt").string());
        o.corpus.inputs = {twbtest::path(d, "texts/a.txt").string(), twbtest::path(d, "texts/b.txt").string()};
        o.out = twbtest::path(d, "each-once");
        const auto once = prepare_dataset(o);
        QCOMPARE(r.train_tokens + r.val_tokens, once.train_tokens + once.val_tokens);
    }
    void replaceInvalidUtf8Option() {
        QTemporaryDir d;
        twbtest::write(twbtest::path(d, "a.txt"), "ok \xff ok\n");
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(d, "a.txt").string()};
        o.corpus.replace_invalid_utf8 = true;
        o.val_fraction = 0;
        o.out = twbtest::path(d, "out");
        const auto r = prepare_dataset(o);
        QCOMPARE(r.warnings.size(), size_t(2));  // the replaced byte, and no validation split
        QVERIFY2(r.warnings[0].find("replaced") != std::string::npos, r.warnings[0].c_str());
    }
    void existingOutputNeedsOverwrite() {
        QTemporaryDir d;
        twbtest::write(twbtest::path(d, "a.txt"), twbtest::english_like(2000));
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(d, "a.txt").string()};
        o.out = twbtest::path(d, "out");
        prepare_dataset(o);
        QVERIFY_THROWS_EXCEPTION(IoError, prepare_dataset(o));
        o.overwrite = true;
        o.tokenizer.kind = TokenizerKind::Byte;
        prepare_dataset(o);
        QCOMPARE(open_prepared(o.out).tokenizer_kind, std::string("byte"));
    }
    void cancelLeavesNothing() {
        QTemporaryDir d;
        twbtest::write(twbtest::path(d, "in"), twbtest::english_like(50000));
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(d, "in").string()};
        o.out = twbtest::path(d, "out");
        QVERIFY_THROWS_EXCEPTION(Cancelled, prepare_dataset(o, [](const std::string& stage, uint64_t, uint64_t) {
                                     return stage != "encoding";
                                 }));
        QCOMPARE(entries(twbtest::path(d)), size_t(0));
    }
};

TWB_APPLESS_MAIN(TestPrepare)
#include "tst_prepare.moc"
