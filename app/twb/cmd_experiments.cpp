// twb sweep / runs / lr-find / baselines: the experiment commands.
#include "app/twb/commands.h"
#include "app/twb/interrupt.h"
#include "app/twb/run_options.h"
#include "twb/errors.h"
#include "twb/experiments.h"
#include "twb/output_paths.h"
#include "twb/run_folder.h"
#include "twb/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace twb::cli {

namespace {
std::string cell_label(const SweepCell& cell) {
    std::string s;
    for (const auto& [k, v] : cell)
        s += (s.empty() ? "" : ", ") + k + "=" + v;
    return s;
}
}  // namespace

Action add_sweep(CLI::App& app) {
    struct Opts {
        RunOptions run;
        std::vector<std::string> axes, derived;
        std::string out;
        bool resume = false, quiet = false;
        int random = 0;
        uint64_t seed = 1;
    };
    auto o = std::make_shared<Opts>();
    o->run.add_to(app);
    app.add_option("--axis,-a", o->axes,
                   "A swept key, repeatable: n_head=1,4,8,16 | learning_rate=1e-4..1e-1 log 4 | dropout=0..0.3 lin 4 | "
                   "data_dir=A,B (tokenizers) | seed=1,2,3 (repeats)");
    app.add_option(
        "--derive", o->derived,
        "A key that follows the swept ones, repeatable: n_embd=n_head*head_size (product of whole-number keys)");
    app.add_option("--out,-o", o->out, "Sweep folder: sweep.json and one run folder per cell")->required();
    app.add_option("--random", o->random, "Run N cells drawn from the grid instead of all of it")
        ->check(CLI::Range(1, 1'000'000));
    app.add_option("--random-seed", o->seed, "Seed of the --random draw");
    app.add_flag("--resume", o->resume, "Continue the sweep in --out: finished cells are kept");
    app.add_flag("--quiet,-q", o->quiet, "Print only cells and the table");
    return [o, self = &app]() {
        SweepSpec spec;
        if (o->resume) {
            // The sweep continues as sweep.json describes it: a new axis, --set or --data was ignored in silence.
            for (const CLI::Option* opt : self->get_options())
                if (opt->count() > 0 && opt->get_name() != "--out" && opt->get_name() != "--resume" &&
                    opt->get_name() != "--quiet" && opt->get_name() != "--help")
                    throw ConfigError(opt->get_name() +
                                      " cannot change a sweep that --resume continues (its grid and "
                                      "settings are in " +
                                      o->out + "/sweep.json); drop it, or start a new sweep in another --out");
            spec = read_sweep(o->out);
        } else {
            for (const auto& a : o->axes)
                spec.axes.push_back(parse_sweep_axis(a));
            for (const auto& d : o->derived)
                spec.derived.push_back(parse_sweep_derived(d));
            // A --set of a swept or derived key would be overridden in every cell without a word.
            std::vector<std::string> cellKeys;
            for (const auto& a : spec.axes)
                cellKeys.push_back(a.key);
            for (const auto& d : spec.derived)
                cellKeys.push_back(d.key);
            for (const auto& s : o->run.sets)
                if (std::find(cellKeys.begin(), cellKeys.end(), s.substr(0, s.find('='))) != cellKeys.end())
                    throw ConfigError("--set " + s + ": the sweep sets " + s.substr(0, s.find('=')) +
                                      " in every cell (--axis or --derive); drop one of them");
            spec.base = o->run.config(std::find(cellKeys.begin(), cellKeys.end(), "data_dir") != cellKeys.end());
            // A --config value of a swept key is overridden in every cell too: said where the file changed it
            // from the preset (a run's whole config.json names every key, most at the preset's value).
            if (!o->run.configFile.empty()) {
                const nlohmann::json given = spec.base, preset = preset_config(o->run.preset);
                for (const auto& key : cellKeys)
                    if (key != "data_dir" && given.contains(key) && given[key] != preset.value(key, nlohmann::json()))
                        std::fprintf(stderr,
                                     "twb: note: %s sets %s=%s; the sweep sets %s in every cell (--axis or --derive), "
                                     "so that value is not used\n",
                                     printable_text(o->run.configFile).c_str(), key.c_str(), given[key].dump().c_str(),
                                     key.c_str());
            }
            spec.random_samples = o->random;
            spec.seed = o->seed;
            if (o->random > 0) {  // drawing N of N or fewer cells: the whole grid, said
                SweepSpec whole = spec;
                whole.random_samples = 0;
                if (const size_t grid = sweep_cells(whole).size(); static_cast<size_t>(o->random) >= grid)
                    std::fprintf(stderr,
                                 "twb: note: --random %d asks for as many cells as the grid has (%zu) or more: "
                                 "every cell runs\n",
                                 o->random, grid);
            }
        }
        TrainControl control;
        install_interrupt_flag(&control);
        // The same command again continues the sweep it started (run_sweep refuses other settings): said once
        // it has checked that, not left to "finished earlier, kept" lines.
        bool continuing = !o->resume && std::filesystem::exists(std::filesystem::path(o->out) / "sweep.json");
        const auto sayContinuing = [&] {
            if (continuing)
                std::fprintf(stderr,
                             "twb: note: %s holds this sweep already: continuing it (finished cells are kept)\n",
                             o->out.c_str());
            continuing = false;
        };
        SweepCallbacks cb;
        cb.on_cell_start = [&](size_t i, size_t n, const SweepCell& cell, bool resumed) {
            sayContinuing();
            // numbered as its folder and the sweep's errors number it ("cell 000 (1/4)"); it read "cell 1/4" beside
            // "sweep cell 000 ... is not a valid config"
            std::printf("cell %s (%zu/%zu): %s%s\n", cell_name(i, {}).c_str(), i + 1, n, cell_label(cell).c_str(),
                        resumed ? " (resumed)" : "");
            std::fflush(stdout);
        };
        cb.on_cell_done = [&](size_t i, const TrainSummary& s, bool skipped) {
            sayContinuing();
            if (skipped)
                std::printf("cell %s: finished earlier, kept\n", cell_name(i, {}).c_str());
            else if (std::isnan(s.best_val_loss))  // stopped before its first evaluation: no "nan" for a loss
                std::printf("cell %s: %s at step %lld, no evaluation yet, %.1f s\n", cell_name(i, {}).c_str(),
                            s.stopped ? "stopped" : "finished", static_cast<long long>(s.final_step), s.elapsed_s);
            else  // a translation cell may choose its best by BLEU (kept negated): said as BLEU
                std::printf("cell %s: %s at step %lld, %s, %.1f s\n", cell_name(i, {}).c_str(),
                            s.stopped ? "stopped" : "finished", static_cast<long long>(s.final_step),
                            best_text(s, read_run_config(s.run_dir).best_by).c_str(), s.elapsed_s);
            std::fflush(stdout);
        };
        cb.train.on_eval = [&](const EvalReport& e) {
            if (!o->quiet)
                std::printf("  eval step %lld: val loss %.4f, accuracy %.4f, bits/char %.4f\n",
                            static_cast<long long>(e.step), e.val_loss, e.val_accuracy, e.val_bpc);
        };
        cb.train.on_message = [](const std::string& m) { std::fprintf(stderr, "twb: %s\n", m.c_str()); };
        const bool done = run_sweep(o->out, spec, cb, &control);
        std::printf("\n%s", runs_table_markdown(collect_runs(o->out)).c_str());
        write_file_atomic(std::filesystem::path(o->out) / "results.md", runs_table_markdown(collect_runs(o->out)));
        write_file_atomic(std::filesystem::path(o->out) / "results.csv", runs_table_csv(collect_runs(o->out)));
        if (!done) {
            std::printf("stopped; continue with: twb sweep --out %s --resume\n", o->out.c_str());
            return 130;
        }
        return 0;
    };
}

