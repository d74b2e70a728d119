// Training the encoder-decoder end to end: a tiny model learns to copy short sequences through its
// cross-attention (its validation BLEU rises far above 0), metrics.csv carries val_bleu, and resuming reproduces the
// uninterrupted run exactly.
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/metrics.h"
#include "twb/model_exchange.h"
#include "twb/run_folder.h"
#include "twb/runs_table.h"
#include "twb/text.h"
#include "twb/tokenizer.h"
#include "twb/training.h"
#include "twb/translation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <random>

using namespace twb;

class TestSeq2SeqTraining : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_data;

    RunConfig config(int iters) const {
        RunConfig c = preset_config("tatoeba");
        c.data_dir = m_data.string();
        c.n_layer = 2;
        c.n_embd = 64;
        c.n_head = 4;
        c.ffn_hidden = 128;
        c.block_size = 16;
        c.dropout = 0;
        c.max_epochs = 0;
        c.max_iters = iters;
        c.batch_tokens = 400;
        c.schedule = Schedule::Noam;
        c.learning_rate = 0.15;  // peak 0.15 * 64^-0.5 * 50^-0.5 = 2.7e-3 at step 50
        c.warmup_iters = 50;
        c.label_smoothing = 0;
        c.eval_interval = iters;
        c.eval_iters = 5;
        c.bleu_pairs = 40;
        c.log_interval = 1;
        c.threads = 1;
        return c;
    }
    struct Run {
        std::vector<double> losses;
        TrainSummary summary;
        std::vector<EvalReport> evals;
    };
    Run run(const RunConfig& c, const std::string& dir, bool resume = false, int stopAt = -1) {
        Run r;
        TrainJob job;
        job.config = c;
        job.run_dir = dir;
        job.resume = resume;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) {
            r.losses.push_back(s.loss);
            return s.step != stopAt;
        };
        cb.on_eval = [&](const EvalReport& e) { r.evals.push_back(e); };
        r.summary = train(job, cb);
        return r;
    }

