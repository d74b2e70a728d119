// Import of a GPT-2 checkpoint in the Hugging Face layout and export back to it. The test writes its
// own tiny GPT-2 folder (random weights stored the way transformers stores them: Conv1D [in, out],
// with and without the "transformer." prefix, tied and untied, plus GPT-2's attn.bias buffers) and
// checks the imported model against a forward pass written here with plain loops over the raw arrays
// (not the engine's model code); the tokenizer against ids worked out by hand from GPT-2's published
// byte-to-unicode table and merge rule; the round trip import -> finetune -> export -> import; and
// that each kind of bad file is refused with a message naming the file and the tensor or key.
#include "core/tokenizers/gpt2_vocab.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/interchange/exchange_folder.h"
#include "nn/interchange/safetensors.h"
#include "nn/models/model_loader.h"
#include "test_util.h"
#include "twb/chat.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/model_exchange.h"
#include "twb/run_folder.h"
#include "twb/runs_table.h"
#include "twb/session.h"
#include "twb/tokenizer.h"
#include "twb/training.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>

using namespace twb;
namespace fs = std::filesystem;

namespace {

// ------------------------------------------------------------- GPT-2's byte table, written out again

/// GPT-2's bytes_to_unicode (openai/gpt-2 encoder.py), as a list of code points in id order for a
/// vocabulary that starts with the 256 bytes in that table's order: printable bytes first.
std::vector<int> byte_order() {
    std::vector<int> bs;
    for (int b = '!'; b <= '~'; ++b)
        bs.push_back(b);
    for (int b = 0xA1; b <= 0xAC; ++b)
        bs.push_back(b);
    for (int b = 0xAE; b <= 0xFF; ++b)
        bs.push_back(b);
    for (int b = 0; b < 256; ++b)
        if (std::find(bs.begin(), bs.end(), b) == bs.end())
            bs.push_back(b);
    return bs;
}

std::string utf8(uint32_t cp) {
    std::string s;
    if (cp < 0x80) {
        s += static_cast<char>(cp);
    } else if (cp < 0x800) {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return s;
}

/// The printable stand-in of a byte: itself when printable, else U+0100 + its rank among the others.
std::string byte_char(int b) {
    const auto order = byte_order();
    const int idx = static_cast<int>(std::find(order.begin(), order.end(), b) - order.begin());
    return idx < 188 ? utf8(static_cast<uint32_t>(b)) : utf8(static_cast<uint32_t>(256 + idx - 188));
}

// The tiny vocabulary: 256 bytes (ids 0..255 in the table's order), five merges, <|endoftext|>.
const char* kMerges[][2] = {{"h", "e"}, {"\xC4\xA0", "t"}, {"\xC4\xA0t", "he"}, {"l", "l"}, {"ll", "o"}};
constexpr int kVocab = 256 + 5 + 1;

void write_tokenizer_files(const fs::path& dir, int vocabSize = kVocab) {
    nlohmann::ordered_json v = nlohmann::ordered_json::object();
    const auto order = byte_order();
    for (int i = 0; i < 256; ++i)
        v[byte_char(order[static_cast<size_t>(i)])] = i;
    std::string merges = "#version: 0.2\n";
    int id = 256;
    for (const auto& m : kMerges) {
        v[std::string(m[0]) + m[1]] = id++;
        merges += std::string(m[0]) + " " + m[1] + "\n";
    }
    if (vocabSize > id)
        v["<|endoftext|>"] = id;
    twbtest::write(dir / "vocab.json", v.dump());
    twbtest::write(dir / "merges.txt", merges);
}

// ------------------------------------------------------------- a GPT-2 checkpoint written by hand

struct Dims {
    int L = 2, H = 2, C = 16, T = 16, V = kVocab;
};

/// Raw float arrays by GPT-2's own names and shapes (Conv1D [in, out]).
struct Weights {
    std::map<std::string, std::pair<std::vector<int64_t>, std::vector<float>>> t;
    const std::vector<float>& operator[](const std::string& n) const { return t.at(n).second; }
};

Weights random_gpt2(const Dims& d, bool untied, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> n(0.0f, 0.3f);
    Weights w;
    auto add = [&](const std::string& name, std::vector<int64_t> shape, float mean = 0.0f) {
        int64_t count = 1;
        for (auto s : shape)
            count *= s;
        std::vector<float> v(static_cast<size_t>(count));
        for (auto& x : v)
            x = mean + n(rng);
        w.t[name] = {shape, v};
    };
    const int C = d.C;
    add("wte.weight", {d.V, C});
    add("wpe.weight", {d.T, C});
    for (int l = 0; l < d.L; ++l) {
        const std::string p = "h." + std::to_string(l) + ".";
        add(p + "ln_1.weight", {C}, 1.0f);
        add(p + "ln_1.bias", {C});
        add(p + "attn.c_attn.weight", {C, 3 * C});
        add(p + "attn.c_attn.bias", {3 * C});
        add(p + "attn.c_proj.weight", {C, C});
        add(p + "attn.c_proj.bias", {C});
        add(p + "ln_2.weight", {C}, 1.0f);
        add(p + "ln_2.bias", {C});
        add(p + "mlp.c_fc.weight", {C, 4 * C});
        add(p + "mlp.c_fc.bias", {4 * C});
        add(p + "mlp.c_proj.weight", {4 * C, C});
        add(p + "mlp.c_proj.bias", {C});
    }
    add("ln_f.weight", {C}, 1.0f);
    add("ln_f.bias", {C});
    if (untied)
        add("lm_head.weight", {d.V, C});
    return w;
}

/// One safetensors entry written by hand.
struct Raw {
    std::string name, dtype;
    std::vector<int64_t> shape;
    std::string bytes;
};

std::string safetensors_bytes(const std::vector<Raw>& tensors, const std::string& headerOverride = "") {
    nlohmann::ordered_json h = nlohmann::ordered_json::object();
    h["__metadata__"] = {{"format", "pt"}};
    size_t off = 0;
    for (const auto& r : tensors) {
        h[r.name] = {{"dtype", r.dtype}, {"shape", r.shape}, {"data_offsets", {off, off + r.bytes.size()}}};
        off += r.bytes.size();
    }
    std::string header = headerOverride.empty() ? h.dump() : headerOverride;
    std::string out(8, '\0');
    const uint64_t n = header.size();
    for (int i = 0; i < 8; ++i)
        out[static_cast<size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xFF);
    out += header;
    for (const auto& r : tensors)
        out += r.bytes;
    return out;
}

std::vector<Raw> raw_tensors(const Weights& w, const std::string& prefix, bool buffers, int T) {
    std::vector<Raw> out;
    for (const auto& [name, sv] : w.t) {
        Raw r{name == "lm_head.weight" ? name : prefix + name, "F32", sv.first, {}};
        r.bytes.assign(reinterpret_cast<const char*>(sv.second.data()), sv.second.size() * sizeof(float));
        out.push_back(std::move(r));
    }
    if (buffers)  // GPT-2's causal mask buffer: not a weight
        for (int l = 0; l < 2; ++l) {
            Raw r{prefix + "h." + std::to_string(l) + ".attn.bias", "F32", {1, 1, T, T}, {}};
            std::vector<float> m(static_cast<size_t>(T * T));
            for (int i = 0; i < T; ++i)
                for (int j = 0; j <= i; ++j)
                    m[static_cast<size_t>(i * T + j)] = 1.0f;
            r.bytes.assign(reinterpret_cast<const char*>(m.data()), m.size() * sizeof(float));
            out.push_back(std::move(r));
        }
    return out;
}

nlohmann::json hf_config(const Dims& d, const std::string& activation = "gelu_new") {
    return {{"model_type", "gpt2"},
            {"architectures", {"GPT2LMHeadModel"}},
            {"n_layer", d.L},
            {"n_head", d.H},
            {"n_embd", d.C},
            {"n_positions", d.T},
            {"vocab_size", d.V},
            {"layer_norm_epsilon", 1e-5},
            {"activation_function", activation},
            {"n_inner", nullptr}};
}

void write_folder(const fs::path& dir, const Dims& d, const Weights& w, const std::string& prefix,
                  const std::string& activation = "gelu_new") {
    fs::create_directories(dir);
    twbtest::write(dir / "config.json", hf_config(d, activation).dump());
    twbtest::write(dir / "model.safetensors", safetensors_bytes(raw_tensors(w, prefix, true, d.T)));
    write_tokenizer_files(dir);
}

// ------------------------------------------------------------- the independent forward pass

/// GPT-2's forward pass in plain loops (double accumulators) from the raw arrays: logits (T, V).
std::vector<std::vector<double>> reference_logits(const Weights& w, const Dims& d, const std::vector<int>& ids,
                                                  bool tanhGelu = true) {
    const int C = d.C, H = d.H, D = C / H, N = static_cast<int>(ids.size());
    auto layer_norm = [&](const std::vector<double>& x, const std::string& p) {
        double mean = 0, var = 0;
        for (double v : x)
            mean += v;
        mean /= C;
        for (double v : x)
            var += (v - mean) * (v - mean);
        var /= C;
        std::vector<double> y(static_cast<size_t>(C));
        for (int i = 0; i < C; ++i)
            y[static_cast<size_t>(i)] =
                (x[static_cast<size_t>(i)] - mean) / std::sqrt(var + 1e-5) * w[p + ".weight"][static_cast<size_t>(i)] +
                w[p + ".bias"][static_cast<size_t>(i)];
        return y;
    };
    // Conv1D: y[o] = b[o] + sum_i x[i] * W[i][o], W stored [in, out].
    auto conv1d = [&](const std::vector<double>& x, const std::string& p, int out) {
        const int in = static_cast<int>(x.size());
        std::vector<double> y(static_cast<size_t>(out));
        for (int o = 0; o < out; ++o) {
            double s = w[p + ".bias"][static_cast<size_t>(o)];
            for (int i = 0; i < in; ++i)
                s += x[static_cast<size_t>(i)] * w[p + ".weight"][static_cast<size_t>(i * out + o)];
            y[static_cast<size_t>(o)] = s;
        }
        return y;
    };
    auto gelu = [&](double x) {
        if (tanhGelu)
            return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
        return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    };
    std::vector<std::vector<double>> x(static_cast<size_t>(N), std::vector<double>(static_cast<size_t>(C)));
    for (int t = 0; t < N; ++t)
        for (int c = 0; c < C; ++c)
            x[static_cast<size_t>(t)][static_cast<size_t>(c)] =
                w["wte.weight"][static_cast<size_t>(ids[static_cast<size_t>(t)] * C + c)] +
                w["wpe.weight"][static_cast<size_t>(t * C + c)];
    for (int l = 0; l < d.L; ++l) {
        const std::string p = "h." + std::to_string(l) + ".";
        std::vector<std::vector<double>> qkv(static_cast<size_t>(N));
        for (int t = 0; t < N; ++t)
            qkv[static_cast<size_t>(t)] =
                conv1d(layer_norm(x[static_cast<size_t>(t)], p + "ln_1"), p + "attn.c_attn", 3 * C);
        for (int t = 0; t < N; ++t) {
            std::vector<double> att(static_cast<size_t>(C), 0.0);
            for (int h = 0; h < H; ++h) {
                std::vector<double> s(static_cast<size_t>(t + 1));
                double mx = -1e300;
                for (int u = 0; u <= t; ++u) {
                    double dot = 0;
                    for (int k = 0; k < D; ++k)
                        dot += qkv[static_cast<size_t>(t)][static_cast<size_t>(h * D + k)] *
                               qkv[static_cast<size_t>(u)][static_cast<size_t>(C + h * D + k)];
                    s[static_cast<size_t>(u)] = dot / std::sqrt(static_cast<double>(D));
                    mx = std::max(mx, s[static_cast<size_t>(u)]);
                }
                double z = 0;
                for (auto& v : s)
                    z += (v = std::exp(v - mx));
                for (int u = 0; u <= t; ++u)
                    for (int k = 0; k < D; ++k)
                        att[static_cast<size_t>(h * D + k)] +=
                            s[static_cast<size_t>(u)] / z *
                            qkv[static_cast<size_t>(u)][static_cast<size_t>(2 * C + h * D + k)];
            }
            const auto proj = conv1d(att, p + "attn.c_proj", C);
            for (int c = 0; c < C; ++c)
                x[static_cast<size_t>(t)][static_cast<size_t>(c)] += proj[static_cast<size_t>(c)];
        }
        for (int t = 0; t < N; ++t) {
            auto hdn = conv1d(layer_norm(x[static_cast<size_t>(t)], p + "ln_2"), p + "mlp.c_fc", 4 * C);
            for (auto& v : hdn)
                v = gelu(v);
            const auto out = conv1d(hdn, p + "mlp.c_proj", C);
            for (int c = 0; c < C; ++c)
                x[static_cast<size_t>(t)][static_cast<size_t>(c)] += out[static_cast<size_t>(c)];
        }
    }
    const std::string head = w.t.count("lm_head.weight") ? "lm_head.weight" : "wte.weight";
    std::vector<std::vector<double>> logits(static_cast<size_t>(N), std::vector<double>(static_cast<size_t>(d.V)));
    for (int t = 0; t < N; ++t) {
        const auto y = layer_norm(x[static_cast<size_t>(t)], "ln_f");
        for (int v = 0; v < d.V; ++v) {
            double s = 0;
            for (int c = 0; c < C; ++c)
                s += y[static_cast<size_t>(c)] * w[head][static_cast<size_t>(v * C + c)];
            logits[static_cast<size_t>(t)][static_cast<size_t>(v)] = s;
        }
    }
    return logits;
}

/// The imported run's logits for ids, through the engine.
torch::Tensor run_logits(const fs::path& run, const std::vector<int>& ids) {
    auto m = nn::load_model(run.string(), "last");
    // One thread whatever the run's `threads` says (loading applies it): with MKL (the torch wheel) a GEMM
    // split over two threads rounds differently from one, and the round trip is compared bit for bit.
    at::set_num_threads(1);
    torch::NoGradGuard ng;
    std::vector<int64_t> v(ids.begin(), ids.end());
    return m.model->forward(torch::tensor(v).view({1, -1}))[0].to(torch::kFloat64);
}

double max_diff(const torch::Tensor& got, const std::vector<std::vector<double>>& want) {
    double worst = 0;
    for (size_t t = 0; t < want.size(); ++t)
        for (size_t v = 0; v < want[t].size(); ++v)
            worst = std::max(
                worst, std::abs(got[static_cast<int64_t>(t)][static_cast<int64_t>(v)].item<double>() - want[t][v]));
    return worst;
}

std::string error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

class TestHfImport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    Dims m_d;
    const std::vector<int> m_ids{71, 256, 260, 258, 220, 0, 5, 261, 100, 3};

private slots:
    void logitsEqualAnIndependentForwardPass_data() {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<bool>("untied");
        QTest::addColumn<QString>("activation");
        QTest::newRow("GPT2LMHeadModel names, tied") << "transformer." << false << "gelu_new";
        QTest::newRow("GPT2Model names, tied") << "" << false << "gelu_new";
        QTest::newRow("untied head") << "transformer." << true << "gelu_new";
        QTest::newRow("exact gelu") << "" << false << "gelu";
    }
    void logitsEqualAnIndependentForwardPass() {
        QFETCH(QString, prefix);
        QFETCH(bool, untied);
        QFETCH(QString, activation);
        const Weights w = random_gpt2(m_d, untied, 5);
        const fs::path src = twbtest::path(m_dir, ("src_" + std::string(QTest::currentDataTag())).c_str());
        write_folder(src, m_d, w, prefix.toStdString(), activation.toStdString());
        const fs::path run = src.string() + "_run";
        const auto r = import_hf(src, run);
        QCOMPARE(r.tied, !untied);
        QCOMPARE(r.config.block_size, m_d.T);
        QCOMPARE(r.config.vocab_size, kVocab);
        QCOMPARE(r.source_dtype, std::string("F32"));
        const double diff = max_diff(run_logits(run, m_ids), reference_logits(w, m_d, m_ids, activation == "gelu_new"));
        qInfo("max |logit - reference| = %.3g", diff);
        QVERIFY(diff < 1e-4);
    }
    void lmHeadEqualToTheEmbeddingIsTied() {
        Weights w = random_gpt2(m_d, false, 6);
        w.t["lm_head.weight"] = w.t.at("wte.weight");
        const fs::path src = twbtest::path(m_dir, "tied_head");
        write_folder(src, m_d, w, "transformer.");
        QVERIFY(import_hf(src, src.string() + "_run").tied);
    }
    void halfPrecisionIsConvertedToFloat32() {
        // F16 weights: the same model as the float32 ones rounded to half, within half's precision.
        const Weights w = random_gpt2(m_d, false, 7);
        auto raws = raw_tensors(w, "", false, m_d.T);
        Weights rounded = w;
        for (auto& r : raws) {
            auto t = torch::from_blob(r.bytes.data(), {static_cast<int64_t>(r.bytes.size() / 4)}, torch::kFloat32)
                         .to(torch::kFloat16)
                         .contiguous();
            auto back = t.to(torch::kFloat32);
            std::memcpy(rounded.t[r.name].second.data(), back.data_ptr(), r.bytes.size());
            r.bytes.assign(static_cast<const char*>(t.data_ptr()), static_cast<size_t>(t.numel()) * 2);
            r.dtype = "F16";
        }
        const fs::path src = twbtest::path(m_dir, "f16");
        fs::create_directories(src);
        twbtest::write(src / "config.json", hf_config(m_d).dump());
        twbtest::write(src / "model.safetensors", safetensors_bytes(raws));
        write_tokenizer_files(src);
        const auto r = import_hf(src, src.string() + "_run");
        QCOMPARE(r.source_dtype, std::string("F16"));
        QVERIFY(max_diff(run_logits(src.string() + "_run", m_ids), reference_logits(rounded, m_d, m_ids)) < 1e-4);
    }

    void tokenizerGivesGpt2sIds() {
        const fs::path dir = twbtest::path(m_dir, "tok");
        fs::create_directories(dir);
        write_tokenizer_files(dir);
        const auto tok = make_gpt2_tokenizer(read_gpt2_vocab(dir / "vocab.json", dir / "merges.txt"));
        // By hand: "!" is the table's first byte (id 0), "h" is 104 - 33 = 71, a space is the first
        // non-printable byte after 32 others: 188 + 32 = 220 (GPT-2's "Ġ"). "hello": h e l l o -> "he"
        // (rank 0) -> "ll" (rank 3) -> "llo" (rank 4): [he, llo] = [256, 260]; " the": Ġ t h e -> "he"
        // -> "Ġt" (rank 1) -> "Ġthe" (rank 2) = 258. "é" is C3 A9: 195 -> 106 + (195 - 174) = 127,
        // 169 -> 94 + (169 - 161) = 102.
        QCOMPARE(tok->encode("!"), (std::vector<int32_t>{0}));
        QCOMPARE(tok->encode("hello the"), (std::vector<int32_t>{256, 260, 258}));
        QCOMPARE(tok->encode(" "), (std::vector<int32_t>{220}));
        QCOMPARE(tok->encode("\xC3\xA9"), (std::vector<int32_t>{127, 102}));
        QCOMPARE(tok->eos_id(), 261);
        QCOMPARE(tok->bos_id(), 261);
        QCOMPARE(tok->token_text(261), std::string("<|endoftext|>"));
        const std::string hard = twbtest::hard_unicode() + "hello the  the\n\n\t ";
        QCOMPARE(tok->decode(tok->encode(hard)), hard);
        // Saved and loaded (as a run keeps it): the same ids and fingerprint.
        tok->save(dir);
        const auto again = load_tokenizer(dir);
        QCOMPARE(again->encode(hard), tok->encode(hard));
        QCOMPARE(again->fingerprint(), tok->fingerprint());
        QCOMPARE(again->eos_id(), 261);
        // Written back as vocab.json + merges.txt: read again, the same ids.
        const fs::path out = twbtest::path(m_dir, "tok_out");
        fs::create_directories(out);
        write_gpt2_vocab(*tok, out);
        const auto back = make_gpt2_tokenizer(read_gpt2_vocab(out / "vocab.json", out / "merges.txt"));
        QCOMPARE(back->encode(hard), tok->encode(hard));
        QCOMPARE(back->fingerprint(), tok->fingerprint());
    }

    void roundTripThroughFinetuneAndExport() {
        const Weights w = random_gpt2(m_d, false, 9);
        const fs::path src = twbtest::path(m_dir, "rt_src"), run = twbtest::path(m_dir, "rt_run");
        write_folder(src, m_d, w, "transformer.");
        import_hf(src, run, "round trip");
        // Text prepared with the imported tokenizer, a few steps of finetuning from the import.
        twbtest::write(twbtest::path(m_dir, "rt.txt"), twbtest::english_like(6000));
        PrepareOptions p;
        p.corpus.inputs = {twbtest::path(m_dir, "rt.txt").string()};
        p.tokenizer_from = run;
        p.out = twbtest::path(m_dir, "rt_data");
        prepare_dataset(p);
        RunConfig c = read_run_config(run);
        c.data_dir = p.out.string();
        c.max_iters = 3;
        c.eval_interval = 3;
        c.eval_iters = 1;
        c.batch_size = 2;
        c.warmup_iters = 0;
        c.learning_rate = 1e-2;
        c.threads = 1;
        c.dtype = DType::Float32;
        TrainJob job;
        job.config = c;
        job.run_dir = twbtest::path(m_dir, "rt_tuned").string();
        job.init_from = run.string();
        job.init_checkpoint = "last";
        train(job);
        const fs::path tuned = job.run_dir;
        const auto before = run_logits(tuned, m_ids);
        QVERIFY(before.sub(run_logits(run, m_ids)).abs().max().item<double>() > 1e-3);  // finetuning moved it
        QCOMPARE(hf_export_blocker(read_run_config(tuned)), std::string());
        const fs::path hf = twbtest::path(m_dir, "rt_hf");
        const auto ex = export_hf(tuned, hf, "last");
        QVERIFY(ex.note.empty());
        for (const char* f : {"config.json", "model.safetensors", "vocab.json", "merges.txt"})
            QVERIFY2(fs::exists(hf / f), f);
        const auto cfg = nlohmann::json::parse(read_file(hf / "config.json"));
        QCOMPARE(cfg["model_type"].get<std::string>(), std::string("gpt2"));
        QCOMPARE(cfg["activation_function"].get<std::string>(), std::string("gelu_new"));
        QCOMPARE(cfg["eos_token_id"].get<int>(), 261);
        const auto tc = nlohmann::json::parse(read_file(hf / "tokenizer_config.json"));
        QCOMPARE(tc["eos_token"].get<std::string>(), std::string("<|endoftext|>"));
        const fs::path again = twbtest::path(m_dir, "rt_again");
        import_hf(hf, again);
        const double diff = run_logits(again, m_ids).sub(before).abs().max().item<double>();
        qInfo("round trip: max |logit difference| = %.3g", diff);
        QCOMPARE(diff, 0.0);
        // The plain export keeps the workbench's names and config.
        export_safetensors(tuned, twbtest::path(m_dir, "rt_plain"), "last");
        QVERIFY(fs::exists(twbtest::path(m_dir, "rt_plain") / "tokenizer" / "tokenizer.json"));
        // ...and comes back in as a run with the same logits (File → Import model refused it: "has no
        // 'n_positions'; is this a GPT-2 config?"), its dataset not the exporting machine's.
        const fs::path plain = twbtest::path(m_dir, "rt_plain_again");
        const auto back = import_hf(twbtest::path(m_dir, "rt_plain"), plain);
        QCOMPARE(back.config.n_layer, read_run_config(tuned).n_layer);
        QVERIFY(back.config.data_dir.empty());
        QCOMPARE(run_logits(plain, m_ids).sub(before).abs().max().item<double>(), 0.0);
        // A weight missing from it is named, as for a checkpoint.
        auto st = nn::load_safetensors(twbtest::path(m_dir, "rt_plain") / "model.safetensors");
        st.tensors.erase("lm_head.weight");
        st.tensors.erase(st.tensors.begin());
        std::vector<std::pair<std::string, torch::Tensor>> left(st.tensors.begin(), st.tensors.end());
        nn::save_safetensors(twbtest::path(m_dir, "rt_plain") / "model.safetensors", left);
        try {
            import_hf(twbtest::path(m_dir, "rt_plain"), twbtest::path(m_dir, "rt_plain_broken"));
            QFAIL("a missing weight was not refused");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("rt_plain") != std::string::npos, e.what());
        }
        QVERIFY(!fs::exists(twbtest::path(m_dir, "rt_plain_broken")));
        // Without its tokenizer/ it is named as what it lacks (it was taken for GPT-2's folder and refused
        // for a GPT-2 key, "has no 'n_positions'").
        fs::remove_all(twbtest::path(m_dir, "rt_plain") / "tokenizer");
        try {
            import_hf(twbtest::path(m_dir, "rt_plain"), twbtest::path(m_dir, "rt_plain_broken"));
            QFAIL("an export without its tokenizer was imported");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("tokenizer/tokenizer.json: missing; a workbench export") !=
                         std::string::npos,
                     e.what());
        }
    }

    /// A run trained here with its own byte-level BPE (<pad>, <bos>, <eos> after the merges), exported to
    /// the GPT-2 layout (tokenizer_config.json naming them for transformers) and imported back:
    /// config.json's bos/eos ids make those tokens special again, so
    /// the text "<eos>" is not the end of sequence, and chat data can be prepared with the import's tokenizer.
    /// A run of GPT-2's architecture, trained two steps on a dataset of the tokenizer `kind`.
    std::string tinyGpt2Run(const std::string& name, TokenizerKind kind, int vocab) {
        const auto text = twbtest::path(m_dir, (name + ".txt").c_str());
        twbtest::write(text, twbtest::english_like(20000));
        PrepareOptions p;
        p.corpus.inputs = {text.string()};
        p.tokenizer.kind = kind;
        p.tokenizer.vocab_size = vocab;
        p.out = twbtest::path(m_dir, (name + "_data").c_str());
        prepare_dataset(p);
        RunConfig c = preset_config("tiny");
        c.data_dir = p.out.string();
        c.n_layer = 1;
        c.n_embd = 16;
        c.n_head = 2;
        c.block_size = 16;
        c.max_iters = 2;
        c.eval_interval = 2;
        c.eval_iters = 1;
        c.threads = 1;
        c.position = Position::Learned;
        c.activation = Activation::GeluTanh;
        c.bias = true;
        TrainJob job;
        job.config = c;
        job.run_dir = twbtest::path(m_dir, (name + "_run").c_str()).string();
        train(job);
        return job.run_dir;
    }

    void aSourceThatVanishesIsNamedNotTheDisk() {
        // A checkpoint pruned by a running trainer while an export copied it: "is the disk full?" misled.
        const fs::path out = twbtest::path(m_dir, "vanished_out");
        try {
            nn::write_folder(out, [&](const fs::path& tmp) {
                fs::copy_file(twbtest::path(m_dir, "pruned") / "model.safetensors", tmp / "model.safetensors");
            });
            QFAIL("no error");
        } catch (const IoError& e) {
            QVERIFY2(std::strstr(e.what(), "model.safetensors vanished while it was copied"), e.what());
        }
        QVERIFY(!fs::exists(out));
    }

    void aCharRunsExportImportsBack() {
        // GPT-2's files cannot hold a char tokenizer: the export keeps the workbench's own beside them,
        // and the import reads it back (it said "no tokenizer in the folder").
        const std::string run = tinyGpt2Run("ch", TokenizerKind::Char, 0);
        const fs::path hf = twbtest::path(m_dir, "ch_hf"), back = twbtest::path(m_dir, "ch_back");
        export_hf(run, hf);
        QVERIFY(fs::exists(hf / "twb_tokenizer" / "tokenizer.json"));
        const auto r = import_hf(hf, back);
        QCOMPARE(r.tokenizer_files, std::string("twb_tokenizer/"));
        QCOMPARE(TextTokenizer::load(back / "tokenizer").fingerprint(),
                 TextTokenizer::load(fs::path(run) / "tokenizer").fingerprint());
        // The runs table calls it imported (it said "stopped", which Start would continue), the run it came
        // from what it is.
        const auto runs = collect_runs(m_dir.path().toStdString());
        auto statusOf = [&](const fs::path& dir) {
            for (const auto& r : runs)
                if (fs::path(r.dir).filename() == dir.filename())
                    return r.status;
            return std::string("(not listed)");
        };
        // Not into the folder it reads (export refuses the same of a run).
        QVERIFY_THROWS_EXCEPTION(InputError, import_hf(hf, hf / "sub"));
        QVERIFY(!fs::exists(hf / "sub"));
        QCOMPARE(statusOf(back), std::string("imported"));
        QVERIFY(statusOf(run) == "finished" || statusOf(run) == "stopped");
        // Its embedding map says why it cannot order tokens by frequency (it read "could not be read (: no
        // such folder; ...)", an empty path).
        ModelSession session;
        session.open(back.string(), "last");
        const std::string source = session.embedding_map(5).source;
        QVERIFY2(source.find("the run was imported and has no dataset of its own") == 0, source.c_str());
    }

    void aWorkbenchTokenizersSpecialsSurviveTheRoundTrip() {
        TrainJob job;
        job.run_dir = tinyGpt2Run("sp", TokenizerKind::ByteBpe, 300);
        const fs::path hf = twbtest::path(m_dir, "sp_hf"), back = twbtest::path(m_dir, "sp_back");
        export_hf(job.run_dir, hf);
        // transformers' tokenizer learns the specials from tokenizer_config.json
        const auto tc = nlohmann::json::parse(read_file(hf / "tokenizer_config.json"));
        QCOMPARE(tc["eos_token"].get<std::string>(), std::string("<eos>"));
        QCOMPARE(tc["bos_token"].get<std::string>(), std::string("<bos>"));
        QCOMPARE(tc["pad_token"].get<std::string>(), std::string("<pad>"));
        QCOMPARE(tc["model_max_length"].get<int>(), 16);
        import_hf(hf, back);
        const auto before = TextTokenizer::load(fs::path(job.run_dir) / "tokenizer"),
                   after = TextTokenizer::load(back / "tokenizer");
        QVERIFY(before.eos_id() >= 0);
        QCOMPARE(after.eos_id(), before.eos_id());
        QCOMPARE(load_tokenizer(fs::path(back) / "tokenizer")->bos_id(),
                 load_tokenizer(fs::path(job.run_dir) / "tokenizer")->bos_id());
        const auto ids = after.encode("a <eos> b");
        QVERIFY(std::find(ids.begin(), ids.end(), after.eos_id()) == ids.end());  // typed, it is text
        QCOMPARE(after.decode(ids), std::string("a <eos> b"));
        QCOMPARE(after.encode("to be or not"), before.encode("to be or not"));
        // the import's tokenizer ends a chat turn
        twbtest::write(twbtest::path(m_dir, "sp.jsonl"), "{\"instruction\": \"Say hi.\", \"output\": \"hi\"}\n");
        ChatPrepareOptions chat;
        chat.inputs = {twbtest::path(m_dir, "sp.jsonl").string()};
        chat.tokenizer_from = back;
        chat.out = twbtest::path(m_dir, "sp_chat");
        QCOMPARE(prepare_chat(chat).train_conversations + 0, uint64_t(1));
    }

    void otherArchitecturesNameTheOptionGpt2Lacks() {
        RunConfig c;
        c.position = Position::Rotary;
        QVERIFY(hf_export_blocker(c).find("position=rotary") == 0);
        c.position = Position::Learned;
        c.norm = NormKind::RmsNorm;
        QVERIFY(hf_export_blocker(c).find("norm=rmsnorm") == 0);
        c.norm = NormKind::LayerNorm;
        c.bias = false;
        QVERIFY(hf_export_blocker(c).find("bias=false") == 0);
        c.bias = true;
        c.norm_position = NormPosition::Post;
        QVERIFY(hf_export_blocker(c).find("norm_position=post") == 0);
        c.norm_position = NormPosition::Pre;
        c.head_size = 16;
        QVERIFY(hf_export_blocker(c).find("head_size=16") == 0);
        c.head_size = 0;
        c.activation = Activation::Relu;  // transformers' GPT-2 has relu and gelu too
        QCOMPARE(hf_export_blocker(c), std::string());
    }

    void badFilesAreRefusedByName_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("expect");
        QTest::newRow("pickle only") << "pickle"
                                     << "pytorch_model.bin: only model.safetensors is read";
        QTest::newRow("truncated") << "truncated"
                                   << "model.safetensors";
        QTest::newRow("header longer than the file") << "header"
                                                     << "model.safetensors";
        QTest::newRow("offsets out of range") << "offsets"
                                              << "model.safetensors";
        QTest::newRow("shape") << "shape"
                               << "tensor 'transformer.h.1.mlp.c_fc.weight' has shape [64, 16]";
        QTest::newRow("dtype") << "dtype"
                               << "tensor 'transformer.ln_f.bias' is I32";
        QTest::newRow("missing tensor") << "missing"
                                        << "has no tensor 'h.0.attn.c_proj.bias'";
        QTest::newRow("unknown activation") << "activation"
                                            << "config.json: activation_function 'mish'";
        QTest::newRow("vocab size") << "vocab"
                                    << "vocab.json: has 261 tokens but config.json's vocab_size is 262";
        QTest::newRow("merge of unknown token") << "merges"
                                                << "merges.txt: merge 6 ('q zz')";
        QTest::newRow("unknown tensor") << "extra"
                                        << "tensor 'transformer.h.0.crossattention.w'";
        // Read as "no <bos>" without a word: the id then decoded as the text "<bos>".
        QTest::newRow("bos id not a number") << "bos_text"
                                             << "config.json: bos_token_id is \"x\", not a token id";
        QTest::newRow("eos id beyond the vocabulary") << "eos_far"
                                                      << "config.json: eos_token_id 5000 is beyond the tokenizer's";
    }
    void badFilesAreRefusedByName() {
        QFETCH(QString, what);
        QFETCH(QString, expect);
        const std::string k = what.toStdString();
        const Weights w = random_gpt2(m_d, false, 3);
        const fs::path src = twbtest::path(m_dir, ("bad_" + k).c_str());
        write_folder(src, m_d, w, "transformer.", k == "activation" ? "mish" : "gelu_new");
        auto raws = raw_tensors(w, "transformer.", true, m_d.T);
        const std::string good = safetensors_bytes(raws);
        if (k == "pickle") {
            fs::remove(src / "model.safetensors");
            twbtest::write(src / "pytorch_model.bin", "PK not read");
        } else if (k == "truncated") {
            twbtest::write(src / "model.safetensors", good.substr(0, good.size() - 100));
        } else if (k == "header") {
            std::string b = good.substr(0, 64);
            b[0] = '\x00';
            b[1] = '\x10';  // 4096 bytes of header in a 64-byte file
            twbtest::write(src / "model.safetensors", b);
        } else if (k == "offsets") {
            nlohmann::json h = nlohmann::json::parse(
                good.substr(8, static_cast<size_t>(good[0] & 0xFF) | static_cast<size_t>(good[1] & 0xFF) << 8));
            h["transformer.ln_f.bias"]["data_offsets"] = {1u << 30, (1u << 30) + 64};
            twbtest::write(src / "model.safetensors", safetensors_bytes(raws, h.dump()));
        } else if (k == "shape") {
            for (auto& r : raws)
                if (r.name == "transformer.h.1.mlp.c_fc.weight")
                    r.shape = {64, 16};  // a Linear's [out, in], not Conv1D's [in, out]
            twbtest::write(src / "model.safetensors", safetensors_bytes(raws));
        } else if (k == "dtype") {
            for (auto& r : raws)
                if (r.name == "transformer.ln_f.bias")
                    r.dtype = "I32";
            twbtest::write(src / "model.safetensors", safetensors_bytes(raws));
        } else if (k == "missing") {
            raws.erase(std::remove_if(raws.begin(), raws.end(),
                                      [](const Raw& r) { return r.name == "transformer.h.0.attn.c_proj.bias"; }),
                       raws.end());
            twbtest::write(src / "model.safetensors", safetensors_bytes(raws));
        } else if (k == "vocab") {
            write_tokenizer_files(src, kVocab - 1);
        } else if (k == "merges") {
            twbtest::write(src / "merges.txt", read_file(src / "merges.txt") + "q zz\n");
        } else if (k == "bos_text" || k == "eos_far") {
            auto c = nlohmann::json::parse(read_file(src / "config.json"));
            c[k == "bos_text" ? "bos_token_id" : "eos_token_id"] =
                k == "bos_text" ? nlohmann::json("x") : nlohmann::json(5000);
            twbtest::write(src / "config.json", c.dump());
        } else if (k == "extra") {
            raws.push_back(Raw{"transformer.h.0.crossattention.w", "F32", {1}, std::string(4, '\0')});
            twbtest::write(src / "model.safetensors", safetensors_bytes(raws));
        }
        const fs::path out = src.string() + "_run";
        const std::string msg = error_of([&] { import_hf(src, out); });
        qInfo("%s", msg.c_str());
        QVERIFY2(msg.find(expect.toStdString()) != std::string::npos, msg.c_str());
        QVERIFY2(msg.find('\n') == std::string::npos, "one line");
        QVERIFY(!fs::exists(out));  // nothing half-written
        if (k != "pickle" && k != "activation" && k != "vocab" && k != "merges" && k != "bos_text" && k != "eos_far")
            QVERIFY2(msg.find((src / "model.safetensors").string()) != std::string::npos, "names the file");
    }
};

QTEST_APPLESS_MAIN(TestHfImport)
#include "tst_hf_import.moc"
