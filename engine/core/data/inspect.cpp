// Tokenizer inspection for the Datasets panel and `twb tokenize --stats`: how often each id occurs, how
// the text starts as tokens, and the statistics prepare stores. A corpus is tokenized by preparing it
// into a scratch folder (so the figures are exactly what prepare would give) that is removed again.
#include "core/data/token_file.h"
#include "core/tokenizers/tokenizer.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <unistd.h>
#include <atomic>
#include <chrono>

namespace twb {

TokenizerInspection inspect_prepared(const std::filesystem::path& dir, size_t preview_tokens) {
    const PreparedDataset d = open_prepared(dir);
    TokenizerInspection r;
    if (d.meta.contains("stats"))
        r.stats = d.meta["stats"].get<DatasetStats>();
    r.train_tokens = d.train_tokens;
    r.val_tokens = d.val_tokens;
    const auto tok = load_tokenizer(d.dir);
    r.token_texts.reserve(static_cast<size_t>(tok->vocab_size()));
    for (int i = 0; i < tok->vocab_size(); ++i)
        r.token_texts.push_back(tok->token_text(i));
    r.counts.assign(static_cast<size_t>(tok->vocab_size()), 0);
    for (const char* split : {"train.bin", "val.bin"}) {
        TokenFile f(d.dir / split, d.dtype);
        for (uint64_t i = 0; i < f.size(); ++i) {
            const auto id = static_cast<size_t>(f.at(i));
            if (id >= r.counts.size())
                throw FormatError((d.dir / split).string() + ": token id " + std::to_string(id) +
                                  " is outside the vocabulary of " + std::to_string(r.counts.size()) +
                                  "; prepare the dataset again");
            ++r.counts[id];
        }
        if (std::string(split) == "train.bin")
            for (uint64_t i = 0; i < std::min<uint64_t>(f.size(), preview_tokens); ++i)
                r.preview_ids.push_back(f.at(i));
    }
    if (!d.meta.contains("stats")) {  // a chat or parallel dataset: what its files and meta.json tell
        const uint64_t total = r.train_tokens + r.val_tokens;
        r.stats.tokens = total;
        r.stats.chars_per_token = d.chars_per_token;
        r.stats.vocab_size = tok->vocab_size();
        if (tok->unk_id() >= 0 && total > 0)
            r.stats.unk_rate =
                static_cast<double>(r.counts[static_cast<size_t>(tok->unk_id())]) / static_cast<double>(total);
    }
    return r;
}

std::vector<int32_t> read_tokens(const PreparedDataset& d, const std::string& split, uint64_t offset, uint64_t count) {
    if (split != "train" && split != "val")
        throw ConfigError("split must be train or val (got '" + split + "')");
    const TokenFile f(d.dir / (split + ".bin"), d.dtype);
    std::vector<int32_t> ids;
    for (uint64_t i = offset; i < f.size() && i - offset < count; ++i)
        ids.push_back(f.at(i));
    return ids;
}

double split_chars_per_token(const PreparedDataset& d, const std::string& split) {
    if (split != "train" && split != "val")
        throw ConfigError("split must be train or val (got '" + split + "')");
    const TokenFile f(d.dir / (split + ".bin"), d.dtype);
    if (f.size() == 0)
        return 1.0;
    const auto tok = load_tokenizer(d.dir);
    // Decoded in blocks; code points are counted as the bytes that do not continue a UTF-8 sequence,
    // so a character split across two blocks (byte tokens) is still counted once.
    constexpr uint64_t kBlock = 1 << 16;
    uint64_t chars = 0;
    std::vector<int32_t> ids;
    for (uint64_t start = 0; start < f.size(); start += kBlock) {
        ids.clear();
        for (uint64_t i = start; i < std::min<uint64_t>(f.size(), start + kBlock); ++i) {
            const int32_t id = f.at(i);
            if (id < 0 || id >= tok->vocab_size())
                throw FormatError((d.dir / (split + ".bin")).string() + ": token id " + std::to_string(id) +
                                  " is outside the vocabulary; prepare the dataset again");
            ids.push_back(id);
        }
        chars += code_points(tok->decode(ids));
    }
    return static_cast<double>(chars) / static_cast<double>(f.size());
}

TokenizerInspection inspect_tokenization(PrepareOptions opts, const PrepareProgressFn& progress,
                                         size_t preview_tokens) {
    static std::atomic<int> counter{0};
    const auto scratch = std::filesystem::temp_directory_path() /
                         ("twb-inspect-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    opts.out = scratch / "dataset";
    opts.overwrite = false;
    struct Cleanup {
        std::filesystem::path dir;
        ~Cleanup() {
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
        }
    } cleanup{scratch};
    std::filesystem::create_directories(scratch);
    prepare_dataset(opts, progress);
    return inspect_prepared(opts.out, preview_tokens);
}

}  // namespace twb
