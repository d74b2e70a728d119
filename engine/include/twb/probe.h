// The probe timeline of a run: the attention of one fixed prompt captured at every evaluation, so
// the viewer can scrub through training and watch heads form. Stored compactly in RUN/probe/:
// probe.json (prompt tokens and shape, written once, atomically) and attention.u8 (append-only
// records: int64 step, then layers*heads*T*T weights quantised to 0..255). A torn last record (a
// crash mid-append) is ignored when reading and cut off before the next append. An encoder-decoder run
// keeps a second timeline beside it: the cross-attention of its first validation pair (teacher-forced
// with its reference), in probe/cross.json and probe/cross.u8, the same record layout with T*S weights
// per head (target rows, source columns). Public API.
#pragma once
#include "twb/attention.h"

#include <filesystem>
#include <string>
#include <vector>

namespace twb {

struct ProbeTimeline {
    AttentionKind kind = AttentionKind::Decoder;  // Cross for the cross-attention timeline
    std::vector<std::string> tokens;              // the rows' tokens (cross: the target's, with <eos>)
    std::vector<int32_t> ids;
    std::vector<std::string> key_tokens;  // cross only: the source's tokens (with <eos>)
    std::vector<int32_t> key_ids;
    int64_t layers = 0, heads = 0, length = 0;
    int64_t key_length = 0;      // cross only: source tokens; 0 = length
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

/// The cross-attention timeline (encoder-decoder runs): writes RUN/probe/cross.json for a new one.
/// target_ids: the rows (the target and <eos>); source_ids: the columns (the source and <eos>).
void start_cross_probe(const std::filesystem::path& run_dir, const std::vector<int32_t>& target_ids,
                       const std::vector<std::string>& target_tokens, const std::vector<int32_t>& source_ids,
                       const std::vector<std::string>& source_tokens, int64_t layers, int64_t heads);
/// True when the run has a cross-attention timeline (a resumed run keeps it).
bool has_cross_probe(const std::filesystem::path& run_dir);
/// Appends one cross-attention capture (shape checked), dropping records with step >= this one first.
void append_cross_probe(const std::filesystem::path& run_dir, int64_t step, const AttentionCapture& cap);
/// Reads the cross-attention timeline (kind Cross); empty when the run has none.
ProbeTimeline read_cross_probe(const std::filesystem::path& run_dir);

}  // namespace twb
