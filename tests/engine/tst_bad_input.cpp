// The bad-input table (issue 22): `twb` as a careless or hostile user drives it. Every case asserts
// the exit status, exactly one line on stderr starting "twb: error:", and that no file outside the
// intended output changed (a snapshot of paths, sizes and mtimes of the whole scratch folder before
// and after). What twb does beside refusing (replacing with --force, warnings, the run lock, SIGTERM
// and Ctrl-C) is tst_cli_guards'.
#include "bad_input_fixture.h"

#include <map>

namespace {
/// Every path under root with its size and mtime: what "nothing else changed" compares.
using Snapshot = std::map<std::string, std::pair<uintmax_t, int64_t>>;
Snapshot snapshot(const fs::path& root) {
    Snapshot s;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
        std::error_code ec;
        const auto size = it->is_regular_file(ec) ? it->file_size(ec) : 0;
        const auto t = it->last_write_time(ec).time_since_epoch().count();
        s[it->path().lexically_relative(root).string()] = {size, static_cast<int64_t>(t)};
    }
    return s;
}
/// Paths added, removed or changed between two snapshots, outside the allowed prefixes.
QStringList changes(const Snapshot& a, const Snapshot& b, const QStringList& allowed) {
    QStringList out;
    auto ok = [&](const std::string& p) {
        // The run lock's file is rewritten by every trainer that takes it (it names the holder).
        if (p == ".lock" || (p.size() > 6 && p.compare(p.size() - 6, 6, "/.lock") == 0))
            return true;
        for (auto& pre : allowed)
            if (QString::fromStdString(p).startsWith(pre))
                return true;
        return false;
    };
    for (auto& [p, v] : a)
        if (!ok(p) && (!b.count(p) || b.at(p) != v))
            out << QString::fromStdString(p);
    for (auto& [p, v] : b)
        if (!ok(p) && !a.count(p))
            out << QString::fromStdString(p);
    return out;
}
}  // namespace

