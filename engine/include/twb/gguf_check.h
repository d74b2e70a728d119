// Whether a run can be exported to GGUF as llama.cpp's `gpt2` architecture (gguf_export.h): the blocker
// of a config or of a run's checkpoint, "" when there is none, else one line naming every option
// llama.cpp's gpt2 lacks and the tokenizer its BPE cannot decode. Public API (twb_core); no torch.
#pragma once
#include "twb/config.h"

#include <string>

namespace twb {

/// "" when llama.cpp's gpt2 architecture holds a model of this config; otherwise one line naming each
/// option it lacks and the value that would do ("position=rotary: ...; activation=gelu: ..."), so one
/// retraining can set them all. Torch-free.
std::string gguf_export_blocker(const RunConfig& config);

/// The same for a run's checkpoint ("best", "last" or a step), its tokenizer included: "" or the
/// reasons (a char, word, byte or sentencepiece tokenizer is named last). Throws InputError when the run or
/// checkpoint does not exist. Torch-free.
std::string gguf_run_blocker(const std::string& run, const std::string& checkpoint = "best");

}  // namespace twb
