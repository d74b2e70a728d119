// Decoding strategies over a LogitsSource: the logit filters (repetition penalty, no-repeat-ngram,
// top-k, top-p), sampling and greedy choice, beam search with a length penalty, stop at <eos> or a stop
// string, streaming per token with probabilities and alternatives, and a cancel flag checked per token.
// Nothing here knows which model produces the logits.
#include "nn/decoding/decoding.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <set>

namespace twb::nn {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

/// NaN logits mean broken weights (or a diverged model): refused with a message, never sampled from.
void check_logits(const torch::Tensor& row) {
    if (torch::isnan(row).any().item<bool>())
        throw FormatError(
            "the model's output is NaN: its weights are broken (a diverged run?); sample from an earlier checkpoint");
}

/// True when the filters banned every token (e.g. a no-repeat-ngram that exhausted the vocabulary).
bool nothing_allowed(const torch::Tensor& row) {
    return row.max().item<float>() == kNegInf;
}

std::string exhausted_warning(const SamplingOptions& opt, int64_t at) {
    return "no-repeat-ngram " + std::to_string(opt.no_repeat_ngram) + " left no token to choose after " +
           std::to_string(at) + " generated tokens, so generation stopped there (use a larger n or a shorter output)";
}
}  // namespace

// ---------------------------------------------------------------- filters

void apply_repetition_penalty(torch::Tensor& logits, const std::vector<int32_t>& seq, double r) {
    if (r == 1.0 || seq.empty())
        return;
    auto* p = logits.data_ptr<float>();
    std::set<int32_t> seen(seq.begin(), seq.end());
    for (int32_t t : seen)
        p[t] = p[t] > 0 ? static_cast<float>(p[t] / r) : static_cast<float>(p[t] * r);
}

void apply_no_repeat_ngram(torch::Tensor& logits, const std::vector<int32_t>& seq, int n) {
    if (n <= 0 || static_cast<int>(seq.size()) < n - 1)
        return;
    auto* p = logits.data_ptr<float>();
    if (n == 1) {
        for (int32_t t : seq)
            p[t] = kNegInf;
        return;
    }
    const size_t L = seq.size();
    // The last n-1 tokens; any earlier occurrence of them bans the token that followed.
    for (size_t i = 0; i + n - 1 < L; ++i) {
        bool match = true;
        for (int k = 0; k < n - 1 && match; ++k)
            match = seq[i + static_cast<size_t>(k)] == seq[L - (n - 1) + static_cast<size_t>(k)];
        if (match)
            p[seq[i + static_cast<size_t>(n - 1)]] = kNegInf;
    }
}

void apply_top_k(torch::Tensor& logits, int k) {
    if (k <= 0 || k >= logits.size(0))
        return;
    const float kth = std::get<0>(logits.topk(k)).min().item<float>();
    logits.masked_fill_(logits < kth, kNegInf);
}

void apply_top_p(torch::Tensor& logits, double p) {
    if (p >= 1.0)
        return;
    auto [sorted, idx] = logits.sort(/*dim=*/0, /*descending=*/true);
    auto probs = torch::softmax(sorted, 0);
    auto cum = probs.cumsum(0);
    // Keep a token when the mass before it is still below p: the smallest set reaching p.
    auto remove = (cum - probs) >= p;
    logits.index_put_({idx.masked_select(remove)}, kNegInf);
}

// ---------------------------------------------------------------- decoding

