// Marian's tokenizer (marian_vocab.h): two sentencepiece models and one shared vocab.json.
#include "core/tokenizers/marian_vocab.h"

#include "core/tokenizers/spm_model.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <unordered_map>

namespace twb {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSpace = "\xE2\x96\x81";  // U+2581, sentencepiece's space

/// vocab.json: {piece: id}, ids inside the vocabulary once each. id -> piece ("" where unused).
std::vector<std::string> read_vocab_json(const fs::path& file, int vocab_size) {
    const std::string where = file.string();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(file));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(where + ": not valid JSON (" + e.what() + ")");
    }
    if (!j.is_object() || j.empty())
        throw FormatError(where + ": must be a JSON object {piece: id, ...}");
    std::vector<std::string> pieces(static_cast<size_t>(vocab_size));
    std::vector<bool> seen(static_cast<size_t>(vocab_size), false);
    for (const auto& [piece, v] : j.items()) {
        if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= vocab_size)
            throw FormatError(where + ": the id of '" + piece + "' is " + v.dump() + ", outside 0.." +
                              std::to_string(vocab_size - 1) + " (config.json's vocab_size " +
                              std::to_string(vocab_size) + ")");
        const auto id = static_cast<size_t>(v.get<int64_t>());
        if (seen[id])
            throw FormatError(where + ": id " + std::to_string(id) + " is given to '" + pieces[id] + "' and '" + piece +
                              "'");
        seen[id] = true;
        pieces[id] = piece;
    }
    return pieces;
}

class MarianTokenizer : public Tokenizer {
public:
    MarianTokenizer(const fs::path& src, const fs::path& tgt, const fs::path& vocab, const MarianSpecials& ids)
        : m_src(src), m_tgt(tgt), m_vocabFile(vocab), m_ids(ids) {
        if (ids.vocab_size <= 0)
            throw FormatError(vocab.string() + ": the model's vocab_size must be positive");
        m_pieces = read_vocab_json(vocab, ids.vocab_size);
        for (size_t i = 0; i < m_pieces.size(); ++i)
            if (!m_pieces[i].empty())
                m_byPiece.emplace(m_pieces[i], static_cast<int>(i));
        const auto unk = m_byPiece.find("<unk>");
        if (unk == m_byPiece.end())
            throw FormatError(vocab.string() + ": has no <unk> piece, which Marian's vocabulary needs");
        m_unk = unk->second;
        for (int id : {ids.eos, ids.pad, ids.decoder_start})
            if (id >= ids.vocab_size)
                throw FormatError(vocab.string() + ": special id " + std::to_string(id) +
                                  " is outside the vocabulary of " + std::to_string(ids.vocab_size));
    }
    TokenizerKind kind() const override { return TokenizerKind::Unigram; }
    int vocab_size() const override { return m_ids.vocab_size; }
    bool lossless() const override { return false; }
    int pad_id() const override { return m_ids.pad; }
    int unk_id() const override { return m_unk; }
    int bos_id() const override { return m_ids.decoder_start; }
    int eos_id() const override { return m_ids.eos; }

    void encode(std::string_view text, std::vector<int32_t>& out) const override { encode_with(m_src, text, out); }
    void encode_target(std::string_view text, std::vector<int32_t>& out) const override {
        encode_with(m_tgt, text, out);
    }

