// Import of a Marian translation model (Hugging Face's opus-mt layout) into the encoder-decoder family and
// export back. The test writes its own tiny Marian folder: two sentencepiece models trained here (an
// English-like source side, a Norwegian-like target side), a vocab.json over both numbered as Marian
// numbers it (</s> 0, <unk> 1, <pad> last) and random weights under transformers' MarianMTModel names.
// The imported model is checked against a forward pass written here from Marian's definition with plain
// torch ops on the file's tensors (post-norm, SiLU as x * sigmoid(x), embeddings times sqrt(d_model), sin/cos
// positions in halves, final_logits_bias), not the engine's modules; its tokenizer against the pieces and
// vocab.json; greedy translation against an argmax loop over that forward; then finetuning pairs prepared
// with --tokenizer-from, a finetune that starts from the import, the export/import round trip, and each
// refusal by name.
#include "core/tokenizers/marian_vocab.h"
#include "core/tokenizers/spm_model.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/interchange/checkpoint.h"
#include "nn/interchange/safetensors.h"
#include "nn/models/model.h"
#include "nn/models/position_tables.h"
#include "nn/models/seq2seq_model.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/model_exchange.h"
#include "twb/run_folder.h"
#include "twb/training.h"
#include "twb/translation.h"
#include "twb/translation_attention.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <set>

using namespace twb;
namespace fs = std::filesystem;

