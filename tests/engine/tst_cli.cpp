// The twb command-line contract: prepare writes the documented files, tokenize round-trips byte-exact,
// errors exit non-zero with one line on stderr, help describes the options.
#include "twb/synthetic.h"
#include "test_util.h"

#include <QProcess>
#include <nlohmann/json.hpp>

namespace {
QString twb() {
    return QString::fromStdString((std::filesystem::read_symlink("/proc/self/exe").parent_path() / "twb").string());
}
struct Out {
    int code;
    QByteArray out, err;
};
Out run(const QStringList& args, const QByteArray& input = {}) {
    QProcess p;
    p.start(twb(), args);
    p.waitForStarted();
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(120000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}
}  // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
private slots:
    void prepareAndTokenizeRoundTrip_data() {
        QTest::addColumn<QStringList>("tok");
        QTest::newRow("char") << QStringList{"--tokenizer", "char"};
        QTest::newRow("bpe") << QStringList{"--tokenizer", "bpe", "--vocab-size", "400"};
    }
    void prepareAndTokenizeRoundTrip() {
        QFETCH(QStringList, tok);
        const auto in = twbtest::path(m_dir, "in.txt");
        twbtest::write(in, twbtest::syllable_text(60000) + twbtest::hard_unicode());
        const QString out = QString::fromStdString(twbtest::path(m_dir, "").string()) + QTest::currentDataTag();
        auto r = run(QStringList{"prepare", "--input", QString::fromStdString(in.string()), "--val-fraction", "0.1",
                                 "--out", out} +
                     tok);
        QVERIFY2(r.code == 0, r.err.constData());
        for (auto f : {"meta.json", "train.bin", "val.bin", "tokenizer.json"})
            QVERIFY(QFile::exists(out + "/" + f));
        const auto meta = nlohmann::json::parse(twb_read(out + "/meta.json"));
        for (auto k : {"tokenizer", "vocab_size", "train_tokens", "val_tokens"})
            QVERIFY(meta.contains(k));
        const QByteArray text = QByteArray::fromStdString(twbtest::hard_unicode());
        auto enc = run({"tokenize", "--data", out}, text);
        QCOMPARE(enc.code, 0);
        auto dec = run({"tokenize", "--data", out, "--decode"}, enc.out);
        QCOMPARE(dec.code, 0);
        QCOMPARE(dec.out, text);
    }
    void errorsAreOneLineAndNonZero() {
        const auto bin = twbtest::path(m_dir, "b.bin");
        twbtest::write(bin, std::string("\0\1\2\3binary", 10));
        auto r = run({"prepare", "--input", QString::fromStdString(bin.string()), "--out",
                      QString::fromStdString(twbtest::path(m_dir, "x").string())});
        QVERIFY(r.code != 0);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(r.err.contains("binary"));
        QVERIFY(!QFile::exists(QString::fromStdString(twbtest::path(m_dir, "x").string())));
    }
    void synthWritesTheEnginesTask() {
        const QString out = QString::fromStdString(twbtest::path(m_dir, "add.txt").string());
        auto r = run(
            {"synth", "--task", "addition", "--digits", "4", "--reversed", "-n", "30", "--seed", "5", "--out", out});
        QCOMPARE(r.code, 0);
        twb::SyntheticSpec s;
        s.digits = 4;
        s.reversed_digits = true;
        s.examples = 30;
        s.seed = 5;
        QCOMPARE(twb_read(out), twb::generate_synthetic(s));
        auto bad = run({"synth", "--task", "divide", "--out", out});
        QVERIFY(bad.code != 0);
        QVERIFY(bad.err.contains("addition, copy, reverse or sort"));
    }
    void helpDescribesOptions() {
        auto r = run({"prepare", "--help"});
        QCOMPARE(r.code, 0);
        for (auto opt : {"--input", "--tokenizer", "--vocab-size", "--val-fraction", "--clean", "--format", "--out"})
            QVERIFY2(r.out.contains(opt), opt);
        auto top = run({"--help"});
        for (auto cmd : {"prepare", "tokenize", "synth", "train", "eval", "sample", "attention", "doctor"})
            QVERIFY2(top.out.contains(cmd), cmd);
    }

private:
    static std::string twb_read(const QString& p) {
        QFile f(p);
        f.open(QIODevice::ReadOnly);
        return f.readAll().toStdString();
    }
};

QTEST_APPLESS_MAIN(TestCli)
#include "tst_cli.moc"
