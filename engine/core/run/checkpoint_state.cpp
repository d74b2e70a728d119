// state.json and best.json of a checkpoint, strictly.
#include "core/run/checkpoint_state.h"

#include "twb/errors.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace twb {

namespace {
nlohmann::json number_or_null(double v) {
    return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}

[[noreturn]] void bad(const std::string& where, const std::string& what) {
    throw FormatError(where + ": " + what + "; the checkpoint is damaged or was edited by hand (use another one)");
}

int64_t whole(const nlohmann::json& j, const char* key, int64_t lo, int64_t fallback, const std::string& where) {
    if (!j.contains(key))
        return fallback;
    const auto& v = j[key];
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) ||
        v.get<int64_t>() < lo)
        bad(where, std::string(key) + " must be a whole number of at least " + std::to_string(lo));
    return v.get<int64_t>();
}

double number(const nlohmann::json& j, const char* key, bool nullable, double fallback, const std::string& where) {
    if (!j.contains(key))
        return fallback;
    const auto& v = j[key];
    if (nullable && v.is_null())
        return std::nan("");
    if (!v.is_number())
        bad(where, std::string(key) + " must be a number" + (nullable ? " or null" : ""));
    return v.get<double>();
}
}  // namespace

std::string checkpoint_state_json(const CheckpointState& st) {
    nlohmann::json j;
    j["format_version"] = 1;
    j["step"] = st.step;
    j["batcher_state"] = std::to_string(st.batcher_state);  // string: JSON numbers lose 64-bit precision
    j["val_loss"] = number_or_null(st.val_loss);
    j["best_val_loss"] = number_or_null(st.best_val_loss);
    j["best_step"] = st.best_step;
    j["elapsed_s"] = st.elapsed_s;
    j["tokens_seen"] = st.tokens_seen;
    j["config"] = st.config;
    return j.dump(2);
}

namespace {
/// The text as a JSON object, or FormatError naming `where`.
nlohmann::json parse_object(const std::string& text, const std::string& where) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        bad(where, "not valid JSON");
    }
    if (!j.is_object())
        bad(where, "not a JSON object");
    return j;
}
}  // namespace

CheckpointState parse_checkpoint_state(const std::string& text, const std::string& where) {
    const nlohmann::json j = parse_object(text, where);
    CheckpointState s;
    if (j.contains("format_version") && !(j["format_version"].is_number_integer() && j["format_version"] == 1))
        bad(where, "format_version must be 1");
    s.step = whole(j, "step", 0, -1, where);
    if (s.step < 0)
        bad(where, "has no step");
    if (j.contains("batcher_state")) {
        const auto& b = j["batcher_state"];
        const std::string t = b.is_string() ? b.get<std::string>() : std::string();
        char* end = nullptr;
        errno = 0;
        const unsigned long long v = t.empty() ? 0 : std::strtoull(t.c_str(), &end, 10);
        if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || errno == ERANGE)
            bad(where, "batcher_state must be a string of digits (a 64-bit number)");
        s.batcher_state = v;
        s.has_batcher_state = true;
    }
    s.val_loss = number(j, "val_loss", true, std::nan(""), where);
    s.best_val_loss = number(j, "best_val_loss", true, std::nan(""), where);
    s.best_step = whole(j, "best_step", -1, -1, where);
    s.elapsed_s = number(j, "elapsed_s", false, 0.0, where);
    if (!(s.elapsed_s >= 0))
        bad(where, "elapsed_s must not be negative");
    s.tokens_seen = static_cast<uint64_t>(whole(j, "tokens_seen", 0, 0, where));
    if (!j.contains("config"))
        bad(where, "holds no config");
    s.config = config_from_json(j["config"], RunConfig{}, where + " config");
    check_model_config(s.config, where);
    return s;
}

std::string best_json(int64_t step, double score, BestBy by) {
    if (by == BestBy::Bleu)
        return nlohmann::json{{"step", step}, {"best_by", by}, {"bleu", number_or_null(-score)}}.dump(2);
    return nlohmann::json{{"step", step}, {"best_by", by}, {"val_loss", number_or_null(score)}}.dump(2);
}

int64_t parse_best_step(const std::string& text, const std::string& where) {
    const nlohmann::json j = parse_object(text, where);
    const int64_t step = whole(j, "step", 0, -1, where);
    if (step < 0)
        bad(where, "has no step");
    return step;
}

void check_model_config(const RunConfig& c, const std::string& where) {
    auto p = c.validate();
    if (c.vocab_size < 1)
        p.push_back("vocab_size must be at least 1 for a model that exists (got " + std::to_string(c.vocab_size) + ")");
    if (p.empty())
        return;
    std::string msg = where + ": invalid config: ";
    for (size_t i = 0; i < p.size(); ++i)
        msg += (i ? "; " : "") + p[i];
    throw ConfigError(msg);
}

}  // namespace twb
