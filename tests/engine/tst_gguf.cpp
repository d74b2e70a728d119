// The GGUF export checked against the specification (ggml's docs/gguf.md) with a reader written here,
// independent of the writer: magic, version 3, the counts, every key with its type and value, the
// tensor infos (names as llama.cpp's gpt2 loader asks for them, dimensions fastest first, types), every
// offset aligned to general.alignment, and the data: f32 bit-exact against the checkpoint, f16 equal to
// torch's own float -> half conversion. Expected token spellings come from GPT-2's published
// bytes_to_unicode table. Plus the refusals: each non-GPT-2 option and a char tokenizer named.
#include "core/tokenizers/tokenizer.h"
#include "nn/interchange/checkpoint.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/gguf_export.h"
#include "twb/tokenizer.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <variant>

using namespace twb;
namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------- a GGUF reader of the test's own

struct Value {
    uint32_t type = 0;  // gguf_type
    uint32_t elem = 0;  // arrays: the element type
    std::variant<uint64_t, int64_t, double, bool, std::string, std::vector<std::string>, std::vector<int64_t>> v;
};

struct TensorInfo {
    std::vector<uint64_t> ne;
    uint32_t type = 0;
    uint64_t offset = 0;
};

struct GgufFile {
    uint32_t version = 0;
    uint64_t n_tensors = 0, n_kv = 0;
    std::vector<std::string> keys;  // in file order
    std::map<std::string, Value> kv;
    std::vector<std::string> tensor_names;
    std::map<std::string, TensorInfo> tensors;
    uint64_t alignment = 32, data_start = 0;
    std::string bytes;
};

class Cursor {
public:
    explicit Cursor(const std::string& b) : m_b(b) {}
    template <class T>
    T get() {
        if (m_pos + sizeof(T) > m_b.size())
            throw std::runtime_error("truncated at " + std::to_string(m_pos));
        T v;
        std::memcpy(&v, m_b.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return v;
    }
    std::string str() {
        const auto n = get<uint64_t>();
        if (m_pos + n > m_b.size())
            throw std::runtime_error("string past the end");
        std::string s = m_b.substr(m_pos, n);
        m_pos += n;
        return s;
    }
    size_t pos() const { return m_pos; }

private:
    const std::string& m_b;
    size_t m_pos = 0;
};

// Scalars of every gguf_type (0..12 as the specification numbers them) widened to one of three kinds.
Value read_scalar(Cursor& c, uint32_t t) {
    Value v;
    v.type = t;
    switch (t) {
        case 0:
            v.v = uint64_t(c.get<uint8_t>());
            break;
        case 1:
            v.v = int64_t(c.get<int8_t>());
            break;
        case 2:
            v.v = uint64_t(c.get<uint16_t>());
            break;
        case 3:
            v.v = int64_t(c.get<int16_t>());
            break;
        case 4:
            v.v = uint64_t(c.get<uint32_t>());
            break;
        case 5:
            v.v = int64_t(c.get<int32_t>());
            break;
        case 6:
            v.v = double(c.get<float>());
            break;
        case 7: {
            const auto b = c.get<uint8_t>();
            if (b > 1)
                throw std::runtime_error("a bool that is neither 0 nor 1");
            v.v = b == 1;
            break;
        }
        case 8:
            v.v = c.str();
            break;
        case 10:
            v.v = c.get<uint64_t>();
            break;
        case 11:
            v.v = c.get<int64_t>();
            break;
        case 12:
            v.v = c.get<double>();
            break;
        default:
            throw std::runtime_error("unknown value type " + std::to_string(t));
    }
    return v;
}

GgufFile read_gguf(const fs::path& p) {
    GgufFile f;
    std::ifstream in(p, std::ios::binary);
    f.bytes.assign(std::istreambuf_iterator<char>(in), {});
    Cursor c(f.bytes);
    if (f.bytes.compare(0, 4, "GGUF") != 0)
        throw std::runtime_error("no GGUF magic");
    c.get<uint32_t>();
    f.version = c.get<uint32_t>();
    f.n_tensors = c.get<uint64_t>();
    f.n_kv = c.get<uint64_t>();
    for (uint64_t i = 0; i < f.n_kv; ++i) {
        const std::string key = c.str();
        const auto t = c.get<uint32_t>();
        Value v;
        if (t == 9) {
            v.type = 9;
            v.elem = c.get<uint32_t>();
            const auto n = c.get<uint64_t>();
            if (v.elem == 8) {
                std::vector<std::string> a;
                for (uint64_t k = 0; k < n; ++k)
                    a.push_back(c.str());
                v.v = a;
            } else {
                std::vector<int64_t> a;
                for (uint64_t k = 0; k < n; ++k) {
                    const Value e = read_scalar(c, v.elem);
                    a.push_back(std::holds_alternative<int64_t>(e.v) ? std::get<int64_t>(e.v)
                                                                     : int64_t(std::get<uint64_t>(e.v)));
                }
                v.v = a;
            }
        } else {
            v = read_scalar(c, t);
        }
        if (f.kv.count(key))
            throw std::runtime_error("key twice: " + key);
        f.keys.push_back(key);
        f.kv[key] = v;
    }
    if (f.kv.count("general.alignment"))
        f.alignment = std::get<uint64_t>(f.kv["general.alignment"].v);
    for (uint64_t i = 0; i < f.n_tensors; ++i) {
        const std::string name = c.str();
        TensorInfo t;
        const auto nd = c.get<uint32_t>();
        for (uint32_t d = 0; d < nd; ++d)
            t.ne.push_back(c.get<uint64_t>());
        t.type = c.get<uint32_t>();
        t.offset = c.get<uint64_t>();
        f.tensor_names.push_back(name);
        f.tensors[name] = t;
    }
    f.data_start = (c.pos() + f.alignment - 1) / f.alignment * f.alignment;
    return f;
}

uint64_t nbytes(const TensorInfo& t) {
    uint64_t n = 1;
    for (auto d : t.ne)
        n *= d;
    return n * (t.type == 0 ? 4 : 2);
}

uint64_t u(const GgufFile& f, const std::string& k) {
    return std::get<uint64_t>(f.kv.at(k).v);
}

// GPT-2's bytes_to_unicode (openai/gpt-2 encoder.py), as code points: the printable Latin-1 bytes
// stand for themselves, the rest map to 256, 257, ... in byte order.
std::string utf8(unsigned cp) {
    std::string s;
    if (cp < 0x80) {
        s += char(cp);
    } else {
        s += char(0xc0 | (cp >> 6));
        s += char(0x80 | (cp & 0x3f));
    }
    return s;
}

}  // namespace

