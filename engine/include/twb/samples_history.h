// RUN/samples.jsonl, its one owner: every generation from a run, by `twb sample` or the Sampling
// console, one JSON object per line (time, source, checkpoint step, prompt, options, outputs). The GUI's
// History lists what either wrote. Appending rewrites the file through write_file_atomic, so a crash
// never leaves half a history; a line that does not parse (edited by hand) is skipped when reading.
// Public API.
#pragma once
#include "twb/generation.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace twb {

struct SampleRecord {
    std::string time;    // ISO 8601 local time, e.g. "2026-11-22T10:41:07"
    std::string source;  // "gui" | "cli"
    int64_t checkpoint_step = 0;
    std::string prompt;
    SamplingOptions options;
    std::vector<std::string> outputs;  // one per sample
    bool cancelled = false;
    std::string note;  // e.g. "branch at token 12"
};

/// Appends a record to RUN/samples.jsonl (time filled in when empty). Throws IoError naming the file.
void append_sample_history(const std::filesystem::path& run_dir, SampleRecord record);
/// Every record of the run, oldest first; empty when the run has no history.
std::vector<SampleRecord> read_sample_history(const std::filesystem::path& run_dir);

}  // namespace twb
