// RUN/tb/: metrics rows as TensorBoard scalars, the config as text (twb/tensorboard.h).
#include "twb/tensorboard.h"

#include "core/run/tfevents.h"
#include "core/util/png.h"
#include "twb/errors.h"
#include "twb/probe.h"
#include "twb/run_info.h"
#include "twb/text.h"

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

namespace twb {

namespace fs = std::filesystem;

namespace {
std::string hostname() {
    char h[256] = {};
    if (gethostname(h, sizeof h - 1) != 0 || !h[0])
        return "localhost";
    std::string s = h;
    for (char& c : s)  // a file name, whatever the host calls itself
        if (c == '/' || c == '\\')
            c = '_';
    return s;
}

/// The config as the text plugin shows it: an indented block is preformatted in its Markdown.
std::string config_text(const std::string& json) {
    std::istringstream in(json);
    std::string line, out;
    while (std::getline(in, line))
        out += "    " + line + "\n";
    return out;
}

void write_all(std::FILE* f, const std::string& event, const fs::path& where) {
    const std::string rec = tfevents::frame_record(event);
    if (std::fwrite(rec.data(), 1, rec.size(), f) != rec.size())
        throw IoError(where.string() + ": write failed (disk full?)");
}

/// The value as metrics.csv holds it (6 significant digits): tb/ written live and tb/ exported later
/// from metrics.csv then hold the same numbers, and every reader of either agrees with the CSV.
double as_in_metrics_csv(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v);
    return std::strtod(b, nullptr);
}

double row_wall(const MetricsRow& r, double now_wall, double now_elapsed) {
    return std::isnan(r.elapsed_s) || std::isnan(now_elapsed) ? now_wall : now_wall - (now_elapsed - r.elapsed_s);
}

void write_row(std::FILE* f, const MetricsRow& row, double wall, const fs::path& where) {
    for (const auto& s : tensorboard_scalars(row))
        write_all(f, tfevents::scalar_event(wall, row.step, s.tag, static_cast<float>(s.value)), where);
}

/// The run's probe timelines (decoder self-attention, cross-attention), those it has. A probe that cannot
/// be read gives no pictures rather than stopping training: the curves are what tb/ is for.
std::vector<ProbeTimeline> probe_timelines(const fs::path& run_dir) {
    std::vector<ProbeTimeline> out;
    try {
        for (auto t : {read_probe(run_dir), read_cross_probe(run_dir)})
            if (!t.empty())
                out.push_back(std::move(t));
    } catch (const std::exception&) {
    }
    return out;
}

/// One layer of record i as a picture: the heads side by side (2 grey pixels apart), a query a row and a
/// key a column, white = all of the row's attention; each weight grown to scale x scale pixels so that a
/// short probe is no speck.
std::string layer_png(const ProbeTimeline& t, size_t i, int64_t layer, int& width, int& height) {
    const int64_t keys = t.key_length > 0 ? t.key_length : t.length;
    const int64_t scale =
        std::max<int64_t>(1, std::min<int64_t>(8, 128 / std::max<int64_t>(1, std::max(keys, t.length))));
    const int64_t gap = 2, cell = keys * scale;
    width = static_cast<int>(t.heads * cell + (t.heads - 1) * gap);
    height = static_cast<int>(t.length * scale);
    std::vector<uint8_t> px(static_cast<size_t>(width) * static_cast<size_t>(height), 96);
    const size_t perRecord = static_cast<size_t>(t.layers * t.heads * t.length * keys);
    const uint8_t* w = t.data.data() + i * perRecord;
    for (int64_t h = 0; h < t.heads; ++h)
        for (int64_t y = 0; y < height; ++y)
            for (int64_t x = 0; x < cell; ++x) {
                const int64_t q = y / scale, k = x / scale;
                px[static_cast<size_t>(y * width + h * (cell + gap) + x)] =
                    w[static_cast<size_t>(((layer * t.heads + h) * t.length + q) * keys + k)];
            }
    return encode_png_gray(width, height, px);
}

/// The probes' pictures of an evaluation at step, one per layer and timeline ("attention/layer_0",
/// "cross_attention/layer_0", ...), when the probe has a record of that step.
int write_probe_images(std::FILE* f, const std::vector<ProbeTimeline>& probes, int64_t step, double wall,
                       const fs::path& where) {
    int n = 0;
    for (const auto& t : probes)
        for (size_t i = 0; i < t.steps.size(); ++i) {
            if (t.steps[i] != step)
                continue;
            const std::string prefix = t.kind == AttentionKind::Cross ? "cross_attention/layer_" : "attention/layer_";
            for (int64_t l = 0; l < t.layers; ++l) {
                int width = 0, height = 0;
                const std::string png = layer_png(t, i, l, width, height);
                write_all(f, tfevents::image_event(wall, step, prefix + std::to_string(l), height, width, png), where);
                ++n;
            }
        }
    return n;
}

/// Puts the finished folder tmp in place of RUN/tb/: the old one renamed away first, then removed, so a
/// reader sees the old tb/ or the new one.
void swap_in(const fs::path& tmp, const fs::path& tb, const std::string& suffix) {
    std::error_code ec;
    const fs::path old = tb.parent_path() / (".tb.old" + suffix);
    if (fs::exists(tb, ec)) {
        fs::rename(tb, old, ec);
        if (ec)
            throw IoError(tb.string() + ": cannot replace it: " + ec.message());
    }
    fs::rename(tmp, tb, ec);
    if (ec)
        throw IoError(tb.string() + ": cannot write it: " + ec.message());
    fs::remove_all(old, ec);
}
}  // namespace

