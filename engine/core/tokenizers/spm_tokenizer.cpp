// sentencepiece BPE and unigram tokenizers through the project's own module libtwb_spm.so, loaded
// with dlopen(RTLD_NOW|RTLD_LOCAL|RTLD_DEEPBIND) (linking sentencepiece beside libtorch crashes).
// Trained lossless: identity normalisation, whitespace kept as is, byte fallback, "\n" a piece.
#include "core/tokenizers/marian_vocab.h"
#include "core/tokenizers/spm_model.h"
#include "core/tokenizers/tokenizer.h"
#include "spm/spm_api.h"
#include "twb/errors.h"
#include "twb/program_files.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

// AddressSanitizer refuses RTLD_DEEPBIND; its builds (scripts/sanitize.sh, fuzz/) never link libtorch, so
// the two protobufs DEEPBIND keeps apart never meet there.
#if defined(__SANITIZE_ADDRESS__)
#define TWB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TWB_ASAN 1
#endif
#endif
#ifdef TWB_ASAN
constexpr int kDlopenFlags = RTLD_NOW | RTLD_LOCAL;
#else
constexpr int kDlopenFlags = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND;
#endif

namespace twb {

namespace fs = std::filesystem;

namespace {
struct SpmModule {
    void* handle = nullptr;
    std::string path;
    twb_spm_train_fn train = nullptr;
    twb_spm_load_fn load = nullptr;
    twb_spm_free_fn free = nullptr;
    twb_spm_encode_fn encode = nullptr;
    twb_spm_decode_fn decode = nullptr;
    twb_spm_encode_pieces_fn encode_pieces = nullptr;  // for SpmModel (Marian's vocabulary)
    twb_spm_decode_pieces_fn decode_pieces = nullptr;
    twb_spm_vocab_size_fn vocab_size = nullptr;
    twb_spm_piece_fn piece = nullptr;
    twb_spm_version_fn version = nullptr;
};

std::vector<fs::path> module_candidates() {
    std::vector<fs::path> c;
    if (const char* env = std::getenv("TWB_SPM_MODULE"))
        c.emplace_back(env);
    for (auto& p : program_file_candidates("libtwb_spm.so"))
        c.push_back(std::move(p));
    return c;
}

const SpmModule& module() {
    static SpmModule m;
    static std::once_flag once;
    static std::string error;
    std::call_once(once, [] {
        std::string tried;
        for (auto& p : module_candidates()) {
            if (!fs::exists(p)) {
                tried += "\n  " + p.string() + " (missing)";
                continue;
            }
            void* h = dlopen(p.c_str(), kDlopenFlags);
            if (!h) {
                tried += "\n  " + p.string() + " (" + dlerror() + ")";
                continue;
            }
            auto sym = [&](const char* name) { return dlsym(h, name); };
            auto ver = reinterpret_cast<twb_spm_api_version_fn>(sym("twb_spm_api_version"));
            if (!ver || ver() != TWB_SPM_API_VERSION) {
                tried += "\n  " + p.string() + " (wrong API version)";
                dlclose(h);
                continue;
            }
            m.handle = h;
            m.path = p.string();
            m.train = reinterpret_cast<twb_spm_train_fn>(sym("twb_spm_train"));
            m.load = reinterpret_cast<twb_spm_load_fn>(sym("twb_spm_load"));
            m.free = reinterpret_cast<twb_spm_free_fn>(sym("twb_spm_free"));
            m.encode = reinterpret_cast<twb_spm_encode_fn>(sym("twb_spm_encode"));
            m.decode = reinterpret_cast<twb_spm_decode_fn>(sym("twb_spm_decode"));
            m.encode_pieces = reinterpret_cast<twb_spm_encode_pieces_fn>(sym("twb_spm_encode_pieces"));
            m.decode_pieces = reinterpret_cast<twb_spm_decode_pieces_fn>(sym("twb_spm_decode_pieces"));
            m.vocab_size = reinterpret_cast<twb_spm_vocab_size_fn>(sym("twb_spm_vocab_size"));
            m.piece = reinterpret_cast<twb_spm_piece_fn>(sym("twb_spm_piece"));
            m.version = reinterpret_cast<twb_spm_version_fn>(sym("twb_spm_version"));
            return;
        }
        error =
            "the sentencepiece module libtwb_spm.so could not be loaded; set TWB_SPM_MODULE to its path."
            " Tried:" +
            tried;
    });
    if (!m.handle)
        throw Error(error);
    return m;
}

class SpmTokenizer : public Tokenizer {
public:
    SpmTokenizer(TokenizerKind kind, fs::path modelFile) : m_kind(kind), m_file(std::move(modelFile)) {
        const auto& mod = module();
        char err[512] = {0};
        m_model = mod.load(m_file.c_str(), err, sizeof err);
        if (!m_model)
            throw FormatError(m_file.string() + ": not a loadable sentencepiece model (" + err + ")");
        m_vocab = mod.vocab_size(m_model);
        for (int i = 0; i < m_vocab; ++i) {
            int k = 0;
            std::string p = mod.piece(m_model, i, &k);
            m_display.push_back(display(p, k));
            if (p == "\n" && k == 0)
                m_newline = i;  // the user-defined "\n" piece
        }
    }
    ~SpmTokenizer() override {
        if (m_model)
            module().free(m_model);
    }
    TokenizerKind kind() const override { return m_kind; }
    int vocab_size() const override { return m_vocab; }
    bool lossless() const override { return true; }
    int newline_id() const override { return m_newline; }
    int pad_id() const override { return 0; }
    int unk_id() const override { return 1; }
    int bos_id() const override { return 2; }
    int eos_id() const override { return 3; }

