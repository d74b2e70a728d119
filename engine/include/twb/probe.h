// The probe timeline of a run: the attention of one fixed prompt captured at every evaluation, so
// the viewer can scrub through training and watch heads form. Stored compactly in RUN/probe/:
// probe.json (prompt tokens and shape, written once, atomically) and attention.u8 (append-only
// records: int64 step, then layers*heads*T*T weights quantised to 0..255). A torn last record (a
// crash mid-append) is ignored when reading and cut off before the next append. Public API.
#pragma once
#include "twb/attention.h"

#include <filesystem>
#include <string>
#include <vector>

namespace twb {

struct ProbeTimeline {
    std::vector<std::string> tokens;
    std::vector<int32_t> ids;
    int64_t layers = 0, heads = 0, length = 0;
    std::vector<int64_t> steps;  // ascending, one per record
    std::vector<uint8_t> data;   // records' weights back to back
    bool empty() const { return steps.empty(); }
    /// The capture stored for record i (weights dequantised; rows sum to 1 within 1/255 per key).
    AttentionCapture at(size_t i) const;
};

/// Writes RUN/probe/probe.json for a new timeline (ids and their token strings; shape from the model).
void start_probe(const std::filesystem::path& run_dir, const std::vector<int32_t>& ids,
                 const std::vector<std::string>& tokens, int64_t layers, int64_t heads);
/// The ids of the run's probe, or empty when the run has none.
std::vector<int32_t> probe_ids(const std::filesystem::path& run_dir);
/// Appends one capture. Records with step >= this one (left by a run resumed from an earlier
/// checkpoint) are dropped first, so steps stay ascending.
void append_probe(const std::filesystem::path& run_dir, int64_t step, const AttentionCapture& cap);
/// Reads the timeline; empty when the run has no probe. Throws FormatError on a broken probe.json.
ProbeTimeline read_probe(const std::filesystem::path& run_dir);

}  // namespace twb
