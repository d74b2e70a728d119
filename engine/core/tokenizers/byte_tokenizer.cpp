// Byte tokenizer: ids 0..255 are the UTF-8 bytes themselves, then <pad> <bos> <eos> (256..258).
// Covers any text, always lossless.
#include "core/tokenizers/tokenizer.h"
#include "twb/errors.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace twb {

namespace fs = std::filesystem;

namespace {
class ByteTokenizer : public Tokenizer {
public:
    TokenizerKind kind() const override { return TokenizerKind::Byte; }
    int vocab_size() const override { return 259; }
    bool lossless() const override { return true; }
    int newline_id() const override { return '\n'; }
    int pad_id() const override { return 256; }
    int bos_id() const override { return 257; }
    int eos_id() const override { return 258; }
    void encode(std::string_view text, std::vector<int32_t>& out) const override {
        if (out.capacity() < out.size() + text.size())
            out.reserve(out.size() + std::max(out.size(), text.size()));
        for (unsigned char c : text)
            out.push_back(c);
    }
    std::string decode(const std::vector<int32_t>& ids) const override {
        std::string s;
        s.reserve(ids.size());
        for (int32_t id : ids) {
            if (id < 0 || id >= vocab_size())
                throw InputError("token id " + std::to_string(id) + " is outside the byte vocabulary (0..258)");
            if (id < 256)
                s += static_cast<char>(id);
        }
        return s;
    }
    std::string token_text(int id) const override {
        if (id == 256)
            return "<pad>";
        if (id == 257)
            return "<bos>";
        if (id == 258)
            return "<eos>";
        if (id < 0 || id > 258)
            return "?";
        if (id >= 0x20 && id < 0x7F)
            return std::string(1, static_cast<char>(id));
        if (id == '\n')
            return "\n";
        if (id == '\t')
            return "\t";
        char buf[8];
        std::snprintf(buf, sizeof buf, "<0x%02X>", id);
        return buf;
    }
    void save(const fs::path& dir) const override {
        write_file_atomic(dir / "tokenizer.json", nlohmann::json{{"kind", "byte"}}.dump(1));
    }
};
}  // namespace

std::unique_ptr<Tokenizer> make_byte_tokenizer() {
    return std::make_unique<ByteTokenizer>();
}

}  // namespace twb
