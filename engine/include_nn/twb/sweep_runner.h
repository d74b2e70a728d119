// Running a sweep (sweep.h): its cells one after another as ordinary runs, resumable. Long calls run on
// the calling thread and report through callbacks; stop them through the TrainControl they take.
// Public API (twb_nn); no torch.
#pragma once
#include "twb/sweep.h"
#include "twb/training.h"

#include <cstddef>
#include <filesystem>
#include <functional>

namespace twb {

struct SweepCallbacks {
    /// Before a cell starts (or resumes): its index, the number of cells and the cell.
    std::function<void(size_t index, size_t total, const SweepCell& cell, bool resumed)> on_cell_start;
    /// A finished or skipped cell.
    std::function<void(size_t index, const TrainSummary& summary, bool skipped)> on_cell_done;
    /// Asked before a cell that has not finished runs: true leaves it out of this pass (the GUI's
    /// "remove cell"); it is reported neither started nor done, and a later resume may run it.
    std::function<bool(size_t index)> skip_cell;
    TrainCallbacks train;  // every cell's training reports
};

/// Runs the sweep's cells one after another into SWEEP/<cell_name>/, ordinary run folders. The spec is
/// written to SWEEP/sweep.json first. When the folder already holds a sweep (resume), finished cells are
/// kept, an interrupted cell continues from its checkpoint, and the rest run. Returns true when every
/// cell finished, false when stopped through control.
bool run_sweep(const std::filesystem::path& sweep_dir, const SweepSpec& spec, const SweepCallbacks& callbacks = {},
               TrainControl* control = nullptr);

}  // namespace twb
