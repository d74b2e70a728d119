// The torch-free core refuses bad input instead of using it (issue 22): configs from any file or
// --set are strict (unknown keys, fractions for whole numbers, out-of-range numbers) and keep the
// precedence preset -> file -> --set; a checkpoint's state.json is validated like a typed config; the
// run lock refuses a second writer and is released when its holder is SIGKILLed; the safetensors
// header and meta.json parsers catch overflowing shapes and out-of-vocabulary ids; prepare --force
// replaces only a prepared dataset and never a folder holding an input, strips a UTF-8 BOM, names
// UTF-16, names every input that is not text at once, and removes the temporaries a killed prepare left. Runs under
// ASan/UBSan in CI.
#include "core/data/corpus.h"
#include "core/data/dataset_meta.h"
#include "core/data/token_file.h"
#include "core/interchange/hf_config.h"
#include "core/interchange/safetensors_header.h"
#include "core/run/checkpoint_state.h"
#include "core/run/run_lock.h"
#include "core/tokenizers/gpt2_vocab.h"
#include "core/tokenizers/tokenizer.h"
#include "test_util.h"
#include "twb/config.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/run_folder.h"
#include "twb/runs_table.h"
#include "twb/sweep.h"
#include "twb/text.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>

#include <nlohmann/json.hpp>

using namespace twb;
namespace fs = std::filesystem;

namespace {
template <class E, class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "(no error)";
}
bool has(const std::string& s, const char* part) {
    return s.find(part) != std::string::npos;
}
}  // namespace

class TestCoreHardening : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void configFilesAreStrictAndKeepPrecedence() {
        const auto f = twbtest::path(m_dir, "cfg.json");
        twbtest::write(f, R"({"n_layer": 2, "dropout": 0.1})");
        // preset -> file -> --set: the file's keys over the preset, the preset's values elsewhere.
        RunConfig c = read_config_file(f.string(), preset_config("tiny"));
        QCOMPARE(c.n_layer, 2);
        QCOMPARE(c.n_embd, preset_config("tiny").n_embd);
        QCOMPARE(c.max_iters, preset_config("tiny").max_iters);
        c.set("n_layer=5");
        QCOMPARE(c.n_layer, 5);

        twbtest::write(f, R"({"n_layers": 2})");
        QVERIFY(has(error_of<ConfigError>([&] { read_config_file(f.string(), RunConfig{}); }), "unknown config key"));
        twbtest::write(f, R"({"n_layer": 2.7})");
        QVERIFY(has(error_of<ConfigError>([&] { read_config_file(f.string(), RunConfig{}); }), "whole number"));
        twbtest::write(f, R"({"n_embd": 4294967344})");
        QVERIFY(has(error_of<ConfigError>([&] { read_config_file(f.string(), RunConfig{}); }), "n_embd"));
        twbtest::write(f, R"([1, 2])");
        QVERIFY(has(error_of<ConfigError>([&] { read_config_file(f.string(), RunConfig{}); }), "JSON object"));
        twbtest::write(f, R"({"bias": "yes"})");
        QVERIFY(has(error_of<ConfigError>([&] { read_config_file(f.string(), RunConfig{}); }), "true or false"));
        // A Hugging Face model folder opened as a run: said so, with the import (it listed every known key).
        const auto hf = twbtest::path(m_dir, "hf");
        std::filesystem::create_directories(hf);
        twbtest::write(hf / "config.json", R"({"model_type": "gpt2", "n_layer": 2})");
        const std::string e = error_of<InputError>([&] { read_run_config(hf); });
        QVERIFY2(has(e, "holds a Hugging Face model") && has(e, "twb import --hf"), e.c_str());
        twbtest::write(f, R"({"position": "spiral"})");
        QVERIFY(has(error_of<ConfigError>([&] { read_config_file(f.string(), RunConfig{}); }), "position"));
        twbtest::write(f, "{not json");
        QVERIFY(has(error_of<InputError>([&] { read_config_file(f.string(), RunConfig{}); }), "not valid JSON"));

