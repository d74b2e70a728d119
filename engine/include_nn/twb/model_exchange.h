// Weights in and out of the workbench in the formats the ecosystem uses. Import: a GPT-2-family
// checkpoint in the Hugging Face layout (config.json, model.safetensors, vocab.json + merges.txt or
// tokenizer.json) becomes an ordinary run folder. Export: a run's checkpoint in the Hugging Face GPT-2
// layout (what transformers' GPT2LMHeadModel.from_pretrained reads), or, for any architecture, plain
// safetensors with the workbench's own tensor names and config.json. Only safetensors is read, never a
// pickle; every file is checked against the config before its data is used, and a mismatch names the
// file and the tensor or key. Outputs are written into a temporary folder renamed at the end.
// Public API: torch-free. Each call is independent; calls are safe from any one thread at a time.
#pragma once
#include "twb/config.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace twb {

/// Stage messages ("reading model.safetensors", ...) for a progress line or a dialog.
using ExchangeProgressFn = std::function<void(const std::string& message)>;

struct HfImportResult {
    std::filesystem::path run;    // the run folder written
    RunConfig config;             // its config (GPT-2's options: learned positions, biases, LayerNorm, ...)
    bool tied = true;             // the LM head is the token embedding
    std::string tokenizer_files;  // "vocab.json + merges.txt" or "tokenizer.json"
    std::string source_dtype;     // the checkpoint's tensor type (F32, F16 or BF16; stored as float32)
    int64_t parameters = 0;
};

/// Reads the Hugging Face folder `dir` and writes the run `out_run` (config.json, tokenizer/, one
/// checkpoint step 0 recorded as best, run.json with `name` when given). `out_run` must not exist or be
/// empty. InputError for a missing file (a pickle-only folder: says to convert to safetensors),
/// FormatError/ConfigError naming the file and tensor or key for anything that does not fit.
HfImportResult import_hf(const std::filesystem::path& dir, const std::filesystem::path& out_run,
                         const std::string& name = "", const ExchangeProgressFn& progress = {});

/// Why the Hugging Face GPT-2 layout cannot hold a model of this config, naming the option GPT-2 lacks
/// (e.g. "position=rotary: GPT-2 has learned positions (position=learned)"); "" when it can.
std::string hf_export_blocker(const RunConfig& config);

struct ExportResult {
    std::filesystem::path out;       // the folder written
    std::string checkpoint;          // the checkpoint exported
    std::vector<std::string> files;  // file names inside `out`
    std::string note;                // what was not exported, if anything (e.g. a tokenizer GPT-2's files cannot hold)
};

/// Exports a run's checkpoint ("best", "last" or a step) in the Hugging Face GPT-2 layout: config.json
/// (model_type gpt2, GPT2LMHeadModel), model.safetensors (GPT-2's names, Conv1D [in, out] weights) and,
/// for a byte-level BPE tokenizer, vocab.json + merges.txt. ConfigError with hf_export_blocker's reason
/// (and the plain export named) when the architecture is not GPT-2's. `out_dir` must not exist or be empty.
ExportResult export_hf(const std::filesystem::path& run, const std::filesystem::path& out_dir,
                       const std::string& checkpoint = "best");

/// The plain export, any architecture: model.safetensors with the workbench's tensor names, config.json
/// (the run's config) and tokenizer/ (the run's tokenizer files).
ExportResult export_safetensors(const std::filesystem::path& run, const std::filesystem::path& out_dir,
                                const std::string& checkpoint = "best");

}  // namespace twb
