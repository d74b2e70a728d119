// Reading a corpus: files, folders, jsonl fields, csv/tsv columns, parallel line-aligned pairs and
// fortune-style records, streamed as documents. Validates every input (missing, empty, binary,
// invalid UTF-8) with a message naming the file. Does not clean or tokenize.
#pragma once
#include "core/tokenizers/tokenizer.h"
#include "twb/dataset.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace twb {

namespace fs = std::filesystem;

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

}  // namespace twb
