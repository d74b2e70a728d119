// The options every command that builds a training config shares (sweep, lr-find): a preset, a config
// file over it, then --set over both, and the dataset; registered once and turned into a RunConfig.
#pragma once
#include "twb/config.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace twb::cli {

struct RunOptions {
    std::string data, configFile, preset = "default";
    std::vector<std::string> sets;

    /// Adds --data, --preset, --config and --set to a subcommand.
    void add_to(CLI::App& app);
    /// preset -> config file -> --set, then --data; throws ConfigError/InputError.
    RunConfig config() const;
};

}  // namespace twb::cli
