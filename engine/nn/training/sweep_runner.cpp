// twb::run_sweep: a sweep's cells trained one after another as ordinary runs, resumable.
#include "twb/sweep_runner.h"

#include "nn/training/training_run.h"
#include "twb/errors.h"
#include "twb/run_folder.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace twb {

namespace fs = std::filesystem;

bool run_sweep(const fs::path& dir, const SweepSpec& spec, const SweepCallbacks& cb, TrainControl* control) {
    const auto cells = sweep_cells(spec);  // validates every cell's config before anything runs
    // ... and checks each as training would (its dataset, vocabulary, memory), so a bad last cell is
    // refused before the first trains, not after hours.
    for (size_t i = 0; i < cells.size(); ++i) {
        TrainJob job;
        job.config = cell_config(spec, cells[i]);
        std::string label;
        for (const auto& [k, v] : cells[i])
            label += (label.empty() ? "" : ", ") + k + "=" + v;
        const std::string cell = "sweep cell " + cell_name(i, {}) + " (" + label + "): ";
        try {
            nn::check_trainable(job);
        } catch (const ConfigError& e) {
            throw ConfigError(cell + e.what());
        } catch (const FormatError& e) {
            throw FormatError(cell + e.what());
        } catch (const InputError& e) {
            throw InputError(cell + e.what());
        }
    }
    if (fs::exists(dir / "sweep.json")) {
        const SweepSpec was = read_sweep(dir);
        if (sweep_cells(was) != cells)
            throw InputError(dir.string() +
                             " holds another sweep; continue it with 'twb sweep --out DIR --resume' or choose another "
                             "folder");
        // The same grid with other settings: its finished cells were kept as they were trained while the
        // others took the new settings, a table of two sweeps in one.
        const nlohmann::json before = was.base, now = spec.base;
        std::string changed;
        for (const auto& [key, value] : now.items())
            if (!before.contains(key) || before[key] != value)
                changed += (changed.empty() ? "" : ", ") + key + " " +
                           (before.contains(key) ? before[key].dump() : std::string("unset")) + " -> " + value.dump();
        if (!changed.empty())
            throw InputError(dir.string() + " holds this sweep with other settings (" + changed +
                             "); continue it as it was with 'twb sweep --out DIR --resume', or start the new one in "
                             "another folder");
    } else {
        if (fs::exists(dir) && !fs::is_empty(dir))
            throw InputError(dir.string() + " is not empty and holds no sweep; choose another folder");
        fs::create_directories(dir);
        write_sweep(dir, spec);
    }
    for (size_t i = 0; i < cells.size(); ++i) {
        const RunConfig cfg = cell_config(spec, cells[i]);
        const fs::path runDir = dir / cell_name(i, cells[i]);
        const auto steps = list_checkpoints(runDir);
        if (!steps.empty() && steps.back() >= cfg.max_iters) {
            if (cb.on_cell_done) {
                TrainSummary s;
                s.final_step = steps.back();
                s.run_dir = runDir.string();
                cb.on_cell_done(i, s, true);
            }
            continue;
        }
        if (cb.skip_cell && cb.skip_cell(i))
            continue;
        const bool resume = !steps.empty();
        if (!resume && fs::exists(runDir))
            fs::remove_all(runDir);  // killed before its first checkpoint: nothing to keep
        if (cb.on_cell_start)
            cb.on_cell_start(i, cells.size(), cells[i], resume);
        TrainJob job;
        job.config = cfg;
        job.run_dir = runDir.string();
        job.resume = resume;
        const TrainSummary s = train(job, cb.train, control);
        if (cb.on_cell_done)
            cb.on_cell_done(i, s, false);
        if (s.stopped)
            return false;
    }
    return true;
}

}  // namespace twb
