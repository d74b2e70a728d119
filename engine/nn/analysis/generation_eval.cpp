// Batch evaluation of generations over a ModelSession: settings parsed, every prompt generated with
// each, and the figures of the table computed from the generated ids.
#include "twb/generation_eval.h"

#include "twb/bleu.h"
#include "twb/errors.h"
#include "twb/session.h"

#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <tuple>

namespace twb {

namespace {

int parse_int(const std::string& key, const std::string& v) {
    size_t used = 0;
    long long x = 0;
    try {
        x = std::stoll(v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != v.size() || x < -1000000000LL || x > 1000000000LL)
        throw ConfigError("decoding setting " + key + " takes a whole number, not '" + v + "'");
    return static_cast<int>(x);
}

double parse_double(const std::string& key, const std::string& v) {
    size_t used = 0;
    double x = 0;
    try {
        x = std::stod(v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != v.size() || !std::isfinite(x))
        throw ConfigError("decoding setting " + key + " takes a number, not '" + v + "'");
    return x;
}

std::string fmt(double v, const char* f) {
    if (std::isnan(v))
        return "-";
    char b[48];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

}  // namespace

DecodingSetting parse_decoding_setting(const std::string& text, const SamplingOptions& base) {
    DecodingSetting s;
    s.label = text;
    s.options = base;
    auto checked = [&] {
        s.options.validate();
        if (s.options.max_new_tokens < 1)
            throw ConfigError("decoding setting '" + text +
                              "': max_new_tokens must be at least 1 (a generation of no tokens has nothing to score)");
        return s;
    };
    if (text == "greedy") {
        s.options.temperature = 0;
        return checked();
    }
    if (text.empty())
        throw ConfigError("an empty decoding setting; give e.g. greedy, temperature=0.8 or beam=5");
    std::istringstream in(text);
    std::string kv;
    std::set<std::string> given;
    while (std::getline(in, kv, ',')) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos)
            throw ConfigError("decoding setting '" + kv + "' is not key=value (e.g. temperature=0.8 or beam=5)");
        const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
        if (!given.insert(k).second)
            throw ConfigError("decoding setting '" + text + "' gives " + k + " twice; give it once");
        auto& o = s.options;
        if (k == "temperature")
            o.temperature = parse_double(k, v);
        else if (k == "top_k")
            o.top_k = parse_int(k, v);
        else if (k == "top_p")
            o.top_p = parse_double(k, v);
        else if (k == "beam")
            o.beam_width = parse_int(k, v);
        else if (k == "length_penalty")
            o.length_penalty = parse_double(k, v);
        else if (k == "repetition_penalty")
            o.repetition_penalty = parse_double(k, v);
        else if (k == "no_repeat_ngram")
            o.no_repeat_ngram = parse_int(k, v);
        else if (k == "max_new_tokens")
            o.max_new_tokens = parse_int(k, v);
        else if (k == "seed")
            o.seed = parse_int(k, v);
        else
            throw ConfigError("unknown decoding setting '" + k +
                              "'; use temperature, top_k, top_p, beam, length_penalty, repetition_penalty, "
                              "no_repeat_ngram, max_new_tokens or seed");
    }
    if (given.count("beam")) {
        // Beam search is deterministic: the sampling keys would change nothing, so they are refused.
        for (const char* k : {"temperature", "top_k", "top_p", "seed"})
            if (given.count(k))
                throw ConfigError("decoding setting '" + text + "': beam search is deterministic, so " + k +
                                  " does not apply; give it in a setting of its own");
        if (s.options.beam_width == 1)
            s.options.temperature = 0;  // a beam of one is greedy decoding
    }
    s.options.num_samples = 1;
    return checked();
}

std::vector<GenerationEvalRow> evaluate_generations(ModelSession& session, const std::vector<std::string>& prompts,
                                                    const std::vector<std::string>& references,
                                                    const std::vector<DecodingSetting>& settings,
                                                    const std::function<bool(size_t, size_t)>& on_progress) {
    if (prompts.empty())
        throw InputError("no prompts to generate from");
    if (!references.empty() && references.size() != prompts.size())
        throw InputError("there are " + std::to_string(prompts.size()) + " prompts but " +
                         std::to_string(references.size()) + " references; give one reference per prompt");
    if (settings.empty())
        throw ConfigError("no decoding settings (e.g. --setting greedy --setting beam=5)");
    // Two settings that decode alike made two rows of one result, as if the table compared something.
    const auto how = [](const SamplingOptions& o) {
        return std::make_tuple(o.max_new_tokens, o.temperature, o.top_k, o.top_p, o.repetition_penalty,
                               o.no_repeat_ngram, o.beam_width, o.length_penalty, o.seed);
    };
    for (size_t i = 0; i < settings.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (how(settings[i].options) == how(settings[j].options))
                throw ConfigError("the decoding settings '" + settings[j].label + "' and '" + settings[i].label +
                                  "' decode the same way; give each setting once");
    std::vector<GenerationEvalRow> rows;
    const size_t total = prompts.size() * settings.size();
    size_t done = 0;
    bool cancelled = false;
    for (const auto& setting : settings) {
        GenerationEvalRow row;
        row.setting = setting.label;
        double logprob = 0;
        std::set<int32_t> uni;
        std::set<std::pair<int32_t, int32_t>> bi;
        int64_t bigrams = 0, repeats = 0;
        for (const auto& prompt : prompts) {
            const auto ids = session.encode(prompt);
            auto opt = setting.options;
            opt.num_samples = 1;
            const SampleResult res = session.generate(ids, opt);
            const auto& gen = res.tokens.at(0);
            row.outputs.push_back(res.texts.at(0));
            row.tokens += static_cast<int64_t>(gen.size());
            row.seconds += res.seconds;
            if (!gen.empty()) {
                auto all = ids;
                all.insert(all.end(), gen.begin(), gen.end());
                for (double v : session.log_probs(all, ids.size()))
                    logprob += v;
            }
            std::set<std::vector<int32_t>> seen4;
            for (size_t i = 0; i < gen.size(); ++i) {
                uni.insert(gen[i]);
                if (i >= 1) {
                    bi.insert({gen[i - 1], gen[i]});
                    ++bigrams;
                }
                if (i >= 3) {
                    std::vector<int32_t> g(gen.begin() + static_cast<long>(i) - 3,
                                           gen.begin() + static_cast<long>(i) + 1);
                    repeats += !seen4.insert(g).second;
                }
            }
            ++done;
            if (on_progress && !on_progress(done, total)) {
                if (row.outputs.size() < prompts.size())
                    return rows;   // this setting's row is unfinished: the finished rows only
                cancelled = true;  // its last prompt: the row is scored below, then no more
            }
        }
        // Nothing generated (every prompt ended at once): no per-token figure, not a perplexity of 1.
        const double n = row.tokens > 0 ? static_cast<double>(row.tokens) : NAN;
        row.tokens_per_s = row.seconds > 0 ? static_cast<double>(row.tokens) / row.seconds : 0;
        row.mean_logprob = logprob / n;
        row.perplexity = std::exp(-row.mean_logprob);
        row.distinct_1 = static_cast<double>(uni.size()) / n;
        row.distinct_2 = bigrams ? static_cast<double>(bi.size()) / static_cast<double>(bigrams) : NAN;
        row.repetition = static_cast<double>(repeats) / n;
        if (!references.empty())
            row.bleu = corpus_bleu(row.outputs, references).score;
        rows.push_back(std::move(row));
        if (cancelled)
            return rows;
    }
    return rows;
}

std::string generation_eval_markdown(const std::vector<GenerationEvalRow>& rows) {
    std::string t =
        "| setting | tokens | tokens/s | mean log-prob | perplexity | distinct-1 | distinct-2 | repetition | BLEU |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : rows)
        t += "| " + r.setting + " | " + std::to_string(r.tokens) + " | " + fmt(r.tokens_per_s, "%.1f") + " | " +
             fmt(r.mean_logprob, "%.4f") + " | " + fmt(r.perplexity, "%.3f") + " | " + fmt(r.distinct_1, "%.3f") +
             " | " + fmt(r.distinct_2, "%.3f") + " | " + fmt(r.repetition, "%.3f") + " | " + fmt(r.bleu, "%.2f") +
             " |\n";
    return t;
}

std::string generation_eval_csv(const std::vector<GenerationEvalRow>& rows) {
    std::string t = "setting,tokens,tokens_per_s,mean_logprob,perplexity,distinct_1,distinct_2,repetition,bleu\n";
    for (const auto& r : rows)
        t += "\"" + r.setting + "\"," + std::to_string(r.tokens) + "," + fmt(r.tokens_per_s, "%.6g") + "," +
             fmt(r.mean_logprob, "%.6g") + "," + fmt(r.perplexity, "%.6g") + "," + fmt(r.distinct_1, "%.6g") + "," +
             fmt(r.distinct_2, "%.6g") + "," + fmt(r.repetition, "%.6g") + "," + fmt(r.bleu, "%.6g") + "\n";
    return t;
}

}  // namespace twb