double wall_clock_now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::vector<TensorBoardScalar> tensorboard_scalars(const MetricsRow& r) {
    std::vector<std::pair<const char*, double>> all;
    if (r.kind == "eval")
        all = {{"eval/train_loss", r.train_loss},
               {"eval/val_loss", r.val_loss},
               {"eval/val_accuracy", r.val_accuracy},
               {"eval/train_accuracy", r.train_accuracy},
               {"eval/val_perplexity", r.val_perplexity},
               {"eval/val_bpc", r.val_bpc},
               {"eval/val_bleu", r.val_bleu}};
    else
        all = {{"train/loss", r.train_loss},
               {"train/lr", r.lr},
               {"train/tokens_per_s", r.tokens_per_s},
               {"train/ms_per_step", r.ms_per_step},
               {"train/epoch", r.epoch}};
    std::vector<TensorBoardScalar> out;
    for (const auto& [tag, v] : all)
        if (std::isfinite(v))
            out.push_back({tag, as_in_metrics_csv(v)});
    return out;
}

TensorBoardLog::TensorBoardLog(const fs::path& run_dir, const nlohmann::json& config,
                               const std::vector<MetricsRow>& rows, double now_wall, double now_elapsed) {
    const std::string suffix = std::to_string(std::random_device{}());
    const fs::path tmp = run_dir / (".tb.tmp" + suffix);
    const std::string name =
        "events.out.tfevents." + std::to_string(static_cast<long long>(now_wall)) + "." + hostname();
    std::error_code ec;
    fs::create_directories(tmp, ec);
    m_f = ec ? nullptr : std::fopen((tmp / name).c_str(), "wb");
    if (!m_f)
        throw IoError((run_dir / "tb").string() +
                      ": cannot write TensorBoard's files here (check the folder is "
                      "writable, or set tensorboard=false)");
    try {
        const double first = rows.empty() ? now_wall : row_wall(rows.front(), now_wall, now_elapsed);
        write_all(m_f, tfevents::file_version_event(first), tmp / name);
        write_all(m_f, tfevents::text_event(first, 0, kTensorBoardConfigTag, config_text(config.dump(2))), tmp / name);
        const auto probes = probe_timelines(run_dir);
        for (const auto& r : rows) {
            write_row(m_f, r, row_wall(r, now_wall, now_elapsed), tmp / name);
            if (r.kind == "eval")  // records of steps after a resume point have no row: left out
                m_images += write_probe_images(m_f, probes, r.step, row_wall(r, now_wall, now_elapsed), tmp / name);
        }
        if (std::fflush(m_f) != 0)
            throw IoError((tmp / name).string() + ": write failed (disk full?)");
        swap_in(tmp, run_dir / "tb", suffix);  // the open file moves with its folder
    } catch (...) {
        std::fclose(m_f);
        m_f = nullptr;
        fs::remove_all(tmp, ec);
        throw;
    }
    m_file = run_dir / "tb" / name;
    m_runDir = run_dir;
}

