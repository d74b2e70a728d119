// Encoding throughput of the tokenizers (MB/s of UTF-8 text), and end-to-end `prepare` speed.
// Usage: bench_encode [corpus.txt]   (default: ../shared/datasets/tinyshakespeare/input.txt)
#include "core/tokenizers/tokenizer.h"
#include "twb/dataset.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

using namespace twb;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
    const fs::path corpus = argc > 1 ? argv[1] : "../shared/datasets/tinyshakespeare/input.txt";
    if (!fs::exists(corpus)) {
        std::fprintf(stderr, "bench_encode: %s not found; pass a text file\n", corpus.c_str());
        return 1;
    }
    const std::string text = read_file(corpus);
    const double mb = static_cast<double>(text.size()) / 1e6;
    std::printf("corpus %s: %.2f MB\n", corpus.c_str(), mb);
    const fs::path tmp = fs::temp_directory_path() / "twb-bench-encode";
    fs::remove_all(tmp);
    fs::create_directories(tmp);
    fs::copy_file(corpus, tmp / "corpus.txt");
    for (auto [kind, vocab] : {std::pair<const char*, int>{"char", 0},
                               {"byte", 0},
                               {"word", 8000},
                               {"bpe", 2000},
                               {"unigram", 2000},
                               {"bytebpe", 2000}}) {
        TokenizerSpec spec;
        spec.kind = parse_choice<TokenizerKind>(kind, "tokenizer");
        spec.vocab_size = vocab;
        auto t0 = std::chrono::steady_clock::now();
        auto tok = train_tokenizer(spec, tmp / "corpus.txt");
        const double trainS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        // Encode as prepare does: whole blocks when the tokenizer has a newline token, else line by line.
        double best = 1e9;
        size_t n = 0;
        for (int rep = 0; rep < 3; ++rep) {
            std::vector<int32_t> ids;
            ids.reserve(text.size());
            t0 = std::chrono::steady_clock::now();
            size_t pos = 0;
            const bool whole = tok->newline_id() >= 0;
            while (pos < text.size()) {
                size_t nl = whole ? text.size() : text.find('\n', pos);
                nl = nl == std::string::npos ? text.size() : whole ? nl : nl + 1;
                tok->encode(std::string_view(text).substr(pos, nl - pos), ids);
                pos = nl;
            }
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            n = ids.size();
        }
        std::printf("%-8s vocab %5d  train %6.2f s  encode %8.1f MB/s  (%zu tokens, %.2f chars/token)\n", kind,
                    tok->vocab_size(), trainS, mb / best, n, static_cast<double>(text.size()) / static_cast<double>(n));
    }
    for (auto kind : {"char", "bpe"}) {
        PrepareOptions o;
        o.corpus.inputs = {corpus.string()};
        o.tokenizer.kind = parse_choice<TokenizerKind>(kind, "tokenizer");
        o.tokenizer.vocab_size = 2000;
        o.out = tmp / (std::string("prep-") + kind);
        const auto r = prepare_dataset(o);
        std::printf("prepare %-5s end to end %.2f s  (%.1f MB/s)\n", kind, r.seconds, mb / r.seconds);
    }
    fs::remove_all(tmp);
    return 0;
}
