// embeddings_from: the token embedding matrix (transformer.wte) started from imported rows, before
// training: a word-vectors text file matched to the dataset's vocabulary by token text
// (core/data/word_vectors.h), or the token embedding of another run or checkpoint with the same
// tokenizer and width. Rows the source lacks keep their random start. It neither freezes the rows
// (freeze_embeddings does) nor rescales them.
#pragma once
#include "nn/models/model.h"

#include <filesystem>
#include <string>

namespace twb::nn {

struct EmbeddingImport {
    int64_t rows = 0;     // token rows replaced
    int64_t vocab = 0;    // rows the matrix has
    int64_t vectors = 0;  // vectors the file held (a run: its vocabulary size)
    std::string message;  // one line for the user: what was taken from where
};

/// Copies the source's rows into model's token embedding. `data_dir` is the prepared dataset the model
/// trains on (its tokenizer maps words to rows). Throws InputError for an unreadable source,
/// ConfigError for a width or tokenizer mismatch (naming both sides and what to do).
EmbeddingImport import_embeddings(GPT& model, const std::filesystem::path& source,
                                  const std::filesystem::path& data_dir);

}  // namespace twb::nn
