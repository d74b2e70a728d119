// Experiments: baselines equal a hand count, a sweep resumes keeping its finished cells, the range
// finder suggests a rate where the loss falls, and bits per character of a character and a BPE run of
// the same text match a hand computation from the decoded validation text.
#include "core/data/token_file.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/experiments.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "twb/session.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

using namespace twb;

class TestExperiments : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::filesystem::path prepare(const std::string& name, const std::string& text, TokenizerKind kind, int vocab = 0,
                                  double val = 0.1) {
        twbtest::write(twbtest::path(m_dir, (name + ".txt").c_str()), text);
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, (name + ".txt").c_str()).string()};
        o.tokenizer.kind = kind;
        o.tokenizer.vocab_size = vocab;
        o.val_fraction = val;
        o.out = twbtest::path(m_dir, name.c_str());
        prepare_dataset(o);
        return o.out;
    }
    RunConfig tiny(const std::filesystem::path& data, int iters) {
        RunConfig c = preset_config("tiny");
        c.data_dir = data.string();
        c.n_layer = 1;
        c.n_head = 2;
        c.n_embd = 16;
        c.block_size = 16;
        c.batch_size = 4;
        c.max_iters = iters;
        c.lr_decay_iters = iters;
        c.warmup_iters = 2;
        c.eval_interval = 5;
        c.eval_iters = 1;
        c.log_interval = 1;
        c.threads = 1;
        return c;
    }

