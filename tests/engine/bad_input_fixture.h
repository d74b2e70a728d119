// tst_bad_input's fixture: a trained run and its dataset in a scratch folder, and the damage each row of
// the table does to a copy of them first (damage("n_head0"), ...), undone after the row.
#pragma once
#include "file_damage.h"
#include "twb/text.h"
#include "twb_process.h"

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <cmath>
#include <fstream>
#include <vector>

namespace fs = std::filesystem;

namespace {
using twbtest::edit_safetensors;
using twbtest::gpt2_char;
using twbtest::last_checkpoint;
using twbtest::poke_float;
using twbtest::poke_token;
using twbtest::q;
using twbtest::safetensors_data;
using twbtest::slurp;
}  // namespace

class BadInputFixture : public QObject {
protected:
    using Out = twbtest::Out;
    using json = nlohmann::json;
    static Out run(const QStringList& args) { return twbtest::run_twb(args); }

    QTemporaryDir m_dir;
    fs::path m_root, m_in, m_data, m_run;

    fs::path p(const std::string& name) const { return m_root / name; }
    /// A copy of the trained run to damage.
    fs::path copy_run(const std::string& name) {
        const auto dst = p(name);
        fs::remove_all(dst);
        fs::copy(m_run, dst, fs::copy_options::recursive);
        return dst;
    }

    std::vector<std::filesystem::path> m_undo;

