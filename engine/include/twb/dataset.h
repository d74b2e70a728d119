// Data preparation, the public face: what a corpus is (files and their format), how it is cleaned and
// tokenized, and preparing it into a dataset folder (DIR/{train.bin, val.bin, tokenizer.json,
// meta.json}); reading a prepared dataset's facts back; the cleaning preview and the tokenizer
// inspection the Datasets panel and `twb tokenize --stats` show. Every long call takes a progress
// callback that returns false to cancel (then Cancelled is thrown and nothing is left behind).
// Functions are safe to call from any thread; none keeps state between calls. No torch.
#pragma once
#include "twb/choices.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace twb {

// ---------------------------------------------------------------- corpus

enum class InputFormat { Text, Jsonl, Csv, Tsv, Parallel, Records };
/// "text", "jsonl", "csv", "tsv", "parallel", "records"; throws ConfigError otherwise.
InputFormat parse_input_format(const std::string& name);
std::string to_string(InputFormat f);

struct CorpusSpec {
    std::vector<std::string> inputs;  // files or folders; parallel: exactly two files (source, target)
    InputFormat format = InputFormat::Text;
    std::string field = "text";          // jsonl: which string field holds the text
    std::string column;                  // csv/tsv: column name (header row) or 0-based index; empty = 0
    std::string record_separator = "%";  // records: a line holding exactly this ends a record
    std::string pair_separator = "\t";   // parallel: written between source and target of a pair
    bool replace_invalid_utf8 = false;   // replace bad bytes with U+FFFD instead of refusing the file
    bool hash_sources = true;            // sha256 of every input for meta.json (previews skip it)
};
void to_json(nlohmann::json& j, const CorpusSpec& s);

// ---------------------------------------------------------------- cleaning

/// Every cleaning option; all off by default so preparation is lossless unless asked otherwise.
struct CleaningOptions {
    bool nfkc = false;                  // Unicode NFKC normalisation ("ﬁ" -> "fi", full-width -> ASCII)
    bool normalize_whitespace = false;  // CRLF -> LF, runs of spaces/tabs -> one space, trailing spaces cut
    bool transliterate_ascii = false;   // "Senjō café “x”" -> "Senjo cafe \"x\"" (ICU Any-Latin; Latin-ASCII)
    bool strip_outside = false;         // drop every character not in allowed_chars
    std::string allowed_chars;          // used by strip_outside; empty = printable ASCII plus newline and tab
    bool strip_gutenberg = false;       // drop Project Gutenberg header and footer
    bool lowercase = false;             // Unicode-aware lowercasing
    bool drop_empty_lines = false;      // remove lines that are empty after the steps above
    bool drop_duplicate_lines = false;  // keep only the first occurrence of each line (whole corpus)
    /// Option names as the CLI spells them ("nfkc", "whitespace", "ascii", "strip", "gutenberg",
    /// "lowercase", "drop-empty", "dedupe"); throws ConfigError naming an unknown one.
    void enable(const std::string& name);
    static std::vector<std::string> names();
    bool any() const;
};
void to_json(nlohmann::json& j, const CleaningOptions& o);
void from_json(const nlohmann::json& j, CleaningOptions& o);

/// What one option did over the whole corpus.
struct CleaningEffect {
    std::string option;
    uint64_t lines_changed = 0;
    uint64_t lines_removed = 0;
    int64_t chars_removed = 0;  // code points before minus after (negative when text grew)
};

struct CleaningReport {
    std::vector<CleaningEffect> effects;  // one per enabled option, in the order applied
    uint64_t lines_in = 0;
    uint64_t lines_out = 0;
};
void to_json(nlohmann::json& j, const CleaningReport& r);

/// The first documents of a corpus (at most max_bytes of text, the last one cut at a line end), raw and
/// cleaned, for a live preview. A removed line counts its line break among the characters removed.
struct CleaningPreview {
    std::string before, after;  // documents joined by a blank line
    uint64_t lines_changed = 0, lines_removed = 0;
    int64_t chars_removed = 0;                                // code points before minus after
    std::vector<std::pair<std::string, int64_t>> per_option;  // option -> code points it removed
};
CleaningPreview preview_cleaning(const CorpusSpec& spec, const CleaningOptions& cleaning, size_t max_bytes = 16384);

// ---------------------------------------------------------------- tokenizer and preparation

/// How to build a tokenizer.
struct TokenizerSpec {
    TokenizerKind kind = TokenizerKind::Char;
    int vocab_size = 0;                  // word/bpe/unigram: target size incl. specials (e.g. 2000); char/byte: ignored
    bool lowercase = false;              // word: lowercase before counting and encoding
    int min_frequency = 1;               // word: a word seen fewer times becomes <unk>
    double character_coverage = 0.9995;  // bpe/unigram: rarer characters fall back to bytes
    int threads = 2;                     // bpe/unigram training threads
    std::string split_pattern;           // bytebpe: "gpt2" (default) or "gpt4", the regex that splits text into pieces
};

