// Strict reading of meta.json and the token-id range check.
#include "core/data/dataset_meta.h"

#include "core/data/token_file.h"
#include "twb/chat.h"
#include "twb/errors.h"

#include <climits>

namespace twb {

namespace fs = std::filesystem;

namespace {
[[noreturn]] void bad(const fs::path& file, const std::string& what) {
    throw FormatError(file.string() + ": " + what + "; prepare the data again (twb prepare ... --out " +
                      file.parent_path().string() + " --force)");
}

uint64_t count(const nlohmann::json& j, const char* key, const fs::path& file) {
    if (!j.contains(key))
        bad(file, std::string("has no ") + key);
    const auto& v = j[key];
    if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<int64_t>() < 0))
        bad(file, std::string(key) + " must be a whole number of at least 0");
    return v.get<uint64_t>();
}
}  // namespace

PreparedDataset parse_prepared_meta(const std::string& text, const fs::path& dir) {
    const fs::path file = dir / "meta.json";
    PreparedDataset d;
    d.dir = dir;
    try {
        d.meta = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        bad(file, "not valid JSON");
    }
    const auto& m = d.meta;
    if (!m.is_object())
        bad(file, "not a JSON object");
    // Version 1 is the only one written so far; a later one may mean what this program cannot read.
    if (m.contains("format_version") && !(m["format_version"].is_number_integer() && m["format_version"] == 1))
        bad(file, "format_version " + m["format_version"].dump() +
                      " is not one this program reads (1); it was written by another version of twb: prepare it "
                      "again");
    if (m.contains("dtype")) {
        if (!m["dtype"].is_string())
            bad(file, "dtype must be \"uint16\" or \"uint32\"");
        d.dtype = parse_token_dtype(m["dtype"].get<std::string>());
    }
    const uint64_t vocab = count(m, "vocab_size", file);
    const uint64_t maxVocab = d.dtype == TokenDtype::U16 ? 65536 : (1u << 24);
    if (vocab < 1 || vocab > maxVocab)
        bad(file, "vocab_size " + std::to_string(vocab) + " is not between 1 and " + std::to_string(maxVocab) +
                      " for " + to_string(d.dtype) + " ids");
    d.vocab_size = static_cast<int>(vocab);
    d.train_tokens = count(m, "train_tokens", file);
    d.val_tokens = count(m, "val_tokens", file);
    if (m.contains("max_token_id")) {
        const auto& v = m["max_token_id"];
        if (!v.is_number_integer() || v.get<int64_t>() < -1)
            bad(file, "max_token_id must be a whole number");
        if (v.get<int64_t>() >= d.vocab_size)
            bad(file, "the token files hold ids up to " + std::to_string(v.get<int64_t>()) + " but vocab_size is " +
                          std::to_string(d.vocab_size));
    }
    if (m.contains("chars_per_token")) {
        if (!m["chars_per_token"].is_number() || !(m["chars_per_token"].get<double>() > 0))
            bad(file, "chars_per_token must be a positive number");
        d.chars_per_token = m["chars_per_token"].get<double>();
    }
    if (m.contains("tokenizer")) {
        if (!m["tokenizer"].is_string())
            bad(file, "tokenizer must be a string");
        d.tokenizer_kind = m["tokenizer"].get<std::string>();
    }
    if (m.contains("chat")) {
        const auto& c = m["chat"];
        if (!c.is_object() || !c.contains("template") || !c["template"].is_string() || !c.contains("loss_spans") ||
            !c["loss_spans"].is_object())
            bad(file, "its chat entry has no template name or loss_spans");
        d.chat_template = c["template"].get<std::string>();
        if (d.chat_template != kChatTemplate)
            bad(file,
                "chat template \"" + d.chat_template + "\" is not one this program knows (" + kChatTemplate + ")");
        d.train_loss_spans = count(c["loss_spans"], "train", file);
        d.val_loss_spans = count(c["loss_spans"], "val", file);
    }
    if (m.contains("stats")) {
        try {
            if (!m["stats"].is_object())
                throw FormatError("stats");
            (void)m["stats"].get<DatasetStats>();
        } catch (const std::exception&) {
            bad(file, "stats is malformed");
        }
    }
    return d;
}

int64_t scan_max_token_id(const fs::path& file, TokenDtype dtype) {
    const TokenFile f(file, dtype);
    int64_t mx = -1;
    for (uint64_t i = 0; i < f.size(); ++i)
        mx = std::max<int64_t>(mx, f.at(i));
    return mx;
}

}  // namespace twb
