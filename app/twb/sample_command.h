// `twb sample`'s options and its run over either session: ModelSession (libtorch, cmd_sample.cpp) or
// CpuSession (no libtorch, light_main.cpp). One definition of the options, the printing and the history,
// so both programs parse and print alike.
#pragma once
#include "app/twb/commands.h"
#include "app/twb/interrupt.h"
#include "twb/generation.h"
#include "twb/process.h"

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace twb::cli {

struct SampleOpts {
    std::string run, checkpoint = "best", prompt, promptFile, decodeWeights = "auto";
    SamplingOptions s;
    bool greedy = false, noCache = false, showProbs = false, noHistory = false, timing = false;
    int beam = -1;  // --beam not given
};

/// Registers the filters `twb sample` and `twb chat` share (--top-k, --top-p, --repetition-penalty) into s.
void add_filter_options(CLI::App& app, SamplingOptions& s);
/// Registers the options of `twb sample` on app, into o.
void add_sample_options(CLI::App& app, SampleOpts& o);
/// The sampling options the command line asks for (ConfigError for a bad value).
SamplingOptions sampling_of(const SampleOpts& o);
/// --prompt or the text of --prompt-file.
std::string prompt_of(const SampleOpts& o);

/// One sequence's tokens as they come: the prompt first, then each token's text (and with --show-probs its
/// probability and alternatives on stderr). Several sequences are printed whole at the end instead.
class TokenPrinter {
public:
    TokenPrinter(std::function<std::string(int)> token_text, const std::string& prompt, const SamplingOptions& s,
                 std::string path, bool showProbs);
    void operator()(const TokenEvent& ev);
    /// What the generation kept that is not printed yet (text held back while it could begin a --stop string).
    void finish(const SampleResult& res);
    double first_token_ms() const { return m_first; }

private:
    std::function<std::string(int)> m_tokenText;
    const std::string& m_prompt;
    const std::string m_path;
    const bool m_several, m_showProbs;
    const std::vector<std::string> m_stops;
    std::string m_text;    // the generated text so far
    size_t m_printed = 0;  // how much of it is on stdout: never the start of a stop string that may yet complete
    double m_first = -1;
    bool m_started = false;
};

/// Generation of more than one sequence at a time (samples, beams) never takes the single-sequence path.
bool several_sequences(const SamplingOptions& s);
/// The texts (several sequences) or the closing newline, the warnings, and the summary line on stderr.
void print_result(const SampleResult& res, const std::string& prompt, const SamplingOptions& s, int64_t step);
/// Appends the generation to RUN/samples.jsonl (a warning when it cannot).
void add_to_history(const std::string& run, int64_t step, const std::string& prompt, const SamplingOptions& s,
                    const SampleResult& res);

/// Whether libtorch is in this process (a library whose name holds "libtorch"), for --timing.
bool libtorch_loaded();

/// The command over an open session: encode, generate with the tokens printed as they come, the summary,
/// --timing's line, the history. Returns the exit status.
template <class Session>
int sample_with(Session& m, const SampleOpts& o, const SamplingOptions& s, const std::string& prompt) {
    const double loaded = ms_since_process_start();
    const auto ids = m.encode(prompt);
    TokenPrinter printer([&m](int id) { return m.token_text(id); }, prompt, s,
                         several_sequences(s) ? std::string() : m.decode_path(s), o.showProbs);
    const auto& cancel = install_interrupt_flag();
    const auto res = m.generate(
        ids, s, [&](const TokenEvent& ev) { printer(ev); }, &cancel);
    printer.finish(res);
    print_result(res, prompt, s, m.step());
    if (o.timing) {
        const double end = ms_since_process_start(), first = printer.first_token_ms();
        if (first < 0)  // nothing generated (-n 0, a prompt that stopped at once)
            std::fprintf(stderr, "twb: timing: loaded at %.0f ms, no token, end at %.0f ms, libtorch %s\n", loaded, end,
                         libtorch_loaded() ? "loaded" : "not loaded");
        else
            std::fprintf(stderr,
                         "twb: timing: loaded at %.0f ms, first token at %.0f ms, then %.3f ms/token, end at %.0f "
                         "ms, libtorch %s\n",
                         loaded, first,
                         res.generated > 1 ? (end - first) / static_cast<double>(res.generated - 1) : 0.0, end,
                         libtorch_loaded() ? "loaded" : "not loaded");
    }
    if (!o.noHistory)
        add_to_history(m.run(), m.step(), prompt, s, res);
    return res.cancelled ? 130 : 0;
}

}  // namespace twb::cli
