// GPT-2's vocab.json / merges.txt and Hugging Face's tokenizer.json, read and written.
#include "core/tokenizers/gpt2_vocab.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <sstream>
#include <unordered_map>

namespace twb {

namespace fs = std::filesystem;

namespace {

/// byte -> code point, and code point -> byte (-1 when the code point stands for no byte).
struct ByteTable {
    std::array<uint32_t, 256> toCp{};
    std::unordered_map<uint32_t, int> toByte;
    ByteTable() {
        auto printable = [](int b) { return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE); };
        uint32_t next = 256;
        for (int b = 0; b < 256; ++b) {
            toCp[static_cast<size_t>(b)] = printable(b) ? static_cast<uint32_t>(b) : next++;
            toByte[toCp[static_cast<size_t>(b)]] = b;
        }
    }
};

const ByteTable& table() {
    static const ByteTable t;
    return t;
}

/// The special tokens GPT-2's files name without marking them: <|endoftext|>.
bool is_known_special(const std::string& s) {
    return s == "<|endoftext|>";
}

/// Token texts (id order) and merge lines -> the model's parts. `where_*` name the sources in errors.
Gpt2Vocab assemble(const std::vector<std::string>& texts, const std::vector<bool>& special,
                   const std::vector<std::pair<std::string, std::string>>& mergeTexts, const std::string& whereVocab,
                   const std::string& whereMerges) {
    Gpt2Vocab v;
    std::unordered_map<std::string, int32_t> byText, byBytes;
    for (size_t id = 0; id < texts.size(); ++id) {
        byText[texts[id]] = static_cast<int32_t>(id);
        if (special[id]) {
            v.tokens.push_back(texts[id]);
            v.specials.push_back(static_cast<int32_t>(id));
            if (texts[id] == "<|endoftext|>")
                v.bos = v.eos = static_cast<int32_t>(id);
            continue;
        }
        std::string bytes;
        if (!gpt2_bytes_from_unicode(texts[id], bytes))
            throw FormatError(whereVocab + ": token '" + texts[id] + "' (id " + std::to_string(id) +
                              ") has a character outside GPT-2's byte table; not a byte-level BPE vocabulary");
        if (!byBytes.emplace(bytes, static_cast<int32_t>(id)).second)
            throw FormatError(whereVocab + ": token '" + texts[id] + "' (id " + std::to_string(id) +
                              ") repeats the bytes of another token");
        v.tokens.push_back(std::move(bytes));
    }
    for (int b = 0; b < 256; ++b)
        if (!byBytes.count(std::string(1, static_cast<char>(b))))
            throw FormatError(whereVocab + ": no token for byte " + std::to_string(b) + " ('" +
                              gpt2_unicode_from_bytes(std::string(1, static_cast<char>(b))) +
                              "'); not a complete byte-level vocabulary");
    for (size_t r = 0; r < mergeTexts.size(); ++r) {
        const auto& [a, b] = mergeTexts[r];
        const auto ia = byText.find(a), ib = byText.find(b), ic = byText.find(a + b);
        const std::string at = whereMerges + ": merge " + std::to_string(r + 1) + " ('" + a + " " + b + "')";
        if (ia == byText.end() || ib == byText.end())
            throw FormatError(at + " names a token " + whereVocab + " lacks");
        if (ic == byText.end())
            throw FormatError(at + " gives '" + a + b + "', which " + whereVocab + " lacks");
        v.merges.emplace_back(ia->second, ib->second);
        v.merged.push_back(ic->second);
    }
    // Without merges every token longer than a byte is unreachable: the text would be encoded byte by
    // byte and score far worse than the model can (an empty or lost merges file, not a tokenizer).
    if (mergeTexts.empty()) {
        const size_t bytes = 256 + v.specials.size();
        if (v.tokens.size() > bytes)
            throw FormatError(whereMerges + ": holds no merges, but " + whereVocab + " has " +
                              std::to_string(v.tokens.size() - bytes) +
                              " tokens longer than one byte that only merges make; the merges file is empty or "
                              "truncated: copy it again from the model's folder");
    }
    return v;
}

/// vocab object (text -> id) -> texts in id order.
std::vector<std::string> texts_by_id(const nlohmann::json& vocab, const std::string& where) {
    if (!vocab.is_object() || vocab.empty())
        throw FormatError(where + ": the vocabulary is not a JSON object of token -> id");
    std::vector<std::string> texts(vocab.size());
    std::vector<bool> seen(vocab.size(), false);
    for (auto it = vocab.begin(); it != vocab.end(); ++it) {
        if (!it.value().is_number_integer())
            throw FormatError(where + ": token '" + it.key() + "' has no integer id");
        const auto id = it.value().get<int64_t>();
        if (id < 0 || id >= static_cast<int64_t>(texts.size()) || seen[static_cast<size_t>(id)])
            throw FormatError(where + ": token '" + it.key() + "' has id " + std::to_string(id) +
                              "; the ids must be 0.." + std::to_string(texts.size() - 1) + ", each once");
        seen[static_cast<size_t>(id)] = true;
        texts[static_cast<size_t>(id)] = it.key();
    }
    return texts;
}

nlohmann::json parse_json_file(const fs::path& file) {
    if (!fs::exists(file))
        throw InputError(file.string() + ": no such file");
    try {
        return nlohmann::json::parse(read_file(file));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(file.string() + ": not valid JSON (" + e.what() + ")");
    }
}

/// A JSON string's text, or any other value as JSON (for messages naming what was found).
std::string text_of(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

/// tokenizer.json's added_tokens marked "special": true, by id (ids beyond the vocabulary ignored).
void mark_added_specials(const nlohmann::json& added, std::vector<bool>& special, const std::string& where) {
    for (const auto& t : added) {
        if (!t.is_object() || !t.contains("id") || !t["id"].is_number_integer())
            throw FormatError(where + ": an added_tokens entry has no integer \"id\" (" + t.dump() + ")");
        const auto id = t["id"].get<int64_t>();
        const bool marked = t.contains("special") && t["special"].is_boolean() && t["special"].get<bool>();
        if (id >= 0 && id < static_cast<int64_t>(special.size()) && marked)
            special[static_cast<size_t>(id)] = true;
    }
}

std::pair<std::string, std::string> split_merge(const std::string& line, const std::string& where) {
    const size_t sp = line.find(' ');
    if (sp == std::string::npos || sp == 0 || sp + 1 >= line.size() || line.find(' ', sp + 1) != std::string::npos)
        throw FormatError(where + ": '" + line + "' is not a merge ('a b')");
    return {line.substr(0, sp), line.substr(sp + 1)};
}

}  // namespace

std::string gpt2_unicode_from_bytes(std::string_view bytes) {
    std::string out;
    for (unsigned char c : bytes)
        utf8_append(out, table().toCp[c]);
    return out;
}

bool gpt2_bytes_from_unicode(std::string_view u, std::string& bytes) {
    bytes.clear();
    if (find_invalid_utf8(u) != std::string::npos)
        return false;
    for (size_t i = 0; i < u.size();) {
        size_t len = 0;
        const uint32_t cp = utf8_decode_at(u, i, &len);
        const auto it = table().toByte.find(cp);
        if (len == 0 || it == table().toByte.end())
            return false;
        bytes += static_cast<char>(it->second);
        i += len;
    }
    return true;
}

Gpt2Vocab read_gpt2_vocab(const fs::path& vocab_json, const fs::path& merges_txt) {
    const auto texts = texts_by_id(parse_json_file(vocab_json), vocab_json.string());
    std::vector<bool> special(texts.size());
    for (size_t i = 0; i < texts.size(); ++i)
        special[i] = is_known_special(texts[i]);
    if (!fs::exists(merges_txt))
        throw InputError(merges_txt.string() + ": no such file (GPT-2's merges.txt belongs beside vocab.json)");
    std::istringstream in(read_file(merges_txt));
    std::vector<std::pair<std::string, std::string>> merges;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || (lineNo == 1 && line.rfind("#version", 0) == 0))
            continue;
        merges.push_back(split_merge(line, merges_txt.string() + " line " + std::to_string(lineNo)));
    }
    return assemble(texts, special, merges, vocab_json.string(), merges_txt.string());
}

