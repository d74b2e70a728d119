// twb sample / twb attention: through the engine's ModelSession (a translation run's attention: Translator),
// as the GUI does.
#include "app/twb/commands.h"
#include "app/twb/interrupt.h"
#include "twb/attention.h"
#include "twb/errors.h"
#include "twb/output_paths.h"
#include "twb/process.h"
#include "twb/samples_history.h"
#include "twb/session.h"
#include "twb/text.h"
#include "twb/translation.h"
#include "twb/translation_attention.h"

#include <cstdio>

namespace twb::cli {

namespace {
/// Generation of more than one sequence at a time (samples, beams) never takes the single-sequence path.
bool several_sequences(const SamplingOptions& s) {
    return s.num_samples > 1 || s.beam_width > 1;
}

struct SampleOpts {
    std::string run, checkpoint = "best", prompt, promptFile, decodeWeights = "auto";
    SamplingOptions s;
    bool greedy = false, noCache = false, showProbs = false, noHistory = false, timing = false;
    int beam = 1;
};

SamplingOptions sampling_of(const SampleOpts& o) {
    auto s = o.s;
    if (o.greedy)
        s.temperature = 0;
    s.beam_width = o.beam;
    s.use_kv_cache = !o.noCache;
    s.decode_weights = parse_decode_weights(o.decodeWeights);
    s.validate();
    return s;
}

/// One sequence's tokens as they come: the prompt first, then each token's text (and with --show-probs its
/// probability and alternatives on stderr). Several sequences are printed whole at the end instead.
class TokenPrinter {
public:
    TokenPrinter(const ModelSession& m, const std::string& prompt, const SamplingOptions& s, bool showProbs)
        : m_session(m),
          m_prompt(prompt),
          m_path(several_sequences(s) ? std::string() : m.decode_path(s)),
          m_several(several_sequences(s)),
          m_showProbs(showProbs) {}

    void operator()(const TokenEvent& ev) {
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
            std::string alts;
            for (auto& [id, p] : ev.alternatives) {
                char b[64];
                std::snprintf(b, sizeof b, " %s=%.3f", visible_whitespace(m_session.token_text(id)).c_str(), p);
                alts += b;
            }
            std::fprintf(stderr, "[%lld] %s p=%.4f |%s\n", static_cast<long long>(ev.index),
                         visible_whitespace(m_session.token_text(ev.token)).c_str(), ev.prob, alts.c_str());
        }
        std::fwrite(ev.text.data(), 1, ev.text.size(), stdout);
        std::fflush(stdout);
    }

    double first_token_ms() const { return m_first; }

private:
    const ModelSession& m_session;
    const std::string& m_prompt;
    const std::string m_path;
    const bool m_several, m_showProbs;
    double m_first = -1;
    bool m_started = false;
};

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
    for (auto& w : res.warnings)
        std::fprintf(stderr, "twb: warning: %s\n", w.c_str());
    std::fprintf(stderr, "twb: %lld tokens in %.2f s (%.1f tokens/s)%s, checkpoint step %lld\n",
                 static_cast<long long>(res.generated), res.seconds, res.tokens_per_s,
                 res.cancelled ? ", cancelled" : "", static_cast<long long>(step));
}

void add_to_history(const ModelSession& m, const std::string& prompt, const SamplingOptions& s,
                    const SampleResult& res) {
    SampleRecord rec;
    rec.source = "cli";
    rec.checkpoint_step = m.step();
    rec.prompt = prompt;
    rec.options = s;
    rec.outputs = res.texts;
    rec.cancelled = res.cancelled;
    try {
        append_sample_history(m.run(), rec);
    } catch (const Error& e) {
        std::fprintf(stderr, "twb: warning: the sample was not added to the run's history: %s\n", e.what());
    }
}

int run_sample(const SampleOpts& o) {
    std::string prompt = o.prompt;
    if (!o.promptFile.empty())
        prompt = read_file(o.promptFile, 16 << 20);  // 16 MiB: the model sees its last block anyway
    const SamplingOptions s = sampling_of(o);
    ModelSession m;
    m.open(o.run, o.checkpoint);
    const double loaded = ms_since_process_start();
    const auto ids = m.encode(prompt);
    TokenPrinter printer(m, prompt, s, o.showProbs);
    const auto& cancel = install_interrupt_flag();
    const auto res = m.generate(
        ids, s, [&](const TokenEvent& ev) { printer(ev); }, &cancel);
    print_result(res, prompt, s, m.step());
    if (o.timing) {
        const double end = ms_since_process_start(), first = printer.first_token_ms();
        std::fprintf(
            stderr, "twb: timing: loaded at %.0f ms, first token at %.0f ms, then %.3f ms/token, end at %.0f ms\n",
            loaded, first, res.generated > 1 ? (end - first) / static_cast<double>(res.generated - 1) : 0.0, end);
    }
    if (!o.noHistory)
        add_to_history(m, prompt, s, res);
    return res.cancelled ? 130 : 0;
}
}  // namespace