namespace {

constexpr int kD = 16, kHeads = 2, kFfn = 24, kPositions = 24, kEnc = 1, kDec = 2;

using Weights = std::map<std::string, torch::Tensor>;  // Marian's names, as in model.safetensors

const char* kEnglish[] = {"the cat sat on the mat",       "where is the train station", "I do not know what you want",
                          "we will go home after dinner", "the book is on the table",   "she reads a book every day"};
const char* kNorsk[] = {"katten satt på matta",     "hvor er togstasjonen",  "jeg vet ikke hva du vil",
                        "vi går hjem etter middag", "boka ligger på bordet", "hun leser en bok hver dag"};

/// A sentencepiece model trained by the project's trainer on `lines` repeated, copied to `out`.
void train_spm(const fs::path& work, const char* const* lines, size_t n, const fs::path& out) {
    std::string text = twbtest::syllable_text(30000, static_cast<unsigned>(n + lines[0][0]));  // enough pieces
    for (int r = 0; r < 40; ++r)
        for (size_t i = 0; i < n; ++i)
            text += std::string(lines[i]) + "\n";
    fs::create_directories(work);
    twbtest::write(work / "corpus.txt", text);
    TokenizerSpec spec;
    spec.kind = TokenizerKind::Unigram;
    spec.vocab_size = 400;
    const auto tok = train_tokenizer(spec, work / "corpus.txt");
    tok->save(work);
    fs::copy_file(work / "tokenizer.model", out, fs::copy_options::overwrite_existing);
}

torch::Tensor lin(const Weights& w, const std::string& n, const torch::Tensor& x) {
    return torch::matmul(x, w.at(n + ".weight").t()) + w.at(n + ".bias");
}
torch::Tensor ln(const Weights& w, const std::string& n, const torch::Tensor& x) {
    return torch::layer_norm(x, {kD}, w.at(n + ".weight"), w.at(n + ".bias"), 1e-5);
}
/// One attention of Marian's: q scaled by head_dim^-0.5, softmax over keys, out_proj. x (T, C), kv (S, C).
torch::Tensor attend(const Weights& w, const std::string& n, const torch::Tensor& x, const torch::Tensor& kv,
                     bool causal) {
    const int64_t T = x.size(0), S = kv.size(0), Dh = kD / kHeads;
    auto q = (lin(w, n + ".q_proj", x) * std::pow(Dh, -0.5)).view({T, kHeads, Dh}).transpose(0, 1);
    auto k = lin(w, n + ".k_proj", kv).view({S, kHeads, Dh}).transpose(0, 1);
    auto v = lin(w, n + ".v_proj", kv).view({S, kHeads, Dh}).transpose(0, 1);
    auto s = torch::matmul(q, k.transpose(1, 2));  // (H, T, S)
    if (causal)
        s = s.masked_fill(torch::ones({T, S}, torch::kBool).triu(1), -INFINITY);
    auto y = torch::matmul(torch::softmax(s, -1), v).transpose(0, 1).reshape({T, kD});
    return lin(w, n + ".out_proj", y);
}
torch::Tensor silu_mlp(const Weights& w, const std::string& layer, const torch::Tensor& x) {
    const auto h = lin(w, layer + "fc1", x);
    return lin(w, layer + "fc2", h / (1 + torch::exp(-h)));  // swish: x * sigmoid(x)
}
/// Marian's sinusoids: sin(p / 10000^(2i/d)) in the first half of the channels, cos in the second.
torch::Tensor positions(int64_t T) {
    auto t = torch::zeros({T, kD});
    for (int64_t p = 0; p < T; ++p)
        for (int64_t i = 0; i < kD / 2; ++i) {
            const double a = static_cast<double>(p) / std::pow(10000.0, 2.0 * static_cast<double>(i) / kD);
            t[p][i] = std::sin(a);
            t[p][kD / 2 + i] = std::cos(a);
        }
    return t;
}

/// Logits (T, V) of MarianMTModel for a source (with its </s>) and a decoder input, written from its definition.
torch::Tensor reference_logits(const Weights& w, const std::vector<int64_t>& src, const std::vector<int64_t>& tgt,
                               double scale = std::sqrt(static_cast<double>(kD))) {
    const auto& emb = w.at("model.shared.weight");
    auto h = emb.index_select(0, torch::tensor(src)) * scale + positions(static_cast<int64_t>(src.size()));
    for (int l = 0; l < kEnc; ++l) {
        const std::string p = "model.encoder.layers." + std::to_string(l) + ".";
        h = ln(w, p + "self_attn_layer_norm", h + attend(w, p + "self_attn", h, h, false));
        h = ln(w, p + "final_layer_norm", h + silu_mlp(w, p, h));
    }
    const auto memory = h;
    auto x = emb.index_select(0, torch::tensor(tgt)) * scale + positions(static_cast<int64_t>(tgt.size()));
    for (int l = 0; l < kDec; ++l) {
        const std::string p = "model.decoder.layers." + std::to_string(l) + ".";
        x = ln(w, p + "self_attn_layer_norm", x + attend(w, p + "self_attn", x, x, true));
        x = ln(w, p + "encoder_attn_layer_norm", x + attend(w, p + "encoder_attn", x, memory, false));
        x = ln(w, p + "final_layer_norm", x + silu_mlp(w, p, x));
    }
    return torch::matmul(x, emb.t()) + w.at("final_logits_bias");
}

nn::Seq2Seq load_run(const fs::path& run) {
    const auto loaded = nn::read_checkpoint(find_checkpoint(run, "last"));
    nn::Seq2Seq m(loaded.state.config);
    nn::load_weights(m->named_weights(), loaded.weights, run.string());
    m->eval();
    return m;
}

torch::Tensor run_logits(nn::Seq2Seq& m, const std::vector<int64_t>& src, const std::vector<int64_t>& tgt) {
    torch::NoGradGuard ng;
    const auto s = torch::tensor(src).view({1, -1});
    return m->forward(s, torch::zeros(s.sizes(), torch::kBool), torch::tensor(tgt).view({1, -1}))[0];
}

}  // namespace