namespace {
/// model.merges: "a b" strings (older files) or ["a", "b"] pairs.
std::vector<std::pair<std::string, std::string>> merges_of(const nlohmann::json& list, const std::string& where) {
    std::vector<std::pair<std::string, std::string>> merges;
    for (const auto& e : list) {
        const std::string at = where + " model.merges[" + std::to_string(merges.size()) + "]";
        if (e.is_string())
            merges.push_back(split_merge(e.get<std::string>(), at));
        else if (e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_string())
            merges.emplace_back(e[0].get<std::string>(), e[1].get<std::string>());
        else
            throw FormatError(at + ": not a merge");
    }
    return merges;
}
}  // namespace

Gpt2Vocab read_hf_tokenizer_json(const fs::path& file) {
    const std::string where = file.string();
    const auto j = parse_json_file(file);
    if (!j.is_object() || !j.contains("model") || !j["model"].is_object())
        throw FormatError(where + ": not a Hugging Face tokenizer.json (no \"model\")");
    const auto& m = j["model"];
    const std::string type = !m.contains("type") ? "BPE" : text_of(m["type"]);
    if (type != "BPE")
        throw FormatError(where + ": model.type is '" + type + "'; only byte-level BPE is GPT-2's");
    if (!m.contains("vocab") || !m.contains("merges") || !m["merges"].is_array())
        throw FormatError(where + ": model.vocab or model.merges is missing");
    const auto texts = texts_by_id(m["vocab"], where + " model.vocab");
    std::vector<bool> special(texts.size());
    for (size_t i = 0; i < texts.size(); ++i)
        special[i] = is_known_special(texts[i]);
    if (j.contains("added_tokens") && j["added_tokens"].is_array())
        mark_added_specials(j["added_tokens"], special, where);
    return assemble(texts, special, merges_of(m["merges"], where), where + " model.vocab", where + " model.merges");
}

void mark_special_ids(Gpt2Vocab& v, int bos, int eos) {
    auto mark = [&](int id) {
        if (id < 0 || id >= static_cast<int>(v.tokens.size()))
            return false;
        if (std::find(v.specials.begin(), v.specials.end(), id) != v.specials.end())
            return true;
        const std::string& bytes = v.tokens[static_cast<size_t>(id)];
        if (bytes.size() < 2 || std::find(v.merged.begin(), v.merged.end(), id) != v.merged.end())
            return false;
        v.tokens[static_cast<size_t>(id)] = gpt2_unicode_from_bytes(bytes);  // a special holds its name
        v.specials.push_back(id);
        return true;
    };
    if (mark(bos) && v.bos < 0)
        v.bos = bos;
    if (mark(eos) && v.eos < 0)
        v.eos = eos;
}

}  // namespace twb
