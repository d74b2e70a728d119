// Run-folder files without torch.
#include "twb/run_folder.h"

#include "core/run/checkpoint_state.h"

#include "twb/errors.h"
#include "twb/run_info.h"
#include "twb/text.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace twb {

namespace fs = std::filesystem;

std::string checkpoint_dir_name(int64_t step) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "step_%08lld", static_cast<long long>(step));
    return buf;
}

std::vector<int64_t> list_checkpoints(const fs::path& run_dir) {
    std::vector<int64_t> steps;
    std::error_code ec;
    const fs::path root = run_dir / "checkpoints";
    if (!fs::is_directory(root, ec))
        return steps;
    for (auto& e : fs::directory_iterator(root, ec)) {
        const auto name = e.path().filename().string();
        if (name.rfind("step_", 0) != 0 || !fs::exists(e.path() / "state.json"))
            continue;
        try {
            steps.push_back(std::stoll(name.substr(5)));
        } catch (const std::exception&) {
        }
    }
    std::sort(steps.begin(), steps.end());
    return steps;
}

std::filesystem::path run_folder_of(const std::filesystem::path& run_or_checkpoint) {
    fs::path p = fs::absolute(run_or_checkpoint).lexically_normal();
    if (p.filename().empty())
        p = p.parent_path();  // "step_N/" names step_N
    const fs::path run = p.parent_path().parent_path();
    if (p.parent_path().filename() == "checkpoints" && fs::exists(run / "config.json"))
        return run;
    return run_or_checkpoint;
}

std::string checkpoint_stamp(const std::filesystem::path& checkpoint) {
    std::error_code ec;
    const auto file = checkpoint / "model.safetensors";
    const auto size = fs::file_size(file, ec);
    if (ec)
        return {};
    const auto time = fs::last_write_time(file, ec);
    if (ec)
        return {};
    return std::to_string(size) + ":" + std::to_string(time.time_since_epoch().count());
}

namespace {
/// "10, 20, 40": the steps of a run's checkpoints, for a message offering them.
std::string steps_text(const std::vector<int64_t>& steps) {
    std::string have;
    for (auto s : steps)
        have += (have.empty() ? "" : ", ") + std::to_string(s);
    return have;
}
}  // namespace

std::filesystem::path find_checkpoint(const std::filesystem::path& path, const std::string& which) {
    if (fs::exists(path / "state.json") && fs::exists(path / "model.safetensors"))
        return path;  // a checkpoint itself
    if (fs::exists(path / "state.json"))
        throw InputError((path / "model.safetensors").string() +
                         ": missing; the checkpoint is incomplete (use another one of its run)");
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw InputError(path.string() +
                         ": no such folder; give a run folder (one the Training panel or 'twb train' wrote, or one of "
                         "its checkpoint folders)");
    const auto steps = list_checkpoints(path);
    if (steps.empty() && fs::is_regular_file(path / "config.json", ec)) {
        // A run still training has no checkpoint until its first evaluation: "train it again" was no advice.
        if (const std::string holder = run_holder(path); !holder.empty())
            throw InputError(path.string() + ": the run has no checkpoint yet; it is being trained now by " + holder +
                             ", and writes its first checkpoint at its first evaluation after step 0 (try again "
                             "then)");
        throw InputError(
            path.string() +
            ": the run has no checkpoint yet (its training stopped before the first one, which comes "
            "at its first evaluation after step 0); train it again into the same folder (twb train --out, or "
            "Start in the GUI)");
    }
    if (steps.empty())
        throw InputError(path.string() +
                         ": no checkpoints here; is this a run folder (one the Training panel or 'twb train' wrote)?");
    int64_t step;
    if (which == "last" || which.empty()) {
        step = steps.back();
    } else if (which == "best") {
        const fs::path bf = path / "checkpoints" / "best.json";
        if (!fs::exists(bf))  // stopped before an evaluation after step 0 recorded one
            throw InputError(path.string() +
                             ": no best checkpoint recorded yet (an evaluation after step 0 records it); choose "
                             "--checkpoint last (step " +
                             std::to_string(steps.back()) + ") or a step: " + steps_text(steps));
        step = parse_best_step(read_file(bf), bf.string());
    } else {
        size_t used = 0;
        try {
            step = std::stoll(which, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != which.size() || step < 0)
            throw InputError("checkpoint '" + which + "' is not best, last or a step number");
    }
    if (!std::binary_search(steps.begin(), steps.end(), step)) {
        const std::string have = steps_text(steps);
        if (which == "best")  // best.json names a checkpoint deleted (or damaged) since
            throw InputError(
                path.string() + ": its best checkpoint (step " + std::to_string(step) +
                ", checkpoints/best.json) is gone; choose another with --checkpoint last or a step: " + have);
        throw InputError(path.string() + ": no checkpoint at step " + std::to_string(step) + "; available: " + have);
    }
    return path / "checkpoints" / checkpoint_dir_name(step);
}

RunConfig read_run_config(const fs::path& run_dir) {
    const fs::path f = run_dir / "config.json";
    std::error_code ec;
    if (!fs::exists(run_dir, ec))  // "no config.json" said nothing of a folder that is not there at all
        throw InputError(run_dir.string() + ": no such folder; give a run folder ('twb train --out' writes one)");
    if (!fs::is_directory(run_dir, ec))
        throw InputError(run_dir.string() + ": a file, not a run folder; give the folder 'twb train --out' wrote");
    if (!fs::exists(f))
        throw InputError(run_dir.string() +
                         ": no config.json; is this a run folder (one the Training panel or 'twb train' wrote)?");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(f));
    } catch (const nlohmann::json::exception&) {
        throw FormatError(f.string() + ": not valid JSON; the run folder is damaged (restore config.json)");
    }
    if (j.is_object() && (j.contains("model_type") || j.contains("architectures")))
        throw InputError(run_dir.string() +
                         " holds a Hugging Face model (its config.json names a model_type), not a run: import it "
                         "as a run first (twb import --hf " +
                         run_dir.string() + " --out RUN, or Import model in the workbench)");
    const RunConfig c = config_from_json(j, RunConfig{}, f.string());
    check_model_config(c, f.string());
    return c;
}

}  // namespace twb