class TestBadInput : public BadInputFixture {
    Q_OBJECT

private slots:
    void initTestCase() {
        m_root = fs::path(m_dir.path().toStdString());
        m_in = p("corpus.txt");
        m_data = p("data");
        m_run = p("run");
        const QString failed = twbtest::make_cli_run(m_root);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        // best.json never names a checkpoint that was not saved.
        const auto best = json::parse(slurp(m_run / "checkpoints" / "best.json"))["step"].get<int64_t>();
        QVERIFY(best > 0);
        QVERIFY(fs::exists(m_run / "checkpoints" / ("step_0000000" + std::to_string(best)) / "state.json"));
    }
    void refusedWithOneLine_data() {
        QTest::addColumn<QString>("setup");  // what to damage first (see refusedWithOneLine)
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expect");       // part of the one error line
        QTest::addColumn<QStringList>("allowed");  // paths (prefixes) that may change
        const QString data = q(m_data), runDir = q(m_run), in = q(m_in);
        const QStringList none;
        auto row = [&](const char* name, const char* setup, QStringList args, const char* expect,
                       QStringList allowed = {}) {
            QTest::newRow(name) << QString(setup) << args << QString(expect) << allowed;
        };
        // Crashes and hangs.
        row("n_head 0 in state.json: sample", "n_head0", {"sample", "--run", q(p("bad")), "--checkpoint", "last"},
            "n_head");
        row("n_head 0 in state.json: eval", "n_head0", {"eval", "--run", q(p("bad")), "--checkpoint", "last"},
            "n_head");
        row("n_head 0 in state.json: attention", "n_head0",
            {"attention", "--run", q(p("bad")), "--checkpoint", "last", "--prompt", "the", "--out", q(p("a.json"))},
            "n_head");
        row("eval batch size 0", "", {"eval", "--run", runDir, "--batch-size", "0"}, "batch size must be at least 1");
        row("eval batch size -1", "", {"eval", "--run", runDir, "--batch-size", "-1"}, "batch size must be at least 1");
        row("prepare --force over notes", "notes",
            {"prepare", "--input", in, "--out", q(p("notes")), "--force", "--quiet"}, "not a prepared dataset");
        row("prepare --force over the input's folder", "",
            {"prepare", "--input", in, "--out", q(m_root), "--force", "--quiet"}, "holds the input");
        // Issue 35: --force removes only what prepare wrote, never a run trained into the dataset's folder
        // (also when that run gives the tokenizer) nor a user's file there.
        row("prepare --force over a dataset whose run gives the tokenizer", "run_in_data",
            {"prepare", "--input", in, "--tokenizer-from", q(p("baddata/myrun")), "--out", q(p("baddata")), "--force",
             "--quiet"},
            "holds the input");
        row("prepare --force over a dataset holding a run", "run_in_data",
            {"prepare", "--input", in, "--out", q(p("baddata")), "--force", "--quiet"},
            "holds what prepare did not write (myrun)");
        row("prepare --force over a dataset holding notes", "notes_in_data",
            {"prepare", "--input", in, "--out", q(p("baddata")), "--force", "--quiet"},
            "holds what prepare did not write (notes.txt)");
        row("model too large for memory", "",
            {"train", "--data", data, "--out", q(p("huge")), "--set", "n_layer=48", "--set", "n_embd=8192"},
            "--ignore-memory-check");
        row("best.json names an unsaved step", "best0", {"sample", "--run", q(p("bad")), "-n", "2"},
            "best checkpoint (step 0, checkpoints/best.json) is gone");
        row("no best checkpoint yet", "no_best", {"sample", "--run", q(p("bad")), "-n", "2"},
            "no best checkpoint recorded yet (an evaluation after step 0 records it); choose --checkpoint last (step");
        // Silent wrong results.
        row("--config unknown key", "cfg_unknown",
            {"train", "--data", data, "--out", q(p("r2")), "--config", q(p("cfg.json"))}, "unknown config key");
        row("--config 2.7 for an integer", "cfg_fraction",
            {"train", "--data", data, "--out", q(p("r2")), "--config", q(p("cfg.json"))}, "whole number");
        row("--config with --resume", "", {"train", "--out", runDir, "--resume", "--preset", "tiny"},
            "--resume continues");
        row("--set wraps", "", {"train", "--data", data, "--out", q(p("r2")), "--set", "n_embd=4294967344"},
            "n_embd takes a whole number between");
        row("--set unknown key", "", {"train", "--data", data, "--out", q(p("r2")), "--set", "n_layers=2"},
            "unknown config key 'n_layers'");
        row("ids beyond the vocabulary", "vocab_small", {"train", "--data", q(p("baddata")), "--out", q(p("r2"))},
            "ids up to");
        row("unknown position kind in a checkpoint", "position",
            {"sample", "--run", q(p("bad")), "--checkpoint", "last"}, "position must be");
        row("missing RNG state on resume", "no_rng", {"train", "--out", q(p("bad")), "--resume", "--quiet"},
            "random-generator state", {"bad/"});
        // Issue 35, round 2: every id is checked when a split is opened, every checkpoint against itself.
        row("train.bin holds an id beyond the vocabulary", "train_id_60000",
            {"train", "--data", q(p("baddata")), "--out", q(p("r2")), "--preset", "tiny"}, "holds token id 60000");
        row("eval on a val.bin holding an id beyond the vocabulary", "val_id_60000",
            {"eval", "--run", runDir, "--data", q(p("baddata"))}, "val.bin: holds token id 60000");
        row("missing batcher_state on resume", "no_batcher", {"train", "--out", q(p("bad")), "--resume", "--quiet"},
            "has no batcher_state", {"bad/"});
        row("a second layer under n_layer 1: sample", "extra_layer",
            {"sample", "--run", q(p("bad")), "--checkpoint", "last", "-n", "2"}, "transformer.h.1.ln_1.weight");
        row("a second layer under n_layer 1: export", "extra_layer",
            {"export", "--run", q(p("bad")), "--checkpoint", "last", "--format", "safetensors", "--out", q(p("st"))},
            "has no place for");
        row("an unknown tensor in a checkpoint", "unknown_tensor",
            {"sample", "--run", q(p("bad")), "--checkpoint", "last", "-n", "2"}, "'bogus.weight'");
        row("overlapping data_offsets in a checkpoint", "overlap",
            {"sample", "--run", q(p("bad")), "--checkpoint", "last", "-n", "2"}, "overlap");
        row("NaN Adam moments on resume", "adam_nan", {"train", "--out", q(p("bad")), "--resume", "--quiet"},
            "'exp_avg' holds NaN", {"bad/"});
        row("negative exp_avg_sq on resume", "adam_negative", {"train", "--out", q(p("bad")), "--resume", "--quiet"},
            "/checkpoints/step_00000006: optimizer state 'exp_avg_sq' holds negative values", {"bad/"});
        // One line instead of a library's trace or raw message.
        row("safetensors shape overflow", "shape_overflow", {"sample", "--run", q(p("bad")), "--checkpoint", "last"},
            "shape is too large");
        row("RNG state of the wrong size", "rng_size", {"train", "--out", q(p("bad")), "--resume", "--quiet"},
            "random-generator state has", {"bad/"});
        row("optimizer state of the wrong size", "opt_size", {"train", "--out", q(p("bad")), "--resume", "--quiet"},
            "optimizer state", {"bad/"});
        row("NaN weights", "nan", {"sample", "--run", q(p("bad")), "--checkpoint", "last", "-n", "3"}, "NaN");
        row("batcher_state not a number", "stoull", {"train", "--out", q(p("bad")), "--resume", "--quiet"},
            "batcher_state", {"bad/"});
        row("meta.json from a later format", "meta_v999", {"train", "--data", q(p("baddata")), "--out", q(p("r2"))},
            "format_version 999");
        row("meta.json is an array", "meta_array", {"train", "--data", q(p("baddata")), "--out", q(p("r2"))},
            "not a JSON object");
        row("config.json is an array", "config_array", {"train", "--out", q(p("bad")), "--resume"}, "config.json");
        row("sentencepiece on one huge line", "one_line",
            {"prepare", "--input", q(p("oneline.txt")), "--tokenizer", "bpe", "--vocab-size", "300", "--out",
             q(p("spm")), "--quiet"},
            "or longer (one huge line?); give it text, broken into lines");
        row("sentencepiece on empty lines only", "blank_lines",
            {"prepare", "--input", q(p("blank.txt")), "--tokenizer", "bpe", "--vocab-size", "300", "--out", q(p("spm")),
             "--quiet"},
            "its lines are all empty");
        row("UTF-16 input", "utf16", {"prepare", "--input", q(p("u16.txt")), "--out", q(p("u16")), "--quiet"},
            "UTF-16LE");
        // What already held.
        row("binary input", "binary", {"prepare", "--input", q(p("b.bin")), "--out", q(p("x")), "--quiet"}, "binary");
        row("missing input", "", {"prepare", "--input", q(p("nope.txt")), "--out", q(p("x"))}, "no such file");
        row("invalid UTF-8", "latin1", {"prepare", "--input", q(p("latin1.txt")), "--out", q(p("x"))},
            "invalid UTF-8 at byte offset 3 (convert the file to UTF-8, or replace the bad bytes with U+FFFD: twb "
            "prepare --replace-invalid-utf8)");
        row("prepare --vocab-size -5", "",
            {"prepare", "--input", in, "--tokenizer", "bpe", "--vocab-size", "-5", "--out", q(p("x"))},
            "vocab size -5 is negative");
        row("existing output without --force", "", {"prepare", "--input", in, "--out", data}, "--force");
        row("unknown option", "", {"sample", "--run", runDir, "--bogus"}, "--bogus");
        row("option not a number", "", {"sample", "--run", runDir, "-n", "many"},
            "--max-new-tokens = many is not a value that option takes: a number is wanted");
        row("option out of its type's range", "", {"sample", "--run", runDir, "-n", "99999999999999999999"},
            "--max-new-tokens = 99999999999999999999 is out of the range that option takes");
        row("a fraction for a whole number", "", {"sample", "--run", runDir, "-n", "2.5"},
            "--max-new-tokens = 2.5 is a fraction; that option takes a whole number");
        row("option given twice", "", {"sample", "--run", runDir, "-n", "1", "-n", "2"},
            "--max-new-tokens is given 2 times; give it once");
        row("top-p out of range", "", {"sample", "--run", runDir, "--top-p", "2"}, "top-p");
        row("negative temperature", "", {"sample", "--run", runDir, "--temperature", "-1"}, "temperature");
        row("checkpoint not a step", "", {"sample", "--run", runDir, "--checkpoint", "12abc"}, "not best, last");
        row("not a run folder", "", {"sample", "--run", data}, "no checkpoints here");
        row("no such run folder", "", {"sample", "--run", q(p("no-such-run"))}, "no such folder");
        row("run folder exists", "", {"train", "--data", data, "--out", runDir}, "--resume");
        row("no dataset", "", {"train", "--out", q(p("r2"))}, "--data");
        row("--data a text file", "", {"train", "--data", in, "--out", q(p("r2"))},
            "corpus.txt is a file, not a prepared dataset; prepare it first (twb prepare --input");
        row("--data no such folder", "", {"train", "--data", q(p("no-such-data")), "--out", q(p("r2"))},
            "no-such-data: does not exist");
        row("--data a folder without meta.json", "notes", {"train", "--data", q(p("notes")), "--out", q(p("r2"))},
            "notes: no meta.json, so it is not a prepared dataset");
        row("--init-from no such folder", "",
            {"train", "--data", data, "--out", q(p("r2")), "--init-from", q(p("nope"))}, "/nope: no such folder");
        row("--init-from a folder that is no run", "notes",
            {"train", "--data", data, "--out", q(p("r2")), "--init-from", q(p("notes"))},
            "/notes: no checkpoints here");
        // Issue 35: a checkpoint is checked against itself; a resume writes nothing before it holds.
        row("resume a run stopped before its first checkpoint", "no_checkpoint",
            {"train", "--out", q(p("bad")), "--resume", "--quiet"}, "stopped before its first checkpoint", {"bad/"});
        row("resume from a truncated newest checkpoint", "truncated",
            {"train", "--out", q(p("bad")), "--resume", "--quiet"}, "out of the run (or delete it) and resume again",
            {"bad/"});
        row("resume from a truncated only checkpoint", "truncated_only",
            {"train", "--out", q(p("bad")), "--resume", "--quiet"},
            "it is the run's only checkpoint, so the run cannot resume", {"bad/"});
        row("sample a run stopped before its first checkpoint", "no_checkpoint", {"sample", "--run", q(p("bad"))},
            "the run has no checkpoint yet (its training stopped before the first one");
        row("eval a run stopped before its first checkpoint", "no_checkpoint", {"eval", "--run", q(p("bad"))},
            "the run has no checkpoint yet");
        row("resume changing block_size", "", {"train", "--out", runDir, "--resume", "--set", "block_size=32"},
            "--resume cannot change block_size");
        row("state.json's step is not its folder's", "step_mismatch",
            {"train", "--out", q(p("bad")), "--resume", "--quiet"}, "says step 999", {"bad/"});
        // Issue 35: no file output lands on or in what the command reads, in a run or in a dataset.
        const QString ckModel = q(last_checkpoint(m_run) / "model.safetensors");
        row("export gguf onto a checkpoint's weights", "",
            {"export", "--run", runDir, "--format", "gguf", "--out", ckModel}, "lies inside");
        row("attention onto a checkpoint file", "", {"attention", "--run", runDir, "--prompt", "the", "--out", ckModel},
            "lies inside");
        row("embeddings map onto the run's config.json", "",
            {"embeddings", "--run", runDir, "--map", "10", "--out", q(m_run / "config.json")}, "lies inside");
        row("lr-find onto the dataset's meta.json", "",
            {"lr-find", "--data", data, "--preset", "tiny", "--steps", "3", "--out", q(m_data / "meta.json")},
            "lies inside");
        row("synth onto the dataset's meta.json", "",
            {"synth", "--task", "addition", "-n", "5", "--out", q(m_data / "meta.json")},
            "lies inside the prepared dataset");
        row("synth onto the run's metrics.csv", "",
            {"synth", "--task", "addition", "-n", "5", "--out", q(m_run / "metrics.csv")},
            "lies inside the run folder");
        row("synth over an existing corpus", "", {"synth", "--task", "addition", "-n", "5", "--out", in},
            "already exists; choose another name or replace it (--force)");
        row("attention over an existing file", "existing_gguf",
            {"attention", "--run", runDir, "--prompt", "the", "--out", q(p("existing.gguf"))},
            "already exists; choose another name or replace it (--force)");
        row("embeddings map over an existing file", "existing_gguf",
            {"embeddings", "--run", runDir, "--map", "10", "--out", q(p("existing.gguf"))},
            "already exists; choose another name or replace it (--force)");
        // The rest of the file outputs: refused over an existing file as well (--force: see
        // tst_cli_guards: aFileOutputReplacesAnExistingFileOnlyWithForce).
        row("lr-find over an existing file", "existing_gguf",
            {"lr-find", "--data", data, "--preset", "tiny", "--steps", "3", "--out", q(p("existing.gguf"))},
            "already exists; choose another name or replace it (--force)");
        row("generate-eval over an existing file", "existing_gguf",
            {"generate-eval", "--run", runDir, "--prompts", in, "--setting", "greedy", "-n", "2", "--out",
             q(p("existing.gguf"))},
            "already exists; choose another name or replace it (--force)");
        row("lens --csv over an existing file", "existing_gguf",
            {"lens", "--run", runDir, "--prompt", "the", "--csv", q(p("existing.gguf"))},
            "already exists; choose another name or replace it (--force)");
        row("attribute --csv over an existing file", "existing_gguf",
            {"attribute", "--run", runDir, "--prompt", "the", "--target", "e", "--csv", q(p("existing.gguf"))},
            "already exists; choose another name or replace it (--force)");
        row("lens --csv \"\"", "", {"lens", "--run", runDir, "--prompt", "the", "--csv", ""},
            "an empty file name (give FILE, or leave --csv out)");
        row("ablate -n without --prompt", "", {"ablate", "--run", runDir, "--heads", "0.0", "-n", "5"},
            "--max-new-tokens is for the --prompt generation: give --prompt");
        row("resume changing model_kind", "",
            {"train", "--out", runDir, "--resume", "--set", "model_kind=encoder_decoder"},
            "--resume continues a decoder LM's weights: model_kind cannot change");
        row("init-from changing model_kind", "",
            {"train", "--data", data, "--out", q(p("r2")), "--init-from", runDir, "--set",
             "model_kind=encoder_decoder"},
            "--init-from starts from a decoder LM's weights: model_kind cannot change");
        row("resume with metrics.csv a folder", "metrics_folder",
            {"train", "--out", q(p("bad")), "--resume", "--quiet"},
            "metrics.csv is a folder where the run keeps its metrics.csv file");
        // A legal name too long for the temporary beside it: refused by name, not as an unwritable folder.
        const std::string longName(245, 'y');
        row("prepare into a 245-byte name", "", {"prepare", "--input", in, "--out", q(p(longName)), "--quiet"},
            "bytes leaves no room for the temporary written beside it first");
        row("export into a 245-byte name", "",
            {"export", "--run", runDir, "--format", "safetensors", "--out", q(p(longName))},
            "bytes leaves no room for the temporary written beside it first");
        row("lens --csv onto a 245-byte name", "",
            {"lens", "--run", runDir, "--prompt", "the", "--csv", q(p(longName))},
            "bytes leaves no room for the temporary written beside it first");
        row("--set vocab_size=-1", "", {"train", "--data", data, "--out", q(p("r2")), "--set", "vocab_size=-1"},
            "vocab_size must be between 0 and 16777216 (got -1)");
        row("init-from a language model onto translation pairs", "parallel_data",
            {"train", "--data", q(p("pairsdata")), "--out", q(p("r2")), "--init-from", runDir},
            "pairsdata is a parallel dataset (translation pairs): start from a translation run");
        row("eval of a language model on translation pairs", "parallel_data",
            {"eval", "--run", runDir, "--data", q(p("pairsdata"))},
            "pairsdata is a parallel dataset (translation pairs), which a language model does not score");
        // Session 34: an output renamed over a link or a device replaced it with a file (as root, /dev/null).
        row("lens --csv --force onto a pipe", "fifo",
            {"lens", "--run", runDir, "--prompt", "the", "--csv", q(p("fifo")), "--force"},
            "fifo is not a regular file (a device, pipe or socket)");
        row("lens --csv onto a dangling link", "dangling_link",
            {"lens", "--run", runDir, "--prompt", "the", "--csv", q(p("dangling.csv"))},
            "dangling.csv is a symbolic link; name the file itself");
        row("attention --out --force onto a link", "existing_link",
            {"attention", "--run", runDir, "--prompt", "the", "--out", q(p("link.json")), "--force"},
            "link.json is a symbolic link; name the file itself");
        row("ablate --csv over an existing file", "existing_gguf",
            {"ablate", "--run", runDir, "--heads", "0.0", "--max-tokens", "64", "--csv", q(p("existing.gguf"))},
            "already exists; choose another name or replace it (--force)");
        row("ablate --csv --force onto the run's metrics.csv", "",
            {"ablate", "--run", runDir, "--heads", "0.0", "--max-tokens", "64", "--csv", q(m_run / "metrics.csv"),
             "--force"},
            "lies inside");
        row("lr-find --force onto the dataset's meta.json", "",
            {"lr-find", "--data", data, "--preset", "tiny", "--steps", "3", "--out", q(m_data / "meta.json"),
             "--force"},
            "lies inside");
        row("export-metrics of a damaged metrics.csv", "metrics_garbage", {"export-metrics", q(p("bad"))},
            "metrics.csv: no valid metrics row in it (the file is damaged); tb/ is left as it was");
        row("export-metrics of an empty metrics.csv", "metrics_empty", {"export-metrics", q(p("bad"))},
            "metrics.csv: no metrics rows in it, so nothing to export; tb/ is left as it was");
        row("label --name over a run.json that is not JSON", "runjson_broken", {"label", q(p("bad")), "--name", "x"},
            "run.json is damaged (not valid JSON), so it is not rewritten");
        row("label --notes over a run.json of wrong types", "runjson_types", {"label", q(p("bad")), "--notes", "x"},
            "run.json is damaged ('name' is not text), so it is not rewritten");
        row("lr-find --out in a folder that does not exist", "",
            {"lr-find", "--data", data, "--preset", "tiny", "--steps", "10", "--out", q(p("nowhere") / "lr.csv")},
            "nowhere does not exist; write the output elsewhere");
        row("lr-find --out in a folder that cannot be written", "",
            {"lr-find", "--data", data, "--preset", "tiny", "--steps", "10", "--out", "/proc/self/lr.csv"},
            "cannot write in /proc/");
        row("export safetensors into the run folder", "",
            {"export", "--run", runDir, "--format", "safetensors", "--out", q(m_run / "exported")},
            "lies inside the run folder");
        row("export safetensors into the dataset", "",
            {"export", "--run", runDir, "--format", "safetensors", "--out", q(m_data / "exported")},
            "lies inside the prepared dataset");
        row("export gguf over an existing file", "existing_gguf",
            {"export", "--run", runDir, "--format", "gguf", "--out", q(p("existing.gguf"))}, "already exists");
        // Issue 35: sizes are capped and only regular files are read where a file is expected.
        row("--config /dev/zero", "", {"train", "--data", data, "--out", q(p("r2")), "--config", "/dev/zero"},
            "not a regular file");
        row("--config a FIFO", "fifo", {"train", "--data", data, "--out", q(p("r2")), "--config", q(p("fifo"))},
            "not a regular file");
        row("--prompt-file a folder", "", {"sample", "--run", runDir, "--prompt-file", q(m_root)}, "is a folder");
        row("--prompt-file a symlink loop", "loop", {"sample", "--run", runDir, "--prompt-file", q(p("loop1"))},
            "loop of symbolic links");
        row("eval --text a binary file", "elf", {"eval", "--run", runDir, "--text", q(p("prog"))},
            "prog: not UTF-8 text (a binary file; invalid byte at offset 24)");
        row("sample --prompt-file in Latin-1", "latin1",
            {"sample", "--run", runDir, "--prompt-file", q(p("latin1.txt"))},
            "latin1.txt: not UTF-8 text (invalid byte at offset 3)");
        row("eval --text /dev/zero", "", {"eval", "--run", runDir, "--text", "/dev/zero"}, "not a regular file");
        row("bleu --ref /dev/zero", "", {"bleu", "--ref", "/dev/zero", "--hyp", in}, "not a regular file");
        row("bleu of empty files", "empty_pair", {"bleu", "--ref", q(p("empty.txt")), "--hyp", q(p("empty.txt"))},
            "empty.txt has no lines");
        row("bleu --hyp in UTF-16", "utf16", {"bleu", "--ref", in, "--hyp", q(p("u16.txt"))},
            "u16.txt: UTF-16 text (it starts with UTF-16's byte-order mark); save it as UTF-8");
        row("sample --beam 100000", "", {"sample", "--run", runDir, "--beam", "100000", "-n", "5"},
            "beam width must be between 1 and 64");
        row("threads 100000", "", {"train", "--data", data, "--out", q(p("r2")), "--set", "threads=100000"},
            "threads must be between 0");
        // Threads the machine cannot serve: a step took a minute at threads=1000 on two cores.
        row("threads 1024 on this machine", "", {"train", "--data", data, "--out", q(p("r2")), "--set", "threads=1024"},
            "more than this machine's");
        row("lr-find threads 1024 on this machine", "",
            {"lr-find", "--data", data, "--preset", "tiny", "--steps", "10", "--set", "threads=1024"},
            "set threads=0 (all cores) or at most");
        row("doctor --threads -1", "", {"doctor", "--no-speed", "--threads", "-1"},
            "threads must be between 0 (all cores) and 1024 (got -1)");
        row("doctor --threads 5000", "", {"doctor", "--no-speed", "--threads", "5000"},
            "threads must be between 0 (all cores) and 1024 (got 5000)");
        row("temperature inf", "", {"sample", "--run", runDir, "--temperature", "inf"}, "temperature");
        row("repetition penalty inf", "", {"sample", "--run", runDir, "--repetition-penalty", "inf"},
            "repetition penalty");
        row("length penalty nan", "", {"sample", "--run", runDir, "--beam", "2", "--length-penalty", "nan"},
            "length penalty");
        // Issue 35: conflicting options are refused, not resolved silently.
        row("--prompt with --prompt-file", "", {"sample", "--run", runDir, "--prompt", "a", "--prompt-file", in},
            "excludes");
        row("--greedy with --temperature", "", {"sample", "--run", runDir, "--greedy", "-t", "0.9"}, "excludes");
        row("--greedy with --beam", "", {"sample", "--run", runDir, "--greedy", "--beam", "2"}, "excludes");
        row("--beam with --temperature", "", {"sample", "--run", runDir, "--beam", "2", "-t", "0.7"}, "excludes");
        row("sample --beam 0", "", {"sample", "--run", runDir, "--beam", "0"}, "beam width must be between 1 and 64");
        row("generate-eval of an empty prompts file", "empty_pair",
            {"generate-eval", "--run", runDir, "--prompts", q(p("empty.txt")), "--setting", "greedy"},
            "empty.txt: no prompts in it");
        row("generate-eval with an empty references file", "empty_pair",
            {"generate-eval", "--run", runDir, "--prompts", in, "--references", q(p("empty.txt")), "--setting",
             "greedy"},
            "empty.txt: no references in it");
        row("generate-eval with one setting twice", "",
            {"generate-eval", "--run", runDir, "--prompts", in, "--setting", "greedy", "--setting", "temperature=0"},
            "the decoding settings 'greedy' and 'temperature=0' decode the same way");
        row("synth --seed -1", "", {"synth", "--task", "copy", "-n", "3", "--seed", "-1", "--out", q(p("s.txt"))},
            "a seed is a whole number from 0 (got -1)");
        row("synth --seed past 64 bits", "",
            {"synth", "--task", "copy", "-n", "3", "--seed", "99999999999999999999999", "--out", q(p("s.txt"))},
            "a seed is at most 18446744073709551615");
        // Refused before the model answers (it answered, then failed to record it).
        row("chat whose chat.jsonl is a folder", "chat_folder", {"chat", "--run", q(p("bad")), "-m", "hi", "-n", "3"},
            "chat.jsonl is not a file (a folder?), so the chat cannot be recorded", {"bad/"});
        row("chat with an empty --message", "", {"chat", "--run", runDir, "-m", " "},
            "--message is empty; give the text to send");
        row("chat --greedy with --temperature", "", {"chat", "--run", runDir, "--greedy", "-t", "0.9"}, "excludes");
        row("tokenize --stats with --decode", "", {"tokenize", "--data", data, "--stats", "--decode"}, "excludes");
        row("tokenize --top without --stats", "", {"tokenize", "--data", data, "--top", "5"},
            "--top counts what --stats or --merges print");
        row("--show-probs with --beam", "", {"sample", "--run", runDir, "--show-probs", "--beam", "2"}, "excludes");
        row("--resume with --init-from", "", {"train", "--out", runDir, "--resume", "--init-from", runDir}, "excludes");
        row("train --data with --set data_dir naming another", "",
            {"train", "--data", data, "--out", q(p("r2")), "--set", "data_dir=" + q(p("other"))},
            "name two datasets; give the dataset once, with --data");
        row("lr-find --data with --set data_dir naming another", "",
            {"lr-find", "--data", data, "--preset", "tiny", "--steps", "10", "--set", "data_dir=" + q(p("other"))},
            "name two datasets");
        row("--init-checkpoint without --init-from", "",
            {"train", "--data", data, "--out", q(p("r2")), "--init-checkpoint", "last"}, "requires");
        row("prepare --preset with --input", "", {"prepare", "--preset", "fortunes", "--input", in, "--out", q(p("x"))},
            "excludes");
        row("prepare --tokenizer-from with --tokenizer", "",
            {"prepare", "--input", in, "--tokenizer-from", runDir, "--tokenizer", "char", "--out", q(p("x"))},
            "excludes");
        row("prepare --source with --input", "",
            {"prepare", "--source", in, "--target", in, "--input", in, "--out", q(p("x"))}, "excludes");
        row("prepare --pairs with --source", "",
            {"prepare", "--source", in, "--target", in, "--pairs", in, "--out", q(p("x"))}, "excludes");
        row("prepare --min-frequency -1", "",
            {"prepare", "--input", in, "--tokenizer", "word", "--min-frequency", "-1", "--out", q(p("x"))},
            "min-frequency");
        row("sweep --random 0", "",
            {"sweep", "--data", data, "--preset", "tiny", "--axis", "seed=1,2", "--random", "0", "--out", q(p("sw"))},
            "random");
        row("sweep --resume with a new --axis", "", {"sweep", "--out", q(p("sw")), "--resume", "--axis", "n_head=1,4"},
            "--axis cannot change a sweep");
        // Issue 35, round 2: sweeps, readers and configs.
        row("sweep with a repeated axis", "",
            {"sweep", "--data", data, "--preset", "tiny", "--axis", "seed=1,2", "--axis", "seed=3", "--out",
             q(p("sw"))},
            "'seed' is swept twice");
        row("sweep whose last cell names no dataset", "",
            {"sweep", "--preset", "tiny", "--axis", "data_dir=" + data + "," + q(p("nodata")), "--out", q(p("sw"))},
            "sweep cell 001 (data_dir=");
        row("sweep with a value of the wrong type", "",
            {"sweep", "--data", data, "--preset", "tiny", "--axis", "learning_rate=abc", "--out", q(p("sw"))},
            "sweep cell 000 (learning_rate=abc) is not a valid config: learning_rate takes a number");
        row("sweep whose last cell cannot fit in memory", "",
            {"sweep", "--data", data, "--preset", "tiny", "--axis", "n_layer=1,48", "--axis", "n_embd=96,8192", "--out",
             q(p("sw"))},
            "sweep cell 003 (n_layer=48, n_embd=8192)");
        // Session 34: settings that would do nothing, or be overridden, without a word.
        row("--set of the other model family", "",
            {"train", "--data", data, "--out", q(p("r2")), "--set", "max_epochs=2"},
            "--set max_epochs: max_epochs is for encoder-decoder runs (model_kind=encoder_decoder); this run is a "
            "decoder LM");
        row("sweep axis of the other model family", "",
            {"sweep", "--data", data, "--preset", "tiny", "--axis", "bleu_pairs=5,10", "--out", q(p("sw"))},
            "sweep cell 000 (bleu_pairs=5) is not a valid config: bleu_pairs is for encoder-decoder runs");
        row("a run for a dataset", "", {"baselines", "--data", runDir},
            "is a run, not a prepared dataset; its dataset is");
        row("sweep range without its count", "",
            {"sweep", "--data", data, "--preset", "tiny", "--axis", "learning_rate=1e-3..3e-3 log", "--out",
             q(p("sw"))},
            "'log' needs the number of values after it (e.g. learning_rate=1e-3..3e-3 log 4)");
        row("sweep axis with a value twice", "",
            {"sweep", "--data", data, "--preset", "tiny", "--axis", "learning_rate=1e-3,0.001", "--out", q(p("sw"))},
            "the value 0.001 is given twice");
        row("sweep --set of a swept key", "",
            {"sweep", "--data", data, "--preset", "tiny", "--set", "n_head=2", "--axis", "n_head=2,4", "--out",
             q(p("sw"))},
            "--set n_head=2: the sweep sets n_head in every cell");
        row("sweep --data beside a data_dir axis", "",
            {"sweep", "--data", data, "--preset", "tiny", "--axis", "data_dir=" + data, "--out", q(p("sw"))},
            "--axis data_dir gives each cell its dataset; drop --data");
        row("prepare --chat with --clean", "", {"prepare", "--chat", in, "--clean", "nfkc", "--out", q(p("x"))},
            "--clean does not apply to --chat");
        row("generate-eval -n 0", "",
            {"generate-eval", "--run", runDir, "--prompts", in, "--setting", "greedy", "-n", "0"},
            "max_new_tokens must be at least 1");
        row("CSV with an unterminated quote", "csv_quote",
            {"prepare", "--input", q(p("q.csv")), "--format", "csv", "--column", "text", "--out", q(p("x"))},
            "q.csv: line 3 opens a quoted field");
        row("--record-separator \"\"", "",
            {"prepare", "--input", in, "--format", "records", "--record-separator", "", "--out", q(p("x"))},
            "record separator is empty");
        row("--config with a repeated key", "cfg_dup",
            {"train", "--data", data, "--out", q(p("r2")), "--config", q(p("cfg.json"))}, "'n_layer' is given twice");
        row("meta.json names another tokenizer kind", "meta_kind",
            {"train", "--data", q(p("baddata")), "--out", q(p("r2")), "--preset", "tiny"},
            "says the tokenizer is word but");
        row("import --hf with merges.txt of raw bytes", "hf_garbage_merges",
            {"import", "--hf", q(p("hf")), "--out", q(p("hfrun"))},
            "merges.txt line 2: '\u241b[31m\\xff\\xfe' is not a merge");
        row("import --hf with an empty merges.txt", "hf_no_merges",
            {"import", "--hf", q(p("hf")), "--out", q(p("hfrun"))}, "merges.txt: holds no merges");
        row("import --hf with overlapping data_offsets", "hf_overlap",
            {"import", "--hf", q(p("hf")), "--out", q(p("hfrun"))}, "'a' and 'b' overlap");
        // Issue 35, round 2: messages in the project's words.
        row("train.bin not a whole number of tokens", "odd_bytes",
            {"train", "--data", q(p("baddata")), "--out", q(p("r2"))}, "not a whole number of uint16 tokens");
        row("eval --max-tokens 1", "", {"eval", "--run", runDir, "--max-tokens", "1"},
            "max tokens 1 is less than one block");
        row("prepare --input a symlink loop", "loop", {"prepare", "--input", q(p("loop1")), "--out", q(p("x"))},
            "loop of symbolic links");
        row("prepare --input /proc/self/status", "", {"prepare", "--input", "/proc/self/status", "--out", q(p("x"))},
            "a system file whose size reads as 0");
        // Weights in and out (issue 15): never pickle; an architecture GPT-2 lacks is named.
        row("import a pickle-only folder", "hf_pickle", {"import", "--hf", q(p("hf")), "--out", q(p("hfrun"))},
            "only model.safetensors is read");
        row("import a folder without model.safetensors", "hf_empty",
            {"import", "--hf", q(p("hf")), "--out", q(p("hfrun"))}, "model.safetensors: no such file");
        row("export into a folder that cannot be written", "",
            {"export", "--run", runDir, "--format", "safetensors", "--out", "/proc/self/st"},
            "/proc/self: cannot write there");
        row("export onto an empty file", "empty_file",
            {"export", "--run", runDir, "--format", "safetensors", "--out", q(p("empty"))},
            "empty is a file; the output is a folder");
        row("import --hf a file", "", {"import", "--hf", in, "--out", q(p("hfrun"))},
            "corpus.txt is a file; give the Hugging Face model's folder");
        row("export a rotary run in the GPT-2 layout", "",
            {"export", "--run", runDir, "--format", "hf", "--out", q(p("hfout"))}, "position=rotary");
        // gguf's --outtype and --force were taken by the folder formats and ignored (f16 asked, float32 written).
        row("export safetensors --outtype f16", "",
            {"export", "--run", runDir, "--format", "safetensors", "--outtype", "f16", "--out", q(p("st16"))},
            "--outtype is for --format gguf");
        row("export hf --force", "", {"export", "--run", runDir, "--format", "hf", "--force", "--out", q(p("hff"))},
            "--force is for --format gguf");
    }

