// The document index of a prepared dataset (twb prepare --documents): for each split, train.docs and
// val.docs beside train.bin and val.bin, each a flat array of little-endian uint64 pairs [start, end),
// one pair per document (a record, a jsonl/csv row, a line pair, a paragraph), in token offsets of
// that split's token file. A document's range holds its own tokens only: no <bos>, no <eos> (the
// stream between documents may hold an <eos> separator, which lies outside every range). The pairs
// are ordered and disjoint. One record per pair keeps it reusable by a later encoder-decoder, whose
// source/target split can be a further field of a record. Owner of the files: this unit. Does not
// build batches (nn/training/batcher does).
#pragma once
#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

namespace twb {

struct DocumentIndex {
    std::vector<std::pair<uint64_t, uint64_t>> docs;  // [start, end) token offsets, ordered, disjoint

    /// Writes the pairs to path (through a temporary renamed at the end). Throws IoError.
    void write(const std::filesystem::path& path) const;

    /// Reads path and checks it against its token file: whole pairs, expected_docs of them,
    /// start <= end, each end <= the next start, every end <= tokens. Throws FormatError naming the
    /// file and the first problem ("prepare the data again").
    static DocumentIndex read(const std::filesystem::path& path, uint64_t tokens, uint64_t expected_docs);
};

}  // namespace twb
