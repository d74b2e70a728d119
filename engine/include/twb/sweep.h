// Sweeps over config values: the axes ("n_head=1,4,8"), derived keys (n_embd=n_head*head_size), the
// cells of a grid or a random draw, each cell's config and run-folder name, and SWEEP/sweep.json.
// Running the cells is sweep_runner.h's. Public API (twb_core); no torch.
#pragma once
#include "twb/config.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace twb {

/// One swept config key and its values (as `--set` would take them).
struct SweepAxis {
    std::string key;
    std::vector<std::string> values;
};

/// "n_head=1,4,8,16" (a list), "learning_rate=1e-4..1e-1 log 4" (4 values spaced evenly in log),
/// "dropout=0..0.3 lin 4" (evenly spaced); the key must be a config key. Throws ConfigError.
SweepAxis parse_sweep_axis(const std::string& text);

/// A key that follows the swept ones: its value is the product of whole-number keys, set after the cell's
/// values (seed report 000's width = heads x head size).
struct SweepDerived {
    std::string key;
    std::vector<std::string> factors;
};

/// "n_embd=n_head*head_size": whole-number config keys only, the key not among its factors. Throws ConfigError.
SweepDerived parse_sweep_derived(const std::string& text);

struct SweepSpec {
    RunConfig base;  // every cell starts from this config
    std::vector<SweepAxis> axes;
    std::vector<SweepDerived> derived;  // applied in order after the axes' values
    int random_samples = 0;             // 0 = the full grid; N = N cells drawn from the grid without repeats
    uint64_t seed = 1;                  // for the random draw
};

/// One cell: the value of each axis, in the axes' order.
using SweepCell = std::vector<std::pair<std::string, std::string>>;

/// The cells of a sweep, in the order they run. Every cell's config is validated: a cell that is not a
/// valid config (3 heads for a width of 128) throws ConfigError naming it before anything runs.
std::vector<SweepCell> sweep_cells(const SweepSpec& spec);

/// The config of one cell.
RunConfig cell_config(const SweepSpec& spec, const SweepCell& cell);

/// The cell's run folder name inside the sweep folder ("003_n_head=4_n_embd=128").
std::string cell_name(size_t index, const SweepCell& cell);

/// Writes SWEEP/sweep.json (the spec and its cells) atomically.
void write_sweep(const std::filesystem::path& sweep_dir, const SweepSpec& spec);
/// Reads SWEEP/sweep.json. Throws InputError/FormatError.
SweepSpec read_sweep(const std::filesystem::path& sweep_dir);

}  // namespace twb