class TestGguf : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_data, m_charData;
    int m_vocab = 0;

    RunConfig gpt2_config(const std::string& data, int vocab) const {
        RunConfig c = preset_config("tiny");
        c.data_dir = data;
        c.vocab_size = vocab;
        c.n_layer = 2;
        c.n_head = 2;
        c.n_embd = 8;
        c.block_size = 16;
        c.position = Position::Learned;
        c.activation = Activation::GeluTanh;
        c.norm = NormKind::LayerNorm;
        c.norm_position = NormPosition::Pre;
        c.bias = true;
        c.tie_embeddings = true;
        c.norm_eps = 1e-5;
        c.threads = 1;
        return c;
    }

    std::string save_run(const char* name, const RunConfig& c) {
        const std::string run = twbtest::path(m_dir, name).string();
        torch::manual_seed(3);
        nn::GPT model(c);
        {
            torch::NoGradGuard ng;
            for (auto& p : model->parameters())  // non-trivial biases and norms too
                p.uniform_(-1, 1);
        }
        CheckpointState st;
        st.step = 7;
        st.config = c;
        nn::save_checkpoint(run, model, nullptr, st);
        return run;
    }

    static nn::SafetensorsData weights(const std::string& run) {
        return nn::read_checkpoint(find_checkpoint(run, "last")).weights;
    }