/// Progress of a long job: (done, total) in any unit; return false to cancel.
using ProgressFn = std::function<bool(uint64_t done, uint64_t total)>;

/// How ids are stored in train.bin / val.bin (the choice is meta.json's "dtype").
enum class TokenDtype { U16, U32 };
std::string to_string(TokenDtype d);
TokenDtype parse_token_dtype(const std::string& s);

struct PrepareOptions {
    CorpusSpec corpus;
    CleaningOptions cleaning;
    TokenizerSpec tokenizer;
    double val_fraction = 0.1;   // share of tokens (tail) or documents (shuffle) kept for validation
    std::string split = "tail";  // "tail": contiguous end, as nanoGPT; "shuffle": documents shuffled with seed
    uint64_t seed = 1337;        // shuffle split seed
    std::filesystem::path out;   // output folder; must not exist unless overwrite
    bool overwrite = false;      // replace an existing prepared dataset at out
    /// Encode with the tokenizer of this prepared dataset or run instead of training one (tokenizer is
    /// then ignored): finetuning data that means what the pretrained model learned.
    std::filesystem::path tokenizer_from;
    /// Keep document boundaries: each record, jsonl/csv row, line pair, or plain-text paragraph
    /// (blank-line separated; a file without blank lines: each line) is one document, indexed in
    /// train.docs/val.docs for training with sequences=documents. Needs a tokenizer with <bos> and
    /// <eos> (every kind but char); the tail split then cuts at a document boundary.
    bool documents = false;
};

/// Stages: "reading", "tokenizer", "encoding", "writing". Return false to cancel.
using PrepareProgressFn = std::function<bool(const std::string& stage, uint64_t done, uint64_t total)>;

struct TokenCount {
    int id = 0;
    std::string text;
    uint64_t count = 0;
};

struct DatasetStats {
    uint64_t characters = 0;  // code points of the cleaned corpus
    uint64_t bytes = 0;       // UTF-8 bytes of the cleaned corpus
    uint64_t tokens = 0;
    uint64_t documents = 0;
    uint64_t lines = 0;
    double chars_per_token = 0;
    int vocab_size = 0;
    int vocab_used = 0;                    // ids that occur at least once
    double unk_rate = 0;                   // share of tokens that are <unk>
    std::string length_unit;               // "lines" or "documents": what the histogram counts
    std::vector<double> length_bin_edges;  // tokens; counts[i] is in [edges[i], edges[i+1])
    std::vector<uint64_t> length_counts;
    double length_mean = 0;
    uint64_t length_max = 0;
    std::vector<TokenCount> top_tokens;  // most frequent, at most 50
};
void to_json(nlohmann::json& j, const DatasetStats& s);
void from_json(const nlohmann::json& j, DatasetStats& s);

struct PrepareResult {
    std::filesystem::path dir;
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
    std::filesystem::path dir;
    nlohmann::json meta;
    TokenDtype dtype = TokenDtype::U16;
    int vocab_size = 0;
    uint64_t train_tokens = 0, val_tokens = 0;
    double chars_per_token = 1.0;
    std::string tokenizer_kind;
    bool has_documents = false;  // prepared with --documents (train.docs, val.docs)
    uint64_t train_documents = 0, val_documents = 0;
    /// A chat dataset (prepare_chat, twb/chat.h): its template's name (empty otherwise) and the number of
    /// loss spans in train.loss/val.loss (the assistant turns, the only targets its loss sees).
    std::string chat_template;
    uint64_t train_loss_spans = 0, val_loss_spans = 0;
    /// A parallel dataset (prepare_parallel): pairs as records in {train,val,test}.pairs.
    bool parallel = false;
    uint64_t train_pairs = 0, val_pairs = 0, test_pairs = 0;
    std::string source_lang, target_lang;
    /// Separate vocabularies (prepared with separate_vocab): the source side's size, its tokenizer in
    /// source_tokenizer/; vocab_size is then the target side's. 0 = one shared vocabulary.
    int source_vocab_size = 0;
};
// ---------------------------------------------------------------- parallel data (translation)

