// twb doctor.
#include "app/twb/commands.h"
#include "twb/doctor.h"

#include <cstdio>

namespace twb::cli {

Action add_doctor(CLI::App& app) {
    auto threads = std::make_shared<int>(0);
    auto noSpeed = std::make_shared<bool>(false);
    app.add_option("--threads", *threads, "Threads to report for (0 = all cores)");
    app.add_flag("--no-speed", *noSpeed, "Skip the matmul speed measurement");
    return [threads, noSpeed]() {
        const auto r = run_doctor(*threads, !*noSpeed);
        std::printf("twb             %s\n", kVersion);  // which build a pasted report came from
        std::fputs(format_doctor(r).c_str(), stdout);
        return 0;
    };
}

}  // namespace twb::cli
