// The results table of a folder of runs (a sweep, or any workspace folder), from each run's
// config.json and metrics.csv: what was varied, and the figures every run reports.
#include "twb/runs_table.h"
#include "twb/errors.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "twb/run_info.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace twb {

namespace fs = std::filesystem;

namespace {

std::string as_text(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

double median(std::vector<double> v) {
    if (v.empty())
        return NAN;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

RunSummary summarise(const fs::path& dir) {
    RunSummary r;
    r.dir = dir.string();
    r.name = dir.filename().string();
    const RunInfo info = read_run_info(dir);
    r.display_name = info.name.empty() ? r.name : info.name;
    r.notes = info.notes;
    r.created = info.created;
    r.info_damage = info.damage;
    const RunConfig cfg = read_run_config(dir);
    const nlohmann::json j = cfg;
    for (const auto& [k, v] : j.items())
        if (k != "format_version")
            r.config[k] = as_text(v);
    if (cfg.vocab_size > 0 && cfg.validate().empty())
        r.parameters = cfg.parameter_count();
    std::vector<double> speeds;
    if (fs::exists(dir / "metrics.csv"))
        for (const auto& row : read_metrics(dir / "metrics.csv")) {
            r.steps = std::max(r.steps, row.step);
            if (!std::isnan(row.elapsed_s))
                r.wall_s = row.elapsed_s;
            if (row.kind == "train" && !std::isnan(row.tokens_per_s))
                speeds.push_back(row.tokens_per_s);
            if (row.kind == "eval" && !std::isnan(row.val_loss)) {
                r.final_val_loss = row.val_loss;
                // The best among the checkpointed evaluations, as the trainer keeps its best checkpoint: step 0's
                // evaluation is never a checkpoint (counting it showed a loss no checkpoint has).
                if (row.step > 0 && (std::isnan(r.best_val_loss) || row.val_loss < r.best_val_loss)) {
                    r.best_val_loss = row.val_loss;
                    r.best_step = row.step;
                    r.best_bits_per_char = row.val_bpc;
                }
                r.accuracy = row.val_accuracy;
                r.bits_per_char = row.val_bpc;
            }
            if (row.kind == "eval" && !std::isnan(row.val_bleu)) {
                r.bleu = row.val_bleu;
                if (row.step > 0 && (std::isnan(r.best_bleu) || row.val_bleu > r.best_bleu))
                    r.best_bleu = row.val_bleu;
            }
        }
    r.perplexity = std::exp(r.final_val_loss);
    r.tokens_per_s = median(speeds);
    const auto ck = list_checkpoints(dir);
    if (!ck.empty())  // metrics.csv logs every log_interval steps: a stop between two wrote its own checkpoint
        r.steps = std::max(r.steps, ck.back());
    // An imported model (step 0, no dataset of its own) was "stopped", as if Start would continue it.
    r.status = !run_holder(dir).empty()                 ? "running"
               : ck.empty()                             ? "empty"
               : cfg.data_dir.empty() && ck.back() == 0 ? "imported"
               : ck.back() >= cfg.max_iters             ? "finished"
                                                        : "stopped";
    return r;
}

std::string fmt(double v, const char* f = "%.4f") {
    if (std::isnan(v))
        return "-";
    char buf[48];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

/// What a varied key's value looks like in a table: a dataset by its folder name.
/// A config value as a table cell: a dataset by its folder's name, on one line, at most 40 bytes (a
/// 4 KB probe_prompt would make every row unreadable; the CSV keeps the whole value).
std::string shown(const std::string& key, const std::string& value) {
    std::string v = key == "data_dir" ? fs::path(value).filename().string() : value;
    for (char& c : v)
        if (c == '\n' || c == '\r' || c == '\t' || c == '|')
            c = c == '|' ? '/' : ' ';
    v = printable_text(v);  // a name's escape sequence is shown, not obeyed by the terminal
    constexpr size_t kMax = 40;
    if (v.size() > kMax) {
        size_t cut = kMax;
        while (cut > 0 && (static_cast<unsigned char>(v[cut]) & 0xC0) == 0x80)
            --cut;  // never inside a UTF-8 character
        v = v.substr(0, cut) + "…";
    }
    return v;
}

struct Stat {
    double mean = NAN, sd = NAN;
};
Stat stat(const std::vector<double>& v) {
    std::vector<double> x;
    for (double d : v)
        if (!std::isnan(d))
            x.push_back(d);
    Stat s;
    if (x.empty())
        return s;
    double sum = 0;
    for (double d : x)
        sum += d;
    s.mean = sum / static_cast<double>(x.size());
    double sq = 0;
    for (double d : x)
        sq += (d - s.mean) * (d - s.mean);
    s.sd = x.size() > 1 ? std::sqrt(sq / static_cast<double>(x.size() - 1)) : 0.0;
    return s;
}
std::string pm(const Stat& s, const char* f = "%.4f") {
    if (std::isnan(s.mean))
        return "-";
    return s.sd > 0 ? fmt(s.mean, f) + " ± " + fmt(s.sd, f) : fmt(s.mean, f);
}

}  // namespace

bool run_matches(const RunSummary& run, const std::string& words) {
    auto lower = [](std::string t) {
        std::transform(t.begin(), t.end(), t.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return t;
    };
    std::string dataset;  // the dataset's folder name, as the Runs view shows it ("a/b/" too)
    if (const auto data = run.config.find("data_dir"); data != run.config.end()) {
        fs::path d = fs::path(data->second).lexically_normal();
        dataset = (d.filename().empty() ? d.parent_path() : d).filename().string();
    }
    const std::string text =
        lower(run.display_name + "\n" + run.name + "\n" + dataset + "\n" + run.notes + "\n" + run.status);
    std::string word;
    std::istringstream in(lower(words));
    while (in >> word)
        if (text.find(word) == std::string::npos)
            return false;
    return true;
}

std::vector<RunSummary> collect_runs(const fs::path& folder) {
    if (!fs::is_directory(folder))
        throw InputError(folder.string() + ": not a folder");
    std::vector<RunSummary> runs;
    auto consider = [&](const fs::path& d) {
        if (!fs::exists(d / "config.json"))
            return;
        try {
            runs.push_back(summarise(d));
        } catch (const Error& e) {
            // A folder that looks like a run but cannot be read is listed as damaged, with why in its
            // notes, rather than left out of the table without a word.
            RunSummary r;
            r.dir = d.string();
            r.name = d.filename().string();
            r.display_name = r.name;
            r.status = "damaged";
            r.notes = e.what();
            runs.push_back(std::move(r));
        }
    };
    consider(folder);
    if (runs.empty()) {
        std::vector<fs::path> dirs;
        for (const auto& e : fs::directory_iterator(folder))
            if (e.is_directory())
                dirs.push_back(e.path());
        std::sort(dirs.begin(), dirs.end());
        for (const auto& d : dirs)
            consider(d);
    }
    return runs;
}

std::vector<std::string> varied_keys(const std::vector<RunSummary>& runs) {
    std::vector<std::string> out;
    for (const auto& k : RunConfig::keys()) {
        std::set<std::string> values;
        for (const auto& r : runs) {
            if (r.status == "damaged")  // no config to compare: it would make every key look varied
                continue;
            const auto it = r.config.find(k);
            values.insert(it == r.config.end() ? std::string() : it->second);
        }
        if (values.size() > 1)
            out.push_back(k);
    }
    return out;
}

std::string runs_table_markdown(const std::vector<RunSummary>& runs, bool group_repeats) {
    std::vector<std::string> keys = varied_keys(runs);
    // Repeats are runs that differ only in seed: one row each setting, when any setting has two runs.
    auto setting_of = [&](const RunSummary& r) {
        std::vector<std::string> s;
        for (const auto& k : keys)
            if (k != "seed")
                s.push_back(r.config.count(k) ? r.config.at(k) : "");
        return s;
    };
    bool grouping = false;
    if (group_repeats && std::find(keys.begin(), keys.end(), "seed") != keys.end()) {
        std::set<std::vector<std::string>> seen;
        for (const auto& r : runs)
            grouping = grouping || (r.status != "damaged" && !seen.insert(setting_of(r)).second);
    }
    if (grouping)
        keys.erase(std::find(keys.begin(), keys.end(), "seed"));
    std::string t = "|";
    std::string rule = "|";
    if (!grouping) {
        t += " run |";
        rule += "---|";
    }
    for (const auto& k : keys) {
        t += " " + k + " |";
        rule += "---|";
    }
    if (grouping) {
        t += " runs |";
        rule += "---|";
    }
    // Translation runs: their best validation BLEU beside the losses (a column only where a run has one).
    const bool bleu =
        std::any_of(runs.begin(), runs.end(), [](const RunSummary& r) { return !std::isnan(r.best_bleu); });
    t += " parameters | final val loss | best val loss |" + std::string(bleu ? " best BLEU |" : "") +
         " accuracy | perplexity | bits/char | tokens/s | time (s) |";
    rule += bleu ? "---|---|---|---|---|---|---|---|---|" : "---|---|---|---|---|---|---|---|";
    if (!grouping) {
        t += " status |";
        rule += "---|";
    }
    t += "\n" + rule + "\n";
    if (!grouping) {
        for (const auto& r : runs) {
            t += "| " + shown("", r.name) +
                 (r.display_name.empty() || r.display_name == r.name ? "" : " “" + shown("", r.display_name) + "”") +
                 " |";
            for (const auto& k : keys)
                t += " " + shown(k, r.config.count(k) ? r.config.at(k) : "") + " |";
            t += " " + (r.status == "damaged" ? std::string("-") : std::to_string(r.parameters)) + " | " +
                 fmt(r.final_val_loss) + " | " + fmt(r.best_val_loss) + " | " +
                 (bleu ? fmt(r.best_bleu, "%.2f") + " | " : std::string()) + fmt(r.accuracy) + " | " +
                 fmt(r.perplexity, "%.3f") + " | " + fmt(r.bits_per_char) + " | " + fmt(r.tokens_per_s, "%.0f") +
                 " | " + fmt(r.wall_s, "%.1f") + " | " + r.status + " |\n";
        }
        return t;
    }
    // One row per setting of the varied keys (seed aside), in the order the settings first appear.
    std::vector<std::vector<const RunSummary*>> groups;
    std::vector<std::vector<std::string>> settings;
    std::string damaged;  // a damaged run has no setting to group by: a row of its own, named
    for (const auto& r : runs) {
        if (r.status == "damaged") {
            damaged += "|";
            for (size_t i = 0; i < keys.size(); ++i)
                damaged += " - |";
            damaged += " " + shown("", r.name) + " (damaged) |";
            for (int i = 0; i < (bleu ? 9 : 8); ++i)  // parameters to time
                damaged += " - |";
            damaged += "\n";
            continue;
        }
        const std::vector<std::string> s = setting_of(r);
        const auto it = std::find(settings.begin(), settings.end(), s);
        if (it == settings.end()) {
            settings.push_back(s);
            groups.push_back({&r});
        } else {
            groups[static_cast<size_t>(it - settings.begin())].push_back(&r);
        }
    }
    for (size_t g = 0; g < groups.size(); ++g) {
        auto col = [&](double RunSummary::*f) {
            std::vector<double> v;
            for (const auto* r : groups[g])
                v.push_back(r->*f);
            return stat(v);
        };
        t += "|";
        for (size_t i = 0; i < keys.size(); ++i)
            t += " " + shown(keys[i], settings[g][i]) + " |";
        // A group's mean takes in every run of it: how many of them had not finished is said beside the count.
        const auto unfinished = std::count_if(groups[g].begin(), groups[g].end(), [](const RunSummary* r) {
            return !r->status.empty() && r->status != "finished";
        });
        t += " " + std::to_string(groups[g].size()) +
             (unfinished ? " (" + std::to_string(unfinished) + " unfinished)" : std::string()) + " | " +
             std::to_string(groups[g].front()->parameters) + " | " + pm(col(&RunSummary::final_val_loss)) + " | " +
             pm(col(&RunSummary::best_val_loss)) + " | " +
             (bleu ? pm(col(&RunSummary::best_bleu), "%.2f") + " | " : std::string()) + pm(col(&RunSummary::accuracy)) +
             " | " + pm(col(&RunSummary::perplexity), "%.3f") + " | " + pm(col(&RunSummary::bits_per_char)) + " | " +
             pm(col(&RunSummary::tokens_per_s), "%.0f") + " | " + pm(col(&RunSummary::wall_s), "%.1f") + " |\n";
    }
    return t + damaged;
}

std::string runs_table_csv(const std::vector<RunSummary>& runs) {
    const auto keys = varied_keys(runs);
    std::string t = "run";
    for (const auto& k : keys)
        t += "," + k;
    t += ",parameters,final_val_loss,best_val_loss,accuracy,perplexity,bits_per_char,tokens_per_s,wall_s,steps,status,"
         "bleu,"
         "best_bleu\n";
    auto csv = [](std::string s) {
        if (s.find_first_of(",\"\n") == std::string::npos)
            return s;
        std::string q = "\"";
        for (char c : s)
            q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    for (const auto& r : runs) {
        t += csv(r.name);
        for (const auto& k : keys)
            t += "," + csv(r.config.count(k) ? r.config.at(k) : "");
        t += "," + std::to_string(r.parameters) + "," + fmt(r.final_val_loss, "%.6g") + "," +
             fmt(r.best_val_loss, "%.6g") + "," + fmt(r.accuracy, "%.6g") + "," + fmt(r.perplexity, "%.6g") + "," +
             fmt(r.bits_per_char, "%.6g") + "," + fmt(r.tokens_per_s, "%.6g") + "," + fmt(r.wall_s, "%.6g") + "," +
             std::to_string(r.steps) + "," + r.status + "," + fmt(r.bleu, "%.6g") + "," + fmt(r.best_bleu, "%.6g") +
             "\n";
    }
    return t;
}

}  // namespace twb
