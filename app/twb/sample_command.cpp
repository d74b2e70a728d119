// `twb sample`'s options, printing and history, for both programs (sample_command.h).
#include "app/twb/sample_command.h"

#include "twb/errors.h"
#include "twb/samples_history.h"
#include "twb/text.h"

#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace twb::cli {

bool several_sequences(const SamplingOptions& s) {
    return s.num_samples > 1 || s.beam_width > 1;
}

void add_filter_options(CLI::App& app, SamplingOptions& s) {
    app.add_option("--top-k", s.top_k, "Sample only from the k most probable tokens (0 = off)");
    app.add_option("--top-p", s.top_p, "Nucleus sampling: smallest set reaching this probability, in (0, 1]");
    app.add_option("--repetition-penalty", s.repetition_penalty, "> 1 discourages repeats (default 1 = off)");
}

void add_sample_options(CLI::App& app, SampleOpts& o) {
    app.add_option("--run,-r", o.run, "Run folder (from twb train) or a checkpoint folder")->required();
    app.add_option("--checkpoint", o.checkpoint, "best (default), last or a step number");
    auto* promptOpt = app.add_option("--prompt,-p", o.prompt, "Text to continue (default: start of text)");
    app.add_option("--prompt-file", o.promptFile, "Read the prompt from a file")->excludes(promptOpt);
    app.add_option("--max-new-tokens,-n", o.s.max_new_tokens, "Tokens to generate (default 200)");
    auto* temperatureOpt =
        app.add_option("--temperature,-t", o.s.temperature, "Sampling temperature; 0 = greedy (default 0.8)");
    add_filter_options(app, o.s);
    auto* greedyOpt =
        app.add_flag("--greedy", o.greedy, "Always take the most probable token")->excludes(temperatureOpt);
    auto* beamOpt = app.add_option("--beam", o.beam, "Beam search with this width (deterministic; 1 is greedy)")
                        ->excludes(greedyOpt)
                        ->excludes(temperatureOpt);
    app.add_option("--length-penalty", o.s.length_penalty, "Beam score = log-prob / length^this (default 1)");
    app.add_option("--no-repeat-ngram", o.s.no_repeat_ngram, "Never repeat an n-gram of this size");
    app.add_option("--num-samples", o.s.num_samples, "Independent samples, generated as one batch");
    app.add_option("--seed", o.s.seed, "Random seed (default: random)");
    app.add_option("--stop", o.s.stop_strings, "Stop when this text appears (repeatable)");
    app.add_flag("--no-kv-cache", o.noCache, "Recompute the whole context for every token (slow; for comparison)");
    app.add_option("--decode-weights", o.decodeWeights,
                   "auto (bfloat16 on CPUs with AVX2+FMA, else float32), float32 or bfloat16: the weights one "
                   "sequence is decoded with on the CPU")
        ->check(CLI::IsMember({"auto", "float32", "bfloat16"}));
    app.add_flag("--timing", o.timing,
                 "Print load, first-token and per-token times (ms since the process started) to stderr");
    app.add_flag("--show-probs", o.showProbs, "Print each token with its probability and alternatives")
        ->excludes(beamOpt);
    app.add_flag("--no-history", o.noHistory, "Do not add this generation to the run's samples.jsonl");
}

bool libtorch_loaded() {
    int found = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) {
            if (info->dlpi_name && std::strstr(info->dlpi_name, "libtorch")) {
                *static_cast<int*>(data) = 1;
                return 1;
            }
            return 0;
        },
        &found);
    return found != 0;
}

SamplingOptions sampling_of(const SampleOpts& o) {
    auto s = o.s;
    if (o.greedy)
        s.temperature = 0;
    if (o.beam != -1) {
        s.beam_width = o.beam;  // 0 or 65 are refused by validate()
        if (o.beam == 1)
            s.temperature = 0;  // a beam of one is greedy decoding, as deterministic as any other width
    }
    s.use_kv_cache = !o.noCache;
    s.decode_weights = parse_decode_weights(o.decodeWeights);
    s.validate();
    return s;
}

std::string prompt_of(const SampleOpts& o) {
    if (!o.promptFile.empty())
        return read_text_file(o.promptFile, 16 << 20);  // 16 MiB: the model sees its last block anyway
    return o.prompt;
}

TokenPrinter::TokenPrinter(std::function<std::string(int)> token_text, const std::string& prompt,
                           const SamplingOptions& s, std::string path, bool showProbs)
    : m_tokenText(std::move(token_text)),
      m_prompt(prompt),
      m_path(std::move(path)),
      m_several(several_sequences(s)),
      m_showProbs(showProbs),
      m_stops(s.stop_strings) {}

