// RunOptions: preset, config file, --set and --data into one RunConfig; the config keys' help (the
// footer of --help and `twb keys`) from the option table.
#include "app/twb/run_options.h"

#include "twb/config_options.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

namespace twb::cli {

void RunOptions::add_to(CLI::App& app) {
    app.add_option("--data,-d", data, "Prepared dataset folder (from twb prepare)");
    app.add_option("--preset", preset,
                   "Starting config: default, nanogpt-cpu, baby-gpt, tiny, or multi30k and tatoeba (translation)")
        ->check(CLI::IsMember(preset_config_names()));
    app.add_option("--config,-c", configFile, "Config JSON (nanoGPT key names); its keys override the preset's");
    app.add_option("--set,-s", sets, "Override one key, repeatable: --set n_layer=6 --set dropout=0.1");
    app.footer(config_keys_footer());
}

RunConfig RunOptions::config(bool dataFromAxis) const {
    RunConfig cfg = preset_config(preset);
    apply_file_and_sets(cfg, configFile, sets);
    set_dataset(cfg, data, sets, dataFromAxis);
    return cfg;
}

void apply_file_and_sets(RunConfig& cfg, const std::string& configFile, const std::vector<std::string>& sets) {
    std::vector<std::string> fileKeys;
    if (!configFile.empty())
        cfg = read_config_file(configFile, cfg, &fileKeys);
    apply_sets(cfg, sets);
    // A file's key the run's family does not use did nothing without a word (a --set of it is refused).
    // Said, not refused: a run's own config.json holds the other family's keys too.
    for (const auto& key : fileKeys)
        if (std::string why = find_config_option(key)->family_problem(cfg); !why.empty())
            std::fprintf(stderr, "twb: warning: %s: %s; it is ignored\n", printable_text(configFile).c_str(),
                         why.c_str());
}

void apply_sets(RunConfig& cfg, const std::vector<std::string>& sets) {
    std::map<std::string, std::string> given;  // key -> its setting so far
    for (const auto& s : sets) {
        cfg.set(s);  // refuses what is not key=value, an unknown key, a wrong type
        std::string& before = given[s.substr(0, s.find('='))];
        if (!before.empty() && before != s)  // as nanoGPT's overrides, the later counts; said, not silent
            std::fprintf(stderr, "twb: warning: --set %s replaces --set %s given before it\n",
                         printable_text(s).c_str(), printable_text(before).c_str());
        before = s;
    }
    for (const auto& [key, s] : given)
        if (std::string why = find_config_option(key)->family_problem(cfg); !why.empty())
            throw ConfigError("--set " + key + ": " + why + "; drop it");
    // A finetune's learning_rate below the config's min_lr (1e-4 against 3e-4) was refused for a key the
    // user never gave: min_lr follows it down to a tenth, as nanoGPT's recipes set it, and says so.
    if (given.count("learning_rate") && !given.count("min_lr") && cfg.learning_rate > 0 &&
        cfg.min_lr > cfg.learning_rate) {
        const double before = cfg.min_lr;
        char tenth[32];  // 6 significant digits: 1e-06, not 1.0000000000000002e-06
        std::snprintf(tenth, sizeof tenth, "%.6g", cfg.learning_rate / 10);
        cfg.min_lr = std::strtod(tenth, nullptr);
        std::fprintf(stderr, "twb: warning: min_lr %g was above learning_rate %g; it is now %g, a tenth of it\n",
                     before, cfg.learning_rate, cfg.min_lr);
    }
}

void set_dataset(RunConfig& cfg, const std::string& data, const std::vector<std::string>& sets, bool dataFromAxis) {
    namespace fs = std::filesystem;
    if (!data.empty()) {
        const std::string given = fs::absolute(data).lexically_normal().string();
        for (const auto& s : sets)
            if (s.rfind("data_dir=", 0) == 0 && fs::absolute(s.substr(9)).lexically_normal().string() != given)
                throw ConfigError("--data " + data + " and --set " + s +
                                  " name two datasets; give the dataset once, with --data");
        cfg.data_dir = fs::absolute(data).string();
    }
    if (dataFromAxis) {
        if (!data.empty() || !cfg.data_dir.empty())
            throw ConfigError("--axis data_dir gives each cell its dataset; drop --data and --set data_dir");
        return;
    }
    if (cfg.data_dir.empty())
        throw ConfigError("give the dataset with --data DIR (a folder from twb prepare)");
    cfg.data_dir = fs::absolute(cfg.data_dir).string();  // --set data_dir=d: the folder, from anywhere
}

std::string best_text(const TrainSummary& s, BestBy by) {
    char b[96];
    std::snprintf(b, sizeof b, "best %s %.4f (step %lld)", by == BestBy::Bleu ? "val BLEU" : "val loss",
                  by == BestBy::Bleu ? -s.best_val_loss : s.best_val_loss, static_cast<long long>(s.best_step));
    return b;
}

namespace {
std::string shown(const nlohmann::json& v) {
    return v.is_string() ? (v.get<std::string>().empty() ? "\"\"" : v.get<std::string>()) : v.dump();
}
}  // namespace

std::string config_keys_footer() {
    std::string out = "Config keys (--set KEY=VALUE; `twb keys KEY` tells what one does), with their defaults:";
    std::string group, line;
    auto flush = [&] {
        if (!line.empty())
            out += "\n" + line;
        line.clear();
    };
    for (const auto& o : config_options()) {
        if (to_string(o.group) != group) {
            flush();
            group = to_string(o.group);
            line = "  " + group + ":";
        }
        const std::string item = " " + o.key + "=" + shown(o.default_value());
        if (line.size() + item.size() > 110) {
            flush();
            line = "   ";
        }
        line += item;
    }
    flush();
    return out;
}

std::function<int()> add_keys(CLI::App& app) {
    auto keys = std::make_shared<std::vector<std::string>>();
    auto json = std::make_shared<bool>(false);
    app.add_option("KEY", *keys, "Keys to describe (default: all)");
    app.add_flag("--json", *json,
                 "The table as JSON: key, type, default, range, choices, families, group, shapes_model, help");
    return [keys, json]() {
        nlohmann::json all = nlohmann::json::array();
        for (const auto& k : *keys)
            if (!find_config_option(k))
                throw ConfigError("unknown config key '" + k + "' (twb keys lists them)");
        for (const auto& o : config_options()) {
            if (!keys->empty() && std::find(keys->begin(), keys->end(), o.key) == keys->end())
                continue;
            if (*json) {
                all.push_back({{"key", o.key},
                               {"type", o.type_name()},
                               {"default", o.default_value()},
                               {"range", o.range_text()},
                               {"choices", o.choices},
                               {"families", to_string(o.families)},
                               {"group", to_string(o.group)},
                               {"shapes_model", o.shapes_model},
                               {"help", o.help}});
                continue;
            }
            std::string head = o.key + " (" + o.type_name() + ", default " + shown(o.default_value());
            if (!o.range_text().empty())
                head += "; " + o.range_text();
            if (o.type != OptionType::Text && !o.choices.empty()) {
                std::string c;
                for (const auto& n : o.choices)
                    c += (c.empty() ? "" : " | ") + n;
                head += "; " + c;
            }
            if (o.families != OptionFamilies::Both)
                head += "; " + to_string(o.families) + " only";
            if (o.shapes_model)
                head += "; fixed at --resume";
            std::printf("%s)\n    %s\n", head.c_str(), o.help.c_str());
        }
        if (*json)
            std::printf("%s\n", all.dump(2).c_str());
        return 0;
    };
}

}  // namespace twb::cli