private slots:
    void initTestCase() {
        // The copy task: "c a f" -> "c a f", letters a..h, 3 to 7 of them (the target is the source).
        std::mt19937 rng(5);
        std::string src, tgt;
        for (int i = 0; i < 1500; ++i) {
            const int n = 3 + static_cast<int>(rng() % 5);
            std::vector<std::string> w;
            for (int k = 0; k < n; ++k)
                w.push_back(std::string(1, static_cast<char>('a' + rng() % 8)));
            for (int k = 0; k < n; ++k)
                src += w[static_cast<size_t>(k)] + (k + 1 < n ? " " : "\n");
            for (int k = 0; k < n; ++k)
                tgt += w[static_cast<size_t>(k)] + (k + 1 < n ? " " : "\n");
        }
        twbtest::write(twbtest::path(m_dir, "s.txt"), src);
        twbtest::write(twbtest::path(m_dir, "t.txt"), tgt);
        ParallelPrepareOptions o;
        o.source = twbtest::path(m_dir, "s.txt").string();
        o.target = twbtest::path(m_dir, "t.txt").string();
        o.val_fraction = 0.05;
        o.test_fraction = 0.05;
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(m_dir, "data");
        prepare_parallel(o);
        m_data = o.out;
    }
    void learnsToCopy() {
        const auto dir = twbtest::path(m_dir, "learn").string();
        const auto r = run(config(600), dir);
        QCOMPARE(r.summary.final_step, int64_t(600));
        QCOMPARE(r.evals.size(), size_t(2));
        QVERIFY(r.evals[0].val_bleu < 5);  // untrained
        // The same setup through twb train (1500 pairs, 1 thread) went BLEU 2.2 at step 300, 35.8 at 400, 81.8
        // at 500 and 93.9 at 600: the threshold 50 is well past the plateau's end and well below the end.
        qInfo("val BLEU after 600 steps: %.2f (loss %.3f)", r.evals[1].val_bleu, r.evals[1].val_loss);
        QVERIFY(r.evals[1].val_bleu > 50);
        const auto rows = read_metrics(std::filesystem::path(dir) / "metrics.csv");
        QVERIFY(std::any_of(rows.begin(), rows.end(), [](auto& x) { return x.kind == "eval" && x.val_bleu > 50; }));
        // best_by=bleu (the preset's): best.json names the BLEU as itself, not as a negative val_loss, and the
        // runs table gives it a column.
        const auto best = nlohmann::json::parse(read_file(std::filesystem::path(dir) / "checkpoints" / "best.json"));
        QCOMPARE(best.at("step").get<int64_t>(), int64_t(600));
        QCOMPARE(best.at("best_by").get<std::string>(), std::string("bleu"));
        QCOMPARE(best.at("bleu").get<double>(), r.evals[1].val_bleu);
        QVERIFY(!best.contains("val_loss"));
        const auto runs = collect_runs(dir);
        QCOMPARE(runs.size(), size_t(1));
        QVERIFY(std::abs(runs[0].best_bleu - r.evals[1].val_bleu) < 1e-3);  // as metrics.csv writes it
        QVERIFY(std::abs(runs[0].bleu - r.evals[1].val_bleu) < 1e-3);
        QVERIFY(runs_table_markdown(runs).find(" best BLEU |") != std::string::npos);
        QVERIFY(runs_table_csv(runs).find(",bleu,best_bleu\n") != std::string::npos);
        // The run translates and evaluates through the public API.
        Translator tr;
        tr.open(dir, "last");
        QCOMPARE(tr.translate({"a b c d"})[0], std::string("a b c d"));
        QVERIFY(tr.cropped_lines().empty());
        // A line longer than the encoder takes is translated from its start, and named (it was cut silently).
        std::string longLine;
        for (int64_t i = 0; i < tr.max_source_tokens() + 5; ++i)
            longLine += "a ";
        QCOMPARE(tr.translate({"a b", longLine, "c d"}).size(), size_t(3));
        QCOMPARE(tr.cropped_lines(), std::vector<size_t>{2});
        const auto ev = tr.evaluate("test");
        QVERIFY(ev.pairs > 50);
        QVERIFY(ev.bleu.score > 50);
        TranslateOptions beam;
        beam.beam_width = 4;
        QVERIFY(tr.evaluate("test", beam).bleu.score > 50);
    }
    void resumeIsExact() {
        auto cfg = config(30);
        cfg.dropout = 0.1;  // exercises the RNG state too
        cfg.eval_interval = 10;
        cfg.bleu_pairs = 5;
        const auto full = run(cfg, twbtest::path(m_dir, "full").string());
        const auto first = run(cfg, twbtest::path(m_dir, "split").string(), false, 13);
        QVERIFY(first.summary.stopped);
        const auto second = run(cfg, twbtest::path(m_dir, "split").string(), true);
        QCOMPARE(second.summary.final_step, int64_t(30));
        std::vector<double> joined = first.losses;
        joined.insert(joined.end(), second.losses.begin(), second.losses.end());
        QCOMPARE(joined.size(), full.losses.size());
        for (size_t i = 0; i < joined.size(); ++i)
            QCOMPARE(joined[i], full.losses[i]);
    }
    void separateVocabularies() {
        // Lowercase letters in, the same letters uppercase out, one vocabulary per side: each side's
        // tokenizer knows only its own letters, the encoder reads its own embedding (src_wte).
        std::mt19937 rng(7);
        std::string src, tgt;
        for (int i = 0; i < 1500; ++i) {
            const int n = 3 + static_cast<int>(rng() % 5);
            for (int k = 0; k < n; ++k) {
                const auto c = static_cast<char>('a' + rng() % 8);
                src += std::string(1, c) + (k + 1 < n ? " " : "\n");
                tgt += std::string(1, static_cast<char>(c - 'a' + 'A')) + (k + 1 < n ? " " : "\n");
            }
        }
        twbtest::write(twbtest::path(m_dir, "ls.txt"), src);
        twbtest::write(twbtest::path(m_dir, "ut.txt"), tgt);
        ParallelPrepareOptions o;
        o.source = twbtest::path(m_dir, "ls.txt").string();
        o.target = twbtest::path(m_dir, "ut.txt").string();
        o.val_fraction = 0.05;
        o.tokenizer.kind = TokenizerKind::Word;
        o.separate_vocab = true;
        o.out = twbtest::path(m_dir, "sepdata");
        const auto prep = prepare_parallel(o);
        const auto ds = open_prepared(o.out);
        QCOMPARE(ds.source_vocab_size, prep.source_vocab_size);
        QVERIFY(ds.source_vocab_size > 0);
        QVERIFY(std::filesystem::exists(o.out / "source_tokenizer" / "tokenizer.json"));
        const auto srcTok = TextTokenizer::load(o.out / "source_tokenizer"), tgtTok = TextTokenizer::load(o.out);
        QCOMPARE(srcTok.vocab_size(), ds.source_vocab_size);
        QCOMPARE(tgtTok.vocab_size(), ds.vocab_size);
        // Separate: the target's vocabulary has no lowercase letters, the source's no uppercase ones.
        QCOMPARE(tgtTok.token_text(tgtTok.encode("a")[0]), std::string("<unk>"));
        QCOMPARE(srcTok.token_text(srcTok.encode("A")[0]), std::string("<unk>"));
        QCOMPARE(srcTok.token_text(srcTok.encode("a")[0]), std::string("a"));
        const auto val = read_pairs(ds, "val");
        QCOMPARE(tgtTok.decode(val[0].target),
                 QString::fromStdString(srcTok.decode(val[0].source)).toUpper().toStdString());

        RunConfig c = config(600);
        c.data_dir = o.out.string();
        const auto dir = twbtest::path(m_dir, "sep").string();
        const auto r = run(c, dir);
        qInfo("separate vocabularies: val BLEU after 600 steps %.2f", r.evals.back().val_bleu);
        QVERIFY(r.evals.back().val_bleu > 50);  // the same task shape as learnsToCopy and its threshold
        QVERIFY(std::filesystem::exists(std::filesystem::path(dir) / "source_tokenizer" / "tokenizer.json"));
        Translator tr;
        tr.open(dir, "last");
        QCOMPARE(tr.translate({"a b c d"})[0], std::string("A B C D"));
        // The checkpoint holds the source side's own embedding, as tall as the source vocabulary.
        const auto ck = std::filesystem::path(tr.checkpoint()) / "model.safetensors";
        std::ifstream in(ck, std::ios::binary);
        const std::string blob((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        uint64_t n = 0;
        std::memcpy(&n, blob.data(), 8);
        const auto header = nlohmann::json::parse(blob.substr(8, n));
        QCOMPARE(header.at("src_wte.weight").at("shape")[0].get<int>(), ds.source_vocab_size);
        QCOMPARE(header.at("wte.weight").at("shape")[0].get<int>(), ds.vocab_size);
        // Data of the other shape (one shared vocabulary) is refused by name.
        QVERIFY_THROWS_EXCEPTION(InputError, tr.evaluate("val", {}, m_data.string()));
        // So is data of the same sizes whose source side means other text: 'a' written as 'q' there.
        std::string moved = src;
        std::replace(moved.begin(), moved.end(), 'a', 'q');
        twbtest::write(twbtest::path(m_dir, "ls-moved.txt"), moved);
        o.source = twbtest::path(m_dir, "ls-moved.txt").string();
        o.out = twbtest::path(m_dir, "sepdata-moved");
        QCOMPARE(prepare_parallel(o).source_vocab_size, prep.source_vocab_size);
        try {
            tr.evaluate("val", {}, o.out.string());
            QFAIL("a dataset whose source tokenizer differs was evaluated on");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("source_tokenizer") != std::string::npos, e.what());
        }
        // Exported in the plain safetensors layout and imported back, it translates the same (the export
        // left the source side's tokenizer out, and the import made a run that could not translate).
        const auto exported = twbtest::path(m_dir, "sep-export"), back = twbtest::path(m_dir, "sep-back");
        export_safetensors(dir, exported, "last");
        QVERIFY(std::filesystem::exists(exported / "source_tokenizer" / "tokenizer.json"));
        import_hf(exported, back, "", {});
        Translator imported;
        imported.open(back.string(), "last");
        QCOMPARE(imported.translate({"a b c d"})[0], std::string("A B C D"));
        // An export without it is refused by the import, by name.
        std::filesystem::remove_all(exported / "source_tokenizer");
        try {
            import_hf(exported, twbtest::path(m_dir, "sep-back2"), "", {});
            QFAIL("an export without its source tokenizer was imported");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("source_tokenizer") != std::string::npos, e.what());
        }
        QVERIFY(!std::filesystem::exists(twbtest::path(m_dir, "sep-back2")));
        // A run without its own copy is refused too; the dataset's is never read in its place.
        std::filesystem::rename(std::filesystem::path(dir) / "source_tokenizer", twbtest::path(m_dir, "sep-src"));
        Translator without;
        QVERIFY_THROWS_EXCEPTION(InputError, without.open(dir, "last"));
        QVERIFY_THROWS_EXCEPTION(InputError, export_safetensors(dir, twbtest::path(m_dir, "sep-export2"), "last"));
        std::filesystem::rename(twbtest::path(m_dir, "sep-src"), std::filesystem::path(dir) / "source_tokenizer");
    }
    void epochsAndStepsWhicheverComesFirst() {
        // max_iters below the epochs' steps (a preset's 20 epochs, --set max_iters=5): 5 steps.
        auto c = config(5);
        c.max_epochs = 100;
        c.eval_interval = 1000;
        c.bleu_pairs = 2;
        QCOMPARE(run(c, twbtest::path(m_dir, "iters-first").string()).summary.final_step, int64_t(5));
        // The epochs first: a twentieth of an epoch (about a hundred 400-token batches) is a few steps.
        c.max_iters = 100000;
        c.max_epochs = 0.05;
        const auto r = run(c, twbtest::path(m_dir, "epochs-first").string());
        QVERIFY(r.summary.final_step > 0 && r.summary.final_step < 100);
    }
    void decoderRunsAndParallelDataDoNotMix() {
        RunConfig c = config(5);
        c.model_kind = ModelKind::Decoder;
        c.best_by = BestBy::Loss;
        QVERIFY_THROWS_EXCEPTION(ConfigError, run(c, twbtest::path(m_dir, "lm").string()));
    }
    void noValidationPairIsRefusedBeforeTraining() {
        // Pairs prepared with --val-fraction 0 trained with "val loss nan, val BLEU nan" at every evaluation, kept
        // no best checkpoint, and exited 0.
        ParallelPrepareOptions o;
        o.source = twbtest::path(m_dir, "s.txt").string();
        o.target = twbtest::path(m_dir, "t.txt").string();
        o.val_fraction = 0;
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(m_dir, "no-val");
        QCOMPARE(prepare_parallel(o).val_pairs, uint64_t(0));
        RunConfig c = config(5);
        c.data_dir = o.out.string();
        const auto dir = twbtest::path(m_dir, "no-val-run");
        try {
            run(c, dir.string());
            QFAIL("trained without a validation pair");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("no validation pair (the split is empty)") != std::string::npos,
                     e.what());
        }
        QVERIFY(list_checkpoints(dir).empty());
    }
};

QTEST_APPLESS_MAIN(TestSeq2SeqTraining)
#include "tst_seq2seq_training.moc"
