// A loaded run checkpoint behind a torch-free interface: what the GUI's workers hold to generate
// text, capture attention and read position tables without including libtorch. One session serves
// one thread at a time (the worker's); opening another checkpoint replaces the model.
#pragma once
#include "engine/nn/generation_types.h"
#include "engine/run_config.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace twb::nn {

/// A position table for the viewer: values[row * cols + col].
struct PositionTable {
    std::string kind;  // "learned" | "sinusoidal" | "rotary"
    std::string col_label;  // what the columns are (rows are positions)
    int64_t rows = 0, cols = 0;
    std::vector<float> values;
    std::vector<float> frequencies;  // rotary: angle per position of each dimension pair (radians)
};

class ModelSession {
public:
    ModelSession();
    ~ModelSession();
    ModelSession(const ModelSession&) = delete;
    ModelSession& operator=(const ModelSession&) = delete;

    /// Loads RUN's checkpoint ("best", "last" or a step). Keeps the current model when it is already the
    /// one asked for. Throws InputError/FormatError naming what is wrong.
    void open(const std::string& run, const std::string& which);
    bool is_open() const;
    std::string checkpoint() const;  // folder of the loaded checkpoint
    int64_t step() const;
    const RunConfig& config() const;

    /// Prompt -> ids; InputError naming characters the tokenizer cannot encode.
    std::vector<int32_t> encode(const std::string& prompt) const;
    std::string decode(const std::vector<int32_t>& ids) const;
    std::string token_text(int id) const;

    SampleResult generate(const std::vector<int32_t>& prompt, const SamplingOptions& opt,
                          const TokenCallback& on_token = {}, const std::atomic<bool>* cancel = nullptr);
    AttentionCapture attention(const std::string& text, int top = 5);
    /// The model's positions: learned (wpe), sinusoidal (the fixed table) or rotary (cos of the
    /// angle per position and dimension pair), for positions 0..min(max_rows, block_size)-1.
    PositionTable positions(int64_t max_rows = 256) const;

    struct Impl;  // opaque: holds the torch model

private:
    std::unique_ptr<Impl> d;
};

}  // namespace twb::nn
