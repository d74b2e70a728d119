// The run folder's owners in the engine and the choices table: the samples history round-trips and
// skips what does not parse, the attention export reads back what was written, every enum spelling
// parses back to itself, the tokenizer inspection counts what the token files hold, and a run's
// name/notes (run.json), status (running while a trainer holds the lock), the words a filter matches and
// whole deletion.
#include "core/data/token_file.h"
#include "core/run/run_lock.h"
#include "test_util.h"
#include "twb/attention.h"
#include "twb/choices.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "twb/run_info.h"
#include "twb/runs_table.h"
#include "twb/samples_history.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <set>
#include <thread>

using namespace twb;

class TestRunFiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void samplesHistoryRoundTripsAndSkipsBrokenLines() {
        const auto run = twbtest::path(m_dir, "run");
        std::filesystem::create_directories(run);
        QVERIFY(read_sample_history(run).empty());
        SampleRecord a;
        a.source = "cli";
        a.checkpoint_step = 500;
        a.prompt = "ROMEO:";
        a.options.temperature = 0.5;
        a.options.top_k = 40;
        a.options.seed = 7;
        a.outputs = {" where art", " thou"};
        append_sample_history(run, a);
        {
            std::ofstream f(run / "samples.jsonl", std::ios::app);
            f << "{not json\n[1,2]\n";  // a hand edit: skipped, never fatal
        }
        SampleRecord b = a;
        b.source = "gui";
        b.note = "branch at token 3";
        b.outputs = {std::string("bad \xff byte")};  // invalid UTF-8 from a byte tokenizer mid-character
        append_sample_history(run, b);
        const auto h = read_sample_history(run);
        QCOMPARE(h.size(), size_t(2));
        QCOMPARE(h[0].source, std::string("cli"));
        QCOMPARE(h[0].checkpoint_step, int64_t(500));
        QCOMPARE(h[0].prompt, std::string("ROMEO:"));
        QCOMPARE(h[0].options.temperature, 0.5);
        QCOMPARE(h[0].options.top_k, 40);
        QCOMPARE(h[0].options.seed, int64_t(7));
        QCOMPARE(h[0].outputs, (std::vector<std::string>{" where art", " thou"}));
        QVERIFY(!h[0].time.empty());
        QCOMPARE(h[1].note, std::string("branch at token 3"));
        QCOMPARE(h[1].outputs.at(0), std::string("bad \xEF\xBF\xBD byte"));  // replaced by U+FFFD
    }
    void historyAppendsLoseNothingAndGoToTheRun() {
        // Eight writers at once (threads here; processes take the same lock): every record is kept.
        const auto run = twbtest::path(m_dir, "busy-run");
        const auto ck = run / "checkpoints" / "step_00000010";
        std::filesystem::create_directories(ck);
        twbtest::write(run / "config.json", "{}");
        std::vector<std::thread> writers;
        for (int w = 0; w < 8; ++w)
            writers.emplace_back([&, w] {
                for (int i = 0; i < 20; ++i) {
                    SampleRecord r;
                    r.source = "cli";
                    r.prompt = std::to_string(w) + "/" + std::to_string(i);
                    // Half of them name the run by a checkpoint folder: their records go to the run too.
                    append_sample_history(w % 2 ? ck : run, r);
                }
            });
        for (auto& t : writers)
            t.join();
        const auto h = read_sample_history(run);
        QCOMPARE(h.size(), size_t(160));
        std::set<std::string> prompts;
        for (const auto& r : h)
            prompts.insert(r.prompt);
        QCOMPARE(prompts.size(), size_t(160));
        QVERIFY(!std::filesystem::exists(ck / "samples.jsonl"));
        QCOMPARE(read_sample_history(ck).size(), size_t(160));  // read through the checkpoint: the run's
        QCOMPARE(run_folder_of(ck / ""), run);
        QCOMPARE(run_folder_of(run), run);
    }
    void attentionExportReadsBack() {
        AttentionCapture cap;
        cap.tokens = {"a", "b", "c"};
        cap.layers = 2;
        cap.heads = 2;
        cap.length = 3;
        for (int i = 0; i < 2 * 2 * 3 * 3; ++i)
            cap.weights.push_back(static_cast<float>(i) / 36.f);
        cap.next_top = {{{1, 0.5f}}, {{2, 0.25f}}, {{0, 1.f}}};
        AttentionExportInfo info;
        info.checkpoint = "run/checkpoints/step_00000010";
        info.step = 10;
        info.token_text = [&](int id) { return cap.tokens[static_cast<size_t>(id)]; };
        const auto file = twbtest::path(m_dir, "att.json");
        write_attention_json(file, cap, info);
        const auto back = read_attention_json(file);
        QCOMPARE(back.tokens, cap.tokens);
        QCOMPARE(back.layers, cap.layers);
        QCOMPARE(back.heads, cap.heads);
        QCOMPARE(back.weights, cap.weights);
        QCOMPARE(back.at(1, 0, 2, 1), cap.at(1, 0, 2, 1));
        const auto j = nlohmann::json::parse(read_file(file));
        QCOMPARE(j["step"].get<int>(), 10);
        QCOMPARE(j["next_token_top"][1][0]["token"].get<std::string>(), std::string("c"));
        // Not an export: a clear error naming the file.
        twbtest::write(twbtest::path(m_dir, "other.json"), "{\"tokens\": []}");
        QVERIFY_THROWS_EXCEPTION(FormatError, read_attention_json(twbtest::path(m_dir, "other.json")));
        twbtest::write(twbtest::path(m_dir, "short.json"),
                       "{\"format\":\"twb-attention\",\"tokens\":[\"a\"],\"layers\":1,\"heads\":1,\"length\":1,"
                       "\"weights\":[[[]]]}");
        QVERIFY_THROWS_EXCEPTION(FormatError, read_attention_json(twbtest::path(m_dir, "short.json")));
    }
    void everyChoiceSpellingParsesBack() {
        for (const auto& n : choice_names<Position>())
            QCOMPARE(to_string(parse_choice<Position>(n, "position")), n);
        for (const auto& n : choice_names<Schedule>())
            QCOMPARE(to_string(parse_choice<Schedule>(n, "schedule")), n);
        for (const auto& n : choice_names<DType>())
            QCOMPARE(to_string(parse_choice<DType>(n, "dtype")), n);
        for (const auto& n : choice_names<TokenizerKind>())
            QCOMPARE(to_string(parse_choice<TokenizerKind>(n, "tokenizer")), n);
        QCOMPARE(choice_names<TokenizerKind>().size(), size_t(6));
        try {
            parse_choice<Position>("rotary2", "position");
            QFAIL("an unknown spelling was accepted");
        } catch (const ConfigError& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("position must be learned, sinusoidal or rotary (got 'rotary2')"));
        }
        QCOMPARE(to_string(parse_device("cuda:1")), std::string("cuda:1"));
        QCOMPARE(static_cast<int>(parse_device("cpu").kind), static_cast<int>(DeviceKind::Cpu));
        for (const char* bad : {"gpu", "cuda:", "cuda:x", "cpu:0", ""})
            QVERIFY_THROWS_EXCEPTION(ConfigError, parse_device(bad));
    }
    void inspectionCountsTheTokenFiles() {
        twbtest::write(twbtest::path(m_dir, "t.txt"), twbtest::english_like(8000));
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "t.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        prepare_dataset(o);
        const auto r = inspect_prepared(o.out, 10);
        const auto d = open_prepared(o.out);
        std::vector<uint64_t> counts(static_cast<size_t>(d.vocab_size), 0);
        for (const char* split : {"train.bin", "val.bin"}) {
            TokenFile f(o.out / split, d.dtype);
            for (uint64_t i = 0; i < f.size(); ++i)
                ++counts[static_cast<size_t>(f.at(i))];
        }
        QCOMPARE(r.counts, counts);
        QCOMPARE(r.preview_ids.size(), size_t(10));
        QCOMPARE(r.token_texts.size(), static_cast<size_t>(d.vocab_size));
        // A corpus inspected without a dataset gives the same figures and leaves no scratch folder (its own
        // twb-inspect-PID-N: other tests running at the same time add and remove folders in /tmp too).
        const auto scratchFolders = [] {
            const std::string mine = "twb-inspect-" + std::to_string(::getpid()) + "-";
            int n = 0;
            for (const auto& e : std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
                n += e.path().filename().string().rfind(mine, 0) == 0;
            return n;
        };
        const int tmpBefore = scratchFolders();
        PrepareOptions again = o;
        again.out.clear();
        const auto r2 = inspect_tokenization(again, {}, 10);
        QCOMPARE(r2.counts, r.counts);
        QCOMPARE(r2.preview_ids, r.preview_ids);
        QCOMPARE(scratchFolders(), tmpBefore);
    }
    void metricsCellsThatAreNotNumbersReadAsNone() {
        // "zz" in a val_loss cell read as 0 (atof): `twb runs` showed a best val loss of 0.0000 and perplexity
        // 1.000, and export-metrics wrote 0 to TensorBoard. Bytes appended to the file were a row of step 0.
        const auto file = twbtest::path(m_dir, "damaged-metrics.csv");
        twbtest::write(file,
                       "step,kind,train_loss,val_loss,lr\n"
                       "10,train,2.5,,0.001\n"
                       "20,eval,2.4,zz,0.001\n"
                       "30,eval,2.3x,2.25\r\n"
                       "40,eval,nan,1e-1,\n"
                       "\x7f\x01\xff,junk\n");
        const auto rows = read_metrics(file);
        QCOMPARE(rows.size(), size_t(4));
        QCOMPARE(rows[0].train_loss, 2.5);
        QVERIFY(std::isnan(rows[0].val_loss));
        QCOMPARE(rows[1].train_loss, 2.4);
        QVERIFY(std::isnan(rows[1].val_loss));
        QVERIFY(std::isnan(rows[2].train_loss));
        QCOMPARE(rows[2].val_loss, 2.25);  // a CRLF line end is still a number's end
        QCOMPARE(rows[3].val_loss, 0.1);
        QCOMPARE(rows[3].step, int64_t(40));
    }

    void runNameNotesStatusAndWholeDeletion() {
        // Three runs as collect_runs sees them: one finished, one interrupted, one held by a trainer.
        const auto ws = twbtest::path(m_dir, "workspace");
        auto makeRun = [&](const char* name, int64_t checkpoint, double bestLoss) {
            const auto run = ws / name;
            std::filesystem::create_directories(run / "checkpoints" / checkpoint_dir_name(checkpoint));
            write_file_atomic(run / "checkpoints" / checkpoint_dir_name(checkpoint) / "state.json", "{}");
            RunConfig cfg;
            cfg.vocab_size = 65;
            cfg.max_iters = 100;
            write_file_atomic(run / "config.json", nlohmann::json(cfg).dump());
            MetricsLog log(run / "metrics.csv");
            MetricsRow row;
            row.kind = "eval";
            row.step = 0;
            row.val_loss = bestLoss - 1;  // step 0 is never a checkpoint, so never the best
            log.append(row);
            for (double loss : {bestLoss + 1, bestLoss, bestLoss + 0.5}) {  // the best is not the last
                row.step += 10;
                row.val_loss = loss;
                row.val_bpc = 2 * loss;
                log.append(row);
            }
            return run;
        };
        const auto a = makeRun("a", 100, 1.5), b = makeRun("b", 40, 2.0), c = makeRun("c", 20, 3.0);
        // No run.json: unnamed, created = config.json's time, which is now (within the test's minute).
        RunInfo info = read_run_info(a);
        QVERIFY(info.name.empty() && info.notes.empty());
        QCOMPARE(info.created.size(), size_t(20));  // 2026-11-24T01:02:03Z
        const std::string created = info.created;
        info.name = "  fortunes, 4 heads \n";
        info.notes = "first try\nlr 1e-3";
        write_run_info(a, info);
        info = read_run_info(a);
        QCOMPARE(info.name, std::string("fortunes, 4 heads"));  // trimmed
        QCOMPARE(info.notes, std::string("first try\nlr 1e-3"));
        QCOMPARE(info.created, created);  // kept through the rewrite
        write_file_atomic(b / "run.json", "{broken");
        QVERIFY(read_run_info(b).name.empty());                            // a broken label only loses the label
        QCOMPARE(read_run_info(b).damage, std::string("not valid JSON"));  // and says so
        QVERIFY_THROWS_EXCEPTION(InputError, write_run_info(b, info));     // and is not rewritten
        QCOMPARE(read_file(b / "run.json"), std::string("{broken"));
        write_file_atomic(b / "run.json", R"({"name": 5, "notes": "kept"})");
        QCOMPARE(read_run_info(b).damage, std::string("'name' is not text"));
        QVERIFY_THROWS_EXCEPTION(InputError, write_run_info(b, info));
        QVERIFY(read_run_info(a).damage.empty());
        // A resume writes config.json again: the creation time it stood for is kept in run.json first (a
        // run made at 05:46 read 05:47 after Train more). A damaged run.json is left alone.
        const auto earlier = std::filesystem::last_write_time(c / "config.json") - std::chrono::hours(2);
        std::filesystem::last_write_time(c / "config.json", earlier);
        const std::string made = read_run_info(c).created;
        pin_created_time(c);
        write_file_atomic(c / "config.json", read_file(c / "config.json"));
        QCOMPARE(read_run_info(c).created, made);
        QVERIFY(read_run_info(c).name.empty());
        pin_created_time(b);
        QCOMPARE(read_file(b / "run.json"), std::string(R"({"name": 5, "notes": "kept"})"));
        QVERIFY_THROWS_EXCEPTION(InputError, write_run_info(ws, info));  // not a run
        RunInfo odd = read_run_info(a);
        odd.name = std::string(201, 'x');  // a table's cell, a legend's entry: one line of a sensible length
        QVERIFY_THROWS_EXCEPTION(InputError, write_run_info(a, odd));
        odd.name = "two\nlines";
        QVERIFY_THROWS_EXCEPTION(InputError, write_run_info(a, odd));
        QCOMPARE(read_run_info(a).name, std::string("fortunes, 4 heads"));  // left as it was
        {
            RunLock lock(c);  // a trainer writing c
            QVERIFY(run_holder(c).find("process") == 0);
            QVERIFY(run_holder(a).empty());
            const auto runs = collect_runs(ws);
            QCOMPARE(runs.size(), size_t(3));
            QCOMPARE(runs[0].display_name, std::string("fortunes, 4 heads"));
            QCOMPARE(runs[0].notes, std::string("first try\nlr 1e-3"));
            QCOMPARE(runs[0].status, std::string("finished"));
            QCOMPARE(runs[0].best_val_loss, 1.5);
            // Bits per character beside the best loss are the best evaluation's (the Runs panel showed the last
            // one's next to the best loss, and sorted by it); the last evaluation's stay for the final loss.
            QCOMPARE(runs[0].best_bits_per_char, 3.0);
            QCOMPARE(runs[0].bits_per_char, 4.0);
            QCOMPARE(runs[0].best_step, int64_t(20));
            QCOMPARE(runs[1].display_name, std::string("b"));  // unnamed: its folder name
            QCOMPARE(runs[1].status, std::string("stopped"));
            QCOMPARE(runs[2].status, std::string("running"));
            QVERIFY2(runs_table_markdown(runs, false).find("| a “fortunes, 4 heads” |") != std::string::npos,
                     runs_table_markdown(runs, false).c_str());
            // A filter's words, each somewhere in the name, folder, dataset, notes or status, in any case
            QVERIFY(run_matches(runs[0], "FORTUNES finished  1e-3"));
            QVERIFY(!run_matches(runs[0], "fortunes stopped"));
            QVERIFY(run_matches(runs[1], "b stopped"));
            QVERIFY(run_matches(runs[2], ""));
            RunSummary onData = runs[1];
            onData.config["data_dir"] = "work/datasets/shakes-bpe/";
            QVERIFY(run_matches(onData, "shakes-BPE"));
            QVERIFY(!run_matches(onData, "datasets"));            // the dataset's name, not its path
            QVERIFY_THROWS_EXCEPTION(InputError, delete_run(c));  // refused while running
            QVERIFY(std::filesystem::exists(c / "config.json"));
        }
        QCOMPARE(collect_runs(ws)[2].status, std::string("stopped"));  // the trainer has let go
        {
            // A run whose config.json cannot be read is listed as damaged, with why, not left out.
            const auto d = makeRun("d", 100, 1.0);
            write_file_atomic(d / "config.json", "{garbage");
            const auto runs = collect_runs(ws);
            QCOMPARE(runs.size(), size_t(4));
            QCOMPARE(runs[3].status, std::string("damaged"));
            QVERIFY2(runs[3].notes.find("config.json") != std::string::npos, runs[3].notes.c_str());
            std::filesystem::remove_all(d);
            // A name with a cell separator, a newline and an escape sequence keeps the table's shape.
            RunSummary odd = runs[0];
            odd.display_name = "a|b\nc\x1b[31mred";
            const std::string md = runs_table_markdown({odd}, false);
            QVERIFY2(md.find("“a/b c\u241b[31mred”") != std::string::npos, md.c_str());
            QCOMPARE(std::count(md.begin(), md.end(), '\n'), std::ptrdiff_t(3));
            // Repeats grouped: the unfinished ones among them are counted.
            std::vector<RunSummary> seeds(2, runs[0]);
            seeds[0].config["seed"] = "1";
            seeds[1].config["seed"] = "2";
            seeds[1].status = "stopped";
            const std::string grouped = runs_table_markdown(seeds, true);
            QVERIFY2(grouped.find("| 2 (1 unfinished) |") != std::string::npos, grouped.c_str());
            // A damaged run beside them is named in either table, and makes no key look varied (it made
            // the table group one run as "1 (1 unfinished)", with no name and no status).
            RunSummary broken;
            broken.name = "broken";
            broken.status = "damaged";
            const std::string plain = runs_table_markdown({runs[0], broken}, true);
            QVERIFY2(plain.find("| broken |") != std::string::npos && plain.find("| damaged |") != std::string::npos,
                     plain.c_str());
            QVERIFY2(plain.find("seed") == std::string::npos && plain.find("unfinished") == std::string::npos,
                     plain.c_str());
            const std::string both = runs_table_markdown({seeds[0], broken, seeds[1]}, true);
            QVERIFY2(both.find("| 2 (1 unfinished) |") != std::string::npos, both.c_str());
            QVERIFY2(both.find("| broken (damaged) |") != std::string::npos, both.c_str());
        }
        delete_run(c);
        delete_run(b.string() + "/");
        QVERIFY(!std::filesystem::exists(c) && !std::filesystem::exists(b));
        // Nothing left beside the remaining run: no hidden half-deleted folder.
        int entries = 0;
        for (const auto& e : std::filesystem::directory_iterator(ws))
            entries += e.path() == a ? 0 : 1;
        QCOMPARE(entries, 0);
        QVERIFY_THROWS_EXCEPTION(InputError, delete_run(ws));  // not a run
    }
};

TWB_APPLESS_MAIN(TestRunFiles)
#include "tst_run_files.moc"
