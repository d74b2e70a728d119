// twb label: a run's name and notes (RUN/run.json), shown by `twb runs` and the desktop app's Runs view.
// Without options it prints them; with --name/--notes it sets them. Nothing of the training is touched.
#include "app/twb/commands.h"
#include "twb/run_info.h"

#include <cstdio>
#include <filesystem>

namespace twb::cli {

Action add_label(CLI::App& app) {
    struct Opts {
        std::string run, name, notes;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("run", o->run, "The run folder")->required();
    auto* name = app.add_option("--name", o->name, "Give the run this name (\"\" removes it)");
    auto* notes = app.add_option("--notes", o->notes, "Replace the run's notes with this text (\"\" removes them)");
    return [o, name, notes]() {
        RunInfo info = read_run_info(o->run);
        if (!info.damage.empty() && name->count() == 0 && notes->count() == 0)
            std::fprintf(stderr,
                         "twb: warning: %s is damaged (%s); its name and notes read as none (fix it or delete it, "
                         "then label the run again)\n",
                         (std::filesystem::path(o->run) / "run.json").c_str(), info.damage.c_str());
        if (name->count() > 0 || notes->count() > 0) {
            if (name->count() > 0)
                info.name = o->name;
            if (notes->count() > 0)
                info.notes = o->notes;
            write_run_info(o->run, info);
            info = read_run_info(o->run);
        }
        // A damaged run.json's time is config.json's, which a resume rewrote: said as such, not as the run's.
        std::printf("name:    %s\ncreated: %s%s\nnotes:   %s\n", info.name.empty() ? "(none)" : info.name.c_str(),
                    info.created.c_str(), info.damage.empty() ? "" : " (config.json's time: run.json is damaged)",
                    info.notes.empty() ? "(none)" : info.notes.c_str());
        return 0;
    };
}

}  // namespace twb::cli