namespace {

struct Streamer {
    std::string emitted;
    /// New complete text after the tokens so far (holds back an unfinished UTF-8 sequence).
    std::string advance(const std::string& full) {
        if (full.size() < emitted.size() || full.compare(0, emitted.size(), emitted) != 0) {
            // Decoding changed earlier text (rare with byte merges): emit nothing new until it settles.
            return {};
        }
        std::string_view rest = std::string_view(full).substr(emitted.size());
        rest = rest.substr(0, rest.size() - utf8_incomplete_tail(rest));
        emitted.append(rest);
        return std::string(rest);
    }
};

using Decode = std::function<std::string(const std::vector<int32_t>&)>;

/// Cuts text at the first stop string it holds; true when it did.
bool cut_at_stop_strings(std::string& text, const std::vector<std::string>& stops) {
    bool cut = false;
    for (auto& s : stops) {
        const size_t at = s.empty() ? std::string::npos : text.find(s);
        if (at != std::string::npos) {
            text.resize(at);
            cut = true;
        }
    }
    return cut;
}

/// Beam search: W hypotheses, each step's 2W best continuations of each, scores normalised by length.
class BeamSearch {
public:
    BeamSearch(LogitsSource& src, const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos)
        : m_src(src), m_prompt(prompt), m_opt(opt), m_eos(eos), m_alive(1, Hyp{{}, 0.0}) {}

    SampleResult run(const Decode& decode, const TokenCallback& on_token, const std::atomic<bool>* cancel) {
        for (int step = 0; step < m_opt.max_new_tokens; ++step) {
            if (cancel && *cancel) {
                m_res.cancelled = true;
                break;
            }
            if (!step_once())
                break;
        }
        for (auto& h : m_alive)
            m_finished.push_back(h);
        std::sort(m_finished.begin(), m_finished.end(),
                  [&](auto& a, auto& b) { return normalised(a) > normalised(b); });
        for (int i = 0; i < m_opt.num_samples && i < static_cast<int>(m_finished.size()); ++i)
            report(i, m_finished[static_cast<size_t>(i)], decode, on_token);
        return std::move(m_res);
    }

private:
    struct Hyp {
        std::vector<int32_t> gen;
        double score;
    };
    using Candidate = std::tuple<double, int64_t, int32_t>;  // score, parent, token

    double normalised(const Hyp& h) const {
        return h.score / std::pow(std::max<size_t>(1, h.gen.size()), m_opt.length_penalty);
    }

    /// One step: every live hypothesis's best continuations; false when the search is over.
    bool step_once() {
        std::vector<bool> ended(m_alive.size(), false);
        auto cands = candidates(ended);
        std::sort(cands.begin(), cands.end(), [](auto& a, auto& b) { return std::get<0>(a) > std::get<0>(b); });
        std::vector<Hyp> next;
        std::vector<int64_t> parents;
        for (auto& [score, parent, tok] : cands) {
            if (std::isinf(score))
                continue;
            Hyp h{m_alive[static_cast<size_t>(parent)].gen, score};
            if (m_opt.stop_at_eos && tok == m_eos) {
                m_finished.push_back(h);
                continue;
            }
            h.gen.push_back(tok);
            next.push_back(std::move(h));
            parents.push_back(parent);
            if (static_cast<int>(next.size()) == m_opt.beam_width)
                break;
        }
        if (next.empty()) {
            std::vector<Hyp> rest;  // the ended ones are in m_finished already
            for (size_t b = 0; b < m_alive.size(); ++b)
                if (!ended[b])
                    rest.push_back(m_alive[b]);
            m_alive = std::move(rest);
            return false;
        }
        m_res.generated += static_cast<int64_t>(next.size());
        if (best_is_finished(next.front())) {
            m_alive.clear();
            return false;
        }
        m_src.reorder(parents);
        m_alive = std::move(next);
        return true;
    }

    /// The 2W best continuations of each live hypothesis; one the filters leave no token ends (ended[b]).
    std::vector<Candidate> candidates(std::vector<bool>& ended) {
        std::vector<std::vector<int32_t>> seqs;
        for (auto& h : m_alive) {
            auto s = m_prompt;
            s.insert(s.end(), h.gen.begin(), h.gen.end());
            seqs.push_back(std::move(s));
        }
        auto logits = m_src.next_logits(seqs);
        const int64_t V = logits.size(1);
        std::vector<Candidate> cands;
        for (size_t b = 0; b < m_alive.size(); ++b) {
            auto row = logits[static_cast<int64_t>(b)].clone();
            check_logits(row);
            apply_repetition_penalty(row, seqs[b], m_opt.repetition_penalty);
            apply_no_repeat_ngram(row, seqs[b], m_opt.no_repeat_ngram);
            if (nothing_allowed(row)) {
                // This hypothesis cannot go on without breaking the rule: it ends here.
                ended[b] = true;
                m_finished.push_back(m_alive[b]);
                if (m_res.warnings.empty())
                    m_res.warnings.push_back(exhausted_warning(m_opt, static_cast<int64_t>(m_alive[b].gen.size())));
                continue;
            }
            auto lp = torch::log_softmax(row, 0);
            auto [vals, idx] = lp.topk(std::min<int64_t>(2 * m_opt.beam_width, V));
            for (int64_t j = 0; j < vals.size(0); ++j)
                cands.emplace_back(m_alive[b].score + vals[j].item<double>(), static_cast<int64_t>(b),
                                   static_cast<int32_t>(idx[j].item<int64_t>()));
        }
        return cands;
    }