    std::string decode(const std::vector<int32_t>& ids) const override {
        // MarianTokenizer.decode(ids, skip_special_tokens=True): the specials dropped, the rest joined by
        // target.spm's DecodePieces (a piece it lacks, a language code say, stays as written).
        std::vector<std::string> pieces;
        for (int32_t id : ids) {
            if (id < 0 || id >= m_ids.vocab_size)
                throw InputError("token id " + std::to_string(id) + " is outside the vocabulary (0.." +
                                 std::to_string(m_ids.vocab_size - 1) + ")");
            if (id == m_ids.eos || id == m_ids.pad || id == m_ids.decoder_start || id == m_unk)
                continue;
            if (!m_pieces[static_cast<size_t>(id)].empty())
                pieces.push_back(m_pieces[static_cast<size_t>(id)]);
        }
        std::string text;  // pieces target.spm lacks keep their U+2581, which MarianTokenizer makes spaces
        const std::string joined = m_tgt.decode_pieces(pieces);
        for (size_t i = 0; i < joined.size();) {
            if (joined.compare(i, 3, kSpace) == 0) {
                text += ' ';
                i += 3;
            } else {
                text += joined[i++];
            }
        }
        const size_t a = text.find_first_not_of(" \t\n"), b = text.find_last_not_of(" \t\n");
        return a == std::string::npos ? "" : text.substr(a, b - a + 1);
    }
    std::string token_text(int id) const override {
        if (id < 0 || id >= m_ids.vocab_size)
            return "?";
        const std::string& p = m_pieces[static_cast<size_t>(id)];
        if (p.empty())
            return "<unused " + std::to_string(id) + ">";
        std::string out;
        for (size_t i = 0; i < p.size();) {
            if (p.compare(i, 3, kSpace) == 0) {
                out += ' ';
                i += 3;
            } else {
                out += p[i++];
            }
        }
        return out;
    }
    std::string fingerprint() const override {
        return sha256_hex("marian:" + sha256_file(m_src.file()) + ":" + sha256_file(m_tgt.file()) + ":" +
                          sha256_file(m_vocabFile) + ":" + std::to_string(m_ids.eos) + ":" + std::to_string(m_ids.pad) +
                          ":" + std::to_string(m_ids.decoder_start));
    }
    void save(const fs::path& dir) const override {
        write_files(dir);
        nlohmann::json j{{"kind", TokenizerKind::Unigram},
                         {"vocab_size", m_ids.vocab_size},
                         {"marian",
                          {{"source", "source.spm"},
                           {"target", "target.spm"},
                           {"vocab", "vocab.json"},
                           {"eos", m_ids.eos},
                           {"pad", m_ids.pad},
                           {"decoder_start", m_ids.decoder_start}}}};
        write_file_atomic(dir / "tokenizer.json", j.dump(1));
    }
    void write_files(const fs::path& dir) const {
        auto copy = [&](const fs::path& from, const char* name) {
            if (fs::absolute(dir / name) != fs::absolute(from))
                fs::copy_file(from, dir / name, fs::copy_options::overwrite_existing);
        };
        copy(m_src.file(), "source.spm");
        copy(m_tgt.file(), "target.spm");
        copy(m_vocabFile, "vocab.json");
    }

private:
    void encode_with(const SpmModel& spm, std::string_view text, std::vector<int32_t>& out) const {
        if (text.size() >= 4 && text.compare(0, 2, ">>") == 0) {  // MarianTokenizer.remove_language_code
            const size_t end = text.find("<<", 2);
            if (end != std::string_view::npos) {
                out.push_back(id_of(std::string(text.substr(0, end + 2))));
                text.remove_prefix(end + 2);
            }
        }
        for (const std::string& piece : spm.encode_pieces(text))  // an unknown stretch: its own text
            out.push_back(id_of(piece));
    }
    int32_t id_of(const std::string& piece) const {
        const auto it = m_byPiece.find(piece);
        return it == m_byPiece.end() ? m_unk : it->second;
    }

    SpmModel m_src, m_tgt;
    fs::path m_vocabFile;
    MarianSpecials m_ids;
    std::vector<std::string> m_pieces;
    std::unordered_map<std::string, int> m_byPiece;
    int m_unk = -1;
};

}  // namespace

std::unique_ptr<Tokenizer> make_marian_tokenizer(const fs::path& source_spm, const fs::path& target_spm,
                                                 const fs::path& vocab_json, const MarianSpecials& ids) {
    for (const auto& f : {source_spm, target_spm, vocab_json})
        if (!fs::exists(f))
            throw InputError(f.string() + ": no such file (a Marian folder has source.spm, target.spm and vocab.json)");
    return std::make_unique<MarianTokenizer>(source_spm, target_spm, vocab_json, ids);
}

std::unique_ptr<Tokenizer> load_marian_tokenizer(const fs::path& dir, const nlohmann::json& j) {
    const auto& m = j.at("marian");
    MarianSpecials ids;
    ids.vocab_size = j.at("vocab_size").get<int>();
    ids.eos = m.at("eos").get<int>();
    ids.pad = m.at("pad").get<int>();
    ids.decoder_start = m.at("decoder_start").get<int>();
    return make_marian_tokenizer(dir / m.at("source").get<std::string>(), dir / m.at("target").get<std::string>(),
                                 dir / m.at("vocab").get<std::string>(), ids);
}

void write_marian_vocab(const Tokenizer& tok, const fs::path& dir) {
    const auto* m = dynamic_cast<const MarianTokenizer*>(&tok);
    if (!m)
        throw InputError("the tokenizer is " + to_string(tok.kind()) +
                         ", not Marian's (source.spm, target.spm, vocab.json)");
    m->write_files(dir);
}

}  // namespace twb