Action add_runs(CLI::App& app) {
    struct Opts {
        std::string folder, format = "markdown", filter;
        bool each = false;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("folder", o->folder, "A sweep folder, or any folder holding run folders")->required();
    app.add_option("--format", o->format, "markdown (default) or csv")->check(CLI::IsMember({"markdown", "csv"}));
    app.add_flag("--each", o->each, "One row per run even when runs repeat a setting with other seeds");
    app.add_option("--filter", o->filter,
                   "Only the runs whose name, folder, dataset, notes or status hold every word of this, in any case "
                   "(\"shakes stopped\")");
    return [o]() {
        auto runs = collect_runs(o->folder);
        if (runs.empty())
            throw InputError(o->folder + ": no run folders here (folders with config.json from twb train)");
        const size_t all = runs.size();
        runs.erase(
            std::remove_if(runs.begin(), runs.end(), [&o](const RunSummary& r) { return !run_matches(r, o->filter); }),
            runs.end());
        if (runs.empty())
            throw InputError(o->folder + ": none of its " + std::to_string(all) + " runs matches --filter \"" +
                             o->filter +
                             "\" (every word must occur in a run's name, folder, dataset, notes or status)");
        const std::string t = o->format == "csv" ? runs_table_csv(runs) : runs_table_markdown(runs, !o->each);
        std::fwrite(t.data(), 1, t.size(), stdout);
        return 0;
    };
}

Action add_lr_find(CLI::App& app) {
    struct Opts {
        RunOptions run;
        LrFindOptions lf;
        std::string out;
        bool force = false;
    };
    auto o = std::make_shared<Opts>();
    o->run.add_to(app);
    app.add_option("--min-lr", o->lf.min_lr, "First learning rate (default 1e-7)");
    app.add_option("--max-lr", o->lf.max_lr, "Last learning rate (default 1)");
    app.add_option("--steps", o->lf.steps, "Steps from the first to the last rate (default 100)");
    app.add_option("--out,-o", o->out, "Write the curve as CSV (step,lr,loss,smoothed)");
    app.add_flag("--force", o->force, "Replace an existing --out file");
    return [o]() {
        auto lf = o->lf;
        lf.config = o->run.config();
        if (!o->out.empty())
            check_output_file(o->out, {lf.config.data_dir}, o->force);
        const auto& stop = install_interrupt_flag();
        const auto r = find_learning_rate(lf, [&](const LrFindPoint& p) {
            if (p.step % 10 == 0)
                std::fprintf(stderr, "step %4d  lr %.3g  loss %.4f  smoothed %.4f\n", p.step, p.lr, p.loss, p.smoothed);
            return !stop.load();
        });
        // Stopped by Ctrl-C or SIGTERM: the rates beyond the last step were never tried, so the curve's lowest
        // point is not the sweep's, and a suggestion from it would be wrong (it read "2e-08").
        if (stop.load() && !r.diverged) {
            const double lr = r.curve.empty() ? lf.min_lr : r.curve.back().lr;
            std::fprintf(stderr,
                         "twb: lr-find stopped at step %zu of %d (lr %.3g of the %.3g it goes to): no suggestion%s "
                         "from a sweep that did not reach its last rate; run it again\n",
                         r.curve.size(), lf.steps, lr, lf.max_lr, o->out.empty() ? "" : " and no --out file");
            return 130;
        }
        if (!o->out.empty())
            write_lr_curve(o->out, r);
        std::printf("%zu steps%s; lowest smoothed loss at lr %.3g\n", r.curve.size(),
                    r.diverged ? " (stopped when the loss diverged)" : "", r.min_loss_lr);
        std::printf("suggested learning_rate: %.3g (a tenth of that); steepest descent at %.3g\n", r.suggested_lr,
                    r.steepest_lr);
        return 0;
    };
}

Action add_baselines(CLI::App& app) {
    struct Opts {
        std::string data;
        double k = 1.0;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--data,-d", o->data, "Prepared dataset folder")->required();
    app.add_option("--add-k", o->k, "Add-k smoothing of the unigram and bigram counts (default 1)");
    return [o]() {
        const auto rows = evaluate_baselines(o->data, o->k);
        std::printf(
            "| baseline | val loss (nats/token) | accuracy | perplexity | bits/char |\n|---|---|---|---|---|\n");
        for (const auto& b : rows) {  // a parallel dataset's have no bits per character
            char bpc[32] = "-";
            if (!std::isnan(b.bits_per_char))
                std::snprintf(bpc, sizeof bpc, "%.4f", b.bits_per_char);
            std::printf("| %s | %.4f | %.4f | %.3f | %s |\n", b.name.c_str(), b.loss, b.accuracy, b.perplexity, bpc);
        }
        return 0;
    };
}

}  // namespace twb::cli