    void damage(const std::string& what) {
        undamage();  // what a failed row before this one left
        if (what.empty())
            return;
        const fs::path bad = copy_run("bad");
        m_undo = {bad};
        const fs::path ck = last_checkpoint(bad);
        auto editState = [&](auto edit) {
            json j = json::parse(slurp(ck / "state.json"));
            edit(j);
            twbtest::write(ck / "state.json", j.dump(2));
        };
        auto badData = [&]() {
            const fs::path d = p("baddata");
            fs::copy(m_data, d, fs::copy_options::recursive);
            m_undo.push_back(d);
            return d;
        };
        if (what == "n_head0")
            editState([](json& j) { j["config"]["n_head"] = 0; });
        else if (what == "position")
            editState([](json& j) { j["config"]["position"] = "spiral"; });
        else if (what == "stoull")
            editState([](json& j) { j["batcher_state"] = "twelve"; });
        else if (what == "best0")
            twbtest::write(bad / "checkpoints" / "best.json", R"({"step": 0, "val_loss": 3.0})");
        else if (what == "no_best")  // stopped before an evaluation after step 0
            fs::remove(bad / "checkpoints" / "best.json");
        else if (what == "config_array")
            twbtest::write(bad / "config.json", "[]");
        else if (what == "no_rng")
            edit_safetensors(ck / "optimizer.safetensors", [](json& h) { h.erase("rng.torch_cpu"); });
        else if (what == "rng_size")
            edit_safetensors(ck / "optimizer.safetensors", [](json& h) {
                auto& e = h["rng.torch_cpu"];
                const auto b = e["data_offsets"][0].get<uint64_t>();
                e["shape"] = {8};
                e["data_offsets"] = {b, b + 8};
            });
        else if (what == "opt_size")
            edit_safetensors(ck / "optimizer.safetensors", [](json& h) {
                auto& e = h["exp_avg"];
                const auto b = e["data_offsets"][0].get<uint64_t>();
                e["shape"] = {4};
                e["data_offsets"] = {b, b + 16};
            });
        else if (what == "shape_overflow")
            edit_safetensors(ck / "model.safetensors", [](json& h) {
                for (auto& [k, v] : h.items())
                    if (k != "__metadata__") {
                        v["shape"] = {uint64_t(1) << 62, 8};
                        break;
                    }
            });
        else if (what == "nan") {
            std::string s = slurp(ck / "model.safetensors");
            uint64_t hl = 0;
            for (int i = 7; i >= 0; --i)
                hl = (hl << 8) | static_cast<unsigned char>(s[static_cast<size_t>(i)]);
            for (size_t i = 8 + hl; i + 4 <= s.size(); i += 4)
                s.replace(i, 4, std::string("\x00\x00\xC0\x7F", 4));  // every float NaN
            twbtest::write(ck / "model.safetensors", s);
        } else if (what == "vocab_small") {
            const fs::path d = badData();
            json m = json::parse(slurp(d / "meta.json"));
            m["vocab_size"] = 5;
            twbtest::write(d / "meta.json", m.dump(2));
        } else if (what == "train_id_60000" || what == "val_id_60000") {
            const fs::path d = badData();
            if (what == "train_id_60000")
                poke_token(d / "train.bin", 1000, 60000);
            else
                poke_token(d / "val.bin", 10, 60000);
        } else if (what == "odd_bytes") {
            std::ofstream(badData() / "train.bin", std::ios::app | std::ios::binary) << 'x';
        } else if (what == "no_batcher") {
            editState([](json& j) { j.erase("batcher_state"); });
        } else if (what == "extra_layer" || what == "unknown_tensor") {
            const auto n = safetensors_data(ck / "model.safetensors").second;
            const std::string name = what == "extra_layer" ? "transformer.h.1.ln_1.weight" : "bogus.weight";
            edit_safetensors(ck / "model.safetensors", [&](json& h) {
                h[name] = {{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {n, n + 8}}};
            });
            std::ofstream(ck / "model.safetensors", std::ios::app | std::ios::binary) << std::string(8, '\0');
        } else if (what == "overlap") {
            edit_safetensors(ck / "model.safetensors", [](json& h) {
                // Two norms of one shape read the same bytes.
                h["transformer.h.0.ln_2.weight"]["data_offsets"] = h["transformer.h.0.ln_1.weight"]["data_offsets"];
            });
        } else if (what == "adam_nan") {
            poke_float(ck / "optimizer.safetensors", "exp_avg", std::nanf(""));
        } else if (what == "adam_negative") {
            poke_float(ck / "optimizer.safetensors", "exp_avg_sq", -1.0f);
        } else if (what == "no_checkpoint") {
            fs::remove_all(bad / "checkpoints");
        } else if (what == "step_mismatch") {
            editState([](json& j) { j["step"] = 999; });
        } else if (what == "metrics_garbage") {
            QVERIFY(fs::is_directory(bad / "tb"));
            std::string garbage;
            for (int i = 0; i < 20000; ++i)
                garbage += static_cast<char>((i * 7919 + 13) % 256);
            twbtest::write(bad / "metrics.csv", garbage);
        } else if (what == "parallel_data") {
            std::string pairs;
            for (int i = 0; i < 40; ++i)
                pairs += "the cat " + std::to_string(i % 7) + "\tthe dog " + std::to_string(i % 5) + "\n";
            twbtest::write(p("pairs.tsv"), pairs);
            const Out r =
                run({"prepare", "--pairs", q(p("pairs.tsv")), "--tokenizer", "byte", "--out", q(p("pairsdata")), "-q"});
            QVERIFY2(r.code == 0, r.err.constData());
            m_undo.push_back(p("pairs.tsv"));
            m_undo.push_back(p("pairsdata"));
        } else if (what == "empty_pair") {
            twbtest::write(p("empty.txt"), "");
            m_undo.push_back(p("empty.txt"));
        } else if (what == "chat_folder") {
            fs::create_directories(bad / "chat.jsonl");
        } else if (what == "metrics_empty") {
            QVERIFY(fs::is_directory(bad / "tb"));
            twbtest::write(bad / "metrics.csv", "");
        } else if (what == "runjson_broken") {
            twbtest::write(bad / "run.json", "{bad");
        } else if (what == "runjson_types") {
            twbtest::write(bad / "run.json",
                           R"({"name": 5, "notes": "keep these", "created": "2026-01-01T00:00:00Z"})");
        } else if (what == "truncated" || what == "truncated_only") {
            if (what == "truncated_only")
                for (auto& e : fs::directory_iterator(bad / "checkpoints"))
                    if (e.is_directory() && e.path() != ck)
                        fs::remove_all(e.path());
            fs::resize_file(ck / "model.safetensors", 1000);
        } else if (what == "empty_file") {
            twbtest::write(p("empty"), "");
            m_undo.push_back(p("empty"));
        } else if (what == "existing_gguf") {
            twbtest::write(p("existing.gguf"), "a user's file");
            m_undo.push_back(p("existing.gguf"));
        } else if (what == "dangling_link") {
            fs::create_symlink(p("nowhere.csv"), p("dangling.csv"));
            m_undo.push_back(p("dangling.csv"));
        } else if (what == "existing_link") {
            twbtest::write(p("real.json"), "a user's file");
            fs::create_symlink(p("real.json"), p("link.json"));
            m_undo.push_back(p("link.json"));
            m_undo.push_back(p("real.json"));
        } else if (what == "fifo") {
            QVERIFY(::mkfifo(p("fifo").c_str(), 0600) == 0);
            m_undo.push_back(p("fifo"));
        } else if (what == "loop") {
            fs::create_symlink(p("loop2"), p("loop1"));
            fs::create_symlink(p("loop1"), p("loop2"));
            m_undo.push_back(p("loop1"));
            m_undo.push_back(p("loop2"));
        } else if (what == "run_in_data") {
            fs::copy(m_run, badData() / "myrun", fs::copy_options::recursive);
        } else if (what == "notes_in_data") {
            twbtest::write(badData() / "notes.txt", "my notes");
        } else if (what == "meta_v999") {
            const fs::path d = badData();
            json m = json::parse(slurp(d / "meta.json"));
            m["format_version"] = 999;
            twbtest::write(d / "meta.json", m.dump(2));
        } else if (what == "meta_array") {
            twbtest::write(badData() / "meta.json", "[]");
        } else if (what == "notes") {
            fs::create_directories(p("notes"));
            twbtest::write(p("notes") / "todo.txt", "my notes");
            m_undo.push_back(p("notes"));
        } else if (what == "cfg_unknown") {
            twbtest::write(p("cfg.json"), R"({"n_layers": 2})");
        } else if (what == "cfg_fraction") {
            twbtest::write(p("cfg.json"), R"({"n_layer": 2.7})");
        } else if (what == "one_line") {
            std::string line;
            while (line.size() < 200000)
                line += "word" + std::to_string(line.size() % 97) + " ";
            twbtest::write(p("oneline.txt"), line);
        } else if (what == "metrics_folder") {
            fs::remove(bad / "metrics.csv");
            fs::create_directories(bad / "metrics.csv");
        } else if (what == "blank_lines") {
            twbtest::write(p("blank.txt"), "\n\n\n");
            m_undo.push_back(p("blank.txt"));
        } else if (what == "utf16") {
            std::string u16 = "\xFF\xFE";
            for (char c : twbtest::english_like(2000))
                u16 += std::string{c, '\0'};
            twbtest::write(p("u16.txt"), u16);
        } else if (what == "hf_no_merges" || what == "hf_overlap" || what == "hf_garbage_merges") {
            // A byte-level vocabulary of 256 bytes, "ab" and <|endoftext|>, and the model's config.
            const fs::path hf = p("hf");
            fs::create_directories(hf);
            m_undo.push_back(hf);
            json vocab = json::object();
            for (int b = 0; b < 256; ++b)
                vocab[gpt2_char(b)] = b;
            vocab["ab"] = 256;
            vocab["<|endoftext|>"] = 257;
            twbtest::write(hf / "vocab.json", vocab.dump());
            twbtest::write(hf / "merges.txt", what == "hf_overlap"          ? "#version: 0.2\na b\n"
                                              : what == "hf_garbage_merges" ? "#version: 0.2\n\x1b[31m\xff\xfe\n"
                                                                            : "#version: 0.2\n");
            twbtest::write(hf / "config.json", R"({"model_type": "gpt2", "n_layer": 1, "n_head": 2, "n_embd": 8,
                                                   "n_positions": 16, "vocab_size": 258})");
            std::string h = R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                               "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})";
            while (h.size() % 8)
                h += ' ';
            std::string len(8, '\0');
            len[0] = static_cast<char>(h.size());
            twbtest::write(hf / "model.safetensors", len + h + std::string(12, '\0'));
        } else if (what == "csv_quote") {
            twbtest::write(p("q.csv"), "text,label\n\"fine, quoted\",1\n\"never closed, 2\nplain,3\n");
            m_undo.push_back(p("q.csv"));
        } else if (what == "cfg_dup") {
            twbtest::write(p("cfg.json"), R"({"n_layer": 2, "n_layer": 4})");
        } else if (what == "meta_kind") {
            const fs::path d = badData();
            json m = json::parse(slurp(d / "meta.json"));
            m["tokenizer"] = "word";
            twbtest::write(d / "meta.json", m.dump(2));
        } else if (what == "hf_pickle" || what == "hf_empty") {
            fs::create_directories(p("hf"));
            twbtest::write(p("hf") / "config.json", R"({"model_type": "gpt2"})");
            if (what == "hf_pickle")
                twbtest::write(p("hf") / "pytorch_model.bin", "not read");
            m_undo.push_back(p("hf"));
        } else if (what == "elf") {
            twbtest::write(p("prog"), std::string("\x7f"
                                                  "ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0\xe0\x96\0\0",
                                                  28));
            m_undo.push_back(p("prog"));
        } else if (what == "binary") {
            twbtest::write(p("b.bin"), std::string("\0\1\2\3binary", 10));
        } else if (what == "latin1") {
            twbtest::write(p("latin1.txt"), "caf\xe9 au lait\n");
        } else {
            QFAIL(("unknown setup " + what).c_str());
        }
    }
    void undamage() {
        for (auto& d : m_undo)
            fs::remove_all(d);
        m_undo.clear();
    }
};
