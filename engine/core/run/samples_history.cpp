// RUN/samples.jsonl: one JSON object per generation, read back leniently.
#include "twb/samples_history.h"

#include "core/util/json_lines.h"
#include "twb/run_folder.h"

#include <nlohmann/json.hpp>

namespace twb {

namespace {

const char* kFile = "samples.jsonl";

nlohmann::json options_json(const SamplingOptions& o) {
    return {{"temperature", o.temperature},
            {"top_k", o.top_k},
            {"top_p", o.top_p},
            {"max_new_tokens", o.max_new_tokens},
            {"repetition_penalty", o.repetition_penalty},
            {"no_repeat_ngram", o.no_repeat_ngram},
            {"beam_width", o.beam_width},
            {"length_penalty", o.length_penalty},
            {"seed", o.seed},
            {"num_samples", o.num_samples},
            {"kv_cache", o.use_kv_cache}};
}

SamplingOptions options_from(const nlohmann::json& j) {
    SamplingOptions o;
    if (!j.is_object())
        return o;
    o.temperature = j.value("temperature", o.temperature);
    o.top_k = j.value("top_k", o.top_k);
    o.top_p = j.value("top_p", o.top_p);
    o.max_new_tokens = j.value("max_new_tokens", o.max_new_tokens);
    o.repetition_penalty = j.value("repetition_penalty", o.repetition_penalty);
    o.no_repeat_ngram = j.value("no_repeat_ngram", o.no_repeat_ngram);
    o.beam_width = j.value("beam_width", o.beam_width);
    o.length_penalty = j.value("length_penalty", o.length_penalty);
    o.seed = j.value("seed", o.seed);
    o.num_samples = j.value("num_samples", o.num_samples);
    o.use_kv_cache = j.value("kv_cache", o.use_kv_cache);
    return o;
}

}  // namespace

void append_sample_history(const std::filesystem::path& run_dir, SampleRecord r) {
    if (r.time.empty())
        r.time = local_time_iso();
    nlohmann::json e{{"time", r.time},
                     {"source", r.source},
                     {"checkpoint_step", r.checkpoint_step},
                     {"prompt", r.prompt},
                     {"options", options_json(r.options)},
                     {"outputs", r.outputs},
                     {"cancelled", r.cancelled}};
    if (!r.note.empty())
        e["note"] = r.note;
    append_json_lines(run_folder_of(run_dir) / kFile, {e});
}

std::vector<SampleRecord> read_sample_history(const std::filesystem::path& run_dir) {
    std::vector<SampleRecord> out;
    // A line with a field of the wrong type is skipped.
    for_each_json_object(run_folder_of(run_dir) / kFile, [&](const nlohmann::json& j) {
        SampleRecord r;
        r.time = j.value("time", "");
        r.source = j.value("source", "gui");
        r.checkpoint_step = j.value("checkpoint_step", int64_t(0));
        r.prompt = j.value("prompt", "");
        r.options = options_from(j.value("options", nlohmann::json::object()));
        if (j.contains("outputs") && j["outputs"].is_array())
            for (const auto& o : j["outputs"])
                if (o.is_string())
                    r.outputs.push_back(o.get<std::string>());
        r.cancelled = j.value("cancelled", false);
        r.note = j.value("note", "");
        out.push_back(std::move(r));
    });
    return out;
}

}  // namespace twb