        RunConfig s;
        QVERIFY(has(error_of<ConfigError>([&] { s.set("n_embd=4294967344"); }), "between"));
        QVERIFY(has(error_of<ConfigError>([&] { s.set("n_layer=2.7"); }), "whole number"));
        QVERIFY(has(error_of<ConfigError>([&] { s.set("seed=-1"); }), "at least 0"));
        QVERIFY(has(error_of<ConfigError>([&] { s.set("learning_rate=abc"); }), "a number"));
        s.set("device=cpu");
        s.set("probe_prompt=123");
        QCOMPARE(s.probe_prompt, std::string("123"));
        QCOMPARE(s.n_embd, RunConfig().n_embd);  // nothing half-applied by the refusals
    }

    void checkpointStateIsValidatedLikeATypedConfig() {
        CheckpointState st;
        st.step = 10;
        st.batcher_state = 18446744073709551615ull;
        st.config = preset_config("tiny");
        st.config.vocab_size = 65;
        const auto back = parse_checkpoint_state(checkpoint_state_json(st), "state.json");
        QCOMPARE(back.step, int64_t(10));
        QCOMPARE(back.batcher_state, st.batcher_state);

        auto j = nlohmann::json::parse(checkpoint_state_json(st));
        auto edited = [&](auto edit) {
            auto k = j;
            edit(k);
            return k.dump();
        };
        QVERIFY(has(error_of<ConfigError>(
                        [&] { parse_checkpoint_state(edited([](auto& k) { k["config"]["n_head"] = 0; }), "s"); }),
                    "n_head"));
        QVERIFY(has(error_of<ConfigError>([&] {
                        parse_checkpoint_state(edited([](auto& k) { k["config"]["position"] = "spiral"; }), "s");
                    }),
                    "position"));
        QVERIFY(has(error_of<ConfigError>(
                        [&] { parse_checkpoint_state(edited([](auto& k) { k["config"]["vocab_size"] = 0; }), "s"); }),
                    "vocab_size"));
        QVERIFY(has(error_of<FormatError>(
                        [&] { parse_checkpoint_state(edited([](auto& k) { k["batcher_state"] = "12x"; }), "s"); }),
                    "batcher_state"));
        QVERIFY(has(error_of<FormatError>([&] { parse_checkpoint_state("[1]", "s"); }), "JSON object"));
        QVERIFY(
            has(error_of<FormatError>([&] { parse_checkpoint_state(edited([](auto& k) { k.erase("config"); }), "s"); }),
                "no config"));
        QVERIFY(has(error_of<FormatError>([&] { parse_best_step(R"({"step": "x"})", "best.json"); }), "step"));
        QCOMPARE(parse_best_step(best_json(40, 1.5), "best.json"), int64_t(40));
    }

    void runLockRefusesASecondWriterAndDiesWithItsHolder() {
        const auto run = twbtest::path(m_dir, "locked-run");
        {
            RunLock a(run);
            const std::string e = error_of<InputError>([&] { RunLock b(run); });
            QVERIFY2(has(e, ("is being written by process " + std::to_string(::getpid()) + " (").c_str()), e.c_str());
            QVERIFY(has(RunLock::holder(run), std::to_string(::getpid()).c_str()));
            // the program's whole name (/proc/self/comm cut "transformer-workbench" to "transformer-wor")
            QVERIFY2(has(RunLock::holder(run), "(tst_core_hardening)"), RunLock::holder(run).c_str());
            // A run being trained that has no checkpoint yet is said to be so (not "train it again").
            twbtest::write(run / "config.json", "{}");
            const std::string early = error_of<InputError>([&] { find_checkpoint(run, "last"); });
            QVERIFY2(has(early, "no checkpoint yet; it is being trained now by process"), early.c_str());
        }
        const std::string stopped = error_of<InputError>([&] { find_checkpoint(run, "last"); });
        QVERIFY2(has(stopped, "train it again into the same folder"), stopped.c_str());
        QVERIFY(RunLock::holder(run).empty());
        // A holder killed with SIGKILL leaves the run unlocked.
        int ready[2];
        QVERIFY(::pipe(ready) == 0);
        const pid_t child = ::fork();
        if (child == 0) {
            RunLock held(run);
            [[maybe_unused]] const ssize_t w = ::write(ready[1], "x", 1);
            ::pause();
            ::_exit(0);
        }
        char c;
        QVERIFY(::read(ready[0], &c, 1) == 1);
        QVERIFY(has(error_of<InputError>([&] { RunLock b(run); }), std::to_string(child).c_str()));
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        RunLock again(run);  // no throw
        QVERIFY(RunLock::holder(run).empty() == false);
    }

    void staleTemporariesOfARunAreRemoved() {
        const auto run = twbtest::path(m_dir, "stale-run");
        fs::create_directories(run / "checkpoints" / ".step_00000004.tmp123");
        fs::create_directories(run / "checkpoints" / "step_00000002");
        twbtest::write(run / "config.json.tmp99", "x");
        twbtest::write(run / "metrics.csv", "x");
        RunLock lock(run);
        QCOMPARE(remove_stale_temporaries(run), 2);
        QVERIFY(fs::exists(run / "checkpoints" / "step_00000002"));
        QVERIFY(fs::exists(run / "metrics.csv"));
        QVERIFY(!fs::exists(run / "config.json.tmp99"));
    }

    void safetensorsHeaderRefusesOverflowingShapes() {
        const std::string big = R"({"w": {"dtype": "F32", "shape": [4611686018427387904, 4], "data_offsets": [0, 0]}})";
        QVERIFY(has(error_of<FormatError>([&] { parse_safetensors_header(big, 0, "m.safetensors"); }), "'w'"));
        const std::string neg = R"({"w": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}})";
        QVERIFY(has(error_of<FormatError>([&] { parse_safetensors_header(neg, 4, "m"); }), "at least 0"));
        const std::string ok = R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})";
        QCOMPARE(parse_safetensors_header(ok, 8, "m").tensors.size(), size_t(1));
        QVERIFY(has(error_of<FormatError>([&] { parse_safetensors_header(ok, 7, "m"); }), "outside the file"));
        QVERIFY(
            has(error_of<FormatError>([&] { safetensors_header_length(std::string(8, '\xff'), 100, "m"); }), "100 MB"));
    }

    void safetensorsHeaderRefusesOverlappingTensors() {
        // Issue 35: checkpoints and import --hf read headers through this one parser.
        const std::string overlap = R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                                         "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})";
        QVERIFY(has(error_of<FormatError>([&] { parse_safetensors_header(overlap, 12, "m"); }), "overlap"));
        const std::string same = R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                                      "b": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})";
        QVERIFY(has(error_of<FormatError>([&] { parse_safetensors_header(same, 8, "m"); }), "'a' and 'b' overlap"));
        // Adjacent tensors and an empty one at a shared offset are fine.
        const std::string ok = R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                                    "e": {"dtype": "F32", "shape": [0], "data_offsets": [8, 8]},
                                    "b": {"dtype": "F32", "shape": [1], "data_offsets": [8, 12]}})";
        QCOMPARE(parse_safetensors_header(ok, 12, "m").tensors.size(), size_t(3));
    }

    void gpt2VocabRefusesAnEmptyMergesFile() {
        // Issue 35: import --hf with an empty merges.txt encoded byte by byte (bits/char 7.74 instead of 4.51).
        nlohmann::json vocab = nlohmann::json::object();
        for (int b = 0; b < 256; ++b)
            vocab[gpt2_unicode_from_bytes(std::string(1, static_cast<char>(b)))] = b;
        vocab["ab"] = 256;
        vocab["<|endoftext|>"] = 257;
        const auto v = twbtest::path(m_dir, "vocab.json"), m = twbtest::path(m_dir, "merges.txt");
        twbtest::write(v, vocab.dump());
        twbtest::write(m, "#version: 0.2\n");
        const std::string e = error_of<FormatError>([&] { read_gpt2_vocab(v, m); });
        QVERIFY2(has(e, "merges.txt: holds no merges") && has(e, "1 tokens longer than one byte"), e.c_str());
        twbtest::write(m, "#version: 0.2\na b\n");
        QCOMPARE(read_gpt2_vocab(v, m).merges.size(), size_t(1));
    }

    void hfFilesWithAWrongTypeAreRefusedByName() {
        // CI's fuzzer (fuzz_hf_import): "model_type": 1 escaped as nlohmann's type_error and aborted twb.
        const auto c = twbtest::path(m_dir, "config.json"), t = twbtest::path(m_dir, "tokenizer.json");
        twbtest::write(c, R"({"model_type": 1, "n_layer": 1})");
        std::string e = error_of<FormatError>([&] { read_hf_config(c); });
        QVERIFY2(has(e, "config.json: model_type must be a string"), e.c_str());
        twbtest::write(t, R"({"model": {"type": 7, "vocab": {}, "merges": []}})");
        e = error_of<FormatError>([&] { read_hf_tokenizer_json(t); });
        QVERIFY2(has(e, "model.type is '7'"), e.c_str());
        twbtest::write(t, R"({"model": {"vocab": {"a": 0}, "merges": []}, "added_tokens": [3]})");
        e = error_of<FormatError>([&] { read_hf_tokenizer_json(t); });
        QVERIFY2(has(e, "an added_tokens entry has no integer \"id\" (3)"), e.c_str());
    }

    void corpusReadersRefuseAnOpenQuoteAndAnEmptySeparator() {
        // Issue 35: an unterminated CSV quote swallowed the rest of its line silently; --record-separator ""
        // made every empty line a record boundary.
        const auto csv = twbtest::path(m_dir, "q.csv");
        twbtest::write(csv, "text,label\n\"fine, quoted\",1\n\"never closed, 2\nplain,3\n");
        CorpusSpec spec;
        spec.inputs = {csv.string()};
        spec.format = InputFormat::Csv;
        spec.column = "text";
        const auto sink = [](std::string_view, bool) {};
        const std::string e = error_of<InputError>([&] { read_corpus(spec, sink); });
        QVERIFY2(has(e, "q.csv: line 3 opens a quoted field"), e.c_str());
        twbtest::write(csv, "text,label\n\"a \"\"quote\"\" inside\",1\n");
        std::string got;
        read_corpus(spec, [&](std::string_view piece, bool) { got += piece; });
        QCOMPARE(got, std::string("a \"quote\" inside"));
        spec.format = InputFormat::Records;
        spec.record_separator = "";
        QVERIFY(has(error_of<ConfigError>([&] { read_corpus(spec, sink); }), "record separator is empty"));
    }

    void configFileRefusesARepeatedKey() {
        const auto f = twbtest::path(m_dir, "dup.json");
        twbtest::write(f, R"({"n_layer": 2, "n_head": 2, "n_layer": 4})");
        const std::string e = error_of<InputError>([&] { read_config_file(f.string(), RunConfig{}); });
        QVERIFY2(has(e, "'n_layer' is given twice"), e.c_str());
        twbtest::write(f, R"({"n_layer": 2, "n_head": 2})");
        QCOMPARE(read_config_file(f.string(), RunConfig{}).n_layer, 2);
    }

    void anAtomicWriteOntoAFolderSaysSo() {
        // Issue 35: the rename's error was lost ("cannot replace the file: Success").
        const auto dir = twbtest::path(m_dir, "a-folder");
        fs::create_directories(dir / "inside");
        const std::string e = error_of<IoError>([&] { write_file_atomic(dir, "x"); });
        QVERIFY2(has(e, "is a folder; give a file name"), e.c_str());
        QVERIFY(fs::is_directory(dir / "inside"));
    }

    void sentenceFilesLoseAByteOrderMark() {
        // An editor's BOM before the first hypothesis lowered BLEU from 100 to 77.7 against the same text.
        QCOMPARE(text_lines("\xEF\xBB\xBF"
                            "a cat\r\nsits\n",
                            "h.txt"),
                 (std::vector<std::string>{"a cat", "sits"}));
        QVERIFY(has(error_of<InputError>([] { text_lines(std::string("\xFF\xFEh\0i\0", 6), "u.txt"); }), "UTF-16"));
    }

    void runsTableCutsLongCells() {
        // Issue 35: `twb runs` printed 50 MB because one run's config held a huge probe_prompt.
        RunSummary a, b;
        a.name = "a";
        b.name = "b";
        a.config["probe_prompt"] = std::string(4000, 'x') + "\nmore";
        b.config["probe_prompt"] = "ROMEO: | short";
        const std::string t = runs_table_markdown({a, b}, false);
        QVERIFY2(t.size() < 1000, t.substr(0, 200).c_str());
        QVERIFY(has(t, std::string(40, 'x').append("…").c_str()));
        QVERIFY(has(t, "ROMEO: / short"));                                  // a '|' would split the cell
        QCOMPARE(std::count(t.begin(), t.end(), '\n'), std::ptrdiff_t(4));  // header, rule, two rows
    }

    void sweepRefusesARepeatedAxis() {
        SweepSpec spec;
        spec.axes = {parse_sweep_axis("seed=1,2"), parse_sweep_axis("n_head=1,2"), parse_sweep_axis("seed=3")};
        QVERIFY(has(error_of<ConfigError>([&] { sweep_cells(spec); }), "'seed' is swept twice"));
    }

    void learnedVocabularySmallerThanAskedIsSaid() {
        // Issue 35: bytebpe --vocab-size 100000 silently gave a few hundred tokens.
        const auto in = twbtest::path(m_dir, "small.txt");
        twbtest::write(in, twbtest::english_like(3000));
        PrepareOptions o;
        o.corpus.inputs = {in.string()};
        o.tokenizer.kind = TokenizerKind::ByteBpe;
        o.tokenizer.vocab_size = 100000;
        o.out = twbtest::path(m_dir, "bb");
        const auto r = prepare_dataset(o);
        QVERIFY(r.stats.vocab_size < 100000);
        const std::string want = "tokens, not the 100000 asked: no pair of tokens occurs twice";
        QVERIFY2(std::any_of(r.warnings.begin(), r.warnings.end(), [&](auto& w) { return has(w, want.c_str()); }),
                 (r.warnings.empty() ? std::string("no warnings") : r.warnings.front()).c_str());
    }

    void aDatasetMostlyOfUnknownTokensIsWarnedAbout() {
        // Issue 35: a dataset that was 99.998% <unk> trained to "val accuracy 1.0000" without a word.
        const auto in = twbtest::path(m_dir, "words.txt");
        twbtest::write(in, twbtest::english_like(20000));
        PrepareOptions o;
        o.corpus.inputs = {in.string()};
        o.tokenizer.kind = TokenizerKind::Word;
        o.tokenizer.vocab_size = 2000;
        o.tokenizer.min_frequency = 1000000;  // every word is rarer: all <unk>
        o.out = twbtest::path(m_dir, "unk");
        prepare_dataset(o);
        PreparedDataset d = open_prepared(o.out);
        const std::string w = unknown_share_warning(d, open_split(d, "train"), "train");
        QVERIFY2(has(w, "% of the train split of") && has(w, "is <unk>"), w.c_str());
        o.tokenizer.min_frequency = 1;
        o.overwrite = true;
        prepare_dataset(o);
        d = open_prepared(o.out);
        QCOMPARE(unknown_share_warning(d, open_split(d, "train"), "train"), std::string());
    }

    void tokenIdsAreCheckedWhenASplitIsOpened() {
        // Issue 35: meta.json's max_token_id is not trusted for training; the ids themselves are checked.
        const auto d = twbtest::path(m_dir, "split-data");
        fs::create_directories(d);
        std::vector<uint16_t> ids(10000, 3);
        twbtest::write(d / "val.bin", std::string(reinterpret_cast<const char*>(ids.data()), 2 * ids.size()));
        ids[7777] = 60000;
        twbtest::write(d / "train.bin", std::string(reinterpret_cast<const char*>(ids.data()), 2 * ids.size()));
        twbtest::write(d / "meta.json", R"({"vocab_size": 65, "train_tokens": 10000, "val_tokens": 10000,
                                            "max_token_id": 3})");
        const PreparedDataset data = open_prepared(d);
        const std::string e = error_of<FormatError>([&] { open_split(data, "train"); });
        QVERIFY2(has(e, "train.bin: holds token id 60000 (at token 7777)") && has(e, "65 ids"), e.c_str());
        QCOMPARE(open_split(data, "val").size(), uint64_t(10000));
    }

    void metaRefusesIdsBeyondTheVocabulary() {
        QVERIFY(has(error_of<FormatError>([&] {
                        parse_prepared_meta(R"({"vocab_size": 10, "train_tokens": 0, "val_tokens": 0,
                                                "max_token_id": 10})",
                                            "/d");
                    }),
                    "ids up to 10"));
        QVERIFY(has(error_of<FormatError>([&] { parse_prepared_meta(R"([])", "/d"); }), "JSON object"));
        QVERIFY(has(error_of<FormatError>([&] { parse_prepared_meta(R"({"vocab_size": "x"})", "/d"); }), "vocab_size"));
        // A dataset without max_token_id (older) is scanned: a token file holding id 70 for vocab 65.
        const auto d = twbtest::path(m_dir, "old-data");
        fs::create_directories(d);
        const uint16_t ids[] = {1, 2, 70, 3};
        twbtest::write(d / "train.bin", std::string(reinterpret_cast<const char*>(ids), sizeof ids));
        twbtest::write(d / "val.bin", "");
        twbtest::write(d / "meta.json", R"({"vocab_size": 65, "train_tokens": 4, "val_tokens": 0})");
        QVERIFY(has(error_of<FormatError>([&] { open_prepared(d); }), "token id 70"));
    }

    void prepareForceReplacesOnlyADatasetAndNeverAnInput() {
        const auto in = twbtest::path(m_dir, "in.txt");
        twbtest::write(in, "\xEF\xBB\xBF" + twbtest::english_like(4000));
        PrepareOptions o;
        o.corpus.inputs = {in.string()};
        o.overwrite = true;

        // A folder of notes is not a dataset: --force refuses it and leaves it as it was.
        const auto notes = twbtest::path(m_dir, "notes");
        fs::create_directories(notes);
        twbtest::write(notes / "todo.txt", "my notes");
        o.out = notes;
        QVERIFY(has(error_of<IoError>([&] { prepare_dataset(o); }), "not a prepared dataset"));
        QVERIFY(fs::exists(notes / "todo.txt"));

        // The folder holding the input is never the output, even empty of meta.json or with it.
        o.out = in.parent_path();
        QVERIFY(has(error_of<InputError>([&] { prepare_dataset(o); }), "holds the input"));
        QVERIFY(fs::exists(in));

        // A real dataset is replaced; a stale temporary of a killed prepare is removed.
        const auto data = twbtest::path(m_dir, "data");
        o.out = data;
        prepare_dataset(o);
        fs::create_directories(twbtest::path(m_dir, ".data.tmp-999999999-1"));
        const auto r = prepare_dataset(o);
        QVERIFY(!fs::exists(twbtest::path(m_dir, ".data.tmp-999999999-1")));
        // The BOM is not text: no U+FEFF in the vocabulary.
        const auto tok = load_tokenizer(data);
        QVERIFY(tok->unknown_chars("\xEF\xBB\xBF").size() > 0);
        QCOMPARE(r.stats.vocab_size, load_tokenizer(data)->vocab_size());
        QVERIFY(nlohmann::json::parse(read_file(data / "meta.json")).contains("max_token_id"));

        // A damaged meta.json: reading it says to prepare the data again with --force, and that works (it said
        // "not a prepared dataset" before) while the folder holds only what prepare writes; never over notes.
        write_file_atomic(data / "meta.json", "{bad");
        const std::string advice = error_of<FormatError>([&] { open_prepared(data); });
        QVERIFY2(has(advice, ("--out " + data.string() + " --force").c_str()), advice.c_str());
        prepare_dataset(o);
        QCOMPARE(open_prepared(data).vocab_size, r.stats.vocab_size);
        write_file_atomic(data / "meta.json", "[]");
        twbtest::write(data / "notes.txt", "my notes");
        QVERIFY(has(error_of<IoError>([&] { prepare_dataset(o); }), "holds what prepare did not write (notes.txt)"));
        QCOMPARE(read_file(data / "meta.json"), std::string("[]"));
        fs::remove(data / "notes.txt");
        fs::remove(data / "train.bin");  // without its token file a folder is not recognisably a dataset
        QVERIFY(has(error_of<IoError>([&] { prepare_dataset(o); }), "not a prepared dataset"));
    }

    void utf16IsNamedNotCalledBinary() {
        const auto in = twbtest::path(m_dir, "u16.txt");
        std::string u16 = "\xFF\xFE";
        for (char c : std::string("hello world\n"))
            u16 += std::string{c, '\0'};
        twbtest::write(in, u16);
        PrepareOptions o;
        o.corpus.inputs = {in.string()};
        o.out = twbtest::path(m_dir, "u16-data");
        const std::string e = error_of<InputError>([&] { prepare_dataset(o); });
        QVERIFY2(has(e, "UTF-16LE") && has(e, "iconv"), e.c_str());
        QVERIFY(!fs::exists(o.out));
    }

    void everyInputThatIsNotTextIsNamedAtOnce() {
        // A folder with text and three files that are not: all three named in one message, before any is read
        // (it named the first, then the next once that one was removed). The preview names them too.
        const auto dir = twbtest::path(m_dir, "mixed");
        fs::create_directories(dir);
        twbtest::write(dir / "a.txt", "some plain text\n");
        twbtest::write(dir / "b.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
        twbtest::write(dir / "c.txt", "more text\n");
        twbtest::write(dir / "d.bin", std::string("\0\x01\x02\x03\x04\x05\x06\x07", 8));
        std::string u16 = "\xFF\xFE";
        for (char c : std::string("hi\n"))
            u16 += std::string{c, '\0'};
        twbtest::write(dir / "e.txt", u16);
        PrepareOptions o;
        o.corpus.inputs = {dir.string()};
        o.out = twbtest::path(m_dir, "mixed-data");
        for (const std::string& e : {error_of<InputError>([&] { prepare_dataset(o); }),
                                     error_of<InputError>([&] { preview_cleaning(o.corpus, {}); })}) {
            QVERIFY2(has(e, "3 of the 5 input files are not UTF-8 text"), e.c_str());
            QVERIFY2(has(e, "b.png (binary)") && has(e, "d.bin (binary)") &&
                         has(e, "e.txt (UTF-16LE text, iconv -f UTF-16LE -t UTF-8 converts it)"),
                     e.c_str());
            QVERIFY2(!has(e, "a.txt") && !has(e, "c.txt"), e.c_str());
        }
        QVERIFY(!fs::exists(o.out));
        // One such file keeps the message of one
        fs::remove(dir / "b.png");
        fs::remove(dir / "e.txt");
        const std::string one = error_of<InputError>([&] { prepare_dataset(o); });
        QVERIFY2(has(one, "d.bin: looks like a binary file") && !has(one, "of the"), one.c_str());
    }

    void sentenceFilesReadAsLines() {
        const auto f = twbtest::path(m_dir, "lines.txt");
        twbtest::write(f, "eins\r\nzwei\n\ndrei");  // CRLF, an empty line, no final newline
        QCOMPARE(read_lines(f), (std::vector<std::string>{"eins", "zwei", "", "drei"}));
        twbtest::write(f, "a\nb\n");  // a final newline ends the last line; it makes no empty one
        QCOMPARE(read_lines(f).size(), size_t(2));
        twbtest::write(f, "ok\n\xC3\x28\n");
        const std::string e = error_of<InputError>([&] { read_lines(f); });
        QVERIFY2(has(e, f.string().c_str()) && has(e, "not UTF-8"), e.c_str());
    }
};

TWB_APPLESS_MAIN(TestCoreHardening)
#include "tst_core_hardening.moc"
