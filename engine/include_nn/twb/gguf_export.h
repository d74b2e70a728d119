// Export of a run's checkpoint to GGUF, llama.cpp's file format, as its `gpt2` architecture: the
// weights (f32, or f16 for the matrices), the hyperparameters and the byte-level BPE tokenizer, so a
// model trained here runs in llama.cpp and the tools built on it. Only runs whose architecture is
// GPT-2's can be exported that way (learned positions, tanh GELU, LayerNorm before each block, biases,
// n_head * head_size = n_embd) and whose tokenizer llama.cpp's BPE decodes (bytebpe); the blockers say
// why another run cannot (gguf_check.h, included). Public API (twb_nn); no torch.
#pragma once
#include "twb/gguf_check.h"

#include <cstdint>
#include <string>

namespace twb {

struct GgufOptions {
    bool f16 = false;  // matrices as f16 (1-D tensors, the norms and biases, stay f32 as llama.cpp expects)
};

struct GgufExportResult {
    std::string file;        // the file written
    std::string checkpoint;  // the checkpoint folder exported
    int64_t step = 0;
    int tensors = 0;
    int keys = 0;  // metadata key-values
    int vocab = 0;
    uint64_t bytes = 0;  // the file's size
};

/// Writes RUN's checkpoint as a GGUF v3 file (temporary, then renamed). Throws InputError with the
/// blocker's reason for a run that cannot be exported, FormatError for a damaged checkpoint, IoError.
GgufExportResult export_gguf(const std::string& run, const std::string& checkpoint, const std::string& out_file,
                             const GgufOptions& options = {});

}  // namespace twb
