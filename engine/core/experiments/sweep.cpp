// Sweep definitions: parsing an axis, the cells of a grid or a random draw from it, each cell's config
// and folder name, and SWEEP/sweep.json. Running the cells is nn/training/sweep_runner.cpp's job.
#include "twb/sweep.h"
#include "twb/config_options.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

namespace twb {

namespace {

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t");
    const auto b = s.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

double parse_number(const std::string& text, const std::string& axis) {
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(v))
        throw ConfigError("sweep axis '" + axis + "': '" + text + "' is not a number");
    return v;
}

/// A value given twice ("2,2", "1e-3,0.001") would train the same cell twice under two names.
void require_distinct_values(const SweepAxis& axis, const std::string& what) {
    std::vector<nlohmann::json> seen;
    for (const auto& v : axis.values) {
        nlohmann::json value = v;
        try {
            RunConfig c;
            c.set(axis.key + "=" + v);
            value = find_config_option(axis.key)->value(c);
        } catch (const ConfigError&) {  // a bad value: the cells' check names it
        }
        if (std::find(seen.begin(), seen.end(), value) != seen.end())
            throw ConfigError(what + ": the value " + v +
                              " is given twice (it would train the same cell twice); give each value once");
        seen.push_back(value);
    }
}

}  // namespace

SweepAxis parse_sweep_axis(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError("sweep axis '" + text +
                          "' is not key=values (e.g. n_head=1,4,8 or learning_rate=1e-4..1e-1 log 4)");
    SweepAxis axis;
    axis.key = trim(text.substr(0, eq));
    const auto keys = RunConfig::keys();
    if (std::find(keys.begin(), keys.end(), axis.key) == keys.end())
        throw ConfigError("sweep axis '" + text + "': unknown config key '" + axis.key + "'");
    const std::string rest = trim(text.substr(eq + 1));
    const auto dots = rest.find("..");
    if (dots != std::string::npos) {
        // A range: "A..B log N" or "A..B lin N".
        std::istringstream in(rest.substr(dots + 2));
        std::string hi, mode, count;
        in >> hi >> mode >> count;
        const double a = parse_number(trim(rest.substr(0, dots)), text), b = parse_number(hi, text);
        if (mode != "log" && mode != "lin")
            throw ConfigError("sweep axis '" + text + "': a range needs 'log N' or 'lin N' after it");
        if (count.empty())  // it said "'' is not a number"
            throw ConfigError("sweep axis '" + text + "': '" + mode + "' needs the number of values after it (e.g. " +
                              axis.key + "=" + trim(rest.substr(0, dots)) + ".." + hi + " " + mode + " 4)");
        const int n = static_cast<int>(parse_number(count, text));
        if (n < 2 || n > 1000 || std::to_string(n) != count)
            throw ConfigError("sweep axis '" + text + "': the number of values must be a whole number from 2 to 1000");
        if (mode == "log" && (a <= 0 || b <= 0))
            throw ConfigError("sweep axis '" + text + "': a log range needs positive ends");
        for (int i = 0; i < n; ++i) {
            const double t = static_cast<double>(i) / (n - 1);
            axis.values.push_back(
                number(mode == "log" ? std::exp(std::log(a) + t * (std::log(b) - std::log(a))) : a + t * (b - a)));
        }
    } else {
        std::istringstream in(rest);
        std::string v;
        while (std::getline(in, v, ','))
            if (!trim(v).empty())
                axis.values.push_back(trim(v));
    }
    if (axis.values.empty())
        throw ConfigError("sweep axis '" + text + "' has no values");
    if (axis.key == "data_dir")        // the sweep and its runs name the folders, from whatever directory resumes them
        for (auto& v : axis.values) {  // "d", "./d" and "d/" are one folder
            std::filesystem::path p = std::filesystem::absolute(v).lexically_normal();
            v = (p.filename().empty() ? p.parent_path() : p).string();
        }
    require_distinct_values(axis, "sweep axis '" + text + "'");
    return axis;
}

SweepDerived parse_sweep_derived(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError("derived key '" + text + "' is not key=a*b (e.g. n_embd=n_head*head_size)");
    SweepDerived d;
    d.key = trim(text.substr(0, eq));
    const std::string rhs = trim(text.substr(eq + 1));
    std::istringstream in(rhs);
    std::string f;
    while (std::getline(in, f, '*'))
        d.factors.push_back(trim(f));
    if (!rhs.empty() && rhs.back() == '*')
        d.factors.emplace_back();  // "a*": the empty last factor is refused below
    const nlohmann::json defaults = RunConfig{};
    for (const auto& k : d.factors) {
        if (k.empty())
            throw ConfigError("derived key '" + text + "': an empty factor (write key=a*b)");
        if (k == d.key)
            throw ConfigError("derived key '" + text + "': " + k + " cannot be a factor of itself");
    }
    if (d.factors.empty())
        throw ConfigError("derived key '" + text + "' has no factors (write key=a*b)");
    d.factors.push_back(d.key);  // checked with the factors below, removed after
    for (const auto& k : d.factors)
        if (!defaults.contains(k) || !defaults.at(k).is_number_integer())
            throw ConfigError("derived key '" + text + "': '" + k + "' is not a whole-number config key");
    d.factors.pop_back();
    return d;
}

RunConfig cell_config(const SweepSpec& spec, const SweepCell& cell) {
    RunConfig c = spec.base;
    // A cell of its own dataset takes that dataset's vocabulary: the base's sizes are another dataset's (the
    // GUI's form fills them in; every cell of Compare tokenizers failed on "config vocab_size 259 differs").
    if (std::any_of(cell.begin(), cell.end(), [](const auto& kv) { return kv.first == "data_dir"; }))
        c.vocab_size = c.source_vocab_size = 0;
    for (const auto& [k, v] : cell)
        c.set(k + "=" + v);
    for (const auto& d : spec.derived) {
        const nlohmann::json j = c;
        long long product = 1;
        for (const auto& f : d.factors)
            product *= j.at(f).get<long long>();
        c.set(d.key + "=" + std::to_string(product));
    }
    return c;
}

