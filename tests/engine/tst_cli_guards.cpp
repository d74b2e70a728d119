// What twb does beside refusing bad input (tst_bad_input's table): it replaces a file you named only
// with --force, warns and goes on where a run or a prompt is nearly all unknown words or no-repeat-ngram
// leaves no token, warns of more threads than cores, starts afresh over a run that never checkpointed,
// holds one trainer per run folder (the run lock), lists only the runs a filter names, checkpoints and exits 130 on
// SIGTERM (the resume works), leaves nothing of an interrupted prepare, and prints of a --stop sample just what it
// keeps; eval --samples leaves an empty output out and weighs each output by its tokens; prepare warns of a
// --vocab-size its tokenizer cannot take, and eval on a chat dataset says only the replies count.
#include "twb/config.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "twb/samples_history.h"
#include "twb/sweep.h"
#include "twb_process.h"

#include <QRegularExpression>
#include <QSet>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <csignal>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using json = nlohmann::json;
using twbtest::last_checkpoint;
using twbtest::Out;
using twbtest::q;
using twbtest::slurp;

namespace {
Out run(const QStringList& args) {
    return twbtest::run_twb(args);
}
}  // namespace

class TestCliGuards : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path m_root, m_in, m_data, m_run;

    fs::path p(const std::string& name) const { return m_root / name; }
    /// A training run into runDir that goes on until it is stopped (one layer, one thread).
    void startEndlessTraining(QProcess& t, const fs::path& runDir) const {
        t.start(twbtest::twb_program(),
                {"train", "--data", q(m_data), "--out", q(runDir), "--preset", "tiny", "--set", "max_iters=100000",
                 "--set", "n_layer=1", "--set", "threads=1", "--set", "eval_iters=1"});
    }