    /// Done when W hypotheses have finished and none alive can still beat the best of them. The live ones
    /// are unfinished prefixes then: they are not candidates (only those cut by max_new_tokens are).
    bool best_is_finished(const Hyp& bestAlive) const {
        if (static_cast<int>(m_finished.size()) < m_opt.beam_width)
            return false;
        double bestDone = -1e300;
        for (auto& f : m_finished)
            bestDone = std::max(bestDone, normalised(f));
        return normalised(bestAlive) <= bestDone;
    }

    /// The i-th best hypothesis into the result, its tokens streamed to on_token.
    void report(int i, const Hyp& h, const Decode& decode, const TokenCallback& on_token) {
        m_res.tokens.push_back(h.gen);
        m_res.logprob.push_back(h.score);
        std::string text = decode(h.gen);
        cut_at_stop_strings(text, m_opt.stop_strings);
        m_res.texts.push_back(text);
        if (!on_token)
            return;
        Streamer st;
        std::vector<int32_t> sofar;
        for (size_t k = 0; k < h.gen.size(); ++k) {
            sofar.push_back(h.gen[k]);
            TokenEvent ev;
            ev.sample = i;
            ev.index = static_cast<int64_t>(k);
            ev.token = h.gen[k];
            ev.text = st.advance(decode(sofar));
            ev.prob = NAN;
            on_token(ev);
        }
    }

    LogitsSource& m_src;
    const std::vector<int32_t>& m_prompt;
    const SamplingOptions& m_opt;
    const int m_eos;
    std::vector<Hyp> m_alive, m_finished;
    SampleResult m_res;
};

/// Sampling or greedy choice for num_samples streams in one batch; a stream that ends (at <eos>, a stop
/// string, or when the filters leave no token) is fed a filler so the batch stays rectangular.
class StreamSampler {
public:
    StreamSampler(const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos)
        : m_opt(opt),
          m_eos(eos),
          m_B(static_cast<size_t>(opt.num_samples)),
          m_gen(at::make_generator<at::CPUGeneratorImpl>(opt.seed >= 0 ? static_cast<uint64_t>(opt.seed)
                                                                       : std::random_device{}())),
          m_seqs(m_B, prompt),
          m_out(m_B),
          m_done(m_B, false),
          m_streams(m_B),
          m_filler(eos >= 0 ? eos : prompt.back()) {
        m_res.logprob.assign(m_B, 0.0);
        m_res.texts.assign(m_B, "");
    }