Action add_sample(CLI::App& app) {
    auto o = std::make_shared<SampleOpts>();
    app.add_option("--run,-r", o->run, "Run folder (from twb train) or a checkpoint folder")->required();
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    auto* promptOpt = app.add_option("--prompt,-p", o->prompt, "Text to continue (default: start of text)");
    app.add_option("--prompt-file", o->promptFile, "Read the prompt from a file")->excludes(promptOpt);
    app.add_option("--max-new-tokens,-n", o->s.max_new_tokens, "Tokens to generate (default 200)");
    app.add_option("--temperature,-t", o->s.temperature, "Sampling temperature; 0 = greedy (default 0.8)");
    app.add_option("--top-k", o->s.top_k, "Sample only from the k most probable tokens (0 = off)");
    app.add_option("--top-p", o->s.top_p, "Nucleus sampling: smallest set reaching this probability, in (0, 1]");
    app.add_flag("--greedy", o->greedy, "Always take the most probable token");
    auto* beamOpt = app.add_option("--beam", o->beam, "Beam search with this width (deterministic)");
    app.add_option("--length-penalty", o->s.length_penalty, "Beam score = log-prob / length^this (default 1)");
    app.add_option("--repetition-penalty", o->s.repetition_penalty, "> 1 discourages repeats (default 1 = off)");
    app.add_option("--no-repeat-ngram", o->s.no_repeat_ngram, "Never repeat an n-gram of this size");
    app.add_option("--num-samples", o->s.num_samples, "Independent samples, generated as one batch");
    app.add_option("--seed", o->s.seed, "Random seed (default: random)");
    app.add_option("--stop", o->s.stop_strings, "Stop when this text appears (repeatable)");
    app.add_flag("--no-kv-cache", o->noCache, "Recompute the whole context for every token (slow; for comparison)");
    app.add_option("--decode-weights", o->decodeWeights,
                   "auto (bfloat16 on CPUs with AVX2+FMA, else float32), float32 or bfloat16: the weights one "
                   "sequence is decoded with on the CPU")
        ->check(CLI::IsMember({"auto", "float32", "bfloat16"}));
    app.add_flag("--timing", o->timing,
                 "Print load, first-token and per-token times (ms since the process started) to stderr");
    app.add_flag("--show-probs", o->showProbs, "Print each token with its probability and alternatives")
        ->excludes(beamOpt);
    app.add_flag("--no-history", o->noHistory, "Do not add this generation to the run's samples.jsonl");
    return [o]() { return run_sample(*o); };
}

Action add_attention(CLI::App& app) {
    struct Opts {
        std::string run, checkpoint = "best", prompt, target, out;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder or checkpoint folder")->required();
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    app.add_option("--prompt,-p,--text", o->prompt,
                   "Text whose attention to capture (a translation run: the source sentence)")
        ->required();
    app.add_option("--target", o->target,
                   "A translation run only: the target sentence, teacher-forced (default: the model's greedy "
                   "translation)");
    app.add_option("--out,-o", o->out,
                   "Output JSON (the attention export format: tokens, weights[layer][head][query][key], "
                   "next_token_top; a translation run: encoder_self, decoder_self and cross)")
        ->required();
    return [o]() {
        check_output_file(o->out, {o->run}, true);
        if (is_encoder_decoder_run(o->run)) {
            Translator t;
            t.open(o->run, o->checkpoint);
            const auto a = t.attention(o->prompt, o->target);
            AttentionExportInfo info;
            info.checkpoint = t.checkpoint();
            info.step = t.step();
            write_translation_attention_json(o->out, a, info);
            for (auto& w : a.warnings)
                std::fprintf(stderr, "twb: warning: %s\n", w.c_str());
            if (a.target_from_model)
                std::fprintf(stderr, "target (the model's greedy translation): %s\n", a.target.c_str());
            std::printf(
                "wrote %s: encoder %lld x %lld over %lld source tokens, decoder %lld x %lld over %lld target "
                "tokens, cross-attention %lld x %lld source\n",
                o->out.c_str(), static_cast<long long>(a.encoder.layers), static_cast<long long>(a.encoder.heads),
                static_cast<long long>(a.encoder.length), static_cast<long long>(a.decoder.layers),
                static_cast<long long>(a.decoder.heads), static_cast<long long>(a.decoder.length),
                static_cast<long long>(a.cross.length), static_cast<long long>(a.cross.keys()));
            return 0;
        }
        if (!o->target.empty())
            throw InputError("--target is for translation (encoder-decoder) runs; " + o->run +
                             " is a decoder LM: drop --target");
        ModelSession m;
        m.open(o->run, o->checkpoint);
        const auto cap = m.attention(o->prompt);
        AttentionExportInfo info;
        info.checkpoint = m.checkpoint();
        info.step = m.step();
        info.token_text = [&](int id) { return m.token_text(id); };
        write_attention_json(o->out, cap, info);
        for (auto& w : cap.warnings)
            std::fprintf(stderr, "twb: warning: %s\n", w.c_str());
        std::printf("wrote %s: %lld layers x %lld heads x %lld tokens\n", o->out.c_str(),
                    static_cast<long long>(cap.layers), static_cast<long long>(cap.heads),
                    static_cast<long long>(cap.length));
        return 0;
    };
}

}  // namespace twb::cli
