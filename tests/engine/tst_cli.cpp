// The twb command-line contract: prepare writes the documented files, tokenize round-trips byte-exact,
// errors exit non-zero with one line on stderr, help describes the options.
#include "test_util.h"
#include "twb/attention.h"
#include "twb/catalogue.h"
#include "twb/chat_history.h"
#include "twb/config.h"
#include "twb/probe.h"
#include "twb/samples_history.h"
#include "twb/synthetic.h"
#include "twb/translation_attention.h"

#include <QProcess>
#include <QRegularExpression>
#include <algorithm>

#include <cmath>
#include <csignal>
#include <nlohmann/json.hpp>

namespace {
QString twbBinary() {
    return QString::fromStdString((std::filesystem::read_symlink("/proc/self/exe").parent_path() / "twb").string());
}
struct Out {
    int code;
    QByteArray out, err;
};
Out run(const QStringList& args, const QByteArray& input = {}, const QStringList& env = {}, const QString& cwd = {}) {
    QProcess p;
    if (!cwd.isEmpty())
        p.setWorkingDirectory(cwd);
    auto e = QProcessEnvironment::systemEnvironment();
    for (const auto& kv : env)
        e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    p.setProcessEnvironment(e);
    p.start(twbBinary(), args);
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
        // An id past 32 bits is refused, not read as its low 32 bits (2^32 + 20 as id 20).
        auto wide = run({"tokenize", "--data", out, "--decode"}, "20 4294967316 21");
        QCOMPARE(wide.code, 1);
        QVERIFY2(wide.err.contains("token id 4294967316 is outside the vocabulary"), wide.err.constData());
        QVERIFY(wide.out.isEmpty());
    }
    void sampleAttentionAndEvalShareTheRunFolder() {
        // A tiny run, then the commands that read it: sample appends to the history the GUI lists,
        // attention writes the one export format, eval and tokenize --stats print their figures.
        const auto in = twbtest::path(m_dir, "small.txt");
        twbtest::write(in, twbtest::english_like(20000));
        const QString data = QString::fromStdString(twbtest::path(m_dir, "small-data").string());
        const QString runDir = QString::fromStdString(twbtest::path(m_dir, "small-run").string());
        auto p = run({"prepare", "--input", QString::fromStdString(in.string()), "--out", data, "--quiet"});
        QVERIFY2(p.code == 0, p.err.constData());
        auto t = run({"train", "--data", data, "--out", runDir, "--preset", "tiny", "--quiet", "--set", "max_iters=4",
                      "--set", "eval_interval=2", "--set", "eval_iters=1", "--set", "n_layer=1", "--set", "threads=1"});
        QVERIFY2(t.code == 0, t.err.constData());

        auto s = run({"sample", "--run", runDir, "--prompt", "the ", "-n", "5", "--seed", "3"});
        QVERIFY2(s.code == 0, s.err.constData());
        auto hist = twb::read_sample_history(runDir.toStdString());
        QCOMPARE(hist.size(), size_t(1));
        QCOMPARE(hist[0].source, std::string("cli"));
        QCOMPARE(hist[0].prompt, std::string("the "));
        QCOMPARE(hist[0].options.max_new_tokens, 5);
        QCOMPARE(hist[0].options.seed, int64_t(3));
        QCOMPARE(QByteArray::fromStdString("the " + hist[0].outputs.at(0) + "\n"), s.out);
        QVERIFY(run({"sample", "--run", runDir, "-n", "2", "--no-history"}).code == 0);
        // A char run cannot chat: said before any message (no stdin), one line, no history written.
        auto c = run({"chat", "--run", runDir}, "");
        QVERIFY(c.code != 0);
        QVERIFY2(c.err.contains("no <eos>") && c.err.count('\n') == 1, c.err.constData());
        QVERIFY(!QFile::exists(runDir + "/chat.jsonl"));
        // A prompt longer than the context: generated all the same, with a warning naming block_size.
        auto longPrompt = run({"sample", "--run", runDir, "--prompt", QString(300, 'a'), "-n", "2", "--no-history"});
        QVERIFY2(longPrompt.code == 0, longPrompt.err.constData());
        QVERIFY2(longPrompt.err.contains("more than block_size"), longPrompt.err.constData());
        QCOMPARE(twb::read_sample_history(runDir.toStdString()).size(), size_t(1));

        const QString att = QString::fromStdString(twbtest::path(m_dir, "att.json").string());
        auto a = run({"attention", "--run", runDir, "--prompt", "the cat", "--out", att});
        QVERIFY2(a.code == 0, a.err.constData());
        const auto cap = twb::read_attention_json(att.toStdString());
        QCOMPARE(cap.layers, int64_t(1));
        QCOMPARE(cap.length, int64_t(7));
        QCOMPARE(cap.tokens.front(), std::string("t"));
        const auto j = nlohmann::json::parse(twb_read(att));
        QCOMPARE(j["format"].get<std::string>(), std::string("twb-attention"));
        // An existing file is replaced only when asked.
        auto again = run({"attention", "--run", runDir, "--prompt", "a", "--out", att});
        QVERIFY2(again.code != 0 && again.err.contains("--force"), again.err.constData());
        QCOMPARE(twb::read_attention_json(att.toStdString()).length, int64_t(7));
        again = run({"attention", "--run", runDir, "--prompt", "a", "--out", att, "--force"});
        QVERIFY2(again.code == 0, again.err.constData());
        QCOMPARE(twb::read_attention_json(att.toStdString()).length, int64_t(1));
        QCOMPARE(j["next_token_top"].size(), size_t(7));

        auto e = run({"eval", "--run", runDir, "--checkpoint", "last", "--max-tokens", "2000"});
        QVERIFY2(e.code == 0, e.err.constData());
        QVERIFY(e.out.contains("bits/char"));
        auto zero = run({"eval", "--run", runDir, "--batch-size", "0"});
        QCOMPARE(zero.code, 1);
        QVERIFY2(zero.err.contains("batch size must be at least 1"), zero.err.constData());

        auto st = run({"tokenize", "--data", data, "--stats", "--top", "3"});
        QVERIFY2(st.code == 0, st.err.constData());
        QVERIFY2(st.out.contains("char tokenizer") && st.out.contains("most frequent tokens"), st.out.constData());
    }
    void sampleRunsWithoutLibtorchWhenItCan() {
        // `twb sample` of a CPU run with one sequence never loads libtorch, and prints what twb-torch prints
        // for the same command (TWB_TORCH_FREE=0 hands it over); what it does not serve goes there by itself.
        const auto in = twbtest::path(m_dir, "light.txt");
        twbtest::write(in, twbtest::english_like(20000));
        const QString data = QString::fromStdString(twbtest::path(m_dir, "light-data").string());
        const QString runDir = QString::fromStdString(twbtest::path(m_dir, "light-run").string());
        QCOMPARE(run({"prepare", "--input", QString::fromStdString(in.string()), "--out", data, "--quiet"}).code, 0);
        auto t = run({"train", "--data",      data,    "--out",           runDir,  "--preset",     "tiny",  "--quiet",
                      "--set", "max_iters=4", "--set", "eval_interval=2", "--set", "eval_iters=1", "--set", "n_layer=1",
                      "--set", "threads=1",   "--set", "device=cpu"});
        QVERIFY2(t.code == 0, t.err.constData());
        const QStringList sample{"sample",  "--run", runDir,   "-p", "the ",         "-n",           "60",
                                 "--top-k", "5",     "--seed", "3",  "--show-probs", "--no-history", "--timing"};
        const auto light = run(sample);
        QVERIFY2(light.code == 0, light.err.constData());
        const auto full = run(sample, {}, {"TWB_TORCH_FREE=0"});
        QVERIFY2(full.code == 0, full.err.constData());
        const bool avx2 = light.err.contains("AVX2+FMA");
        if (avx2) {  // decode_weights auto takes the bf16 decoder only with AVX2+FMA
            QVERIFY2(light.err.contains("without libtorch") && light.err.contains("libtorch not loaded"),
                     light.err.constData());
            QVERIFY2(full.err.contains("with libtorch: TWB_TORCH_FREE=0") && full.err.contains("libtorch loaded"),
                     full.err.constData());
        }
        QCOMPARE(light.out, full.out);
        auto probs = [](const QByteArray& err) {  // --show-probs' lines: each token's probability and alternatives
            QByteArrayList lines;
            for (const auto& l : err.split('\n'))
                if (l.startsWith('['))
                    lines << l;
            return lines;
        };
        QCOMPARE(probs(light.err).size(), 60);
        QCOMPARE(probs(light.err), probs(full.err));
        // Beams go to twb-torch (and say so with --timing); so do errors, in its words.
        const auto beam = run({"sample", "--run", runDir, "-n", "5", "--beam", "2", "--no-history", "--timing"});
        QVERIFY2(beam.code == 0, beam.err.constData());
        QVERIFY2(beam.err.contains("with libtorch: more than one sequence"), beam.err.constData());
        const auto missing = run({"sample", "--run", runDir + "/nothing-here", "-n", "5"});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.startsWith("twb: error: ") && missing.err.count('\n') == 1, missing.err.constData());
        const auto version = run({"--version"});
        QCOMPARE(version.code, 0);
        QVERIFY(version.out.startsWith("twb "));
    }
    void embeddingsNearSimilarityAndMap() {
        // A tiny char run; the three modes agree with each other and with the corpus's own counts.
        const auto in = twbtest::path(m_dir, "emb.txt");
        const std::string text = twbtest::english_like(20000, 5);
        twbtest::write(in, text);
        const QString data = QString::fromStdString(twbtest::path(m_dir, "emb-data").string());
        const QString runDir = QString::fromStdString(twbtest::path(m_dir, "emb-run").string());
        QVERIFY(run({"prepare", "--input", QString::fromStdString(in.string()), "--out", data, "--quiet"}).code == 0);
        auto t = run({"train", "--data", data, "--out", runDir, "--preset", "tiny", "--quiet", "--set", "max_iters=2",
                      "--set", "eval_interval=2", "--set", "eval_iters=1", "--set", "n_layer=1", "--set", "threads=1"});
        QVERIFY2(t.code == 0, t.err.constData());

        auto n = run({"embeddings", "--run", runDir, "--near", "o", "-k", "3"});
        QVERIFY2(n.code == 0, n.err.constData());
        const auto lines = n.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4);  // a title and k = 3 neighbours
        QVERIFY2(lines[0].startsWith("nearest to \"o\" (token "), lines[0].constData());
        // "  1  +0.1234      5  e": rank, similarity, id, token.
        const auto first = lines[1].simplified().split(' ');
        QCOMPARE(first.size(), 4);
        QCOMPARE(first[0], QByteArray("1"));
        const double nearSim = first[1].toDouble();
        const QByteArray token = first[3];
        QVERIFY(token != "o");  // the word itself is left out
        for (int i = 2; i < 4; ++i)
            QVERIFY(lines[i].simplified().split(' ')[1].toDouble() <= nearSim);

        // The same pair through --similarity gives the same cosine (printed with more digits).
        // (The listing shows a space as U+00B7 and a newline as U+21B5.)
        const QString raw = QString::fromUtf8(token).replace(QChar(0xB7), ' ').replace(QChar(0x21B5), '\n');
        auto sm = run({"embeddings", "--run", runDir, "--similarity", "o", raw});
        QVERIFY2(sm.code == 0, sm.err.constData());
        QVERIFY2(sm.out.startsWith("similarity "), sm.out.constData());
        QVERIFY(std::abs(sm.out.split(' ')[1].toDouble() - nearSim) < 1e-4);
        auto self = run({"embeddings", "--run", runDir, "--similarity", "the", "the"});
        QVERIFY(std::abs(self.out.split(' ')[1].toDouble() - 1) < 1e-6);

        // The map: the 10 most frequent tokens, the first the corpus's most frequent character (space),
        // with its count over the whole text (train + val).
        const QString csv = QString::fromStdString(twbtest::path(m_dir, "map.csv").string());
        auto m = run({"embeddings", "--run", runDir, "--map", "10", "--out", csv});
        QVERIFY2(m.code == 0, m.err.constData());
        QVERIFY2(m.err.contains("most frequent tokens"), m.err.constData());
        const auto rows = QByteArray::fromStdString(twb_read(csv)).trimmed().split('\n');
        QCOMPARE(rows.size(), 11);
        QCOMPARE(rows[0], QByteArray("id,token,count,x,y"));
        const auto spaces = static_cast<long long>(std::count(text.begin(), text.end(), ' '));
        QVERIFY2(rows[1].contains(",\" \"," + QByteArray::number(spaces) + ","), rows[1].constData());
        // An existing file is replaced only when asked.
        auto again = run({"embeddings", "--run", runDir, "--map", "5", "--out", csv});
        QVERIFY2(again.code != 0 && again.err.contains("--force"), again.err.constData());
        QCOMPARE(QByteArray::fromStdString(twb_read(csv)).trimmed().split('\n').size(), 11);
        again = run({"embeddings", "--run", runDir, "--map", "5", "--out", csv, "--force"});
        QVERIFY2(again.code == 0, again.err.constData());
        QCOMPARE(QByteArray::fromStdString(twb_read(csv)).trimmed().split('\n').size(), 6);

        // Bad input: one line naming the problem, non-zero exit, no output file.
        auto bad = run({"embeddings", "--run", runDir, "--near", "日"});
        QVERIFY(bad.code != 0);
        QCOMPARE(bad.err.count('\n'), 1);
        QVERIFY2(bad.err.startsWith("twb: error: ") && bad.err.contains("日"), bad.err.constData());
        auto none = run({"embeddings", "--run", runDir});
        QVERIFY(none.code != 0);
        QVERIFY2(none.err.contains("--near WORD, --similarity A B or --map N"), none.err.constData());
        const QString csv2 = QString::fromStdString(twbtest::path(m_dir, "map2.csv").string());
        QVERIFY(run({"embeddings", "--run", runDir, "--map", "1", "--out", csv2}).code != 0);
        QVERIFY(!QFile::exists(csv2));
    }
    void trainResumeInitFromInterruptEval() {
        // twb train end to end: a run, the refusal to overwrite it, --resume, --init-from, Ctrl-C
        // (SIGINT) writing a checkpoint and exiting 130, and eval's figures agreeing with each other.
        const auto in = twbtest::path(m_dir, "e2e.txt");
        twbtest::write(in, twbtest::english_like(20000, 5));
        const QString data = QString::fromStdString(twbtest::path(m_dir, "e2e-data").string());
        QCOMPARE(run({"prepare", "--input", QString::fromStdString(in.string()), "--out", data, "--quiet"}).code, 0);
        const QString a = QString::fromStdString(twbtest::path(m_dir, "e2e-a").string());
        const QStringList small{
            "--data",    data,        "--preset", "tiny",         "--set",         "n_layer=1",      "--set",
            "n_embd=32", "--set",     "n_head=2", "--set",        "block_size=16", "--set",          "batch_size=4",
            "--set",     "threads=1", "--set",    "eval_iters=1", "--set",         "eval_interval=2"};
        auto t = run(QStringList{"train", "--out", a, "--set", "max_iters=2"} + small);
        QVERIFY2(t.code == 0, t.err.constData());
        QVERIFY2(t.out.contains("finished at step 2"), t.out.constData());
        QVERIFY(QFile::exists(a + "/checkpoints/step_00000002/model.safetensors"));

        auto again = run(QStringList{"train", "--out", a, "--set", "max_iters=2"} + small);
        QCOMPARE(again.code, 1);
        QCOMPARE(again.err.count('\n'), 1);
        QVERIFY2(again.err.startsWith("twb: error: ") && again.err.contains("--resume"), again.err.constData());

        // --resume continues the run's own config: no --preset or --data, only --set changes.
        auto resumed = run(QStringList{"train", "--out", a, "--resume", "--set", "max_iters=4"});
        QVERIFY2(resumed.code == 0, resumed.err.constData());
        QVERIFY2(resumed.out.contains("from step 2") && resumed.out.contains("finished at step 4"),
                 resumed.out.constData());
        // Resuming a finished run says there was nothing to do (it printed "last val loss nan").
        auto done = run(QStringList{"train", "--out", a, "--resume"});
        QVERIFY2(done.code == 0, done.err.constData());
        QVERIFY2(done.out.contains("nothing left to train") && !done.out.contains("nan"), done.out.constData());
        // No checkpoint evaluated (max_iters=0): no best is printed (it read "best val loss nan (step -1)").
        const QString z = QString::fromStdString(twbtest::path(m_dir, "e2e-z").string());
        // A config file's key of the other family did nothing without a word (--set of it is refused).
        const auto cfg = twbtest::path(m_dir, "e2e-cfg.json");
        twbtest::write(cfg, R"({"max_epochs": 3, "n_layer": 1})");
        auto zero = run(
            QStringList{"train", "--out", z, "--set", "max_iters=0", "--config", QString::fromStdString(cfg.string())} +
            small);
        QVERIFY2(zero.code == 0, zero.err.constData());
        QVERIFY2(zero.err.contains("e2e-cfg.json: max_epochs is for encoder-decoder runs") &&
                     zero.err.contains("it is ignored") && zero.err.count('\n') == 1,
                 zero.err.constData());
        QVERIFY2(zero.out.contains("finished at step 0: last val loss ") && !zero.out.contains("best") &&
                     !zero.out.contains("nan"),
                 zero.out.constData());

        const QString b = QString::fromStdString(twbtest::path(m_dir, "e2e-b").string());
        auto ft = run(
            QStringList{"train", "--out", b, "--init-from", a, "--init-checkpoint", "last", "--set", "max_iters=1"} +
            small);
        QVERIFY2(ft.code == 0, ft.err.constData());
        QVERIFY2(ft.err.contains("initialised weights from") && ft.err.contains("step_00000004"), ft.err.constData());

        // Ctrl-C: wait until training prints its first step, then interrupt. No evaluation is due before
        // the stop (a fast machine can pass step 2 before the signal lands), so its checkpoint is the only one.
        const QString c = QString::fromStdString(twbtest::path(m_dir, "e2e-c").string());
        QProcess p;
        p.start(twbBinary(), QStringList{"train", "--out", c, "--set", "max_iters=1000000", "--set", "log_interval=1"} +
                                 small + QStringList{"--set", "eval_interval=1000000"});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        while (!out.contains("step ") || !out.contains("loss")) {
            QVERIFY2(p.waitForReadyRead(120000), "twb train printed no step");
            out += p.readAllStandardOutput();
        }
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(120000));
        out += p.readAllStandardOutput();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(out.contains("stopped at step") && out.contains("--resume"), out.constData());
        const auto steps = QDir(c + "/checkpoints").entryList({"step_*"}, QDir::Dirs);
        QCOMPARE(steps.size(), 1);
        const auto stopped = QRegularExpression("stopped at step ([0-9]+)").match(QString::fromUtf8(out));
        QVERIFY2(stopped.hasMatch(), out.constData());
        QCOMPARE(steps.front(), QString("step_%1").arg(stopped.captured(1).toLongLong(), 8, 10, QChar('0')));

        auto e = run({"eval", "--run", a, "--checkpoint", "last"});
        QVERIFY2(e.code == 0, e.err.constData());
        const auto figure = [&](const char* name) {
            const auto m = QRegularExpression(QString("%1 +([0-9.]+)").arg(name)).match(QString::fromUtf8(e.out));
            return m.hasMatch() ? m.captured(1).toDouble() : NAN;
        };
        const double loss = figure("loss"), ppl = figure("perplexity"), bpc = figure("bits/char"),
                     acc = figure("accuracy");
        QVERIFY2(loss > 0 && acc >= 0 && acc <= 1, e.out.constData());
        // Printed to 4 and 3 decimals: perplexity = exp(loss), bits/char = loss / ln 2 (one char a token).
        QVERIFY2(std::abs(ppl - std::exp(loss)) < 1e-3 + std::exp(loss) * 6e-5, e.out.constData());
        QVERIFY2(std::abs(bpc - loss / std::log(2.0)) < 2e-4, e.out.constData());
    }
    void exportMetricsWritesTensorBoardFiles() {
        // A run trained with tensorboard=false has no tb/; twb export-metrics makes it from metrics.csv
        // (tst_tensorboard checks the events; bench/tensorboard_reference.sh TensorBoard's reading of them).
        const auto in = twbtest::path(m_dir, "tb.txt");
        twbtest::write(in, twbtest::english_like(8000, 3));
        const QString data = QString::fromStdString(twbtest::path(m_dir, "tb-data").string());
        QCOMPARE(run({"prepare", "--input", QString::fromStdString(in.string()), "--out", data, "--quiet"}).code, 0);
        const QString r = QString::fromStdString(twbtest::path(m_dir, "tb-run").string());
        auto t = run({"train",        "--out",       r,           "--data",          data,
                      "--preset",     "tiny",        "--set",     "n_layer=1",       "--set",
                      "n_embd=16",    "--set",       "n_head=2",  "--set",           "block_size=8",
                      "--set",        "max_iters=4", "--set",     "eval_interval=2", "--set",
                      "eval_iters=1", "--set",       "threads=1", "--set",           "tensorboard=false"});
        QVERIFY2(t.code == 0, t.err.constData());
        QVERIFY(!QFile::exists(r + "/tb"));
        auto e = run({"export-metrics", r});
        QVERIFY2(e.code == 0, e.err.constData());
        const auto files = QDir(r + "/tb").entryList(QDir::Files);
        QCOMPARE(files.size(), 1);
        QVERIFY(files[0].startsWith("events.out.tfevents."));
        QVERIFY2(e.out.contains(files[0].toUtf8()) && e.out.contains("rows") && e.out.contains("tensorboard --logdir"),
                 e.out.constData());
        // Not a run: refused in one line, nothing written.
        auto bad = run({"export-metrics", data});
        QCOMPARE(bad.code, 1);
        QCOMPARE(bad.err.count('\n'), 1);
        QVERIFY2(bad.err.contains("is not a run"), bad.err.constData());
        QVERIFY(!QFile::exists(data + "/tb"));
        QVERIFY(run({"export-metrics", "--format", "csv", r}).code != 0);
        // Among several, the one that is not a run is said, and the run after it is exported all the same.
        QVERIFY(QDir(r + "/tb").removeRecursively());
        auto some = run({"export-metrics", data, r});
        QCOMPARE(some.code, 1);
        QVERIFY2(some.err.contains("twb: warning: " + data.toUtf8()) && some.err.contains("1 of 2 runs"),
                 some.err.constData());
        QCOMPARE(QDir(r + "/tb").entryList(QDir::Files).size(), 1);
    }
    void doctorAndDatasets() {
        auto d = run({"doctor", "--no-speed"});
        QCOMPARE(d.code, 0);
        QVERIFY2(d.out.contains("OpenMP"), d.out.constData());
        // The first line names twb's own version, as --version does (a pasted report did not say which build).
        const QByteArray version = run({"--version"}).out.trimmed();
        QVERIFY2(version.startsWith("twb 0.") && d.out.startsWith("twb             " + version.mid(4) + "\n"),
                 d.out.constData());
        auto ds = run({"datasets"});
        QCOMPARE(ds.code, 0);
        const auto entries = twb::load_catalogue();
        QVERIFY(!entries.empty());
        for (auto& entry : entries)
            QVERIFY2(ds.out.contains(QByteArray::fromStdString(entry.name)), entry.name.c_str());
        auto bad = run({"datasets", "--no-such-option"});
        QVERIFY(bad.code != 0);
        // Each entry suggests a preset that trains it: translation pairs an encoder-decoder's (multi30k
        // suggested baby-gpt, which twb train refuses for pairs).
        // Those entries say how their files make translation pairs, so twb prepare --preset gives the
        // dataset that preset trains (it gave a language model's text, which twb train then refused).
        for (auto& entry : entries) {
            const bool pairs = entry.format == "parallel" || entry.format == "tsv";
            QVERIFY2((twb::preset_config(entry.model_preset).model_kind == twb::ModelKind::EncoderDecoder) == pairs,
                     entry.name.c_str());
            QVERIFY2(entry.pairs.has_value() == pairs, entry.name.c_str());
        }
    }
    void pairsPresetPreparesAParallelDatasetWithItsSplits() {
        QTemporaryDir home, cat;
        nlohmann::json entry{{"name", "minipairs"},
                             {"title", "Mini pairs"},
                             {"format", "parallel"},
                             {"tokenizer", "byte"},
                             {"model_preset", "tatoeba"}};
        std::map<std::string, std::string> files;
        for (auto [split, n] : {std::pair{"train", 40}, {"val", 6}, {"test", 5}})
            for (const char* side : {"src", "tgt"}) {
                std::string text;
                for (int i = 0; i < n; ++i)
                    text += std::string(side) + " " + split + " sentence " + std::to_string(i) + "\n";
                files[std::string(split) + "." + side] = text;
            }
        for (auto& [name, text] : files)
            entry["files"].push_back({{"path", name}, {"url", "http://x/" + name}, {"bytes", text.size()}});
        entry["pairs"] = {{"source", "train.src"},   {"target", "train.tgt"},     {"val_source", "val.src"},
                          {"val_target", "val.tgt"}, {"test_source", "test.src"}, {"test_target", "test.tgt"},
                          {"source_lang", "xx"},     {"target_lang", "yy"}};
        twbtest::write(twbtest::path(cat, "catalogue.json"),
                       nlohmann::json{{"format_version", 1}, {"datasets", {entry}}}.dump());
        const QStringList env{"XDG_DATA_HOME=" + home.path(), "TWB_DATASETS_DIR=" + cat.path()};
        const auto dir = std::filesystem::path(home.path().toStdString()) / "transformer-workbench/downloads/minipairs";
        std::filesystem::create_directories(dir);
        for (auto& [name, text] : files)
            twbtest::write(dir / name, text);
        const QString out = home.path() + "/prepared";
        auto r = run({"prepare", "-q", "--preset", "minipairs", "--out", out}, {}, env);
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("pairs: train 40, val 6, test 5"), r.out.constData());  // the official splits
        const auto meta = nlohmann::json::parse(twb_read(out + "/meta.json"));
        QVERIFY(meta.contains("parallel"));
        QCOMPARE(meta["parallel"].value("source_lang", ""), std::string("xx"));
        // An entry whose pairs name a file it does not list is a broken catalogue, said as such.
        entry["pairs"]["test_source"] = "elsewhere.src";
        twbtest::write(twbtest::path(cat, "catalogue.json"),
                       nlohmann::json{{"format_version", 1}, {"datasets", {entry}}}.dump());
        auto broken = run({"prepare", "-q", "--preset", "minipairs", "--out", out + "2"}, {}, env);
        QVERIFY(broken.code != 0);
        QVERIFY2(broken.err.contains("elsewhere.src"), broken.err.constData());
    }
    void presetReadsTheGuisDownloads() {
        // A catalogue entry downloaded in the GUI lies in WORKSPACE/downloads/NAME; twb prepare --preset
        // looked only in the current folder.
        QTemporaryDir home, cat;
        nlohmann::json entry{{"name", "mini"}, {"title", "Mini"}, {"format", "text"}, {"tokenizer", "char"}};
        entry["files"] = {{{"path", "mini.txt"}, {"url", "http://x/mini.txt"}, {"bytes", 20000}}};
        twbtest::write(twbtest::path(cat, "catalogue.json"),
                       nlohmann::json{{"format_version", 1}, {"datasets", {entry}}}.dump());
        const QStringList env{"XDG_DATA_HOME=" + home.path(), "TWB_DATASETS_DIR=" + cat.path()};
        const QString out = home.path() + "/prepared";
        // A file of that name in the current folder is not the entry: it was prepared in its place.
        twbtest::write(twbtest::path(home, "mini.txt"), "not the dataset\n");
        auto missing = run({"prepare", "-q", "--preset", "mini", "--out", out}, {}, env, home.path());
        const auto dir = std::filesystem::path(home.path().toStdString()) / "transformer-workbench/downloads/mini";
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains(QByteArray::fromStdString(dir.string())), missing.err.constData());
        QVERIFY(!QFile::exists(out));
        std::filesystem::create_directories(dir);
        std::string text = twbtest::english_like(20000);
        text.resize(19999, 'a');  // a file that fails its check is named, not read
        twbtest::write(dir / "mini.txt", text);
        auto damaged = run({"prepare", "-q", "--preset", "mini", "--out", out}, {}, env, home.path());
        QCOMPARE(damaged.code, 1);
        QVERIFY2(damaged.err.contains("does not match the catalogue's size or checksum"), damaged.err.constData());
        text.resize(20000, 'a');  // the size the catalogue records (it has no sha256)
        twbtest::write(dir / "mini.txt", text);
        auto ok = run({"prepare", "-q", "--preset", "mini", "--out", out}, {}, env);
        QVERIFY2(ok.code == 0, ok.err.constData());
        QVERIFY(QFile::exists(out + "/meta.json"));
    }
    void openmpThreadsSleepInsteadOfSpinning() {
        // Unset, the wait policy becomes PASSIVE before OpenMP starts: libgomp's own report of the settings
        // it read (OMP_DISPLAY_ENV) says so. Both ways: lending the slot of a shell variable (`_` here),
        // and, when the environment has none of those, re-executing once. A user's own policy is kept.
        for (bool lendable : {true, false}) {
            QProcess p;
            auto env = QProcessEnvironment::systemEnvironment();
            env.remove("OMP_WAIT_POLICY");
            env.remove("TWB_WAIT_POLICY_SET");
            for (const char* v : {"_", "OLDPWD", "SHLVL", "PWD"})
                env.remove(v);
            if (lendable)
                env.insert("_", "/usr/bin/twb");
            env.insert("OMP_DISPLAY_ENV", "TRUE");
            p.setProcessEnvironment(env);
            p.start(twbBinary(), {"doctor", "--no-speed"});
            QVERIFY(p.waitForFinished(60000));
            const auto out = p.readAllStandardOutput(), err = p.readAllStandardError();
            QVERIFY2(out.contains("OpenMP waiting  PASSIVE"), "the policy was not set");
            QVERIFY2(err.contains("OMP_WAIT_POLICY = 'PASSIVE'"), err.constData());
        }
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove("TWB_WAIT_POLICY_SET");
        env.insert("OMP_WAIT_POLICY", "active");
        p.setProcessEnvironment(env);
        p.start(twbBinary(), {"doctor", "--no-speed"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY(p.readAllStandardOutput().contains("OpenMP waiting  active"));
    }
    void attentionOfATranslationRun() {
        // A tiny copy-task translation run: twb attention writes its three captures in one file.
        std::string pairs;
        for (int i = 0; i < 60; ++i) {
            const std::string s = std::string(1, static_cast<char>('a' + i % 5)) + " " +
                                  std::string(1, static_cast<char>('a' + (i / 5) % 5)) + " c";
            pairs += s + "\t" + s + "\n";
        }
        twbtest::write(twbtest::path(m_dir, "pairs.tsv"), pairs);
        const QString data = QString::fromStdString(twbtest::path(m_dir, "pairs-data").string());
        const QString runDir = QString::fromStdString(twbtest::path(m_dir, "pairs-run").string());
        auto p = run({"prepare", "--pairs", QString::fromStdString(twbtest::path(m_dir, "pairs.tsv").string()),
                      "--tokenizer", "word", "--out", data});
        QVERIFY2(p.code == 0, p.err.constData());
        QStringList train{"train", "--data", data, "--out", runDir, "--preset", "tatoeba", "--quiet"};
        for (const char* kv : {"max_iters=2", "max_epochs=0", "n_layer=1", "n_embd=16", "n_head=2", "ffn_hidden=32",
                               "block_size=8", "eval_interval=2", "threads=1"})
            train << "--set" << kv;
        auto t = run(train);
        QVERIFY2(t.code == 0, t.err.constData());
        const QString att = QString::fromStdString(twbtest::path(m_dir, "pair-att.json").string());
        auto a = run({"attention", "--run", runDir, "--text", "a b c", "--target", "a b", "--out", att});
        QVERIFY2(a.code == 0, a.err.constData());
        const auto back = twb::read_translation_attention_json(att.toStdString());
        QCOMPARE(back.cross.kind, twb::AttentionKind::Cross);
        QCOMPARE(back.cross.length, int64_t(3));  // a b <eos>
        QCOMPARE(back.cross.keys(), int64_t(4));  // a b c <eos>
        QCOMPARE(back.encoder.length, int64_t(4));
        QCOMPARE(back.decoder.length, int64_t(3));  // <bos> a b
        QVERIFY(!back.target_from_model);
        // The attribution table: values around 1e-3 all printed +0.00; a named power of ten shows them.
        auto at = run({"attribute", "--run", runDir, "--prompt", "a b c", "--target", "a b"});
        QVERIFY2(at.code == 0, at.err.constData());
        QString sources;  // the source columns of every row, between the first and second '|'
        for (const QString& line : QString::fromUtf8(at.out).split('\n').mid(2))
            sources += line.section('|', 1, 1);
        QVERIFY2(QRegularExpression("[+-](0\\.0[1-9]|0\\.[1-9]|[1-9])").match(sources).hasMatch(), at.out.constData());
        // The lens over the model's own translation names it (its columns are only the last decoder inputs)
        auto lens = run({"lens", "--run", runDir, "--checkpoint", "last", "--prompt", "a b c"});
        QVERIFY2(lens.code == 0 && lens.err.startsWith("target (the model's greedy translation): "),
                 lens.err.constData());
        // The training probe of cross-attention: one frame per evaluation (steps 0 and 2).
        QCOMPARE(twb::read_cross_probe(runDir.toStdString()).steps, (std::vector<int64_t>{0, 2}));
        // Into a log (stderr not a terminal), translate's progress is the final count alone, one line (it read
        // "translated 1/3\rtranslated 2/3...").
        auto tr =
            run({"translate", "--run", runDir, "--checkpoint", "last", "--batch-size", "1"}, "a b c\nb a c\nc c c\n");
        QVERIFY2(tr.code == 0, tr.err.constData());
        QCOMPARE(tr.out.count('\n'), 3);
        QVERIFY2(tr.err.contains("greedy\ntranslated 3/3\n") && !tr.err.contains('\r'), tr.err.constData());
        // A model trained for two steps never ends a sentence: every line is cut at the length limit, and named
        // (with --quiet too); a blank line is not.
        QVERIFY2(tr.err.contains("3 translations reached the length limit before the model ended them (lines 1, 2, "
                                 "3) and may be unfinished; the limit is --max-ratio 1.5 x source tokens + "
                                 "--max-extra 10, at most the model's 7"),
                 tr.err.constData());
        tr = run({"translate", "--run", runDir, "--checkpoint", "last", "--max-extra", "2", "-q"}, "a b c\n\nc c c\n");
        QVERIFY2(tr.code == 0, tr.err.constData());
        QVERIFY2(tr.err.contains("2 translations reached the length limit before the model ended them (lines 1, 3)"),
                 tr.err.constData());
        // The blank line is counted apart: "3 lines" then "translated 2/2" read as a line lost.
        tr = run({"translate", "--run", runDir, "--checkpoint", "last", "--max-extra", "2"}, "a b c\n \nc c c\n");
        QVERIFY2(tr.err.contains("3 lines (1 blank, kept blank), greedy\ntranslated 2/2\n"), tr.err.constData());
        // Bytes that are not UTF-8 are placed (it said "not UTF-8 text" alone).
        tr = run({"translate", "--run", runDir, "--checkpoint", "last"}, QByteArray("a b\nc \xe9\n"));
        QVERIFY2(tr.code == 1 && tr.err.contains("stdin: not UTF-8 text (line 2, byte offset 6)"), tr.err.constData());
        // A NUL byte is no sentence's (binary data, UTF-16 without its mark): it was translated as text.
        tr = run({"translate", "--run", runDir, "--checkpoint", "last"}, QByteArray("a b\nc \0 d\n", 9));
        QVERIFY2(tr.code == 1 && tr.err.contains("stdin: not text: a NUL byte (line 2, byte offset 6)"),
                 tr.err.constData());
        tr = run({"translate", "--run", runDir, "--checkpoint", "last", "--max-ratio", "inf"}, "a b\n");
        QVERIFY2(tr.code == 1 && tr.err.contains("a positive, finite number"), tr.err.constData());
        // Ctrl-C keeps what is translated, line for line (a beam search wrote nothing at all): the output
        // is written as it comes.
        const QString one = QString::fromUtf8(
            run({"translate", "--run", runDir, "--checkpoint", "last", "--beam", "2", "-q"}, "a b c\n").out);
        QVERIFY(one.endsWith('\n'));
        QByteArray many;
        for (int i = 0; i < 100000; ++i)
            many += "a b c\n";
        QProcess big;
        big.start(twbBinary(), {"translate", "--run", runDir, "--checkpoint", "last", "--beam", "2"});
        QVERIFY(big.waitForStarted());
        big.write(many);
        big.closeWriteChannel();
        QVERIFY(big.waitForReadyRead(60000));
        while (!big.bytesAvailable() && big.waitForReadyRead(60000)) {
        }  // the stderr header came first; now the first translated lines
        ::kill(static_cast<pid_t>(big.processId()), SIGINT);
        QVERIFY(big.waitForFinished(60000));
        QCOMPARE(big.exitCode(), 130);
        const QString out = QString::fromUtf8(big.readAllStandardOutput());
        const QString err = QString::fromUtf8(big.readAllStandardError());
        const int k = static_cast<int>(out.count('\n'));
        QVERIFY2(k > 0 && k < 100000, qPrintable(err));
        QVERIFY2(err.contains(QString("twb: stopped: the first %1 of 100000 lines are written").arg(k)),
                 qPrintable(err));
        QCOMPARE(out, one.repeated(k));
        // eval's options for a language model are refused for a translation run (--max-tokens was ignored:
        // every pair scored all the same).
        for (const QStringList& extra : {QStringList{"--max-tokens", "100"}, QStringList{"--text", att}}) {
            auto e = run(QStringList{"eval", "--run", runDir, "--checkpoint", "last"} + extra);
            QCOMPARE(e.code, 1);
            QVERIFY2(e.err.contains((extra[0] + " is for language-model runs").toUtf8()), e.err.constData());
        }
    }
    void tokenizeShowsControlBytesInItsError() {
        // Binary on stdin: the error names the bytes the vocabulary lacks as symbols, never the raw bytes (an
        // escape sequence would recolour the terminal).
        const auto in = twbtest::path(m_dir, "letters.txt");
        twbtest::write(in, twbtest::english_like(3000));
        const QString data = QString::fromStdString(twbtest::path(m_dir, "letters-data").string());
        QVERIFY(run({"prepare", "--input", QString::fromStdString(in.string()), "--out", data, "--quiet"}).code == 0);
        auto r = run({"tokenize", "--data", data}, QByteArray("\x1b[31mab\x07\x01", 9));
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("'\u241B' (U+001B)") && r.err.contains("'\u2407' (U+0007)") &&
                     r.err.contains("'\u2401' (U+0001)"),
                 r.err.constData());  // the picture, and which character it stands for
        for (int i = 0; i + 1 < r.err.size(); ++i)
            QVERIFY2(static_cast<unsigned char>(r.err[i]) >= 0x20, r.err.constData());
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
        // A mistyped command is named (it read "A subcommand is required"); a range is whole numbers (it
        // printed the largest double, 309 digits).
        auto typo = run({"trian", "--data", "d"});
        QCOMPARE(typo.code, 106);
        QVERIFY2(typo.err.startsWith("twb: error: 'trian' is not a twb command; the commands are prepare,"),
                 typo.err.constData());
        // A mistyped option is named with the nearest one (a mistyped --run read "--run is required", exit 106)
        for (const auto& [args, said] : std::vector<std::pair<QStringList, QByteArray>>{
                 {{"sample", "--rn", "r"}, "unknown option --rn (did you mean --run?)"},
                 {{"sample", "--run", "r", "--temprature", "0.5"},
                  "unknown option --temprature (did you mean --temperature?)"},
                 {{"train", "--data", "d", "--out", "o", "--frobnicate"},
                  "unknown option --frobnicate for twb train"}}) {
            const auto o = run(args);
            QCOMPARE(o.code, 109);
            QVERIFY2(o.err.startsWith("twb: error: " + said) && o.err.count('\n') == 1, o.err.constData());
        }
        auto range = run({"sweep", "--random", "0", "--data", "d", "--out", "o"});
        QVERIFY2(range.err.contains("--random: Value 0 not in range 1 to 1000000"), range.err.constData());
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
        // An existing file is replaced only when asked.
        auto again = run({"synth", "--task", "copy", "-n", "3", "--out", out});
        QVERIFY(again.code != 0);
        QVERIFY2(again.err.contains("already exists") && again.err.contains("--force"), again.err.constData());
        QCOMPARE(twb_read(out), twb::generate_synthetic(s));
        again = run({"synth", "--task", "addition", "--digits", "4", "--reversed", "-n", "30", "--seed", "5", "--out",
                     out, "--force"});
        QVERIFY2(again.code == 0, again.err.constData());
        QCOMPARE(twb_read(out), twb::generate_synthetic(s));
        auto bad = run({"synth", "--task", "divide", "--out", out, "--force"});
        QVERIFY(bad.code != 0);
        QVERIFY2(bad.err.contains("addition,copy,reverse,sort,instructions"),
                 qPrintable(bad.err));  // the choices named
    }
    void labelSaysRunJsonIsDamaged() {
        // A damaged run.json read as "name: (none)" without a word, and --name then rewrote it, losing its notes.
        const auto dir = twbtest::path(m_dir, "labelled");
        std::filesystem::create_directories(dir);
        twbtest::write(dir / "config.json", "{}");
        twbtest::write(dir / "run.json", "{bad");
        const QString d = QString::fromStdString(dir.string());
        auto r = run({"label", d});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.startsWith("twb: warning: ") && r.err.contains("run.json is damaged (not valid JSON)"),
                 r.err.constData());
        QVERIFY(r.out.contains("name:    (none)"));
        QVERIFY2(r.out.contains(" (config.json's time: run.json is damaged)\n"), r.out.constData());  // not the run's
        r = run({"label", d, "--name", "x"});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("fix it by hand or delete it"), r.err.constData());
        QCOMPARE(twb_read(QString::fromStdString((dir / "run.json").string())), std::string("{bad"));
        std::filesystem::remove(dir / "run.json");
        r = run({"label", d, "--name", "x"});
        QVERIFY2(r.code == 0 && r.err.isEmpty(), r.err.constData());
        QVERIFY(r.out.contains("name:    x"));
    }
    void chatPreparesTrainsAndAnswers() {
        // Synthetic instructions -> a chat dataset -> a few steps -> two turns with --message, recorded.
        const QString dir = QString::fromStdString(twbtest::path(m_dir, "").string());
        auto r = run({"synth", "--task", "instructions", "-n", "200", "--out", dir + "/ins.jsonl"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = run({"prepare", "--chat", dir + "/ins.jsonl", "--out", dir + "/chat-data"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("template twb-chat-1"));
        r = run({"train", "--data", dir + "/chat-data", "--out", dir + "/chat-run", "--preset", "tiny", "--set",
                 "max_iters=10", "--set", "eval_interval=10", "--set", "eval_iters=1", "--set", "block_size=32", "-q"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = run({"chat", "--run", dir + "/chat-run", "--greedy", "-n", "5", "-m", "reverse: abc", "-m", "upper: ab"});
        QVERIFY2(r.code == 0, r.err.constData());
        auto turns = twb::read_chat_history((dir + "/chat-run").toStdString());
        QCOMPARE(turns.size(), size_t(4));
        QCOMPARE(turns[0].message.content, std::string("reverse: abc"));
        QCOMPARE(turns[3].message.role, twb::ChatRole::Assistant);
        QCOMPARE(turns[3].source, std::string("cli"));
        QVERIFY(r.out.startsWith(QByteArray::fromStdString(turns[1].message.content)));  // the replies, printed
        // Without libtorch (twb itself) and with it (twb-torch): the same sampled replies for a seed.
        const QStringList sampled{"chat", "--run", dir + "/chat-run", "--no-history", "-t", "0.9", "--seed", "7", "-n",
                                  "12",   "-m",    "copy: abc"};
        const auto light = run(sampled), full = run(sampled, {}, {"TWB_TORCH_FREE=0"});
        QVERIFY2(light.code == 0 && full.code == 0, (light.err + full.err).constData());
        QCOMPARE(light.out, full.out);
        QCOMPARE(twb::read_chat_history((dir + "/chat-run").toStdString()).size(), size_t(4));  // --no-history
        // --new starts conversation 2; stdin (not a terminal) gives one message per line.
        r = run({"chat", "--run", dir + "/chat-run", "--new", "--greedy", "-n", "3"}, "sort: ba\ncopy: ab\n");
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(twb::latest_chat((dir + "/chat-run").toStdString()).conversation, int64_t(2));
        QCOMPARE(twb::latest_chat((dir + "/chat-run").toStdString()).messages.size(), size_t(4));
        // From a pipe, /new and /quit are the terminal's commands, not messages to the model.
        r = run({"chat", "--run", dir + "/chat-run", "--greedy", "-n", "3"}, "/new\ncopy: ab\n/quit\nsort: ba\n");
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(twb::latest_chat((dir + "/chat-run").toStdString()).conversation, int64_t(3));
        QCOMPARE(twb::latest_chat((dir + "/chat-run").toStdString()).messages.size(), size_t(2));
        // Bytes that are not UTF-8: each becomes U+FFFD for the model and the history, and it is said.
        r = run({"chat", "--run", dir + "/chat-run", "--greedy", "-n", "3"},
                "copy: a\xff"
                "b\n");
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("the message is not valid UTF-8 (byte 8)"), r.err.constData());
        QCOMPARE(twb::latest_chat((dir + "/chat-run").toStdString()).messages.at(2).content,
                 std::string("copy: a\xEF\xBF\xBD"
                             "b"));
        // A bad record: one line naming the file and line, no dataset left.
        twbtest::write(twbtest::path(m_dir, "bad.jsonl"),
                       "{\"instruction\": \"x\", \"output\": \"y\"}\n{\"input\": 1}\n");
        r = run({"prepare", "--chat", dir + "/bad.jsonl", "--out", dir + "/bad-data"});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("bad.jsonl:2: has no \"instruction\""), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFile::exists(dir + "/bad-data"));
    }
    void helpDescribesOptions() {
        auto r = run({"prepare", "--help"});
        QCOMPARE(r.code, 0);
        for (auto opt : {"--input", "--tokenizer", "--vocab-size", "--val-fraction", "--clean", "--format", "--out"})
            QVERIFY2(r.out.contains(opt), opt);
        auto top = run({"--help"});
        for (auto cmd :
             {"prepare", "tokenize", "synth", "train", "eval", "sample", "attention", "doctor", "embeddings"})
            QVERIFY2(top.out.contains(cmd), cmd);
        // train trains both families, and names every preset (it said "Train a GPT model" and named 4 of 6).
        QVERIFY2(top.out.contains("translation model"), top.out.constData());
        auto train = run({"train", "--help"});
        for (const auto& name : twb::preset_config_names())
            QVERIFY2(train.out.contains(QByteArray::fromStdString(" " + name + " (")), name.c_str());
    }

private:
    static std::string twb_read(const QString& p) {
        QFile f(p);
        f.open(QIODevice::ReadOnly);
        return f.readAll().toStdString();
    }
};

TWB_APPLESS_MAIN(TestCli)
#include "tst_cli.moc"
