// twb export-metrics: a run's curves for other tools. --format tensorboard rebuilds RUN/tb/ (TensorBoard's
// event files) from metrics.csv and config.json, for runs made before tb/ existed or trained with
// tensorboard=false; a run trained with it on already has tb/, written live. The engine does the work
// (twb/tensorboard.h); this only parses and prints.
#include "app/twb/commands.h"
#include "twb/errors.h"
#include "twb/tensorboard.h"
#include "twb/text.h"

#include <cstdio>

namespace twb::cli {

namespace {
void export_one(const std::string& run) {
    const TensorBoardExport ex = export_tensorboard(run);
    std::printf("%s: %lld rows, %lld scalars, %lld attention pictures\n", ex.event_file.string().c_str(),
                static_cast<long long>(ex.rows), static_cast<long long>(ex.scalars), static_cast<long long>(ex.images));
    std::fflush(stdout);
}
}  // namespace

Action add_export_metrics(CLI::App& app) {
    struct Opts {
        std::vector<std::string> runs;
        std::string format = "tensorboard";
    };
    auto o = std::make_shared<Opts>();
    app.add_option("runs", o->runs, "The run folders (each gets RUN/tb/)")->required();
    app.add_option("--format", o->format,
                   "tensorboard: RUN/tb/events.out.tfevents.* (every metrics.csv number as a scalar, the config as "
                   "text), replacing the tb/ the run had")
        ->check(CLI::IsMember({"tensorboard"}))
        ->capture_default_str();
    return [o]() {
        // One run that cannot be exported does not stop the others: each is said, and the status at the end.
        std::vector<std::string> failed;
        for (const auto& run : o->runs) {
            if (o->runs.size() == 1) {
                export_one(run);
                continue;
            }
            try {
                export_one(run);
            } catch (const Error& e) {
                std::fprintf(stderr, "twb: warning: %s: %s\n", run.c_str(), printable_text(e.what()).c_str());
                failed.push_back(run);
            }
        }
        if (!failed.empty())
            throw InputError(std::to_string(failed.size()) + " of " + std::to_string(o->runs.size()) +
                             " runs were not exported (each said above); the others were");
        // TensorBoard names each event folder under --logdir by its path: RUN/tb, or NAME/tb under the runs' folder.
        auto folder = [](const std::string& run) {
            auto p = std::filesystem::path(run).lexically_normal();
            return p.has_filename() ? p : p.parent_path();
        };
        std::filesystem::path logdir = folder(o->runs[0]) / "tb";
        if (o->runs.size() > 1) {
            logdir = folder(o->runs[0]).parent_path();
            for (const auto& run : o->runs)
                if (folder(run).parent_path() != logdir)
                    logdir = ".";
        }
        std::printf("view: tensorboard --logdir %s\n", logdir.empty() ? "." : logdir.string().c_str());
        return 0;
    };
}

}  // namespace twb::cli
