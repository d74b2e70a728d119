// The corpus readers: the input as a text, jsonl, csv, tsv and records file, and split at its first
// 0xFF byte into a parallel pair; with and without replacing invalid UTF-8; the csv column, jsonl field
// and record separator vary with the input's size (an unclosed quote and an empty separator are refused).
#include "core/data/corpus.h"
#include "fuzz_util.h"
#include "twb/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto in = twbfuzz::view(data, size);
    const auto file = twbfuzz::write("corpus.txt", in);
    const size_t cut = in.find('\xFF');
    const auto a = twbfuzz::write("a.txt", in.substr(0, cut));
    const auto b = twbfuzz::write("b.txt", cut == std::string_view::npos ? std::string_view() : in.substr(cut + 1));
    using F = twb::InputFormat;
    for (F f : {F::Text, F::Jsonl, F::Csv, F::Tsv, F::Records, F::Parallel}) {
        for (bool replace : {false, true}) {
            twb::CorpusSpec spec;
            spec.format = f;
            spec.inputs = f == F::Parallel ? std::vector<std::string>{a.string(), b.string()}
                                           : std::vector<std::string>{file.string()};
            spec.replace_invalid_utf8 = replace;
            spec.hash_sources = false;
            spec.column = size % 3 == 0 ? "" : (size % 3 == 1 ? "1" : "text");
            spec.field = size % 2 ? "text" : "t";              // jsonl: a field that is there or not
            spec.record_separator = size % 5 == 0 ? "" : "%";  // records: an empty separator is refused
            try {
                uint64_t bytes = 0;
                twb::read_corpus(spec, [&](std::string_view piece, bool) { bytes += piece.size(); }, {});
            } catch (const twb::Error&) {
            }
        }
    }
    return 0;
}
