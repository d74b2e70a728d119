// Export of a run's checkpoint to GGUF, llama.cpp's file format, as its `gpt2` architecture: the
// weights (f32, or f16 for the matrices), the hyperparameters and the byte-level BPE tokenizer, so a
// model trained here runs in llama.cpp and the tools built on it. Only runs whose architecture is
// GPT-2's can be exported that way (learned positions, tanh GELU, LayerNorm before each block, biases,
// n_head * head_size = n_embd) and whose tokenizer llama.cpp's BPE decodes (bytebpe); the blockers say
// why another run cannot. Public API.
#pragma once
#include "twb/config.h"

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

/// "" when llama.cpp's gpt2 architecture holds a model of this config; otherwise one sentence naming
/// the first option it lacks and the value that would do ("position=rotary: ..."). Torch-free.
std::string gguf_export_blocker(const RunConfig& config);

/// The same for a run's checkpoint ("best", "last" or a step), its tokenizer included: "" or the
/// reason (a char, word, byte or sentencepiece tokenizer is named). Throws InputError when the run or
/// checkpoint does not exist. Torch-free.
std::string gguf_run_blocker(const std::string& run, const std::string& checkpoint = "best");

/// Writes RUN's checkpoint as a GGUF v3 file (temporary, then renamed). Throws InputError with the
/// blocker's reason for a run that cannot be exported, FormatError for a damaged checkpoint, IoError.
GgufExportResult export_gguf(const std::string& run, const std::string& checkpoint, const std::string& out_file,
                             const GgufOptions& options = {});

}  // namespace twb
