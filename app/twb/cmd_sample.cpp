// twb sample / twb attention.
#include "app/twb/commands.h"
#include "engine/data/errors.h"
#include "engine/data/text_utils.h"
#include "engine/nn/sampler.h"

#include <csignal>
#include <cstdio>

namespace twb::cli {

namespace {
std::atomic<bool> g_cancel{false};
extern "C" void on_sigint_sample(int) {
    if (g_cancel) std::_Exit(130);
    g_cancel = true;
}
} // namespace

Action add_sample(CLI::App& app) {
    struct Opts {
        std::string run, checkpoint = "best", prompt, promptFile;
        nn::SamplingOptions s;
        bool greedy = false, noCache = false, showProbs = false;
        int beam = 1;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder (from twb train) or a checkpoint folder")->required();
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    app.add_option("--prompt,-p", o->prompt, "Text to continue (default: start of text)");
    app.add_option("--prompt-file", o->promptFile, "Read the prompt from a file");
    app.add_option("--max-new-tokens,-n", o->s.max_new_tokens, "Tokens to generate (default 200)");
    app.add_option("--temperature,-t", o->s.temperature, "Sampling temperature; 0 = greedy (default 0.8)");
    app.add_option("--top-k", o->s.top_k, "Sample only from the k most probable tokens (0 = off)");
    app.add_option("--top-p", o->s.top_p, "Nucleus sampling: smallest set reaching this probability, in (0, 1]");
    app.add_flag("--greedy", o->greedy, "Always take the most probable token");
    app.add_option("--beam", o->beam, "Beam search with this width (deterministic)");
    app.add_option("--length-penalty", o->s.length_penalty, "Beam score = log-prob / length^this (default 1)");
    app.add_option("--repetition-penalty", o->s.repetition_penalty, "> 1 discourages repeats (default 1 = off)");
    app.add_option("--no-repeat-ngram", o->s.no_repeat_ngram, "Never repeat an n-gram of this size");
    app.add_option("--num-samples", o->s.num_samples, "Independent samples, generated as one batch");
    app.add_option("--seed", o->s.seed, "Random seed (default: random)");
    app.add_option("--stop", o->s.stop_strings, "Stop when this text appears (repeatable)");
    app.add_flag("--no-kv-cache", o->noCache, "Recompute the whole context for every token (slow; for comparison)");
    app.add_flag("--show-probs", o->showProbs, "Print each token with its probability and alternatives");
    return [o]() {
        std::string prompt = o->prompt;
        if (!o->promptFile.empty()) prompt = read_file(o->promptFile);
        auto s = o->s;
        if (o->greedy) s.temperature = 0;
        s.beam_width = o->beam;
        s.use_kv_cache = !o->noCache;
        s.validate();
        auto m = nn::load_model(o->run, o->checkpoint);
        std::signal(SIGINT, on_sigint_sample);
        const bool several = s.num_samples > 1;
        int current = -1;
        auto res = nn::generate_text(m, prompt, s, [&](const nn::TokenEvent& ev) {
            if (several || s.beam_width > 1) return;  // printed whole at the end
            if (current < 0) {
                std::fwrite(prompt.data(), 1, prompt.size(), stdout);
                current = 0;
            }
            if (o->showProbs) {
                std::string alts;
                for (auto& [id, p] : ev.alternatives) {
                    char b[64];
                    std::snprintf(b, sizeof b, " %s=%.3f", visible_whitespace(m.tokenizer->token_text(id)).c_str(), p);
                    alts += b;
                }
                std::fprintf(stderr, "[%lld] %s p=%.4f |%s\n", static_cast<long long>(ev.index),
                             visible_whitespace(m.tokenizer->token_text(ev.token)).c_str(), ev.prob, alts.c_str());
            }
            std::fwrite(ev.text.data(), 1, ev.text.size(), stdout);
            std::fflush(stdout);
        }, &g_cancel);
        if (several || s.beam_width > 1) {
            for (size_t i = 0; i < res.texts.size(); ++i) {
                if (res.texts.size() > 1) std::printf("--- sample %zu (log-prob %.2f)\n", i + 1, res.logprob[i]);
                std::printf("%s%s\n", prompt.c_str(), res.texts[i].c_str());
            }
        } else {
            std::printf("\n");
        }
        for (auto& w : res.warnings) std::fprintf(stderr, "twb: warning: %s\n", w.c_str());
        std::fprintf(stderr, "twb: %lld tokens in %.2f s (%.1f tokens/s)%s, checkpoint step %lld\n",
                     static_cast<long long>(res.generated), res.seconds, res.tokens_per_s,
                     res.cancelled ? ", cancelled" : "", static_cast<long long>(m.step));
        return res.cancelled ? 130 : 0;
    };
}

Action add_attention(CLI::App& app) {
    struct Opts {
        std::string run, checkpoint = "best", prompt, out;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder or checkpoint folder")->required();
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    app.add_option("--prompt,-p", o->prompt, "Text whose attention to capture")->required();
    app.add_option("--out,-o", o->out, "Output JSON: {tokens, weights[layer][head][query][key]}")->required();
    return [o]() {
        auto m = nn::load_model(o->run, o->checkpoint);
        const auto cap = nn::capture_attention(m, o->prompt);
        nlohmann::json j;
        j["tokens"] = cap.tokens;
        j["layers"] = cap.layers;
        j["heads"] = cap.heads;
        j["checkpoint"] = m.checkpoint;
        j["step"] = m.step;
        nlohmann::json w = nlohmann::json::array();
        for (int64_t l = 0; l < cap.layers; ++l) {
            nlohmann::json lh = nlohmann::json::array();
            for (int64_t h = 0; h < cap.heads; ++h) {
                nlohmann::json rows = nlohmann::json::array();
                for (int64_t q = 0; q < cap.length; ++q) {
                    std::vector<float> r(static_cast<size_t>(cap.length));
                    for (int64_t k = 0; k < cap.length; ++k) r[static_cast<size_t>(k)] = cap.at(l, h, q, k);
                    rows.push_back(r);
                }
                lh.push_back(rows);
            }
            w.push_back(lh);
        }
        j["weights"] = w;
        nlohmann::json next = nlohmann::json::array();
        for (auto& row : cap.next_top) {
            nlohmann::json r = nlohmann::json::array();
            for (auto& [id, p] : row) r.push_back({{"token", m.tokenizer->token_text(id)}, {"prob", p}});
            next.push_back(r);
        }
        j["next_token_top"] = next;
        write_file_atomic(o->out, j.dump());
        for (auto& w2 : cap.warnings) std::fprintf(stderr, "twb: warning: %s\n", w2.c_str());
        std::printf("wrote %s: %lld layers x %lld heads x %lld tokens\n", o->out.c_str(),
                    static_cast<long long>(cap.layers), static_cast<long long>(cap.heads),
                    static_cast<long long>(cap.length));
        return 0;
    };
}

} // namespace twb::cli
