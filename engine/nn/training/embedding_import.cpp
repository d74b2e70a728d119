// embeddings_from (see embedding_import.h).
#include "nn/training/embedding_import.h"

#include "core/data/word_vectors.h"
#include "nn/interchange/checkpoint.h"
#include "twb/errors.h"
#include "twb/tokenizer.h"

namespace twb::nn {

namespace fs = std::filesystem;

EmbeddingImport import_embeddings(GPT& model, const fs::path& source, const fs::path& data_dir) {
    torch::NoGradGuard ng;  // the weight may be frozen (no grad); copying into it is not training
    auto& wte = model->transformer->wte->weight;
    const int64_t V = wte.size(0), C = wte.size(1);
    EmbeddingImport r;
    r.vocab = V;
    std::error_code ec;
    if (fs::is_directory(source, ec) && !fs::exists(source / "tokenizer.json")) {
        // A run or one of its checkpoints: the same tokenizer, so row i means the same token on both sides.
        require_same_tokenizer(source, data_dir, "take the token embeddings of " + source.string());
        const fs::path ck = find_checkpoint(source, "best");
        const auto loaded = read_checkpoint(ck);
        const auto it = loaded.weights.tensors.find("transformer.wte.weight");
        if (it == loaded.weights.tensors.end())
            throw FormatError(ck.string() + " holds no transformer.wte.weight");
        const auto& w = it->second;
        if (w.dim() != 2 || w.size(0) != V || w.size(1) != C)
            throw ConfigError("embeddings_from " + ck.string() + ": its token embedding is " +
                              std::to_string(w.size(0)) + " x " + std::to_string(w.size(1)) + " but this model's is " +
                              std::to_string(V) + " x " + std::to_string(C) +
                              "; set n_embd=" + std::to_string(w.size(1)) + " to take it");
        wte.copy_(w.to(wte.dtype()));
        r.rows = V;
        r.vectors = w.size(0);
        r.message = "token embeddings: all " + std::to_string(V) + " rows from " + ck.string();
        return r;
    }
    const auto tok = load_tokenizer(data_dir);
    const auto rows = read_word_vectors(source, *tok, static_cast<int>(C));
    const auto n = static_cast<int64_t>(rows.ids.size());
    auto values = torch::from_blob(const_cast<float*>(rows.values.data()), {n, C}, torch::kFloat32).clone();
    auto ids = torch::tensor(std::vector<int64_t>(rows.ids.begin(), rows.ids.end()), torch::kInt64);
    wte.index_copy_(0, ids.to(wte.device()), values.to(wte.device(), wte.dtype()));
    r.rows = n;
    r.vectors = rows.vectors;
    r.message = "token embeddings: " + std::to_string(n) + " of " + std::to_string(V) + " tokens found in " +
                source.string() + " (" + std::to_string(rows.vectors) + " vectors read, " +
                std::to_string(rows.unused) + " matched no token); the other rows keep their random start";
    return r;
}

}  // namespace twb::nn
