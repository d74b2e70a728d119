// A checkpoint's state.json (everything besides tensors that a resume needs) and a run's best.json,
// read and written without torch so the parsers can be fuzzed alone. Reading is strict: every field
// has its type and range checked and the embedded config goes through config_from_json and validate(),
// so a hand-edited or damaged file is refused with the file and the field named, never half-used.
#pragma once
#include "twb/config.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace twb {

struct CheckpointState {
    int64_t step = 0;                // optimiser steps done
    uint64_t batcher_state = 0;      // data position (generator state)
    bool has_batcher_state = false;  // state.json named it (a resume needs it; sampling does not)
    double val_loss = std::nan("");  // at this step, when evaluated
    double best_val_loss = std::nan("");
    int64_t best_step = -1;
    double elapsed_s = 0;  // training time so far
    uint64_t tokens_seen = 0;
    RunConfig config;
};

/// state.json's text for a state.
std::string checkpoint_state_json(const CheckpointState& st);

/// Parses state.json's text; FormatError naming `where` and the field for anything malformed, and
/// the config's problems (ConfigError) when its config is not one a model can be built from.
CheckpointState parse_checkpoint_state(const std::string& text, const std::string& where);

/// best.json's text, and its step; FormatError naming `where` when it is malformed. `score` is what the
/// trainer keeps as the best (lower is better): the val loss, or minus the val BLEU for best_by=bleu, which
/// best.json names as itself ("best_by": "bleu", "bleu": 31.2), never as a negative loss.
std::string best_json(int64_t step, double score, BestBy by = BestBy::Loss);
int64_t parse_best_step(const std::string& text, const std::string& where);

/// The config of a model that exists (read from a checkpoint or a run's config.json): validate()
/// plus a known vocabulary. Throws ConfigError naming `where`.
void check_model_config(const RunConfig& c, const std::string& where);

}  // namespace twb
