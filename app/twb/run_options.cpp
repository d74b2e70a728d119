// RunOptions: preset, config file, --set and --data into one RunConfig.
#include "app/twb/run_options.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace twb::cli {

void RunOptions::add_to(CLI::App& app) {
    app.add_option("--data,-d", data, "Prepared dataset folder (from twb prepare)");
    app.add_option("--preset", preset, "Starting config: default, nanogpt-cpu, baby-gpt or tiny")
        ->check(CLI::IsMember(preset_config_names()));
    app.add_option("--config,-c", configFile, "Config JSON (nanoGPT key names); its keys override the preset's");
    app.add_option("--set,-s", sets, "Override one key, repeatable: --set n_layer=6 --set dropout=0.1");
}

RunConfig RunOptions::config() const {
    RunConfig cfg = preset_config(preset);
    if (!configFile.empty()) {
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(read_file(configFile, 1 << 20));  // a config is small: 1 MiB at most
        } catch (const nlohmann::json::exception& e) {
            throw InputError(configFile + ": not a valid config JSON (" + e.what() + ")");
        }
        if (!j.is_object())
            throw InputError(configFile + ": a config file is a JSON object of key: value");
        // Each key goes through set(), so unknown keys and wrong types are refused like --set's.
        for (const auto& [k, v] : j.items())
            if (k != "format_version")
                cfg.set(k + "=" + (v.is_string() ? v.get<std::string>() : v.dump()));
    }
    for (const auto& s : sets)
        cfg.set(s);
    if (!data.empty())
        cfg.data_dir = std::filesystem::absolute(data).string();
    if (cfg.data_dir.empty())
        throw ConfigError("give the dataset with --data DIR (a folder from twb prepare)");
    return cfg;
}

}  // namespace twb::cli
