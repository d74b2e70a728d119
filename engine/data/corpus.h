// Reading a corpus: files, folders, jsonl fields, csv/tsv columns, parallel line-aligned pairs and
// fortune-style records, streamed as documents. Validates every input (missing, empty, binary,
// invalid UTF-8) with a message naming the file. Does not clean or tokenize.
#pragma once
#include "engine/data/tokenizer.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace twb {

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

/// One input file as recorded in meta.json.
struct SourceFile {
    std::string path;
    uint64_t bytes = 0;
    std::string sha256;
};

/// Receives the corpus: text pieces of the current document; doc_end marks the document's end.
using DocumentSink = std::function<void(std::string_view piece, bool doc_end)>;

struct CorpusReadResult {
    std::vector<SourceFile> files;
    uint64_t documents = 0;
    uint64_t invalid_bytes_replaced = 0;
    std::vector<std::string> warnings;
};

/// Expands folders (recursively, sorted, hidden files skipped) and checks each file exists and is non-empty.
std::vector<fs::path> expand_inputs(const std::vector<std::string>& inputs);

/// Streams the corpus into sink. Progress counts input bytes. Throws InputError naming file and problem.
CorpusReadResult read_corpus(const CorpusSpec& spec, const DocumentSink& sink, const ProgressFn& progress = {});

/// The first documents of a corpus (about max_bytes of text), raw and cleaned, for a live preview.
struct CleaningPreview {
    std::string before, after;  // documents joined by a blank line
    uint64_t lines_changed = 0, lines_removed = 0;
    int64_t chars_removed = 0;                                // code points before minus after
    std::vector<std::pair<std::string, int64_t>> per_option;  // option -> code points it removed
};
struct CleaningOptions;
CleaningPreview preview_cleaning(const CorpusSpec& spec, const CleaningOptions& cleaning, size_t max_bytes = 16384);

}  // namespace twb