TensorBoardLog::~TensorBoardLog() {
    if (m_f)
        std::fclose(m_f);
}

void TensorBoardLog::append(const MetricsRow& row) {
    const double wall = wall_clock_now();
    write_row(m_f, row, wall, m_file);
    if (row.kind == "eval")
        m_images += write_probe_images(m_f, probe_timelines(m_runDir), row.step, wall, m_file);
    std::fflush(m_f);
}

TensorBoardExport export_tensorboard(const fs::path& run_dir) {
    for (const char* f : {"config.json", "metrics.csv"}) {
        std::error_code ec;
        if (fs::exists(run_dir / f, ec) && !fs::is_regular_file(run_dir / f, ec))
            throw InputError((run_dir / f).string() + " is a folder or another non-file where the run's " + f +
                             " should be; move it away and give the folder twb train --out wrote");
        if (!fs::is_regular_file(run_dir / f, ec))
            throw InputError(run_dir.string() + " is not a run (it has no " + f +
                             "); give the folder twb train --out wrote");
    }
    if (const std::string holder = run_holder(run_dir); !holder.empty())
        throw InputError(run_dir.string() + " is being trained by " + holder +
                         ", which writes its tb/ itself; export it when training has stopped");
    nlohmann::json config;
    try {
        config = nlohmann::json::parse(read_file((run_dir / "config.json").string()));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError((run_dir / "config.json").string() + ": not valid JSON (" + e.what() + ")");
    }
    const auto rows = read_metrics(run_dir / "metrics.csv");
    // A damaged file (binary garbage, another file's text) reads as rows of no kind: refused, so the tb/ the
    // run has is not replaced by an empty one.
    const bool any_valid = std::any_of(rows.begin(), rows.end(),
                                       [](const MetricsRow& r) { return r.kind == "train" || r.kind == "eval"; });
    if (rows.empty()) {  // read_metrics skips lines without a step: lines but no row is a damaged file
        std::ifstream in(run_dir / "metrics.csv", std::ios::binary);
        std::string line;
        int lines = 0;
        while (lines < 2 && std::getline(in, line))
            lines += line.empty() ? 0 : 1;
        if (lines > 1)
            throw FormatError((run_dir / "metrics.csv").string() +
                              ": no valid metrics row in it (the file is damaged); " +
                              (fs::exists(run_dir / "tb") ? "tb/ is left as it was" : "nothing was written"));
    }
    const std::string kept = fs::exists(run_dir / "tb") ? "tb/ is left as it was" : "nothing was written";
    if (!rows.empty() && !any_valid)
        throw FormatError((run_dir / "metrics.csv").string() + ": no valid metrics row in it (the file is damaged); " +
                          kept);
    if (rows.empty())  // emptied, or a run that never logged a step: no curves to replace tb/'s with
        throw InputError((run_dir / "metrics.csv").string() + ": no metrics rows in it, so nothing to export; " + kept);
    // Wall times from the file's last change, back by the training time each row was before the last.
    struct stat st {};
    const double anchor =
        ::stat((run_dir / "metrics.csv").c_str(), &st) == 0 ? static_cast<double>(st.st_mtime) : wall_clock_now();
    double last_elapsed = NAN;
    for (const auto& r : rows)
        if (!std::isnan(r.elapsed_s))
            last_elapsed = std::isnan(last_elapsed) ? r.elapsed_s : std::max(last_elapsed, r.elapsed_s);
    TensorBoardLog log(run_dir, config, rows, anchor, last_elapsed);
    TensorBoardExport out;
    out.event_file = log.file();
    out.rows = static_cast<int64_t>(rows.size());
    out.images = log.images();
    for (const auto& r : rows)
        out.scalars += static_cast<int64_t>(tensorboard_scalars(r).size());
    return out;
}

bool remove_tensorboard(const fs::path& run_dir) {
    std::error_code ec;
    if (!fs::exists(run_dir / "tb", ec))
        return false;
    fs::remove_all(run_dir / "tb", ec);
    if (ec)
        throw IoError((run_dir / "tb").string() + ": cannot remove it: " + ec.message());
    return true;
}

}  // namespace twb