private slots:
    void initTestCase() {
        twbtest::write(twbtest::path(m_dir, "c.txt"),
                       twbtest::english_like(20000) + twbtest::hard_unicode() + "tab\there ~{}|\x7f\n");
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "c.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        o.tokenizer.kind = TokenizerKind::ByteBpe;
        o.tokenizer.vocab_size = 300;
        prepare_dataset(o);
        m_data = o.out.string();
        m_vocab = TextTokenizer::load(m_data).vocab_size();
        QCOMPARE(m_vocab, 300);
        o.out = twbtest::path(m_dir, "chardata");
        o.tokenizer.kind = TokenizerKind::Char;
        prepare_dataset(o);
        m_charData = o.out.string();
    }

    void headerKeysAndTensorsFollowTheSpecification() {
        const RunConfig c = gpt2_config(m_data, m_vocab);
        const std::string run = save_run("run", c);
        const fs::path out = twbtest::path(m_dir, "model.gguf");
        const auto r = export_gguf(run, "last", out.string());
        QCOMPARE(r.step, int64_t(7));
        const GgufFile f = read_gguf(out);
        QCOMPARE(f.version, 3u);
        QCOMPARE(f.n_kv, uint64_t(f.kv.size()));
        QCOMPARE(int(f.n_kv), r.keys);
        QCOMPARE(f.alignment, uint64_t(32));
        QCOMPARE(f.kv.at("general.alignment").type, 4u);  // uint32, as llama.cpp reads it

        // Every key, its type and its value. Types: 4 uint32, 6 float32, 7 bool, 8 string, 9 array.
        const std::map<std::string, uint32_t> types = {
            {"general.alignment", 4},
            {"general.architecture", 8},
            {"general.name", 8},
            {"general.file_type", 4},
            {"gpt2.context_length", 4},
            {"gpt2.embedding_length", 4},
            {"gpt2.feed_forward_length", 4},
            {"gpt2.block_count", 4},
            {"gpt2.attention.head_count", 4},
            {"gpt2.attention.layer_norm_epsilon", 6},
            {"tokenizer.ggml.model", 8},
            {"tokenizer.ggml.pre", 8},
            {"tokenizer.ggml.tokens", 9},
            {"tokenizer.ggml.token_type", 9},
            {"tokenizer.ggml.merges", 9},
            {"tokenizer.ggml.bos_token_id", 4},
            {"tokenizer.ggml.eos_token_id", 4},
            {"tokenizer.ggml.padding_token_id", 4},
            {"tokenizer.ggml.add_bos_token", 7},
            {"tokenizer.ggml.add_eos_token", 7},
        };
        QCOMPARE(f.kv.size(), types.size());
        for (const auto& [k, t] : types) {
            QVERIFY2(f.kv.count(k), k.c_str());
            QVERIFY2(f.kv.at(k).type == t, k.c_str());
        }
        QCOMPARE(std::get<std::string>(f.kv.at("general.architecture").v), std::string("gpt2"));
        QCOMPARE(std::get<std::string>(f.kv.at("general.name").v), std::string("run"));  // no run.json: the folder
        QCOMPARE(u(f, "general.file_type"), uint64_t(0));
        QCOMPARE(u(f, "gpt2.context_length"), uint64_t(16));
        QCOMPARE(u(f, "gpt2.embedding_length"), uint64_t(8));
        QCOMPARE(u(f, "gpt2.feed_forward_length"), uint64_t(32));  // 4 * n_embd
        QCOMPARE(u(f, "gpt2.block_count"), uint64_t(2));
        QCOMPARE(u(f, "gpt2.attention.head_count"), uint64_t(2));
        QCOMPARE(std::get<double>(f.kv.at("gpt2.attention.layer_norm_epsilon").v), double(1e-5f));
        QCOMPARE(std::get<std::string>(f.kv.at("tokenizer.ggml.model").v), std::string("gpt2"));
        QCOMPARE(std::get<std::string>(f.kv.at("tokenizer.ggml.pre").v), std::string("gpt-2"));
        QCOMPARE(std::get<bool>(f.kv.at("tokenizer.ggml.add_bos_token").v), false);
        QCOMPARE(std::get<bool>(f.kv.at("tokenizer.ggml.add_eos_token").v), false);

        // The vocabulary: ids 0..255 the bytes in GPT-2's spelling, then the merges, then the specials.
        const auto& tokens = std::get<std::vector<std::string>>(f.kv.at("tokenizer.ggml.tokens").v);
        QCOMPARE(f.kv.at("tokenizer.ggml.tokens").elem, 8u);
        QCOMPARE(int(tokens.size()), m_vocab);
        QCOMPARE(tokens[' '], utf8(0x120));   // "Ġ": the 33rd byte that does not stand for itself
        QCOMPARE(tokens['\n'], utf8(0x10a));  // "Ċ"
        QCOMPARE(tokens[0], utf8(0x100));     // "Ā"
        QCOMPARE(tokens['a'], std::string("a"));
        QCOMPARE(tokens[0x7f], utf8(0x121));  // DEL follows the 33 bytes below '!'
        QCOMPARE(tokens[0xad], utf8(0x143));  // soft hyphen: the 68th
        QCOMPARE(tokens[0xe9], utf8(0xe9));   // "é" stands for itself
        QCOMPARE(tokens[255], utf8(0xff));
        const auto tok = TextTokenizer::load(m_data);
        const auto inner = load_tokenizer(m_data);
        QCOMPARE(u(f, "tokenizer.ggml.bos_token_id"), uint64_t(inner->bos_id()));
        QCOMPARE(u(f, "tokenizer.ggml.eos_token_id"), uint64_t(inner->eos_id()));
        QCOMPARE(u(f, "tokenizer.ggml.padding_token_id"), uint64_t(inner->pad_id()));
        QCOMPARE(tokens[size_t(inner->bos_id())], std::string("<bos>"));
        QCOMPARE(tokens[size_t(inner->eos_id())], std::string("<eos>"));
        const auto& types_ = std::get<std::vector<int64_t>>(f.kv.at("tokenizer.ggml.token_type").v);
        QCOMPARE(f.kv.at("tokenizer.ggml.token_type").elem, 5u);  // int32
        QCOMPARE(types_.size(), tokens.size());
        for (size_t id = 0; id < tokens.size(); ++id) {
            const bool special = tokens[id] == "<pad>" || tokens[id] == "<bos>" || tokens[id] == "<eos>";
            QCOMPARE(types_[id], int64_t(special ? 3 : 1));  // CONTROL : NORMAL
        }
        // Merge r joins two tokens into token 256 + r, written "left right" (no token holds a space).
        const auto& merges = std::get<std::vector<std::string>>(f.kv.at("tokenizer.ggml.merges").v);
        QCOMPARE(int(merges.size()), m_vocab - 256 - 3);
        std::set<std::string> known(tokens.begin(), tokens.end());
        for (size_t r = 0; r < merges.size(); ++r) {
            const auto sp = merges[r].find(' ');
            QVERIFY(sp != std::string::npos && merges[r].find(' ', sp + 1) == std::string::npos);
            const std::string a = merges[r].substr(0, sp), b = merges[r].substr(sp + 1);
            QVERIFY(known.count(a) && known.count(b));
            QCOMPARE(a + b, tokens[256 + r]);
        }
        // Against the tokenizer: the tokens of " the" spell "Ġthe" together, and merges did apply.
        const auto the = tok.encode(" the");
        QVERIFY(the.size() < 4);
        std::string spelled;
        for (int32_t id : the)
            spelled += tokens[size_t(id)];
        QCOMPARE(spelled, utf8(0x120) + "the");

        // Tensors: llama.cpp's gpt2 names, torch's shape reversed, f32, tied head (no output tensor).
        std::vector<std::string> names = {"token_embd.weight", "position_embd.weight"};
        for (int i = 0; i < 2; ++i)
            for (const char* p : {"weight", "bias"})
                for (const char* t : {"attn_norm", "attn_qkv", "attn_output", "ffn_norm", "ffn_up", "ffn_down"})
                    names.push_back("blk." + std::to_string(i) + "." + t + "." + p);
        names.push_back("output_norm.weight");
        names.push_back("output_norm.bias");
        QCOMPARE(std::set<std::string>(f.tensor_names.begin(), f.tensor_names.end()),
                 std::set<std::string>(names.begin(), names.end()));
        QCOMPARE(f.n_tensors, uint64_t(names.size()));
        QCOMPARE(int(f.n_tensors), r.tensors);
        const auto& te = f.tensors.at("token_embd.weight");
        QCOMPARE(te.ne, (std::vector<uint64_t>{8, uint64_t(m_vocab)}));  // {n_embd, n_vocab}
        QCOMPARE(f.tensors.at("position_embd.weight").ne, (std::vector<uint64_t>{8, 16}));
        QCOMPARE(f.tensors.at("blk.0.attn_qkv.weight").ne, (std::vector<uint64_t>{8, 24}));
        QCOMPARE(f.tensors.at("blk.0.attn_qkv.bias").ne, (std::vector<uint64_t>{24}));
        QCOMPARE(f.tensors.at("blk.1.ffn_up.weight").ne, (std::vector<uint64_t>{8, 32}));    // {n_embd, n_ff}
        QCOMPARE(f.tensors.at("blk.1.ffn_down.weight").ne, (std::vector<uint64_t>{32, 8}));  // {n_ff, n_embd}
        QCOMPARE(f.tensors.at("output_norm.bias").ne, (std::vector<uint64_t>{8}));

        // Offsets: aligned, in the file, not overlapping; the data: the checkpoint's floats bit for bit.
        QCOMPARE(f.data_start % 32, uint64_t(0));
        const auto w = weights(run);
        const std::map<std::string, std::string> from = {
            {"token_embd.weight", "transformer.wte.weight"},
            {"position_embd.weight", "transformer.wpe.weight"},
            {"blk.1.attn_qkv.weight", "transformer.h.1.attn.c_attn.weight"},
            {"blk.0.attn_output.bias", "transformer.h.0.attn.c_proj.bias"},
            {"blk.1.ffn_down.weight", "transformer.h.1.mlp.c_proj.weight"},
            {"blk.0.ffn_norm.weight", "transformer.h.0.ln_2.weight"},
            {"output_norm.bias", "transformer.ln_f.bias"}};
        std::vector<std::pair<uint64_t, uint64_t>> spans;
        for (const auto& [name, t] : f.tensors) {
            QCOMPARE(t.type, 0u);  // F32
            QVERIFY2(t.offset % f.alignment == 0, name.c_str());
            QVERIFY(f.data_start + t.offset + nbytes(t) <= f.bytes.size());
            spans.emplace_back(t.offset, t.offset + nbytes(t));
        }
        std::sort(spans.begin(), spans.end());
        for (size_t i = 1; i < spans.size(); ++i)
            QVERIFY(spans[i].first >= spans[i - 1].second);
        for (const auto& [g, s] : from) {
            const auto& t = f.tensors.at(g);
            const torch::Tensor ref = w.tensors.at(s).to(torch::kFloat32).contiguous();
            QCOMPARE(uint64_t(ref.numel()) * 4, nbytes(t));
            QVERIFY2(std::memcmp(f.bytes.data() + f.data_start + t.offset, ref.data_ptr<float>(), nbytes(t)) == 0,
                     g.c_str());
        }
    }

    void f16KeepsVectorsF32AndRoundsMatricesAsTorchDoes() {
        const std::string run = save_run("run16", gpt2_config(m_data, m_vocab));
        const fs::path out = twbtest::path(m_dir, "model16.gguf");
        GgufOptions o;
        o.f16 = true;
        export_gguf(run, "last", out.string(), o);
        const GgufFile f = read_gguf(out);
        QCOMPARE(u(f, "general.file_type"), uint64_t(1));  // MOSTLY_F16
        for (const auto& [name, t] : f.tensors) {
            QCOMPARE(t.type, t.ne.size() >= 2 ? 1u : 0u);
            QVERIFY(t.offset % f.alignment == 0);
        }
        const auto w = weights(run);
        for (const auto& [g, s] :
             std::map<std::string, std::string>{{"token_embd.weight", "transformer.wte.weight"},
                                                {"blk.0.ffn_up.weight", "transformer.h.0.mlp.c_fc.weight"},
                                                {"blk.1.attn_norm.bias", "transformer.h.1.ln_1.bias"}}) {
            const auto& t = f.tensors.at(g);
            const torch::Tensor src = w.tensors.at(s).contiguous();
            const torch::Tensor ref = t.type == 1 ? src.to(torch::kHalf).contiguous() : src;
            QCOMPARE(uint64_t(ref.numel() * ref.element_size()), nbytes(t));
            QVERIFY2(std::memcmp(f.bytes.data() + f.data_start + t.offset, ref.data_ptr(), nbytes(t)) == 0, g.c_str());
        }
    }

    void anUntiedHeadIsTheOutputTensor() {
        RunConfig c = gpt2_config(m_data, m_vocab);
        c.tie_embeddings = false;
        const std::string run = save_run("untied", c);
        const fs::path out = twbtest::path(m_dir, "untied.gguf");
        export_gguf(run, "last", out.string());
        const GgufFile f = read_gguf(out);
        const auto& t = f.tensors.at("output.weight");
        QCOMPARE(t.ne, (std::vector<uint64_t>{8, uint64_t(m_vocab)}));
        const torch::Tensor ref = weights(run).tensors.at("lm_head.weight").contiguous();
        QVERIFY(std::memcmp(f.bytes.data() + f.data_start + t.offset, ref.data_ptr<float>(), nbytes(t)) == 0);
    }

    void otherArchitecturesAreRefusedNamingTheOption() {
        const RunConfig base = gpt2_config(m_data, m_vocab);
        QCOMPARE(gguf_export_blocker(base), std::string());
        const std::vector<std::pair<std::function<void(RunConfig&)>, std::string>> cases = {
            {[](RunConfig& c) { c.position = Position::Rotary; }, "position=rotary"},
            {[](RunConfig& c) { c.position = Position::Sinusoidal; }, "position=sinusoidal"},
            {[](RunConfig& c) { c.norm = NormKind::RmsNorm; }, "norm=rmsnorm"},
            {[](RunConfig& c) { c.norm_position = NormPosition::Post; }, "norm_position=post"},
            {[](RunConfig& c) { c.bias = false; }, "bias=false"},
            {[](RunConfig& c) { c.activation = Activation::Gelu; }, "activation=gelu"},
            {[](RunConfig& c) { c.activation = Activation::Relu; }, "activation=relu"},
            {[](RunConfig& c) { c.head_size = 8; }, "head_size=8"},
        };
        for (const auto& [change, name] : cases) {
            RunConfig c = base;
            change(c);
            const std::string why = gguf_export_blocker(c);
            QVERIFY2(why.rfind(name + ":", 0) == 0, why.c_str());
            QVERIFY(why.find('\n') == std::string::npos);
        }
        // Every reason at once: a run of the default architecture needed three retrainings to learn them.
        RunConfig several = base;
        several.position = Position::Rotary;
        several.activation = Activation::Gelu;
        several.bias = false;
        const std::string all = gguf_export_blocker(several);
        for (const char* name : {"position=rotary:", "; bias=false:", "; activation=gelu:"})
            QVERIFY2(all.find(name) != std::string::npos, all.c_str());
        // End to end: the export refuses and writes nothing.
        RunConfig c = base;
        c.position = Position::Rotary;
        const std::string run = save_run("rotary", c);
        const fs::path out = twbtest::path(m_dir, "rotary.gguf");
        QCOMPARE(gguf_run_blocker(run, "last").rfind("position=rotary", 0), size_t(0));
        try {
            export_gguf(run, "last", out.string());
            QFAIL("a rotary run was exported");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("position=rotary") != std::string::npos, e.what());
        }
        QVERIFY(!fs::exists(out));
    }

    void aCharTokenizerIsRefusedByName() {
        const std::string run = save_run("char", gpt2_config(m_charData, TextTokenizer::load(m_charData).vocab_size()));
        QVERIFY(gguf_run_blocker(run, "last").rfind("tokenizer=char:", 0) == 0);
        RunConfig rotary = gpt2_config(m_charData, TextTokenizer::load(m_charData).vocab_size());
        rotary.position = Position::Rotary;  // and the tokenizer: both named
        const std::string both = gguf_run_blocker(save_run("char_rotary", rotary), "last");
        QVERIFY2(both.rfind("position=rotary:", 0) == 0 && both.find("; tokenizer=char:") != std::string::npos,
                 both.c_str());
        const fs::path out = twbtest::path(m_dir, "char.gguf");
        try {
            export_gguf(run, "last", out.string());
            QFAIL("a char-tokenizer run was exported");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("tokenizer=char") != std::string::npos, e.what());
        }
        QVERIFY(!fs::exists(out));
    }
};

TWB_APPLESS_MAIN(TestGguf)
#include "tst_gguf.moc"