    void refusedWithOneLine() {
        QFETCH(QString, setup);
        QFETCH(QStringList, args);
        QFETCH(QString, expect);
        QFETCH(QStringList, allowed);
        damage(setup.toStdString());
        const Snapshot before = snapshot(m_root);
        const Out r = run(args);
        const Snapshot after = snapshot(m_root);
        // 1 from the engine's errors, CLI11's own codes (100-120) for options that do not parse.
        QVERIFY2(r.code == 1 || (r.code >= 100 && r.code <= 120),
                 qPrintable(QString("exit %1: %2").arg(r.code).arg(QString(r.err))));
        QVERIFY2(r.err.count('\n') == 1 && r.err.endsWith('\n'), r.err.constData());
        QVERIFY2(r.err.startsWith("twb: error: "), r.err.constData());
        QVERIFY2(r.err.contains(expect.toUtf8()), r.err.constData());
        // Whatever bytes a file held, the message is UTF-8 text without control bytes a terminal would obey.
        QVERIFY2(twb::find_invalid_utf8(r.err.toStdString()) == std::string::npos, r.err.constData());
        QVERIFY2(!r.err.contains('\x1b'), r.err.constData());
        const QStringList changed = changes(before, after, allowed);
        QVERIFY2(changed.isEmpty(), qPrintable("changed: " + changed.join(", ")));
        undamage();
    }
};

TWB_APPLESS_MAIN(TestBadInput)
#include "tst_bad_input.moc"