private slots:
    void initTestCase() {
        m_root = fs::path(m_dir.path().toStdString());
        m_in = p("corpus.txt");
        m_data = p("data");
        m_run = p("run");
        const QString failed = twbtest::make_cli_run(m_root);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
    }

    void aFileOutputReplacesAnExistingFileOnlyWithForce_data() {
        QTest::addColumn<QStringList>("args");  // the command, then its output option (the file follows)
        QTest::addColumn<QString>("head");      // how the written file begins
        const QString data = q(m_data), runDir = q(m_run);
        const QString prompts = q(p("prompts.txt"));
        const QStringList lrFind{"lr-find",   "--data",       data,        "--preset",      "tiny",
                                 "--steps",   "10",           "--max-lr",  "1e-2",          "--set",
                                 "n_layer=1", "--set",        "n_embd=32", "--set",         "n_head=2",
                                 "--set",     "batch_size=4", "--set",     "block_size=32", "--set",
                                 "threads=1", "--out"};
        QTest::newRow("lr-find --out") << lrFind << "step,lr,loss,smoothed\n";
        QTest::newRow("generate-eval --out")
            << QStringList{"generate-eval", "--run", runDir, "--prompts", prompts, "--setting",
                           "greedy",        "-n",    "2",    "--quiet",   "--out"}
            << "# Generations of ";
        QTest::newRow("lens --csv") << QStringList{"lens", "--run", runDir, "--prompt", "the", "--csv"}
                                    << "stage,position,input_token,";
        QTest::newRow("attribute --csv") << QStringList{"attribute", "--run",    runDir, "--prompt",
                                                        "the",       "--target", "e",    "--csv"}
                                         << "position,token_id,token,gradient_x_input,rollout\n";
        QTest::newRow("ablate --csv") << QStringList{"ablate", "--run",        runDir, "--heads",
                                                     "0.0",    "--max-tokens", "64",   "--csv"}
                                      << "heads_off,loss,cost\n";
    }
    void aFileOutputReplacesAnExistingFileOnlyWithForce() {
        // Every file output refuses an existing file, which stays as it was, and replaces it with --force
        // (lr-find, generate-eval, lens, attribute and ablate used to replace it silently).
        QFETCH(QStringList, args);
        QFETCH(QString, head);
        twbtest::write(p("prompts.txt"), "the \nand a\n");
        const fs::path file = p("mine.csv");
        twbtest::write(file, "a user's file\n");
        const Out refused = run(args + QStringList{q(file)});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains(
                     (file.string() + " already exists; choose another name or replace it (--force)").c_str()),
                 refused.err.constData());
        QCOMPARE(slurp(file), std::string("a user's file\n"));
        const Out replaced = run(args + QStringList{q(file), "--force"});
        QVERIFY2(replaced.code == 0, replaced.err.constData());
        const std::string written = slurp(file);
        QVERIFY2(written.rfind(head.toStdString(), 0) == 0, written.substr(0, 200).c_str());
        fs::remove(file);
        fs::remove(p("prompts.txt"));
    }

    void aNewRunReplacesTheMetricsOfOneThatNeverCheckpointed() {
        // Killed before its first checkpoint, a run leaves config.json and metrics.csv; training into the
        // same folder again starts afresh instead of appending to the old rows (issue 35).
        const fs::path dir = p("restart");
        fs::create_directories(dir);
        fs::copy_file(m_run / "config.json", dir / "config.json");
        twbtest::write(dir / "metrics.csv", "step,kind\n0,train\n1,train\n2,train\n");
        const Out r =
            run({"train", "--data", q(m_data), "--out", q(dir), "--preset", "tiny", "--quiet", "--set", "max_iters=2",
                 "--set", "eval_interval=2", "--set", "eval_iters=1", "--set", "n_layer=1", "--set", "threads=1"});
        QVERIFY2(r.code == 0, r.err.constData());
        const std::string metrics = slurp(dir / "metrics.csv");
        QVERIFY2(metrics.find("step,kind\n") == std::string::npos, metrics.c_str());  // the old header is gone
        int steps0 = 0;
        for (size_t at = 0; (at = metrics.find("\n0,train", at)) != std::string::npos; ++at)
            ++steps0;
        QVERIFY2(steps0 <= 1, metrics.c_str());
        fs::remove_all(dir);
    }
    void runsListsOnlyWhatTheFilterNames() {
        // twb runs of a workspace printed every run; --filter keeps those holding every word, in any case.
        const Out some = run({"runs", q(m_root), "--filter", "DATA run", "--format", "csv"});
        QVERIFY2(some.code == 0, some.err.constData());
        QCOMPARE(some.out.count('\n'), 2);  // the header and the run
        QVERIFY2(some.out.contains("\nrun,"), some.out.constData());
        const Out none = run({"runs", q(m_root), "--filter", "run no-such-word"});
        QVERIFY(none.code != 0);
        QVERIFY2(none.err.contains("matches --filter \"run no-such-word\""), none.err.constData());
    }
    void unknownWordsAreWarnedAbout() {
        // Issue 35: a dataset that is nearly all <unk> trained to "val accuracy 1.0000" without a word, and
        // a prompt or a text of only unknown words was sampled or scored silently.
        const fs::path data = p("unkdata"), runDir = p("unkrun");
        Out r = run({"prepare", "--input", q(m_in), "--tokenizer", "word", "--min-frequency", "1000000", "--out",
                     q(data), "--quiet"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = run({"train", "--data", q(data), "--out", q(runDir), "--preset", "tiny", "--quiet", "--set", "max_iters=2",
                 "--set", "eval_interval=2", "--set", "eval_iters=1", "--set", "n_layer=1", "--set", "threads=1"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(
            r.err.contains("twb: warning: ") && r.err.contains("of the train split of") && r.err.contains("is <unk>"),
            r.err.constData());
        r = run({"sample", "--run", q(runDir), "--prompt", "zzzz qqqq", "-n", "3", "--no-history"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("twb: warning: every word of the prompt is unknown"), r.err.constData());
        twbtest::write(p("unknown.txt"), "zzzz qqqq wwww xxxx\n");
        r = run({"eval", "--run", q(runDir), "--text", q(p("unknown.txt"))});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("twb: warning: 100% of the text's tokens are <unk>"), r.err.constData());
        fs::remove(p("unknown.txt"));
        fs::remove_all(data);
        fs::remove_all(runDir);
    }
    void aCroppedPromptIsWarnedAbout() {
        // lens and attribute took the last block_size tokens of a longer prompt without a word (attention
        // says it); a range finder's bounds were printed as 0.000000.
        std::string longPrompt;
        for (int i = 0; i < 200; ++i)
            longPrompt += "the cat ";
        const QString prompt = QString::fromStdString(longPrompt);
        Out r = run({"lens", "--run", q(m_run), "--prompt", prompt});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("twb: warning: the text has ") && r.err.contains("the lens shows the last"),
                 r.err.constData());
        r = run({"attribute", "--run", q(m_run), "--prompt", prompt, "--target", "e"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("twb: warning: the prompt has "), r.err.constData());
        r = run({"lens", "--run", q(m_run), "--prompt", "the"});
        QVERIFY2(!r.err.contains("warning"), r.err.constData());
        r = run({"lr-find", "--data", q(m_data), "--preset", "tiny", "--min-lr", "1e-9", "--max-lr", "1e-10"});
        QVERIFY2(r.code != 0 && r.err.contains("got 1e-09 and 1e-10"), r.err.constData());
    }
    void noRepeatNgramThatExhaustsTheVocabularyStopsWithAWarning_data() {
        QTest::addColumn<QStringList>("mode");
        QTest::newRow("sampling") << QStringList{"--temperature", "1", "--seed", "1"};
        QTest::newRow("greedy") << QStringList{"--greedy"};
        QTest::newRow("beam") << QStringList{"--beam", "2"};
    }
    void noRepeatNgramThatExhaustsTheVocabularyStopsWithAWarning() {
        QFETCH(QStringList, mode);
        const Out r = run(QStringList{"sample", "--run", q(m_run), "--checkpoint", "last", "--prompt", "the",
                                      "--no-repeat-ngram", "1", "-n", "200", "--no-history"} +
                          mode);
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("twb: warning: no-repeat-ngram 1 left no token"), r.err.constData());
        // The rule held: no character repeats in prompt + output (char tokenizer).
        QString text = QString::fromUtf8(r.out).trimmed();
        if (mode.contains("--beam"))
            text = text.section('\n', -1);
        QSet<QChar> seen;
        for (QChar c : text) {
            QVERIFY2(!seen.contains(c), qPrintable("repeated '" + QString(c) + "' in " + text));
            seen.insert(c);
        }
    }

    void aBeamOfOneIsGreedy() {
        // --beam 1 promised determinism but sampled at temperature 0.8: two seeds, two texts.
        auto sample = [&](const QStringList& mode) {
            const Out r = run(QStringList{"sample", "--run", q(m_run), "--checkpoint", "last", "--prompt", "the", "-n",
                                          "40", "--no-history"} +
                              mode);
            return r.code == 0 ? r.out : "failed: " + r.err;
        };
        const QByteArray greedy = sample({"--greedy"});
        QVERIFY(!greedy.startsWith("failed"));
        QCOMPARE(sample({"--beam", "1", "--seed", "4"}), greedy);
        QCOMPARE(sample({"--beam", "1", "--seed", "5"}), greedy);
    }

    void aRepeatedSetIsSaidAndTheLastCounts() {
        // One step of a one-layer model, with the settings given.
        auto train = [&](const fs::path& runDir, const QStringList& sets) {
            QStringList args{"train",   "--data", q(m_data),   "--out", q(runDir),   "--preset", "tiny",
                             "--quiet", "--set",  "n_layer=1", "--set", "threads=1", "--set",    "eval_iters=1"};
            for (const QString& s : sets)
                args << "--set" << s;
            return run(args);
        };
        // --set max_iters=1 --set max_iters=2: the later one counts (as nanoGPT's overrides), but not unsaid.
        const Out r = train(p("twice"), {"max_iters=1", "max_iters=2"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("--set max_iters=2 replaces --set max_iters=1"), r.err.constData());
        QCOMPARE(twb::read_run_config(p("twice")).max_iters, 2);
        // A learning rate below the preset's min_lr (a finetune's 1e-5) takes min_lr down with it, said.
        const Out l = train(p("low-lr"), {"max_iters=1", "learning_rate=1e-5"});
        QVERIFY2(l.code == 0, l.err.constData());
        QVERIFY2(l.err.contains("it is now 1e-06, a tenth of it"), l.err.constData());
        QCOMPARE(twb::read_run_config(p("low-lr")).min_lr, 1e-6);
        // A key of the other family set to its default undoes a preset's (a decoder from --preset multi30k
        // needs best_by=loss), so it is not refused as one that would do nothing.
        const Out undo = run({"train",     "--data",       q(m_data),      "--out",     q(p("undo")),
                              "--preset",  "multi30k",     "--quiet",      "--set",     "model_kind=decoder",
                              "--set",     "best_by=loss", "--set",        "n_layer=1", "--set",
                              "threads=1", "--set",        "eval_iters=1", "--set",     "max_iters=1"});
        QVERIFY2(undo.code == 0, undo.err.constData());
        QCOMPARE(twb::read_run_config(p("undo")).best_by, twb::BestBy::Loss);
    }

    void aSweepWhoseAxisNamesTheDatasetsNeedsNoData() {
        const fs::path sweep = p("data-sweep");
        const Out r = run({"sweep", "--out",           q(sweep),   "--preset",
                           "tiny",  "--quiet",         "--axis",   "data_dir=" + q(m_data),
                           "--set", "n_layer=1",       "--set",    "threads=1",
                           "--set", "eval_iters=1",    "--set",    "max_iters=1",
                           "--set", "eval_interval=1", "--random", "3"});
        QVERIFY2(r.code == 0, r.err.constData());
        // Three cells drawn from a grid of one: the whole grid runs, and it is said (it ran without a word).
        QVERIFY2(r.err.contains("note: --random 3 asks for as many cells as the grid has (1) or more"),
                 r.err.constData());
        // The same command again continues the sweep, and says so; with another setting it is refused, naming
        // it (the finished cells were kept as they were, the others took the new setting).
        QStringList again{"sweep", "--out",          q(sweep), "--preset",
                          "tiny",  "--quiet",        "--axis", "data_dir=" + q(m_data),
                          "--set", "n_layer=1",      "--set",  "threads=1",
                          "--set", "eval_iters=1",   "--set",  "max_iters=1",
                          "--set", "eval_interval=1"};
        const Out same = run(again);
        QVERIFY2(same.code == 0, same.err.constData());
        QVERIFY2(same.err.contains("holds this sweep already: continuing it"), same.err.constData());
        QVERIFY2(same.out.contains("cell 000: finished earlier, kept"), same.out.constData());
        again[again.indexOf("max_iters=1")] = "max_iters=2";
        const Out other = run(again);
        QCOMPARE(other.code, 1);
        QVERIFY2(other.err.contains("holds this sweep with other settings (max_iters 1 -> 2)"), other.err.constData());
        QVERIFY2(!other.err.contains("continuing"), other.err.constData());
        const auto spec = twb::read_sweep(sweep);
        QVERIFY(spec.base.data_dir.empty());
        QCOMPARE(twb::cell_config(spec, twb::sweep_cells(spec).at(0)).data_dir, fs::absolute(m_data).string());
    }

    void aConfigValueASweepOverridesIsNamed() {
        // --config's learning_rate under a learning_rate axis was overridden in every cell without a word; a
        // value the preset has too (a run's whole config.json names every key) is not worth a note.
        auto sweep = [this](const std::string& name, double lr) {
            twbtest::write(p(name + ".json"), "{\"learning_rate\": " + nlohmann::json(lr).dump() + "}");
            return run({"sweep",
                        "--out",
                        q(p(name)),
                        "--preset",
                        "tiny",
                        "--config",
                        q(p(name + ".json")),
                        "--quiet",
                        "--data",
                        q(m_data),
                        "--axis",
                        "learning_rate=1e-3",
                        "--set",
                        "n_layer=1",
                        "--set",
                        "threads=1",
                        "--set",
                        "eval_iters=1",
                        "--set",
                        "max_iters=1"});
        };
        const Out given = sweep("cfg-sweep", 0.0007);
        QVERIFY2(given.code == 0, given.err.constData());
        QVERIFY2(given.err.contains("sets learning_rate=0.0007; the sweep sets learning_rate in every cell"),
                 given.err.constData());
        const Out same = sweep("cfg-sweep-default", twb::preset_config("tiny").learning_rate);
        QVERIFY2(same.code == 0, same.err.constData());
        QVERIFY2(!same.err.contains("the sweep sets"), same.err.constData());
    }

    void outputThatCannotBeWrittenIsAnError() {
        // Standard output on a full disk: the text was lost and the command said 0.
        for (const QStringList& args : {QStringList{"keys"},  // twb-torch's way out
                                        QStringList{"sample", "--run", q(m_run), "-n", "5", "--no-history"}}) {
            QProcess t;
            t.setStandardOutputFile("/dev/full");
            t.start(twbtest::twb_program(), args);
            QVERIFY(t.waitForFinished(60000));
            const QByteArray err = t.readAllStandardError();
            QCOMPARE(t.exitCode(), 1);
            QVERIFY2(err.contains("twb: error: writing the output failed ("), err.constData());
        }
    }

    void threadsAboveTheCoresAreWarnedAbout() {
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        const Out r = run({"doctor", "--no-speed", "--threads", QString::number(cores + 1)});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("warning: threads=" + QByteArray::number(cores + 1) + " is more than this machine's"),
                 r.out.constData());
    }

    void theScreenShowsWhatAStopStringKept() {
        // Printed as they come, the first letters of a stop string stood on the screen although the generation
        // ended before them: "Ais a th" on stdout, "Ais a " in the history (and in what eval --samples scores).
        // The stop strings are taken from the same seed's generation without them, so each one is met.
        const QString prompt = "the ";
        for (const char* seed : {"1", "2", "3"}) {
            const Out free =
                run({"sample", "--run", q(m_run), "--prompt", prompt, "-n", "120", "--seed", seed, "--no-history"});
            QVERIFY2(free.code == 0, free.err.constData());
            const std::string text = free.out.toStdString().substr(prompt.size());
            for (size_t length : {2, 3}) {
                const std::string stop = text.substr(40 + length, length);
                const Out o = run({"sample", "--run", q(m_run), "--prompt", prompt, "-n", "120", "--seed", seed,
                                   "--stop", QString::fromStdString(stop)});
                QVERIFY2(o.code == 0, o.err.constData());
                std::istringstream history(slurp(m_run / "samples.jsonl"));
                std::string line, last;
                while (std::getline(history, line))
                    if (!line.empty())
                        last = line;
                const std::string kept = json::parse(last)["outputs"][0].get<std::string>();
                QCOMPARE(kept, text.substr(0, text.find(stop)));
                QCOMPARE(o.out, QByteArray((prompt.toStdString() + kept + "\n").c_str()));
            }
        }
    }

    void judgingSamplesLeavesEmptyOutputsOutAndWeighsTokens() {
        // One empty output (twb sample -n 0) was scored as the start token and its perplexity of 261, averaged
        // with eight of 2.5-17, made the summary 37: the summary is over every token scored, empties left out.
        const fs::path judged = p("judged");
        fs::create_directories(judged);
        for (const char* out : {"the cat sat on the mat and the dog ran", "", "a"}) {
            twb::SampleRecord r;
            r.source = "cli";
            r.prompt = "the ";
            r.outputs = {out};
            twb::append_sample_history(judged, r);
        }
        const Out o = run({"eval", "--run", q(m_run), "--samples", q(judged)});
        QVERIFY2(o.code == 0, o.err.constData());
        QVERIFY2(o.out.contains("sample 2.1 (step 0): empty, not scored"), o.out.constData());
        // exp of the nats of both scored outputs over their tokens (the lines' perplexities to the power of their
        // token counts); not the mean of the two perplexities
        const QRegularExpression line("sample \\d\\.1 \\(step 0, (\\d+) tokens\\): perplexity ([0-9.]+)"),
            summary("perplexity over 2 outputs \\((\\d+) tokens, 1 empty left out\\): ([0-9.]+)");
        double nats = 0, mean = 0;
        int tokens = 0;
        for (auto m = line.globalMatch(QString::fromUtf8(o.out)); m.hasNext();) {
            const auto match = m.next();
            tokens += match.captured(1).toInt();
            nats += match.captured(1).toInt() * std::log(match.captured(2).toDouble());
            mean += match.captured(2).toDouble() / 2;
        }
        const auto s = summary.match(QString::fromUtf8(o.out));
        QVERIFY2(s.hasMatch(), o.out.constData());
        QCOMPARE(s.captured(1).toInt(), tokens);
        QVERIFY2(std::abs(s.captured(2).toDouble() - std::exp(nats / tokens)) < 0.01 * s.captured(2).toDouble(),
                 o.out.constData());
        QVERIFY(std::abs(s.captured(2).toDouble() - mean) > 0.01);  // the outputs differ: the two are not one
    }

    void aVocabularySizeTheTokenizerCannotTakeIsSaid() {
        // --vocab-size 100 with the char tokenizer (the default) prepared 65 characters without a word.
        for (const char* kind : {"char", "byte"}) {
            const fs::path out = p(std::string("vs_") + kind);
            const Out o =
                run({"prepare", "--input", q(m_in), "--tokenizer", kind, "--vocab-size", "100", "--out", q(out)});
            QVERIFY2(o.code == 0, o.err.constData());
            QVERIFY2(o.err.contains("twb: warning: --vocab-size 100 does nothing for the " + QByteArray(kind)),
                     o.err.constData());
        }
        const Out word = run(
            {"prepare", "--input", q(m_in), "--tokenizer", "word", "--vocab-size", "100", "--out", q(p("vs_word"))});
        QVERIFY2(word.code == 0 && !word.err.contains("does nothing"), word.err.constData());
    }

    void evalOnAChatDatasetSaysOnlyTheRepliesCount() {
        // The val split's token count (5466 of its 10322) read as if every token were scored.
        std::string records;
        for (int i = 0; i < 80; ++i)
            records += "{\"instruction\": \"Add " + std::to_string(i) + " and 2.\", \"output\": \"" +
                       std::to_string(i + 2) + "\"}\n";
        twbtest::write(p("chat.jsonl"), records);
        Out o = run({"prepare", "--chat", q(p("chat.jsonl")), "--tokenizer", "byte", "--out", q(p("chatdata"))});
        QVERIFY2(o.code == 0, o.err.constData());
        o = run({"train", "--data", q(p("chatdata")), "--out", q(p("chatrun")), "--preset", "tiny", "--quiet", "--set",
                 "max_iters=2", "--set", "eval_interval=2", "--set", "eval_iters=1", "--set", "n_layer=1", "--set",
                 "threads=1"});
        QVERIFY2(o.code == 0, o.err.constData());
        o = run({"eval", "--run", q(p("chatrun"))});
        QVERIFY2(o.code == 0 && o.out.contains("a chat dataset: the replies' tokens only"), o.out.constData());
        o = run({"eval", "--run", q(m_run)});  // a text dataset says nothing of replies
        QVERIFY2(o.code == 0 && !o.out.contains("replies"), o.out.constData());
    }

    void twoTrainersIntoOneRunFolder() {
        const fs::path runDir = p("locked");
        QProcess first;
        startEndlessTraining(first, runDir);
        QVERIFY(first.waitForStarted());
        QVERIFY(first.waitForReadyRead(120000));  // the start line: the lock is held
        const Out second = run({"train", "--data", q(m_data), "--out", q(runDir), "--resume", "--set", "threads=1"});
        QCOMPARE(second.code, 1);
        QCOMPARE(second.err.count('\n'), 1);
        QVERIFY2(second.err.contains("is being written by process " + QByteArray::number(first.processId())),
                 second.err.constData());
        ::kill(static_cast<pid_t>(first.processId()), SIGKILL);
        first.waitForFinished();
        // The kernel released the lock with the process: a resume now works.
        const Out resumed = run({"train", "--out", q(runDir), "--resume", "--quiet", "--set", "max_iters=2"});
        QVERIFY2(resumed.code == 0 || resumed.err.contains("stopped before its first checkpoint"),
                 resumed.err.constData());
    }

    void sigtermDuringTrainingCheckpointsAndResumes() {
        const fs::path runDir = p("term");
        QProcess t;
        startEndlessTraining(t, runDir);
        QVERIFY(t.waitForStarted());
        QByteArray out;
        while (!out.contains("step ") && t.waitForReadyRead(120000))
            out += t.readAllStandardOutput();
        ::kill(static_cast<pid_t>(t.processId()), SIGTERM);
        QVERIFY(t.waitForFinished(120000));
        out += t.readAllStandardOutput();
        QCOMPARE(t.exitCode(), 130);
        QVERIFY2(out.contains("stopped at step") && out.contains("--resume"), out.constData());
        const fs::path ck = last_checkpoint(runDir);
        QVERIFY(!ck.empty());
        const int step = QString::fromStdString(ck.filename().string().substr(5)).toInt();
        const Out resumed = run(
            {"train", "--out", q(runDir), "--resume", "--quiet", "--set", "max_iters=" + QString::number(step + 1)});
        QVERIFY2(resumed.code == 0, resumed.err.constData());
        QVERIFY(resumed.err.contains("resuming from"));
    }

    void sigtermInsideALongStepLeavesItUndone() {
        // A step of many micro-batches took them all before a SIGTERM was acted on (minutes, past what
        // timeout and docker stop wait before SIGKILL). The step is left undone instead: the checkpoint is
        // the step before, with the data's position and the generators of then, so a resume trains the same.
        const fs::path runDir = p("longstep"), copy = p("longstep-copy");
        const QStringList base{"--set", "threads=1", "--set", "dropout=0.1", "--set", "log_interval=1", "--quiet"};
        Out r =
            run(QStringList{"train", "--data", q(m_data), "--out", q(runDir), "--preset", "tiny", "--set",
                            "max_iters=3", "--set", "n_layer=1", "--set", "eval_iters=1", "--set", "eval_interval=3"} +
                base);
        QVERIFY2(r.code == 0, r.err.constData());
        fs::copy(runDir, copy, fs::copy_options::recursive);
        QProcess t;
        t.setProcessChannelMode(QProcess::MergedChannels);
        t.start(twbtest::twb_program(), QStringList{"train", "--out", q(runDir), "--resume", "--set", "max_iters=5",
                                                    "--set", "gradient_accumulation_steps=65536"} +
                                            base);
        QVERIFY(t.waitForStarted());
        QByteArray out;
        while (!out.contains("from step 3") && t.waitForReadyRead(120000))  // the start line: the step begins
            out += t.readAll();
        QVERIFY2(t.state() == QProcess::Running, out.constData());
        ::kill(static_cast<pid_t>(t.processId()), SIGTERM);
        QVERIFY2(t.waitForFinished(120000), "a SIGTERM inside a step of 65536 micro-batches waited for them");
        out += t.readAll();
        QCOMPARE(t.exitCode(), 130);
        QVERIFY2(out.contains("step 4 is left undone") || out.contains("stopped at step 3"), out.constData());
        QCOMPARE(last_checkpoint(runDir).filename().string(), last_checkpoint(copy).filename().string());
        // Both copies continue the same: the stopped one exactly as the one never touched.
        for (const fs::path& d : {runDir, copy}) {
            r = run(QStringList{"train", "--out", q(d), "--resume", "--set", "max_iters=5", "--set",
                                "gradient_accumulation_steps=1"} +
                    base);
            QVERIFY2(r.code == 0, r.err.constData());
        }
        auto trainLosses = [](const fs::path& d) {
            std::vector<double> l;
            for (const auto& row : twb::read_metrics(d / "metrics.csv"))
                if (row.kind == "train" && row.step > 3)
                    l.push_back(row.train_loss);
            return l;
        };
        QCOMPARE(trainLosses(runDir).size(), size_t{2});
        QCOMPARE(trainLosses(runDir), trainLosses(copy));
    }

    void ctrlCDuringLrFindSuggestsNothing() {
        // It exited 0 with "suggested learning_rate: 2.02e-08" from the rates tried before the signal, and wrote
        // that partial curve as --out.
        const fs::path out = p("lr.csv");
        QProcess pr;
        pr.start(twbtest::twb_program(), {"lr-find", "--data", q(m_data), "--preset", "tiny", "--set", "threads=1",
                                          "--steps", "100000", "--out", q(out)});
        QVERIFY(pr.waitForStarted());
        pr.setReadChannel(QProcess::StandardError);  // what waitForReadyRead waits on
        QByteArray err;
        while (!err.contains("step   10 ") && pr.state() == QProcess::Running && pr.waitForReadyRead(120000))
            err += pr.readAllStandardError();
        QVERIFY2(err.contains("step   10 "), err.constData());  // working, its handler installed
        ::kill(static_cast<pid_t>(pr.processId()), SIGINT);
        QVERIFY(pr.waitForFinished(120000));
        err += pr.readAllStandardError();
        QCOMPARE(pr.exitCode(), 130);
        QVERIFY2(err.contains("no suggestion and no --out file"), err.constData());
        QVERIFY(!pr.readAllStandardOutput().contains("suggested"));
        QVERIFY(!fs::exists(out));
    }

    void ctrlCDuringPrepareLeavesNothing() {
        const fs::path big = p("big.txt");
        twbtest::write(big, twbtest::english_like(40u << 20));
        const fs::path out = p("big-data");
        QProcess pr;
        pr.start(twbtest::twb_program(), {"prepare", "--input", q(big), "--tokenizer", "word", "--out", q(out)});
        QVERIFY(pr.waitForStarted());
        // Interrupt once it is working: its temporary folder exists (the handler is installed by then).
        auto working = [&] {
            for (auto& e : fs::directory_iterator(m_root))
                if (e.path().filename().string().rfind(".big-data.tmp-", 0) == 0)
                    return true;
            return false;
        };
        for (int i = 0; i < 1200 && !working(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        QVERIFY(working());
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        ::kill(static_cast<pid_t>(pr.processId()), SIGINT);
        QVERIFY(pr.waitForFinished(120000));
        QCOMPARE(pr.exitCode(), 130);
        for (auto& e : fs::directory_iterator(m_root))
            QVERIFY2(e.path().filename().string().rfind(".big-data", 0) != 0, e.path().c_str());
        QVERIFY(!fs::exists(out));
        fs::remove(big);
    }
};

TWB_APPLESS_MAIN(TestCliGuards)
#include "tst_cli_guards.moc"