class TestMarianImport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path m_src, m_run;
    Weights m_w;
    nlohmann::json m_vocab, m_config;
    int m_V = 0;

    fs::path at(const char* name) const { return twbtest::path(m_dir, name); }

    /// A Marian folder at dir: config (edited by `edit`), the weights (edited by `tensors`), the tokenizer.
    void write_marian(const fs::path& dir, const std::function<void(nlohmann::json&)>& edit = {},
                      const std::function<void(Weights&)>& tensors = {}) {
        fs::create_directories(dir);
        for (const char* f : {"source.spm", "target.spm", "vocab.json"})
            if (dir != m_src)
                fs::copy_file(m_src / f, dir / f, fs::copy_options::overwrite_existing);
        nlohmann::json c = m_config;
        if (edit)
            edit(c);
        twbtest::write(dir / "config.json", c.dump(2));
        Weights w = m_w;
        if (tensors)
            tensors(w);
        std::vector<std::pair<std::string, torch::Tensor>> list(w.begin(), w.end());
        nn::save_safetensors(dir / "model.safetensors", list, {{"format", "pt"}});
    }

    template <class Fn>
    void expect_refused(const char* name, Fn&& make, const std::string& words) {
        const fs::path dir = twbtest::path(m_dir, name);
        make(dir);
        try {
            import_hf(dir, dir.string() + "_run");
            QFAIL(("no refusal for " + std::string(name)).c_str());
        } catch (const Error& e) {
            if (std::string(e.what()).find(words) == std::string::npos)
                QFAIL((std::string(name) + ": the message does not say '" + words + "': " + e.what()).c_str());
        }
        QVERIFY(!fs::exists(dir.string() + "_run"));
    }

    void make_folder_and_import() {
        torch::manual_seed(3);
        m_src = at("marian");
        fs::create_directories(m_src);
        train_spm(at("spm_en"), kEnglish, std::size(kEnglish), m_src / "source.spm");
        train_spm(at("spm_nb"), kNorsk, std::size(kNorsk), m_src / "target.spm");
        // Marian's numbering: </s>, <unk>, the target's pieces (backwards: ids unlike either model's), the
        // source's pieces the target lacks, a language code, <pad> last.
        m_vocab = {{"</s>", 0}, {"<unk>", 1}};
        const SpmModel en(m_src / "source.spm"), nb(m_src / "target.spm");
        for (const SpmModel* m : {&nb, &en})
            for (int i = m->size() - 1; i >= 0; --i)
                if (m->kind(i) == 0 && !m_vocab.contains(m->piece(i)))
                    m_vocab[m->piece(i)] = static_cast<int>(m_vocab.size());
        m_vocab[">>nob<<"] = static_cast<int>(m_vocab.size());
        m_vocab["<pad>"] = static_cast<int>(m_vocab.size());
        m_V = static_cast<int>(m_vocab.size());
        twbtest::write(m_src / "vocab.json", m_vocab.dump());
        m_config = {{"model_type", "marian"},
                    {"architectures", {"MarianMTModel"}},
                    {"vocab_size", m_V},
                    {"d_model", kD},
                    {"encoder_layers", kEnc},
                    {"decoder_layers", kDec},
                    {"encoder_attention_heads", kHeads},
                    {"decoder_attention_heads", kHeads},
                    {"encoder_ffn_dim", kFfn},
                    {"decoder_ffn_dim", kFfn},
                    {"max_position_embeddings", kPositions},
                    {"activation_function", "swish"},
                    {"scale_embedding", true},
                    {"share_encoder_decoder_embeddings", true},
                    {"pad_token_id", m_V - 1},
                    {"decoder_start_token_id", m_V - 1},
                    {"eos_token_id", 0},
                    {"normalize_before", false}};
        auto r = [](std::vector<int64_t> s) { return torch::randn(s) * 0.3; };
        m_w["model.shared.weight"] = r({m_V, kD});
        m_w["final_logits_bias"] = r({1, m_V});
        auto layer = [&](const std::string& p, bool decoder) {
            for (const char* a : {"self_attn", "encoder_attn"}) {
                if (!decoder && std::string(a) == "encoder_attn")
                    continue;
                for (const char* proj : {"q_proj", "k_proj", "v_proj", "out_proj"}) {
                    m_w[p + a + "." + proj + ".weight"] = r({kD, kD});
                    m_w[p + a + "." + proj + ".bias"] = r({kD});
                }
                m_w[p + a + "_layer_norm.weight"] = 1 + r({kD});
                m_w[p + a + "_layer_norm.bias"] = r({kD});
            }
            m_w[p + "fc1.weight"] = r({kFfn, kD});
            m_w[p + "fc1.bias"] = r({kFfn});
            m_w[p + "fc2.weight"] = r({kD, kFfn});
            m_w[p + "fc2.bias"] = r({kD});
            m_w[p + "final_layer_norm.weight"] = 1 + r({kD});
            m_w[p + "final_layer_norm.bias"] = r({kD});
        };
        for (int l = 0; l < kEnc; ++l)
            layer("model.encoder.layers." + std::to_string(l) + ".", false);
        for (int l = 0; l < kDec; ++l)
            layer("model.decoder.layers." + std::to_string(l) + ".", true);
        write_marian(m_src);
        m_run = at("run");
        const HfImportResult res = import_hf(m_src, m_run, "marian");
        QCOMPARE(res.tokenizer_files, std::string("source.spm + target.spm + vocab.json"));
    }

    /// NAME.en and NAME.nb: the English-Bokmål sentences, four times over, one pair per line.
    void write_pairs(const std::string& name) {
        std::string src, tgt;
        for (int r = 0; r < 4; ++r)
            for (size_t i = 0; i < std::size(kEnglish); ++i) {
                src += std::string(kEnglish[i]) + "\n";
                tgt += std::string(kNorsk[i]) + "\n";
            }
        twbtest::write(at((name + ".en").c_str()), src);
        twbtest::write(at((name + ".nb").c_str()), tgt);
    }

    void finetune() {
        write_pairs("ft");
        ParallelPrepareOptions p;
        p.source = at("ft.en").string();
        p.target = at("ft.nb").string();
        p.val_fraction = 0.2;
        p.tokenizer_from = m_run;
        p.out = at("ft_data");
        prepare_parallel(p);
        const auto tok = load_tokenizer(m_run / "tokenizer");
        QCOMPARE(load_tokenizer(p.out)->fingerprint(), tok->fingerprint());
        std::set<std::vector<int32_t>> targets;
        for (const char* s : kNorsk) {
            std::vector<int32_t> t;
            tok->encode_target(s, t);
            targets.insert(t);
        }
        for (const auto& pair : read_pairs(open_prepared(p.out), "train"))
            QVERIFY(targets.count(pair.target));  // the target side cut by target.spm
        RunConfig c = read_run_config(m_run);
        c.data_dir = p.out.string();
        c.max_iters = 2;
        c.eval_interval = 2;
        c.eval_iters = 1;
        c.bleu_pairs = 2;
        c.warmup_iters = 0;
        c.learning_rate = 1e-9;  // so that the finetuned weights are still the import's
        c.min_lr = 1e-10;
        c.threads = 1;
        c.dtype = DType::Float32;
        TrainJob job;
        job.config = c;
        job.run_dir = at("ft_run").string();
        job.init_from = m_run.string();
        job.init_checkpoint = "last";
        train(job);
        // The finetuned run keeps Marian's tokenizer files, so it translates and exports as the import does.
        QCOMPARE(load_tokenizer(fs::path(job.run_dir) / "tokenizer")->fingerprint(), tok->fingerprint());
        auto tuned = load_run(job.run_dir);
        const std::vector<int64_t> s{5, 9, 0}, t{m_V - 1, 7};
        QVERIFY(run_logits(tuned, s, t).sub(reference_logits(m_w, s, t)).abs().max().item<double>() < 1e-4);
    }

