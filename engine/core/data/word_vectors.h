// Word vectors from a text file (the word2vec / GloVe / fastText `.vec` text format: `word v1 ... vN` per
// line, an optional `count dim` header line) laid onto a tokenizer's vocabulary by token text, for
// `embeddings_from`. A token matches a word when its text, without a leading space marker (" ", "▁",
// "Ġ"), is the word; failing that, the word lowercased (ASCII), so a lowercasing tokenizer takes cased
// vectors. It reads text only: binary word2vec files and copying into a model are not its business.
#pragma once
#include "core/tokenizers/tokenizer.h"

#include <cstdint>
#include <filesystem>
#include <vector>

namespace twb {

struct WordVectorRows {
    int dim = 0;                // values per vector (the model's n_embd)
    std::vector<int32_t> ids;   // token ids given a vector, ascending
    std::vector<float> values;  // ids.size() * dim, row i is ids[i]'s vector
    int64_t vectors = 0;        // vector lines read from the file
    int64_t unused = 0;         // of those, lines no token took
};

/// Reads `file` and returns a vector for every token of `tok` it names. Throws InputError when the file
/// cannot be read, ConfigError when its vectors are not `dim` wide or no token is found in it (the
/// messages name the file and say what to do), FormatError naming the line of a value that is no number.
WordVectorRows read_word_vectors(const std::filesystem::path& file, const Tokenizer& tok, int dim);

}  // namespace twb