    SampleResult run(LogitsSource& src, const Decode& decode, const TokenCallback& on_token,
                     const std::atomic<bool>* cancel) {
        src.expect_greedy(m_B == 1 && m_opt.temperature == 0 && m_opt.repetition_penalty == 1.0 &&
                          m_opt.no_repeat_ngram <= 0);
        for (int step = 0; step < m_opt.max_new_tokens; ++step) {
            if (cancel && *cancel) {
                m_res.cancelled = true;
                break;
            }
            auto logits = src.next_logits(m_seqs);
            for (size_t b = 0; b < m_B; ++b)
                step_stream(b, logits[static_cast<int64_t>(b)].clone(), decode, on_token);
            if (std::all_of(m_done.begin(), m_done.end(), [](bool d) { return d; }))
                break;
        }
        m_res.tokens = m_out;
        return std::move(m_res);
    }

private:
    void step_stream(size_t b, torch::Tensor row, const Decode& decode, const TokenCallback& on_token) {
        auto& seq = m_seqs[b];
        if (m_done[b]) {
            seq.push_back(m_filler);  // keeps the batch rectangular; ignored
            return;
        }
        check_logits(row);
        apply_repetition_penalty(row, seq, m_opt.repetition_penalty);
        apply_no_repeat_ngram(row, seq, m_opt.no_repeat_ngram);
        if (nothing_allowed(row)) {
            m_done[b] = true;
            seq.push_back(m_filler);
            const std::string w = exhausted_warning(m_opt, static_cast<int64_t>(m_out[b].size()));
            if (std::find(m_res.warnings.begin(), m_res.warnings.end(), w) == m_res.warnings.end())
                m_res.warnings.push_back(w);
            return;
        }
        const auto logp = torch::log_softmax(row, 0);
        torch::Tensor shown;  // distribution reported to the user
        const int32_t tok = pick(row, logp, shown);
        m_res.logprob[b] += logp[tok].item<double>();
        seq.push_back(tok);
        ++m_res.generated;
        if (m_opt.stop_at_eos && tok == m_eos) {
            m_done[b] = true;
            return;
        }
        auto& o = m_out[b];
        o.push_back(tok);
        std::string full = decode(o);
        const bool stopHere = cut_at_stop_strings(full, m_opt.stop_strings);
        m_res.texts[b] = full;
        if (on_token)
            on_token(event(b, tok, full, shown));
        if (stopHere)
            m_done[b] = true;
    }

    /// Greedy at temperature 0, else sampled after temperature, top-k and top-p.
    int32_t pick(torch::Tensor& row, const torch::Tensor& logp, torch::Tensor& shown) {
        if (m_opt.temperature == 0) {
            shown = logp.exp();
            return static_cast<int32_t>(row.argmax().item<int64_t>());
        }
        row.div_(m_opt.temperature);
        shown = torch::softmax(row, 0);
        apply_top_k(row, m_opt.top_k);
        apply_top_p(row, m_opt.top_p);
        const auto probs = torch::softmax(row, 0);
        return static_cast<int32_t>(torch::multinomial(probs, 1, false, m_gen).item<int64_t>());
    }

    TokenEvent event(size_t b, int32_t tok, const std::string& full, const torch::Tensor& shown) {
        TokenEvent ev;
        ev.sample = static_cast<int>(b);
        ev.index = static_cast<int64_t>(m_out[b].size()) - 1;
        ev.token = tok;
        ev.text = m_streams[b].advance(full);
        ev.prob = shown[tok].item<double>();
        if (m_opt.alternatives > 0) {
            auto [pv, pi] = shown.topk(std::min<int64_t>(m_opt.alternatives, shown.size(0)));
            for (int64_t k = 0; k < pv.size(0); ++k)
                ev.alternatives.emplace_back(static_cast<int>(pi[k].item<int64_t>()), pv[k].item<double>());
        }
        return ev;
    }

    const SamplingOptions& m_opt;
    const int m_eos;
    const size_t m_B;
    at::Generator m_gen;
    std::vector<std::vector<int32_t>> m_seqs, m_out;
    std::vector<bool> m_done;
    std::vector<Streamer> m_streams;
    const int32_t m_filler;
    SampleResult m_res;
};

}  // namespace

SampleResult generate_ids(LogitsSource& src, const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos,
                          const Decode& decode, const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    opt.validate();
    if (prompt.empty())
        throw InputError("the prompt is empty; give at least one token");
    const auto t0 = std::chrono::steady_clock::now();
    src.reset();
    src.expect_greedy(false);
    SampleResult res = opt.beam_width > 1 ? BeamSearch(src, prompt, opt, eos).run(decode, on_token, cancel)
                                          : StreamSampler(prompt, opt, eos).run(src, decode, on_token, cancel);
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    res.tokens_per_s = res.seconds > 0 ? static_cast<double>(res.generated) / res.seconds : 0;
    return res;
}

}  // namespace twb::nn