private slots:
    void initTestCase() {
        try {
            make_folder_and_import();
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
    }

    void importMapsTheConfig() {
        const RunConfig c = read_run_config(m_run);
        QCOMPARE(c.model_kind, ModelKind::EncoderDecoder);
        QCOMPARE(c.activation, Activation::Silu);
        QCOMPARE(c.position, Position::Sinusoidal);
        QVERIFY(c.sinusoid_halves && c.scale_embeddings && c.logits_bias && c.tie_embeddings && c.bias);
        QCOMPARE(c.norm_position, NormPosition::Post);
        QCOMPARE(c.encoder_layers(), kEnc);
        QCOMPARE(c.decoder_layers(), kDec);
        QCOMPARE(c.ffn_dim(), kFfn);
        QCOMPARE(c.block_size, kPositions);
        QCOMPARE(c.vocab_size, m_V);
        QCOMPARE(c.source_vocab_size, 0);
    }

    void tokenizerMapsPiecesThroughVocabJson() {
        const auto tok = load_tokenizer(m_run / "tokenizer");
        QCOMPARE(tok->eos_id(), 0);
        QCOMPARE(tok->unk_id(), 1);
        QCOMPARE(tok->pad_id(), m_V - 1);
        QCOMPARE(tok->bos_id(), m_V - 1);  // decoder_start_token_id
        const SpmModel en(m_src / "source.spm"), nb(m_src / "target.spm");
        const std::string text = "the cat reads a book";
        std::vector<int32_t> want{m_vocab[">>nob<<"].get<int32_t>()};
        for (const auto& p : en.encode_pieces(text))
            want.push_back(m_vocab.contains(p) ? m_vocab[p].get<int32_t>() : 1);
        QCOMPARE(tok->encode(">>nob<<" + text), want);
        std::vector<int32_t> target, wantTarget;
        tok->encode_target("hun leser boka", target);
        for (const auto& p : nb.encode_pieces("hun leser boka"))
            wantTarget.push_back(m_vocab[p].get<int32_t>());
        QCOMPARE(target, wantTarget);
        QVERIFY(target != tok->encode("hun leser boka"));  // the two sides are cut by two models
        QCOMPARE(tok->decode(target), std::string("hun leser boka"));
        QCOMPARE(tok->decode({0, m_V - 1}), std::string());  // </s> and <pad> are not text
    }

    void logitsMatchMariansDefinition() {
        auto m = load_run(m_run);
        const auto tok = load_tokenizer(m_run / "tokenizer");
        std::vector<int64_t> src, tgt{m_V - 1};
        for (int32_t id : tok->encode("where is the book"))
            src.push_back(id);
        src.push_back(0);
        std::vector<int32_t> t;
        tok->encode_target("hvor er boka", t);
        tgt.insert(tgt.end(), t.begin(), t.end());
        const double diff = (run_logits(m, src, tgt) - reference_logits(m_w, src, tgt)).abs().max().item<double>();
        QVERIFY2(diff < 1e-5, std::to_string(diff).c_str());
    }

    void newOptionsChangeTheForwardAsSpecified() {
        // SiLU is x * sigmoid(x); the halves table is sin | cos; the bias and the scale do what they say.
        const auto x = torch::linspace(-4, 4, 9);
        QVERIFY(nn::activate(x, Activation::Silu).sub(x / (1 + torch::exp(-x))).abs().max().item<double>() < 1e-6);
        QVERIFY(nn::sinusoidal_table(kPositions, kD, true).sub(positions(kPositions)).abs().max().item<double>() <
                1e-6);
        QVERIFY(nn::sinusoidal_table(4, kD, false).sub(positions(4)).abs().max().item<double>() > 0.1);
        const std::vector<int64_t> src{5, 9, 0}, tgt{m_V - 1, 7};
        auto withBias = load_run(m_run);
        RunConfig c = read_run_config(m_run);
        c.logits_bias = false;
        nn::Seq2Seq noBias(c);
        nn::SafetensorsData w = nn::read_checkpoint(find_checkpoint(m_run, "last")).weights;
        const auto bias = w.tensors.at("final_logits_bias").clone();
        w.tensors.erase("final_logits_bias");
        nn::load_weights(noBias->named_weights(), w, "no bias");
        noBias->eval();
        const auto d = run_logits(withBias, src, tgt) - run_logits(noBias, src, tgt);
        QVERIFY(d.sub(bias.expand_as(d)).abs().max().item<double>() < 1e-5);
        c.scale_embeddings = false;
        c.logits_bias = true;
        nn::Seq2Seq unscaled(c);
        w.tensors["final_logits_bias"] = bias;
        nn::load_weights(unscaled->named_weights(), w, "unscaled");
        unscaled->eval();
        QVERIFY(run_logits(unscaled, src, tgt).sub(reference_logits(m_w, src, tgt, 1.0)).abs().max().item<double>() <
                1e-5);
    }

    void translatesAsAnArgmaxLoop() {
        Translator tr;
        tr.open(m_run.string(), "best");
        const auto tok = load_tokenizer(m_run / "tokenizer");
        const std::string line = "the cat is on the table";
        std::vector<int64_t> src;
        for (int32_t id : tok->encode(line))
            src.push_back(id);
        src.push_back(0);
        std::vector<int64_t> tgt{m_V - 1};
        std::vector<int32_t> out;
        const auto limit = std::min<size_t>(
            static_cast<size_t>(std::ceil(1.5 * static_cast<double>(src.size() - 1))) + 10, kPositions - 1);
        while (out.size() < limit) {
            const int64_t next = reference_logits(m_w, src, tgt)[-1].argmax().item<int64_t>();
            if (next == 0)
                break;
            out.push_back(static_cast<int32_t>(next));
            tgt.push_back(next);
        }
        QCOMPARE(tr.translate({line}), std::vector<std::string>{tok->decode(out)});
        // The cross-attention of a given pair: its target cut by target.spm, as finetuning pairs are.
        std::vector<int32_t> t;
        tok->encode_target("hun leser boka", t);
        const auto att = tr.attention(line, "hun leser boka");
        QCOMPARE(att.cross.tokens.size(), t.size() + 1);  // and </s>
        for (size_t i = 0; i < t.size(); ++i)
            QCOMPARE(att.cross.tokens[i], tok->token_text(t[i]));
    }

    void finetunesOnPairsPreparedWithItsTokenizer() {
        try {
            finetune();
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
    }
    void exportImportRoundTripIsExact() {
        const ExportResult ex = export_hf(m_run, at("exported"), "last");
        for (const char* f : {"config.json", "model.safetensors", "source.spm", "target.spm", "vocab.json"})
            QVERIFY2(fs::exists(at("exported") / f), f);
        const auto cfg = nlohmann::json::parse(read_file(at("exported") / "config.json"));
        QCOMPARE(cfg.at("model_type").get<std::string>(), std::string("marian"));
        QCOMPARE(cfg.at("activation_function").get<std::string>(), std::string("swish"));
        QCOMPARE(cfg.at("decoder_start_token_id").get<int>(), m_V - 1);
        // Marian's tensor names and shapes exactly, the stored copies of the embedding aside.
        const auto written = nn::load_safetensors(at("exported") / "model.safetensors").tensors;
        QCOMPARE(written.size(), m_w.size());
        for (const auto& [n, t] : m_w)
            QVERIFY2(written.count(n) && torch::equal(written.at(n), t), n.c_str());
        import_hf(at("exported"), at("reimported"));
        QCOMPARE(nlohmann::json(read_run_config(at("reimported"))), nlohmann::json(read_run_config(m_run)));
        const auto a = nn::read_checkpoint(find_checkpoint(m_run, "last")).weights.tensors;
        const auto b = nn::read_checkpoint(find_checkpoint(at("reimported"), "last")).weights.tensors;
        QCOMPARE(a.size(), b.size());
        for (const auto& [n, t] : a)
            QVERIFY2(torch::equal(t, b.at(n)), n.c_str());
    }

    void aRunTrainedHereExportsAndImportsBack() {
        // Marian's three files cannot hold a word tokenizer: the export keeps the workbench's own in
        // twb_tokenizer/, and the import read only source.spm ("no such file").
        write_pairs("own");
        ParallelPrepareOptions p;
        p.source = at("own.en").string();
        p.target = at("own.nb").string();
        p.val_fraction = 0.2;
        p.tokenizer.kind = TokenizerKind::Word;
        p.out = at("own_data");
        prepare_parallel(p);
        RunConfig c = preset_config("tatoeba");
        c.data_dir = p.out.string();
        c.vocab_size = 0;
        c.n_layer = 2;
        c.n_embd = 16;
        c.n_head = 2;
        c.block_size = 32;
        c.batch_tokens = 64;
        c.max_epochs = 0;
        c.max_iters = c.lr_decay_iters = c.eval_interval = 2;
        c.warmup_iters = 1;
        c.eval_iters = 1;
        c.bleu_pairs = 2;
        c.threads = 1;
        c.dtype = DType::Float32;
        c.position = Position::Sinusoidal;  // what Marian's layout holds (docs/interchange.md)
        c.sinusoid_halves = true;
        c.norm_position = NormPosition::Post;
        c.norm = NormKind::LayerNorm;
        c.bias = true;
        TrainJob job;
        job.config = c;
        job.run_dir = at("own_run").string();
        train(job);
        const ExportResult ex = export_hf(job.run_dir, at("own_hf"), "last");
        QVERIFY(fs::exists(at("own_hf") / "twb_tokenizer" / "tokenizer.json"));
        QVERIFY(!fs::exists(at("own_hf") / "source.spm"));
        const HfImportResult back = import_hf(at("own_hf"), at("own_back"));
        QCOMPARE(back.tokenizer_files, std::string("twb_tokenizer/"));
        QCOMPARE(load_tokenizer(at("own_back") / "tokenizer")->fingerprint(),
                 load_tokenizer(fs::path(job.run_dir) / "tokenizer")->fingerprint());
        const auto a = nn::read_checkpoint(find_checkpoint(job.run_dir, "last")).weights.tensors;
        const auto b = nn::read_checkpoint(find_checkpoint(at("own_back"), "last")).weights.tensors;
        for (const auto& [n, t] : a)
            QVERIFY2(b.count(n) && torch::equal(t, b.at(n)), n.c_str());
    }

    void refusesWhatTheFamilyCannotHold() {
        auto cfg = [&](std::function<void(nlohmann::json&)> e) {
            return [this, e](const fs::path& d) { write_marian(d, e); };
        };
        expect_refused("bart", cfg([](auto& c) { c["model_type"] = "bart"; }), "model_type is 'bart'");
        expect_refused("separate", cfg([](auto& c) { c["share_encoder_decoder_embeddings"] = false; }),
                       "share_encoder_decoder_embeddings");
        expect_refused("decvocab", cfg([&](auto& c) { c["decoder_vocab_size"] = m_V + 4; }), "decoder_vocab_size");
        expect_refused("act", cfg([](auto& c) { c["activation_function"] = "tanh"; }), "activation_function 'tanh'");
        expect_refused("ffn", cfg([](auto& c) { c["decoder_ffn_dim"] = 32; }), "decoder_ffn_dim");
        expect_refused("heads", cfg([](auto& c) { c["decoder_attention_heads"] = 4; }), "decoder_attention_heads");
        expect_refused(
            "pickle",
            [](const fs::path& d) { fs::create_directories(d), twbtest::write(d / "pytorch_model.bin", "x"); },
            "never pickle");
        expect_refused(
            "nospm", [&](const fs::path& d) { write_marian(d), fs::remove(d / "target.spm"); }, "target.spm");
        expect_refused(
            "extra",
            [&](const fs::path& d) {
                write_marian(d, {},
                             [](Weights& w) { w["model.encoder.layernorm_embedding.weight"] = torch::ones({kD}); });
            },
            "layernorm_embedding");
        expect_refused(
            "positions",
            [&](const fs::path& d) {
                write_marian(d, {}, [](Weights& w) {
                    w["model.encoder.embed_positions.weight"] = torch::zeros({kPositions, kD});
                });
            },
            "embed_positions");
        expect_refused(
            "shape",
            [&](const fs::path& d) {
                write_marian(d, {}, [](Weights& w) { w["model.decoder.layers.1.fc1.bias"] = torch::zeros({7}); });
            },
            "model.decoder.layers.1.fc1.bias");
        // A stored position table that is Marian's own is taken (older exports hold it).
        write_marian(at("withpos"), {},
                     [](Weights& w) { w["model.encoder.embed_positions.weight"] = positions(kPositions); });
        import_hf(at("withpos"), at("withpos_run"));
    }
};

TWB_APPLESS_MAIN(TestMarianImport)
#include "tst_marian_import.moc"