std::vector<SweepCell> sweep_cells(const SweepSpec& spec) {
    if (spec.axes.empty())
        throw ConfigError("a sweep needs at least one axis (e.g. --axis n_head=1,4,8)");
    for (const auto& d : spec.derived)
        for (const auto& axis : spec.axes)
            if (axis.key == d.key)
                throw ConfigError("'" + d.key + "' is both swept and derived; drop one of them");
    for (size_t i = 0; i < spec.axes.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (spec.axes[i].key == spec.axes[j].key)
                throw ConfigError("'" + spec.axes[i].key +
                                  "' is swept twice (a later axis would override the first and mislabel the "
                                  "results); give its values in one axis");
    std::vector<SweepCell> cells{SweepCell{}};
    for (const auto& axis : spec.axes) {
        std::vector<SweepCell> next;
        for (const auto& c : cells)
            for (const auto& v : axis.values) {
                SweepCell n = c;
                n.emplace_back(axis.key, v);
                next.push_back(std::move(n));
            }
        cells = std::move(next);
        if (cells.size() > 100000)
            throw ConfigError("the sweep has more than 100,000 cells; use fewer values or --random N");
    }
    if (spec.random_samples > 0 && static_cast<size_t>(spec.random_samples) < cells.size()) {
        std::mt19937_64 rng(spec.seed);
        std::shuffle(cells.begin(), cells.end(), rng);
        cells.resize(static_cast<size_t>(spec.random_samples));
    }
    for (size_t i = 0; i < cells.size(); ++i) {
        std::string label;
        for (const auto& [k, v] : cells[i])
            label += (label.empty() ? "" : ", ") + k + "=" + v;
        try {
            RunConfig c = cell_config(spec, cells[i]);
            for (const auto& [k, v] : cells[i])  // a key the cell's model family does not use does nothing
                if (std::string why = find_config_option(k)->family_problem(c); !why.empty())
                    throw ConfigError(why);
            const auto problems = c.validate();
            if (!problems.empty())
                throw ConfigError(problems.front());
        } catch (const ConfigError& e) {
            // Numbered as its folder and the GUI's table number it ("000"); the value was set from the
            // axis, not from a --set the user typed, so that prefix of the reason goes.
            std::string why = e.what();
            if (why.rfind("--set ", 0) == 0 && why.find(": ") != std::string::npos)
                why = why.substr(why.find(": ") + 2);
            throw ConfigError("sweep cell " + cell_name(i, {}) + " (" + label + ") is not a valid config: " + why);
        }
    }
    return cells;
}

std::string cell_name(size_t index, const SweepCell& cell) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%03zu", index);
    std::string name = buf;
    for (const auto& [k, v] : cell) {
        // A dataset path is named by its folder; anything unsafe in a file name becomes '-'.
        std::string value = k == "data_dir" ? std::filesystem::path(v).filename().string() : v;
        for (char& ch : value)
            if (ch == '/' || ch == '\\' || ch == ' ' || ch == ':' || static_cast<unsigned char>(ch) < 32)
                ch = '-';
        name += "_" + k + "=" + value;
    }
    if (name.size() > 120)
        name.resize(120);
    return name;
}

namespace {
nlohmann::json sweep_json(const SweepSpec& spec, const std::vector<SweepCell>& cells) {
    nlohmann::json j;
    j["format_version"] = 1;
    j["base"] = spec.base;
    j["axes"] = nlohmann::json::array();
    for (const auto& a : spec.axes)
        j["axes"].push_back({{"key", a.key}, {"values", a.values}});
    if (!spec.derived.empty()) {
        j["derived"] = nlohmann::json::array();
        for (const auto& d : spec.derived)
            j["derived"].push_back({{"key", d.key}, {"factors", d.factors}});
    }
    j["random_samples"] = spec.random_samples;
    j["seed"] = spec.seed;
    j["cells"] = cells;
    return j;
}
}  // namespace

void write_sweep(const std::filesystem::path& sweep_dir, const SweepSpec& spec) {
    write_file_atomic(sweep_dir / "sweep.json", sweep_json(spec, sweep_cells(spec)).dump(2));
}

SweepSpec read_sweep(const std::filesystem::path& sweep_dir) {
    const auto file = sweep_dir / "sweep.json";
    if (!std::filesystem::exists(file))
        throw InputError(sweep_dir.string() + ": no sweep.json; is this a folder written by 'twb sweep'?");
    SweepSpec spec;
    try {
        const auto j = nlohmann::json::parse(read_file(file));
        spec.base = j.at("base").get<RunConfig>();
        for (const auto& a : j.at("axes"))
            spec.axes.push_back({a.at("key").get<std::string>(), a.at("values").get<std::vector<std::string>>()});
        if (j.contains("derived"))
            for (const auto& d : j.at("derived"))
                spec.derived.push_back(
                    {d.at("key").get<std::string>(), d.at("factors").get<std::vector<std::string>>()});
        spec.random_samples = j.value("random_samples", 0);
        // An edited sweep.json is held to what a new sweep's axes are (a value twice trained duplicate cells
        // under numbers already taken).
        for (const auto& axis : spec.axes)
            require_distinct_values(axis, file.string() + ": axis " + axis.key);
        spec.seed = j.value("seed", uint64_t(1));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(file.string() + ": unreadable sweep (" + e.what() + ")");
    }
    return spec;
}

}  // namespace twb
