// The run folder's owners in the engine and the choices table: the samples history round-trips and
// skips what does not parse, the attention export reads back what was written, every enum spelling
// parses back to itself, and the tokenizer inspection counts what the token files hold.
#include "core/data/token_file.h"
#include "test_util.h"
#include "twb/attention.h"
#include "twb/choices.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/samples_history.h"

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
        // A corpus inspected without a dataset gives the same figures and leaves no scratch folder.
        const auto tmpBefore =
            std::distance(std::filesystem::directory_iterator(std::filesystem::temp_directory_path()),
                          std::filesystem::directory_iterator());
        PrepareOptions again = o;
        again.out.clear();
        const auto r2 = inspect_tokenization(again, {}, 10);
        QCOMPARE(r2.counts, r.counts);
        QCOMPARE(r2.preview_ids, r.preview_ids);
        const auto tmpAfter = std::distance(std::filesystem::directory_iterator(std::filesystem::temp_directory_path()),
                                            std::filesystem::directory_iterator());
        QCOMPARE(tmpAfter, tmpBefore);
    }
};

TWB_APPLESS_MAIN(TestRunFiles)
#include "tst_run_files.moc"
