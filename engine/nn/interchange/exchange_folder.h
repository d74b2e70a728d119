// What the Hugging Face exchanges (GPT-2 in model_exchange.cpp, Marian in marian_exchange.cpp) share: an
// output folder written in a temporary sibling and renamed at the end, the checks of an input folder
// (model.safetensors present, pickle refused) and a safetensors header read alone before any data.
#pragma once
#include "core/interchange/safetensors_header.h"
#include "twb/config.h"

#include <torch/torch.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace twb {
class Tokenizer;
}

namespace twb::nn {

/// "[a, b]" for an error message.
std::string shape_text(const std::vector<int64_t>& s);

/// Runs fn(tmp) in a fresh temporary sibling of out and renames it to out; removes it on any error.
/// InputError when out exists and is not an empty folder.
void write_folder(const std::filesystem::path& out, const std::function<void(const std::filesystem::path&)>& fn);

/// InputError unless dir holds config.json and model.safetensors: a pickle or TensorFlow file is refused
/// (it can run code) with how to convert it (`convert` names the transformers class), a sharded index too.
void check_hf_folder(const std::filesystem::path& dir, const std::string& convert);

/// An imported model as a run in tmp: config.json, the tokenizer, one checkpoint at step 0 marked best,
/// and run.json named `name` (or "imported from FOLDER") with `notes`.
void write_imported_run(const std::filesystem::path& tmp, const RunConfig& cfg,
                        const std::vector<std::pair<std::string, torch::Tensor>>& weights, const Tokenizer& tok,
                        const std::string& name, const std::filesystem::path& from, const std::string& notes);

/// The header alone: checked against the file size before any tensor data is read.
SafetensorsHeader read_safetensors_header(const std::filesystem::path& file);

}  // namespace twb::nn