    void encode(std::string_view text, std::vector<int32_t>& out) const override {
        // sentencepiece's BPE is superlinear in the input length, so long texts go in pieces of ~16 KB cut
        // after a newline ("\n" is a piece of its own, so cutting there changes no ids), spread over cores.
        constexpr size_t kPiece = 16 << 10;
        if (text.size() <= 2 * kPiece)
            return encode_piece(text, out);
        std::vector<std::string_view> pieces;
        size_t pos = 0;
        while (pos < text.size()) {
            size_t end = std::min(text.size(), pos + kPiece);
            if (end < text.size()) {
                const size_t nl = text.find('\n', end);
                end = nl == std::string_view::npos ? text.size() : nl + 1;
            }
            pieces.push_back(text.substr(pos, end - pos));
            pos = end;
        }
        const size_t workers = std::min<size_t>(pieces.size(), std::max(1u, std::thread::hardware_concurrency()));
        std::vector<std::vector<int32_t>> parts(pieces.size());
        std::vector<std::thread> pool;
        for (size_t w = 1; w < workers; ++w)
            pool.emplace_back([&, w] {
                for (size_t i = w; i < pieces.size(); i += workers)
                    encode_piece(pieces[i], parts[i]);
            });
        for (size_t i = 0; i < pieces.size(); i += workers)
            encode_piece(pieces[i], parts[i]);
        for (auto& t : pool)
            t.join();
        for (auto& p : parts)
            out.insert(out.end(), p.begin(), p.end());
    }

private:
    void encode_piece(std::string_view text, std::vector<int32_t>& out) const {
        const auto& mod = module();
        const size_t start = out.size();
        out.resize(start + text.size() + 16);
        size_t n = mod.encode(m_model, text.data(), text.size(), out.data() + start, out.size() - start);
        if (n > out.size() - start) {  // byte fallback can exceed one id per byte only with specials
            out.resize(start + n);
            n = mod.encode(m_model, text.data(), text.size(), out.data() + start, n);
        }
        out.resize(start + n);
    }

public:
    std::string decode(const std::vector<int32_t>& ids) const override {
        for (int32_t id : ids)
            if (id < 0 || id >= m_vocab)
                throw InputError("token id " + std::to_string(id) + " is outside the vocabulary (0.." +
                                 std::to_string(m_vocab - 1) + ")");
        const auto& mod = module();
        std::string s(ids.size() * 4 + 16, '\0');
        size_t n = mod.decode(m_model, ids.data(), ids.size(), s.data(), s.size());
        if (n > s.size()) {
            s.resize(n);
            mod.decode(m_model, ids.data(), ids.size(), s.data(), n);
        }
        s.resize(n);
        return s;
    }
    std::string token_text(int id) const override {
        return id >= 0 && id < m_vocab ? m_display[static_cast<size_t>(id)] : "?";
    }
    std::string fingerprint() const override { return sha256_hex(to_string(m_kind) + ":" + sha256_file(m_file)); }
    void save(const fs::path& dir) const override {
        const fs::path target = dir / "tokenizer.model";
        if (fs::absolute(target) != fs::absolute(m_file)) {
            fs::copy_file(m_file, target, fs::copy_options::overwrite_existing);
        }
        nlohmann::json j{
            {"kind", m_kind}, {"model", "tokenizer.model"}, {"vocab_size", m_vocab}, {"library", module().version()}};
        write_file_atomic(dir / "tokenizer.json", j.dump(1));
    }

private:
    static std::string display(const std::string& p, int k) {
        if (k == 3 && p.size() == 6) {  // <0xNN>: show printable bytes as themselves
            const int v = std::stoi(p.substr(3, 2), nullptr, 16);
            if (v == '\n')
                return "\n";
            if (v == '\t')
                return "\t";
        }
        std::string out;
        for (size_t i = 0; i < p.size();) {
            if (p.compare(i, 3, "\xE2\x96\x81") == 0) {  // U+2581 stands for a space
                out += ' ';
                i += 3;
            } else {
                out += p[i++];
            }
        }
        return out;
    }
    TokenizerKind m_kind;
    fs::path m_file;
    twb_spm* m_model = nullptr;
    int m_vocab = 0;
    int m_newline = -1;
    std::vector<std::string> m_display;
};
}  // namespace

SpmModel::SpmModel(const fs::path& file) : m_file(file) {
    const auto& mod = module();
    char err[512] = {0};
    m_model = mod.load(file.c_str(), err, sizeof err);
    if (!m_model)
        throw FormatError(file.string() + ": not a loadable sentencepiece model (" + err + ")");
    const int n = mod.vocab_size(m_model);
    for (int i = 0; i < n; ++i) {
        int k = 0;
        m_pieces.emplace_back(mod.piece(m_model, i, &k));
        m_kinds.push_back(k);
        m_sorted.emplace_back(m_pieces.back(), i);
    }
    std::sort(m_sorted.begin(), m_sorted.end());
}

SpmModel::~SpmModel() {
    if (m_model)
        module().free(m_model);
}

int SpmModel::id_of(const std::string& piece) const {
    const auto it = std::lower_bound(m_sorted.begin(), m_sorted.end(), std::make_pair(piece, -1));
    return it != m_sorted.end() && it->first == piece ? it->second : -1;
}

std::vector<int32_t> SpmModel::encode(std::string_view text) const {
    const auto& mod = module();
    std::vector<int32_t> out(text.size() + 16);
    size_t n = mod.encode(m_model, text.data(), text.size(), out.data(), out.size());
    if (n > out.size()) {
        out.resize(n);
        n = mod.encode(m_model, text.data(), text.size(), out.data(), n);
    }
    out.resize(n);
    return out;
}

std::vector<std::string> SpmModel::encode_pieces(std::string_view text) const {
    const auto& mod = module();
    if (!mod.encode_pieces)
        throw Error(mod.path + ": the sentencepiece module is older than this program (no twb_spm_encode_pieces)");
    std::string buf(text.size() * 4 + 64, '\0');
    size_t n = mod.encode_pieces(m_model, text.data(), text.size(), buf.data(), buf.size());
    if (n > buf.size()) {
        buf.resize(n);
        n = mod.encode_pieces(m_model, text.data(), text.size(), buf.data(), n);
    }
    std::vector<std::string> pieces;
    for (size_t at = 0; at < n;) {
        const size_t end = buf.find('\0', at);
        pieces.push_back(buf.substr(at, end - at));
        at = end + 1;
    }
    return pieces;
}

std::string SpmModel::decode_pieces(const std::vector<std::string>& pieces) const {
    const auto& mod = module();
    if (!mod.decode_pieces)
        throw Error(mod.path + ": the sentencepiece module is older than this program (no twb_spm_decode_pieces)");
    std::string joined;
    for (const auto& p : pieces)
        joined.append(p).push_back('\0');
    std::string s(joined.size() + 16, '\0');
    size_t n = mod.decode_pieces(m_model, joined.data(), joined.size(), s.data(), s.size());
    if (n > s.size()) {
        s.resize(n);
        mod.decode_pieces(m_model, joined.data(), joined.size(), s.data(), n);
    }
    s.resize(n);
    return s;
}

std::string SpmModel::decode(const std::vector<int32_t>& ids) const {
    const auto& mod = module();
    std::string s(ids.size() * 8 + 16, '\0');
    size_t n = mod.decode(m_model, ids.data(), ids.size(), s.data(), s.size());
    if (n > s.size()) {
        s.resize(n);
        mod.decode(m_model, ids.data(), ids.size(), s.data(), n);
    }
    s.resize(n);
    return s;
}

std::string spm_module_path() {
    try {
        return module().path;
    } catch (const Error& e) {
        return std::string("not loaded: ") + e.what();
    }
}

std::unique_ptr<Tokenizer> train_spm_tokenizer(const TokenizerSpec& spec, const fs::path& corpus,
                                               const ProgressFn& progress) {
    if (spec.vocab_size <= 0)
        throw ConfigError(to_string(spec.kind) + " needs a vocab size (e.g. --vocab-size 2000)");
    if (spec.vocab_size > 65535 * 4)
        throw ConfigError("vocab size " + std::to_string(spec.vocab_size) + " is beyond what " + to_string(spec.kind) +
                          " allows here (at most 262140)");
    if (fs::file_size(corpus) == 0)
        throw InputError(corpus.string() + ": the corpus is empty");
    const auto& mod = module();
    if (progress && !progress(0, 1))
        throw Cancelled();
    const fs::path prefix = corpus.parent_path() / "spm_train";
    std::vector<std::pair<std::string, std::string>> opts = {
        {"input", corpus.string()},
        {"model_prefix", prefix.string()},
        {"vocab_size", std::to_string(spec.vocab_size)},
        {"model_type", to_string(spec.kind)},
        {"character_coverage", std::to_string(spec.character_coverage)},
        {"byte_fallback", "true"},
        {"normalization_rule_name", "identity"},
        {"add_dummy_prefix", "false"},
        {"remove_extra_whitespaces", "false"},
        {"allow_whitespace_only_pieces", "true"},
        {"split_digits", "false"},
        {"pad_id", "0"},
        {"unk_id", "1"},
        {"bos_id", "2"},
        {"eos_id", "3"},
        {"user_defined_symbols", "\n"},
        {"input_sentence_size", "2000000"},
        {"shuffle_input_sentence", "true"},
        {"max_sentence_length", "16384"},
        {"num_threads", std::to_string(std::max(1, spec.threads))},
        {"hard_vocab_limit", "true"},
    };
    std::string joined;
    for (auto& [k, v] : opts)
        joined += k + "=" + v + '\x1f';
    joined.pop_back();
    char err[2048] = {0};
    if (mod.train(joined.c_str(), err, sizeof err) != 0) {
        std::string msg = err;
        const size_t vs = msg.find("Vocabulary size");
        if (vs != std::string::npos)
            msg = msg.substr(vs);
        if (msg.find("Vocabulary size too high") != std::string::npos ||
            msg.find("Vocabulary size is smaller") != std::string::npos)
            throw InputError("cannot train " + to_string(spec.kind) + " with vocab size " +
                             std::to_string(spec.vocab_size) + ": " + msg +
                             " (the corpus is too small for this vocab size, or the size is below "
                             "the 256 byte pieces + characters + 4 specials it needs)");
        if (msg.find("sentences_.empty()") != std::string::npos)
            throw InputError(
                "cannot train " + to_string(spec.kind) +
                ": sentencepiece learns from lines of 1 to 16384 bytes and the corpus has none: its lines are "
                "all empty, or longer (one huge line?); give it text, broken into lines (e.g. fold -s -w 2000 "
                "FILE), or use the char, byte or word tokenizer");
        // sentencepiece's own messages start with its source location ("trainer_interface.cc(428) ").
        if (const size_t loc = msg.find(") "); loc != std::string::npos && msg.find(".cc(") < loc)
            msg = msg.substr(loc + 2);
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' '))
            msg.pop_back();
        for (auto& c : msg)
            if (c == '\n')
                c = ' ';
        throw InputError("sentencepiece training failed: " + msg);
    }
    if (progress)
        progress(1, 1);
    fs::remove(prefix.string() + ".vocab");
    return std::make_unique<SpmTokenizer>(spec.kind, prefix.string() + ".model");
}

std::unique_ptr<Tokenizer> load_spm_tokenizer(const fs::path& dir, const nlohmann::json& j) {
    if (j.contains("marian"))  // an imported Marian vocabulary: two models and vocab.json
        return load_marian_tokenizer(dir, j);
    return std::make_unique<SpmTokenizer>(parse_choice<TokenizerKind>(j.value("kind", "bpe"), "tokenizer kind"),
                                          dir / j.value("model", "tokenizer.model"));
}

}  // namespace twb