private slots:
    void bigramBaselineEqualsAHandCount() {
        // Characters: train "abababab" + "aab..." then a val tail; with the tail split the last 10% of
        // tokens are val. Text of 40 characters: train = first 36, val = last 4.
        const std::string text =
            "abababababababababaabbababababababab"
            "abba";
        const auto data = prepare("bigram", text, TokenizerKind::Char, 0, 0.1);
        const auto d = open_prepared(data);
        QCOMPARE(d.val_tokens, uint64_t(4));
        // Count by hand over the train split (the first 36 characters).
        const std::string train = text.substr(0, 36), val = text.substr(36);
        std::map<std::pair<char, char>, double> bi;
        std::map<char, double> uni, ctx;
        for (size_t i = 0; i < train.size(); ++i) {
            uni[train[i]] += 1;
            if (i) {
                bi[{train[i - 1], train[i]}] += 1;
                ctx[train[i - 1]] += 1;
            }
        }
        const double k = 0.5, V = 2, N = 36;
        double biNats = 0, uniNats = 0;
        for (size_t i = 1; i < val.size(); ++i) {  // positions 1..3 of "abba"
            biNats -= std::log((bi[{val[i - 1], val[i]}] + k) / (ctx[val[i - 1]] + k * V));
            uniNats -= std::log((uni[val[i]] + k) / (N + k * V));
        }
        const auto rows = evaluate_baselines(data, k);
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[0].name, std::string("uniform"));
        QVERIFY(std::abs(rows[0].loss - std::log(2.0)) < 1e-12);
        QVERIFY(std::abs(rows[0].accuracy - 0.5) < 1e-12);
        QVERIFY(std::abs(rows[1].loss - uniNats / 3) < 1e-12);
        QVERIFY(std::abs(rows[2].loss - biNats / 3) < 1e-12);
        // The bigram predicts the most frequent follower: after 'a' comes 'b' (16 of 17 times), after
        // 'b' comes 'a'; in "abba" that is right for a->b and b->a, wrong for b->b: 2 of 3.
        QVERIFY(std::abs(rows[2].accuracy - 2.0 / 3) < 1e-12);
        QVERIFY(std::abs(rows[2].perplexity - std::exp(biNats / 3)) < 1e-9);
        QVERIFY(std::abs(rows[2].bits_per_char - biNats / 3 / std::log(2.0)) < 1e-12);  // one character per token
        // An infinite k printed a table of -nan and exited 0; zero, negative and NaN were refused already.
        for (const double bad : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()})
            QVERIFY_THROWS_EXCEPTION(ConfigError, evaluate_baselines(data, bad));
    }
    void baselinesOfParallelDataScoreTheTargets() {
        // The baselines scored a parallel dataset's sources too, while the model's loss sees the targets (and
        // their <eos>) only. Every target here is "ja": the bigram (<bos> -> ja -> <eos>) is always right.
        std::string src, tgt;
        for (int i = 0; i < 60; ++i) {
            src += "w" + std::to_string(i % 17) + " v" + std::to_string(i % 5) + "\n";
            tgt += "ja\n";
        }
        twbtest::write(twbtest::path(m_dir, "src.txt"), src);
        twbtest::write(twbtest::path(m_dir, "tgt.txt"), tgt);
        ParallelPrepareOptions o;
        o.source = twbtest::path(m_dir, "src.txt").string();
        o.target = twbtest::path(m_dir, "tgt.txt").string();
        o.val_fraction = 0.2;
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(m_dir, "pairs");
        prepare_parallel(o);
        const auto rows = evaluate_baselines(o.out);
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[2].accuracy, 1.0);
        // The unigram: "ja" and <eos> are equally frequent, so it is right half of the time.
        QCOMPARE(rows[1].accuracy, 0.5);
        QVERIFY(rows[2].loss < rows[1].loss);
        QVERIFY(std::isnan(rows[0].bits_per_char));  // an encoder-decoder reports no bits per character
    }
    void sweepResumesKeepingFinishedCells() {
        const auto data = prepare("sweep", twbtest::english_like(6000), TokenizerKind::Char);
        SweepSpec spec;
        spec.base = tiny(data, 10);
        spec.axes = {parse_sweep_axis("n_head=1,2"), parse_sweep_axis("learning_rate=1e-3..4e-3 log 2")};
        QCOMPARE(spec.axes[1].values, (std::vector<std::string>{"0.001", "0.004"}));
        const auto cells = sweep_cells(spec);
        QCOMPARE(cells.size(), size_t(4));
        const auto dir = twbtest::path(m_dir, "sw");
        // Stop in the middle of the third cell, after its first checkpoint (step 5).
        SweepCallbacks cb;
        size_t current = 0;
        cb.on_cell_start = [&](size_t i, size_t, const SweepCell&, bool) { current = i; };
        cb.train.on_step = [&](const StepReport& r) { return !(current == 2 && r.step == 7); };
        QVERIFY(!run_sweep(dir, spec, cb));
        const auto cell0 = dir / cell_name(0, cells[0]) / "metrics.csv";
        const auto stamp = std::filesystem::last_write_time(cell0);
        QCOMPARE(list_checkpoints(dir / cell_name(2, cells[2])).back(), int64_t(7));  // the stop checkpoint
        QVERIFY(!std::filesystem::exists(dir / cell_name(3, cells[3])));
        // Resume from the folder alone, as `twb sweep --out DIR --resume` does.
        std::vector<std::pair<size_t, bool>> started, done;
        SweepCallbacks again;
        again.on_cell_start = [&](size_t i, size_t, const SweepCell&, bool resumed) {
            started.emplace_back(i, resumed);
        };
        again.on_cell_done = [&](size_t i, const TrainSummary&, bool skipped) { done.emplace_back(i, skipped); };
        QVERIFY(run_sweep(dir, read_sweep(dir), again));
        QCOMPARE(started, (std::vector<std::pair<size_t, bool>>{{2, true}, {3, false}}));
        QCOMPARE(done, (std::vector<std::pair<size_t, bool>>{{0, true}, {1, true}, {2, false}, {3, false}}));
        QCOMPARE(std::filesystem::last_write_time(cell0), stamp);  // finished cells untouched
        const auto runs = collect_runs(dir);
        QCOMPARE(runs.size(), size_t(4));
        // Evaluations log the training split's accuracy beside the validation accuracy.
        double lastTrainAccuracy = NAN;
        for (const auto& row : read_metrics(dir / cell_name(0, cells[0]) / "metrics.csv"))
            if (row.kind == "eval") {
                QVERIFY2(row.train_accuracy >= 0 && row.train_accuracy <= 1,
                         qPrintable(QString::number(row.train_accuracy)));
                lastTrainAccuracy = row.train_accuracy;
            }
        QVERIFY(lastTrainAccuracy > 0);
        for (const auto& r : runs) {
            QCOMPARE(r.status, std::string("finished"));
            QCOMPARE(r.steps, int64_t(10));
            QVERIFY(!std::isnan(r.final_val_loss));
        }
        QCOMPARE(varied_keys(runs), (std::vector<std::string>{"n_head", "learning_rate"}));
        // A run's steps are at least its last checkpoint's: a stop between two logged rows of metrics.csv
        // writes a checkpoint of its own (the Runs table said "180 of 3,000" of a run stopped at 181).
        const auto cell3 = dir / cell_name(3, cells[3]);
        std::filesystem::create_directories(cell3 / "checkpoints" / "step_00000013");
        twbtest::write(cell3 / "checkpoints" / "step_00000013" / "state.json", "{}");
        const auto later = collect_runs(dir);
        const auto it = std::find_if(later.begin(), later.end(), [&](auto& r) { return r.dir == cell3.string(); });
        QVERIFY(it != later.end());
        QCOMPARE(it->steps, int64_t(13));
        const auto md = runs_table_markdown(runs);
        QCOMPARE(std::count(md.begin(), md.end(), '\n'), 6l);  // header, rule, 4 rows
        // Another sweep into the same folder is refused rather than mixed in.
        SweepSpec other = spec;
        other.axes[0] = parse_sweep_axis("n_head=1,2,4");
        QVERIFY_THROWS_EXCEPTION(InputError, run_sweep(dir, other));
        // A cell that is no valid config is named before anything runs.
        SweepSpec bad = spec;
        bad.axes[0] = parse_sweep_axis("n_head=3");
        try {
            sweep_cells(bad);
            QFAIL("an invalid cell was accepted");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("n_head=3") != std::string::npos, e.what());
        }
    }
    void aDatasetAxisNamesItsFoldersWhole() {
        // data_dir=a,/b: the sweep (and its resume, from another directory) names the folders themselves.
        const auto axis = parse_sweep_axis("data_dir=chars, /data/bpe");
        QCOMPARE(axis.values.size(), size_t(2));
        QCOMPARE(axis.values[0], (std::filesystem::current_path() / "chars").string());
        QCOMPARE(axis.values[1], std::string("/data/bpe"));
        QCOMPARE(parse_sweep_axis("n_head=1,2").values[0], std::string("1"));  // other keys as given
        // One folder named two ways is one value: it trained the same cell twice.
        QCOMPARE(parse_sweep_axis("data_dir=chars/").values[0], axis.values[0]);
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_sweep_axis("data_dir=chars,./chars"));
        // Each cell takes its own dataset's vocabulary, not the base's (the GUI's form fills in the size of the
        // dataset it shows, and every cell of Compare tokenizers failed on it); a swept size is kept.
        SweepSpec spec;
        spec.base.vocab_size = 259;
        spec.base.source_vocab_size = 300;
        const SweepCell chars{{"data_dir", axis.values[0]}}, swept{{"data_dir", axis.values[0]}, {"vocab_size", "80"}},
            heads{{"n_head", "2"}};
        QCOMPARE(cell_config(spec, chars).vocab_size, 0);
        QCOMPARE(cell_config(spec, chars).source_vocab_size, 0);
        QCOMPARE(cell_config(spec, swept).vocab_size, 80);
        QCOMPARE(cell_config(spec, heads).vocab_size, 259);  // the base's dataset: its size stays
    }
    void derivedKeyFollowsTheSweptOnes() {
        // Seed report 000's grid: heads x head size, the width following as their product.
        SweepSpec spec;
        spec.base.n_layer = 1;
        spec.axes = {parse_sweep_axis("n_head=1,4"), parse_sweep_axis("head_size=16,32")};
        spec.derived = {parse_sweep_derived("n_embd = n_head * head_size")};
        QCOMPARE(spec.derived[0].factors, (std::vector<std::string>{"n_head", "head_size"}));
        const auto cells = sweep_cells(spec);
        QCOMPARE(cells.size(), size_t(4));
        const int widths[4] = {16, 32, 64, 128};  // 1*16, 1*32, 4*16, 4*32
        for (size_t i = 0; i < cells.size(); ++i) {
            const RunConfig c = cell_config(spec, cells[i]);
            QCOMPARE(c.n_embd, widths[i]);
            QCOMPARE(c.n_embd, c.n_head * c.head_size);
        }
        // sweep.json keeps it, so a resumed sweep derives the same widths.
        const auto dir = twbtest::path(m_dir, "derived");
        std::filesystem::create_directories(dir);
        write_sweep(dir, spec);
        const SweepSpec back = read_sweep(dir);
        QCOMPARE(back.derived.size(), size_t(1));
        QCOMPARE(cell_config(back, sweep_cells(back)[3]).n_embd, 128);
        // An edited sweep.json with a value twice is refused as a new sweep's axis is (its resume trained
        // duplicate cells under numbers already taken).
        auto edited = nlohmann::json::parse(read_file(dir / "sweep.json"));
        edited["axes"][0]["values"] = {"1", "1"};
        write_file_atomic(dir / "sweep.json", edited.dump());
        try {
            read_sweep(dir);
            QFAIL("read a sweep.json whose axis has a value twice");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("the value 1 is given twice") != std::string::npos, e.what());
        }
        // Not a whole-number key, a key of itself, a swept key: refused with the reason.
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_sweep_derived("dropout=n_head*head_size"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_sweep_derived("n_embd=n_embd*n_head"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_sweep_derived("n_embd=n_head*learning_rate"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_sweep_derived("n_embd=n_head*"));
        SweepSpec both = spec;
        both.axes.push_back(parse_sweep_axis("n_embd=64"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, sweep_cells(both));
    }
    void repeatsAreGroupedWithMeanAndSpread() {
        std::vector<RunSummary> runs(4);
        const double loss[4] = {2.0, 2.2, 1.0, 1.0};
        for (int i = 0; i < 4; ++i) {
            runs[i].name = "r";  // not "r" + to_string: GCC 12 -O3 warns falsely (-Wrestrict, PR 105329)
            runs[i].name += std::to_string(i);
            runs[i].config = {{"n_head", i < 2 ? "2" : "4"}, {"seed", std::to_string(i)}};
            runs[i].final_val_loss = loss[i];
        }
        const auto md = runs_table_markdown(runs, true);
        // mean 2.1, sample standard deviation sqrt(((-0.1)^2 + 0.1^2) / 1) = 0.1414
        QVERIFY2(md.find("| 2 | 2 |") != std::string::npos, md.c_str());
        QVERIFY2(md.find("2.1000 ± 0.1414") != std::string::npos, md.c_str());
        QVERIFY2(md.find("| 4 | 2 |") != std::string::npos && md.find("1.0000 |") != std::string::npos, md.c_str());
    }
    void rangeFinderSuggestsARateWhereTheLossFalls() {
        const auto data = prepare("lr", twbtest::english_like(20000), TokenizerKind::Char);
        LrFindOptions o;
        o.config = tiny(data, 10);
        o.min_lr = 1e-5;
        o.max_lr = 10;
        o.steps = 80;
        const auto r = find_learning_rate(o);
        QVERIFY(r.curve.size() >= 20);
        // A rate of 10 makes the loss run away: the curve ends well above its lowest point.
        double lowest = INFINITY;
        for (const auto& p : r.curve)
            lowest = std::min(lowest, p.smoothed);
        QVERIFY(r.curve.back().smoothed > lowest + 0.5);
        auto smoothedAt = [&](double lr) -> double {
            for (const auto& p : r.curve)
                if (p.lr == lr)
                    return p.smoothed;
            return NAN;
        };
        QVERIFY(r.min_loss_lr > o.min_lr && r.min_loss_lr < o.max_lr);
        QCOMPARE(r.suggested_lr, r.min_loss_lr / 10);
        // The loss falls at the steepest point and is lowest at min_loss_lr: both below where it started.
        QVERIFY(smoothedAt(r.min_loss_lr) < r.curve.front().smoothed - 0.1);
        QVERIFY(smoothedAt(r.steepest_lr) < r.curve.front().smoothed);
        QVERIFY(r.steepest_lr <= r.min_loss_lr);
        // The rates grow exponentially from min_lr.
        QVERIFY(std::abs(r.curve[0].lr - o.min_lr) < 1e-18);
        QVERIFY(std::abs(r.curve[2].lr / r.curve[1].lr - r.curve[1].lr / r.curve[0].lr) < 1e-9);
    }
    void bitsPerCharacterOfCharAndBpeRunsMatchAHandComputation() {
        const std::string text = twbtest::syllable_text(40000);
        for (auto [kind, vocab] : {std::pair{TokenizerKind::Char, 0}, std::pair{TokenizerKind::Bpe, 300}}) {
            const std::string name = "bpc-" + to_string(kind);
            const auto data = prepare(name, text, kind, vocab);
            TrainJob job;
            job.config = tiny(data, 5);
            job.run_dir = twbtest::path(m_dir, (name + "-run").c_str()).string();
            train(job);
            ModelSession s;
            s.open(job.run_dir, "last");
            const EvalResult r = s.evaluate({});
            // By hand: the validation ids decoded to text, its characters counted; total nats over them.
            const auto d = open_prepared(data);
            const auto ids = read_tokens(d, "val", 0, d.val_tokens);
            const std::string valText = TextTokenizer::load(data).decode(ids);
            const QString asQ = QString::fromUtf8(valText.data(), static_cast<qsizetype>(valText.size()));
            const double chars = static_cast<double>(asQ.toUcs4().size());
            // evaluate() scores whole blocks of block_size+1 tokens: r.tokens of them, each predicted.
            const double expected = r.loss * static_cast<double>(ids.size()) / chars / std::log(2.0);
            QVERIFY2(std::abs(r.bits_per_char - expected) < 1e-9 * expected,
                     qPrintable(QString("%1: %2 vs %3").arg(name.c_str()).arg(r.bits_per_char).arg(expected)));
            QVERIFY(std::abs(r.perplexity - std::exp(r.loss)) < 1e-9 * r.perplexity);
        }
    }
};

TWB_APPLESS_MAIN(TestExperiments)
#include "tst_experiments.moc"
