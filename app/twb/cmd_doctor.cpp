// twb doctor.
#include "app/twb/commands.h"
#include "twb/doctor.h"

#include <cstdio>

namespace twb::cli {

Action add_doctor(CLI::App& app) {
    auto threads = std::make_shared<int>(0);
    app.add_option("--threads", *threads, "Threads to report for (0 = all cores)");
    return [threads]() {
        const auto r = run_doctor(*threads, true);
        std::fputs(format_doctor(r).c_str(), stdout);
        return 0;
    };
}

}  // namespace twb::cli