/// A parallel corpus for an encoder-decoder model: line-aligned source and target files, or one
/// tab-separated file with two chosen columns (Tatoeba: English, Bokmål, attribution). The official
/// validation and test pairs may be given as files; otherwise they are held out of the training pairs.
/// One vocabulary, trained on both sides of the training pairs, serves source and target (the default);
/// with separate_vocab each side gets its own, trained on that side alone (the source's in
/// source_tokenizer/, the target's where a dataset's tokenizer always is).
/// Every split is a token file {split}.bin (per pair: source ids, <eos>, target ids, <eos>) and a
/// record index {split}.pairs in DocumentIndex's format: two [start, end) ranges per pair, source then
/// target, each excluding its <eos>. A pair whose side is longer than max_tokens is dropped from
/// training and counted; the decoder input starts with <bos> when batched (nn/training/pair_batcher).
struct ParallelPrepareOptions {
    std::string source, target;                // line-aligned files (the training pairs)
    std::string pairs;                         // or: a TSV file of pairs (instead of source/target)
    int source_column = 0, target_column = 1;  // pairs: 0-based columns
    std::string val_source, val_target;        // official validation files (or val_pairs, a TSV)
    std::string test_source, test_target;      // official test files (or test_pairs, a TSV)
    std::string val_pairs, test_pairs;
    std::string source_lang, target_lang;  // e.g. "de", "en" (meta.json; informative)
    double val_fraction = 0.05;            // held out of the training pairs when no validation files are given
    double test_fraction = 0.0;            // held out when no test files are given
    int max_tokens = 0;                    // drop training pairs with a side longer than this (0 = keep all)
    double max_length_ratio = 0;           // drop training pairs whose longer side has more than this many
                                           // times the tokens of the shorter (0 = keep all)
    bool separate_vocab = false;           // one vocabulary per side instead of one shared
    TokenizerSpec tokenizer;               // must have <bos>/<eos> (every kind but char)
    /// Encode with the tokenizer(s) of this prepared dataset or run instead of training (tokenizer and
    /// separate_vocab are then ignored): finetuning pairs for a pretrained or imported translation model.
    std::filesystem::path tokenizer_from;
    uint64_t seed = 1337;  // the held-out split's shuffle
    std::filesystem::path out;
    bool overwrite = false;
};

/// What one side of a split looks like in tokens (eos excluded).
struct SideLengths {
    double mean = 0;
    uint64_t max = 0;
    std::vector<uint64_t> histogram;  // pairs per bin of 8 tokens: [0,8), [8,16), ...; the last bin open
};

struct ParallelPrepareResult {
    std::filesystem::path dir;
    uint64_t train_pairs = 0, val_pairs = 0, test_pairs = 0;
    uint64_t dropped_long = 0;                   // training pairs over max_tokens
    uint64_t dropped_ratio = 0;                  // training pairs over max_length_ratio
    int vocab_size = 0;                          // the target side's with separate vocabularies
    int source_vocab_size = 0;                   // separate vocabularies: the source side's (0 = shared)
    SideLengths source_lengths, target_lengths;  // of the training pairs kept
    double seconds = 0;
};

/// Prepares a parallel dataset. InputError naming the file (and line) for unaligned, empty or
/// malformed input; ConfigError for bad options; Cancelled. Nothing is left behind on failure.
ParallelPrepareResult prepare_parallel(const ParallelPrepareOptions& opts, const PrepareProgressFn& progress = {});

/// One pair of a parallel dataset's split, as token ids without <bos>/<eos>.
struct TokenPair {
    std::vector<int32_t> source, target;
};
/// Reads every pair of split ("train", "val" or "test"). InputError/FormatError naming the file.
std::vector<TokenPair> read_pairs(const PreparedDataset& data, const std::string& split);

/// Reads DIR/meta.json and checks the token files match it. Throws InputError/FormatError.
PreparedDataset open_prepared(const std::filesystem::path& dir);

/// Up to count token ids of a split ("train" or "val") from offset on (fewer at the end of the split).
/// Throws InputError naming the file when it cannot be read.
std::vector<int32_t> read_tokens(const PreparedDataset& data, const std::string& split, uint64_t offset,
                                 uint64_t count);

/// Characters per token of one split ("train" or "val"): the split's ids decoded and their code points
/// counted. Bits per character = nats per token / ln 2 / this, the same for every tokenizer, so a
/// character model and a BPE model of the same text rank fairly. Reads the whole split (fast: decoding
/// is linear); 1 when the split is empty.
double split_chars_per_token(const PreparedDataset& data, const std::string& split);

/// Lists prepared datasets (folders with meta.json) directly under a folder.
std::vector<PreparedDataset> list_prepared(const std::filesystem::path& parent);

// ---------------------------------------------------------------- inspection

/// What tokenizing a corpus shows: the statistics prepare would store, how often each id occurs and
/// how the text starts, as tokens.
struct TokenizerInspection {
    DatasetStats stats;
    uint64_t train_tokens = 0, val_tokens = 0;
    std::vector<uint64_t> counts;          // per id, over train + val
    std::vector<std::string> token_texts;  // per id, as the tokenizer shows it
    std::vector<int32_t> preview_ids;      // the first tokens of the training split
};

/// Tokenizes a corpus exactly as prepare_dataset would (opts.out is ignored: the work goes to a
/// scratch folder in the system's temp directory that is removed before returning).
TokenizerInspection inspect_tokenization(PrepareOptions opts, const PrepareProgressFn& progress = {},
                                         size_t preview_tokens = 600);

/// The same figures for an existing prepared dataset.
TokenizerInspection inspect_prepared(const std::filesystem::path& dir, size_t preview_tokens = 600);

}  // namespace twb
