// Dataset preparation: read -> clean -> train tokenizer -> encode -> split -> write DIR/{train.bin,
// val.bin, tokenizer.json, meta.json}. Streams the corpus (a temp copy of the cleaned text on disk, never
// the whole corpus in memory), writes into a temporary folder and renames it into place at the end,
// so a failure or a cancel leaves nothing behind. Also: reading a prepared dataset's meta back.
#pragma once
#include "engine/data/cleaning.h"
#include "engine/data/corpus.h"
#include "engine/data/token_file.h"
#include "engine/data/tokenizer.h"

#include <nlohmann/json.hpp>

namespace twb {

struct PrepareOptions {
    CorpusSpec corpus;
    CleaningOptions cleaning;
    TokenizerSpec tokenizer;
    double val_fraction = 0.1;    // share of tokens (tail) or documents (shuffle) kept for validation
    std::string split = "tail";   // "tail": contiguous end, as nanoGPT; "shuffle": documents shuffled with seed
    uint64_t seed = 1337;         // shuffle split seed
    fs::path out;                 // output folder; must not exist unless overwrite
    bool overwrite = false;       // replace an existing prepared dataset at out
};

/// Stages: "reading", "tokenizer", "encoding", "writing". Return false to cancel.
using PrepareProgressFn = std::function<bool(const std::string& stage, uint64_t done, uint64_t total)>;

struct TokenCount {
    int id = 0;
    std::string text;
    uint64_t count = 0;
};

struct DatasetStats {
    uint64_t characters = 0;     // code points of the cleaned corpus
    uint64_t bytes = 0;          // UTF-8 bytes of the cleaned corpus
    uint64_t tokens = 0;
    uint64_t documents = 0;
    uint64_t lines = 0;
    double chars_per_token = 0;
    int vocab_size = 0;
    int vocab_used = 0;          // ids that occur at least once
    double unk_rate = 0;         // share of tokens that are <unk>
    std::string length_unit;     // "lines" or "documents": what the histogram counts
    std::vector<double> length_bin_edges;  // tokens; counts[i] is in [edges[i], edges[i+1])
    std::vector<uint64_t> length_counts;
    double length_mean = 0;
    uint64_t length_max = 0;
    std::vector<TokenCount> top_tokens;  // most frequent, at most 50
};
void to_json(nlohmann::json& j, const DatasetStats& s);
void from_json(const nlohmann::json& j, DatasetStats& s);

struct PrepareResult {
    fs::path dir;
    uint64_t train_tokens = 0;
    uint64_t val_tokens = 0;
    DatasetStats stats;
    CleaningReport cleaning;
    std::vector<std::string> warnings;
    double seconds = 0;
};

/// Prepares a dataset. Throws InputError/ConfigError/IoError with an actionable message, or Cancelled.
PrepareResult prepare_dataset(const PrepareOptions& opts, const PrepareProgressFn& progress = {});

/// A prepared dataset opened for reading.
struct PreparedDataset {
    fs::path dir;
    nlohmann::json meta;
    TokenDtype dtype = TokenDtype::U16;
    int vocab_size = 0;
    uint64_t train_tokens = 0, val_tokens = 0;
    double chars_per_token = 1.0;
    std::string tokenizer_kind;
};
/// Reads DIR/meta.json and checks the token files match it. Throws InputError/FormatError.
PreparedDataset open_prepared(const fs::path& dir);

/// Lists prepared datasets (folders with meta.json) directly under a folder.
std::vector<PreparedDataset> list_prepared(const fs::path& parent);

} // namespace twb
