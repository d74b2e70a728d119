// metrics.csv writer and reader.
#include "twb/metrics.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace twb {

namespace {
const char* kHeader =
    "step,kind,train_loss,val_loss,val_accuracy,val_perplexity,val_bpc,lr,ms_per_step,tokens_per_s,elapsed_s,"
    "train_accuracy,dtype,val_bleu,epoch";  // columns are only ever added at the end, so older files still read

std::string num(double v) {
    if (std::isnan(v))
        return "";
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream ss(line);
    while (std::getline(ss, cur, ','))
        out.push_back(cur);
    if (!line.empty() && line.back() == ',')
        out.emplace_back();
    return out;
}
}  // namespace

MetricsLog::MetricsLog(const std::filesystem::path& path, int64_t resume_step, bool keep_eval_at_resume) {
    std::error_code ec;
    if (resume_step < 0)
        std::filesystem::remove(path, ec);  // a new run: rows of one stopped before its first checkpoint go
    if (resume_step >= 0 && std::filesystem::exists(path)) {
        // Keep rows up to the resume point; what the resumed run writes again goes.
        std::ifstream in(path);
        std::string line, kept;
        std::getline(in, line);
        kept = std::string(kHeader) + "\n";
        while (std::getline(in, line)) {
            const auto cells = split(line);
            // Only rows this log writes are kept: junk in a damaged file was kept before and appended to.
            const bool ours =
                cells.size() >= 2 && (cells[1] == "train" || cells[1] == "eval") && !cells[0].empty() &&
                std::all_of(cells[0].begin(), cells[0].end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!ours) {
                m_dropped += line.empty() ? 0 : 1;
                continue;
            }
            const long long s = std::atoll(cells[0].c_str());
            const bool eval = cells[1] == "eval";
            if ((!eval && s <= resume_step) || (eval && (s < resume_step || (s == resume_step && keep_eval_at_resume))))
                kept += line + "\n";
        }
        write_file_atomic(path, kept);
    }
    const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
    m_f = std::fopen(path.c_str(), "a");
    if (!m_f)
        throw IoError(path.string() + ": cannot write the metrics file");
    if (fresh)
        std::fprintf(m_f, "%s\n", kHeader);
    std::fflush(m_f);
}

MetricsLog::~MetricsLog() {
    if (m_f)
        std::fclose(m_f);
}

void MetricsLog::append(const MetricsRow& r) {
    std::fprintf(m_f, "%lld,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", static_cast<long long>(r.step),
                 r.kind.c_str(), num(r.train_loss).c_str(), num(r.val_loss).c_str(), num(r.val_accuracy).c_str(),
                 num(r.val_perplexity).c_str(), num(r.val_bpc).c_str(), num(r.lr).c_str(), num(r.ms_per_step).c_str(),
                 num(r.tokens_per_s).c_str(), num(r.elapsed_s).c_str(), num(r.train_accuracy).c_str(), r.dtype.c_str(),
                 num(r.val_bleu).c_str(), num(r.epoch).c_str());
    std::fflush(m_f);
}

MetricsRow metrics_row(const StepReport& r) {
    MetricsRow row;
    row.step = r.step;
    row.kind = "train";
    row.train_loss = r.loss;
    row.lr = r.lr;
    row.ms_per_step = r.ms_per_step;
    row.tokens_per_s = r.tokens_per_s;
    row.elapsed_s = r.elapsed_s;
    row.dtype = r.dtype;
    row.epoch = r.epoch;
    return row;
}

MetricsRow metrics_row(const EvalReport& r) {
    MetricsRow row;
    row.step = r.step;
    row.kind = "eval";
    row.train_loss = r.train_loss;
    row.val_loss = r.val_loss;
    row.val_accuracy = r.val_accuracy;
    row.train_accuracy = r.train_accuracy;
    row.val_perplexity = r.val_perplexity;
    row.val_bpc = r.val_bpc;
    row.elapsed_s = r.elapsed_s;
    row.val_bleu = r.val_bleu;
    row.epoch = r.epoch;
    return row;
}

StepReport step_report(const MetricsRow& row) {
    StepReport s;
    s.step = row.step;
    s.loss = row.train_loss;
    s.lr = row.lr;
    s.ms_per_step = row.ms_per_step;
    s.tokens_per_s = row.tokens_per_s;
    s.elapsed_s = row.elapsed_s;
    s.dtype = row.dtype;
    s.epoch = row.epoch;
    return s;
}

EvalReport eval_report(const MetricsRow& row) {
    EvalReport e;
    e.step = row.step;
    e.train_loss = row.train_loss;
    e.val_loss = row.val_loss;
    e.val_accuracy = row.val_accuracy;
    e.train_accuracy = row.train_accuracy;
    e.val_perplexity = row.val_perplexity;
    e.val_bpc = row.val_bpc;
    e.elapsed_s = row.elapsed_s;
    e.val_bleu = row.val_bleu;
    e.epoch = row.epoch;
    return e;
}

std::vector<MetricsRow> read_metrics(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in)
        throw InputError(path.string() + ": cannot read the metrics file");
    std::string line;
    std::getline(in, line);
    const auto header = split(line);
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < header.size(); ++i)
        col[header[i]] = i;
    std::vector<MetricsRow> rows;
    while (std::getline(in, line)) {
        const auto c = split(line);
        auto get = [&](const char* name) -> double {
            auto it = col.find(name);
            if (it == col.end() || it->second >= c.size() || c[it->second].empty())
                return NAN;
            // A cell that is not a number whole ("zz", "2.5x") is none: atof read it as 0, a perfect loss.
            const char* text = c[it->second].c_str();
            char* end = nullptr;
            const double v = std::strtod(text, &end);
            while (end != text && (*end == ' ' || *end == '\r'))
                ++end;
            return end != text && *end == '\0' ? v : NAN;
        };
        MetricsRow r;
        // A line without a step (a torn last line, bytes appended to the file) is no row at all.
        const double step = get("step");
        if (!std::isfinite(step) || std::abs(step) > 1e18)
            continue;
        r.step = static_cast<int64_t>(step);
        if (col.count("kind") && col["kind"] < c.size())
            r.kind = c[col["kind"]];
        r.train_loss = get("train_loss");
        r.val_loss = get("val_loss");
        r.val_accuracy = get("val_accuracy");
        r.train_accuracy = get("train_accuracy");
        r.val_perplexity = get("val_perplexity");
        r.val_bpc = get("val_bpc");
        r.lr = get("lr");
        r.ms_per_step = get("ms_per_step");
        r.tokens_per_s = get("tokens_per_s");
        r.elapsed_s = get("elapsed_s");
        r.val_bleu = get("val_bleu");
        r.epoch = get("epoch");
        if (col.count("dtype") && col["dtype"] < c.size())
            r.dtype = c[col["dtype"]];
        rows.push_back(r);
    }
    return rows;
}

SplitMetrics split_metrics(double loss, double accuracy, double chars_per_token) {
    SplitMetrics m;
    m.loss = loss;
    m.accuracy = accuracy;
    m.perplexity = std::exp(loss);
    m.bits_per_char = loss / std::log(2.0) / std::max(1e-9, chars_per_token);
    return m;
}

}  // namespace twb