namespace {
/// The length of the longest end of text that begins one of stops without completing it: printed now, it
/// would stand on the screen although the generation ends before it ("Ais a th" for --stop "the").
size_t open_stop_prefix(const std::string& text, const std::vector<std::string>& stops) {
    size_t longest = 0;
    for (const auto& s : stops)
        for (size_t k = std::min(s.size() - (s.empty() ? 0 : 1), text.size()); k > longest; --k)
            if (text.compare(text.size() - k, k, s, 0, k) == 0) {
                longest = k;
                break;
            }
    return longest;
}

/// With --show-probs on one terminal, each probability line on a line of its own (it was glued to the
/// token printed before it: "A[1] d p=0.0087").
bool one_terminal() {
    static const bool both = isatty(fileno(stdout)) && isatty(fileno(stderr));
    return both;
}
}  // namespace

void TokenPrinter::operator()(const TokenEvent& ev) {
    if (m_first < 0) {
        m_first = ms_since_process_start();
        if (!m_path.empty())  // said with the first token, so a generation that fails before it errs in one line
            std::fprintf(stderr, "twb: decoding with %s\n", m_path.c_str());
    }
    if (m_several)
        return;
    if (!m_started) {
        std::fwrite(m_prompt.data(), 1, m_prompt.size(), stdout);
        m_started = true;
    }
    if (m_showProbs) {
        if (one_terminal()) {
            std::fflush(stdout);
            std::fputc('\n', stderr);
        }
        std::string alts;
        for (auto& [id, p] : ev.alternatives) {
            char b[64];
            std::snprintf(b, sizeof b, " %s=%.3f", visible_whitespace(m_tokenText(id)).c_str(), p);
            alts += b;
        }
        std::fprintf(stderr, "[%lld] %s p=%.4f |%s\n", static_cast<long long>(ev.index),
                     visible_whitespace(m_tokenText(ev.token)).c_str(), ev.prob, alts.c_str());
    }
    m_text += ev.text;
    const size_t safe = m_text.size() - open_stop_prefix(m_text, m_stops);
    if (safe > m_printed) {
        std::fwrite(m_text.data() + m_printed, 1, safe - m_printed, stdout);
        m_printed = safe;
    }
    std::fflush(stdout);
}

void TokenPrinter::finish(const SampleResult& res) {
    // The held-back end, where the generation kept it (it ended before the stop string completed)
    if (m_several || !m_started || res.texts.empty())
        return;
    const std::string& kept = res.texts.front();
    if (kept.size() > m_printed && kept.compare(0, m_printed, m_text, 0, m_printed) == 0)
        std::fwrite(kept.data() + m_printed, 1, kept.size() - m_printed, stdout);
    std::fflush(stdout);
}

void print_result(const SampleResult& res, const std::string& prompt, const SamplingOptions& s, int64_t step) {
    if (several_sequences(s)) {
        for (size_t i = 0; i < res.texts.size(); ++i) {
            if (res.texts.size() > 1)
                std::printf("--- sample %zu (log-prob %.2f)\n", i + 1, res.logprob[i]);
            std::printf("%s%s\n", prompt.c_str(), res.texts[i].c_str());
        }
    } else {
        std::printf("\n");
    }
    std::fflush(stdout);  // before the summary on stderr (on a terminal it came first: "I to.twb: 20 tokens")
    for (auto& w : res.warnings)
        std::fprintf(stderr, "twb: warning: %s\n", w.c_str());
    if (s.beam_width > 1) {  // the output's tokens, not every hypothesis' (20 tokens of 4 beams read "80 tokens")
        int64_t out = 0;
        for (const auto& t : res.tokens)
            out += static_cast<int64_t>(t.size());
        std::fprintf(stderr,
                     "twb: %lld tokens (beam %d, %lld over all beams) in %.2f s (%.1f tokens/s)%s, "
                     "checkpoint step %lld\n",
                     static_cast<long long>(out), s.beam_width, static_cast<long long>(res.generated), res.seconds,
                     res.seconds > 0 ? static_cast<double>(out) / res.seconds : 0.0, res.cancelled ? ", cancelled" : "",
                     static_cast<long long>(step));
        return;
    }
    std::fprintf(stderr, "twb: %lld tokens in %.2f s (%.1f tokens/s)%s, checkpoint step %lld\n",
                 static_cast<long long>(res.generated), res.seconds, res.tokens_per_s,
                 res.cancelled ? ", cancelled" : "", static_cast<long long>(step));
}

void add_to_history(const std::string& run, int64_t step, const std::string& prompt, const SamplingOptions& s,
                    const SampleResult& res) {
    SampleRecord rec;
    rec.source = "cli";
    rec.checkpoint_step = step;
    rec.prompt = prompt;
    rec.options = s;
    rec.outputs = res.texts;
    rec.cancelled = res.cancelled;
    try {
        append_sample_history(run, rec);
    } catch (const Error& e) {
        std::fprintf(stderr, "twb: warning: the sample was not added to the run's history: %s\n", e.what());
    }
}

}  // namespace twb::cli
