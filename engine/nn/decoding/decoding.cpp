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

SampleResult beam_search(LogitsSource& src, const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos,
                         const std::function<std::string(const std::vector<int32_t>&)>& decode,
                         const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    const int W = opt.beam_width;
    struct Hyp {
        std::vector<int32_t> gen;
        double score;
    };
    std::vector<Hyp> alive(1, Hyp{{}, 0.0});
    std::vector<Hyp> finished;
    SampleResult res;
    auto normalised = [&](const Hyp& h) {
        return h.score / std::pow(std::max<size_t>(1, h.gen.size()), opt.length_penalty);
    };
    for (int step = 0; step < opt.max_new_tokens; ++step) {
        if (cancel && *cancel) {
            res.cancelled = true;
            break;
        }
        std::vector<std::vector<int32_t>> seqs;
        for (auto& h : alive) {
            auto s = prompt;
            s.insert(s.end(), h.gen.begin(), h.gen.end());
            seqs.push_back(std::move(s));
        }
        auto logits = src.next_logits(seqs);
        const int64_t V = logits.size(1);
        std::vector<std::tuple<double, int64_t, int32_t>> cands;  // score, parent, token
        std::vector<bool> ended(alive.size(), false);
        for (size_t b = 0; b < alive.size(); ++b) {
            auto row = logits[static_cast<int64_t>(b)].clone();
            check_logits(row);
            apply_repetition_penalty(row, seqs[b], opt.repetition_penalty);
            apply_no_repeat_ngram(row, seqs[b], opt.no_repeat_ngram);
            if (nothing_allowed(row)) {
                // This hypothesis cannot go on without breaking the rule: it ends here.
                ended[b] = true;
                finished.push_back(alive[b]);
                if (res.warnings.empty())
                    res.warnings.push_back(exhausted_warning(opt, static_cast<int64_t>(alive[b].gen.size())));
                continue;
            }
            auto lp = torch::log_softmax(row, 0);
            auto [vals, idx] = lp.topk(std::min<int64_t>(2 * W, V));
            for (int64_t j = 0; j < vals.size(0); ++j)
                cands.emplace_back(alive[b].score + vals[j].item<double>(), static_cast<int64_t>(b),
                                   static_cast<int32_t>(idx[j].item<int64_t>()));
        }
        std::sort(cands.begin(), cands.end(), [](auto& a, auto& b) { return std::get<0>(a) > std::get<0>(b); });
        std::vector<Hyp> next;
        std::vector<int64_t> parents;
        for (auto& [score, parent, tok] : cands) {
            if (std::isinf(score))
                continue;
            Hyp h{alive[static_cast<size_t>(parent)].gen, score};
            if (opt.stop_at_eos && tok == eos) {
                finished.push_back(h);
                continue;
            }
            h.gen.push_back(tok);
            next.push_back(std::move(h));
            parents.push_back(parent);
            if (static_cast<int>(next.size()) == W)
                break;
        }
        if (next.empty()) {
            std::vector<Hyp> rest;  // the ended ones are in finished already
            for (size_t b = 0; b < alive.size(); ++b)
                if (!ended[b])
                    rest.push_back(alive[b]);
            alive = std::move(rest);
            break;
        }
        res.generated += static_cast<int64_t>(next.size());
        // Done when W hypotheses have finished and none alive can still beat the best of them. The live
        // ones are unfinished prefixes then: they are not candidates (only those cut by max_new_tokens are).
        if (static_cast<int>(finished.size()) >= W) {
            double bestDone = -1e300;
            for (auto& f : finished)
                bestDone = std::max(bestDone, normalised(f));
            if (normalised(next.front()) <= bestDone) {
                alive.clear();
                break;
            }
        }
        src.reorder(parents);
        alive = std::move(next);
    }
    for (auto& h : alive)
        finished.push_back(h);
    std::sort(finished.begin(), finished.end(), [&](auto& a, auto& b) { return normalised(a) > normalised(b); });
    for (int i = 0; i < opt.num_samples && i < static_cast<int>(finished.size()); ++i) {
        const auto& h = finished[static_cast<size_t>(i)];
        res.tokens.push_back(h.gen);
        res.logprob.push_back(h.score);
        std::string text = decode(h.gen);
        for (auto& s : opt.stop_strings) {
            const size_t at = text.find(s);
            if (!s.empty() && at != std::string::npos)
                text.resize(at);
        }
        res.texts.push_back(text);
        if (on_token) {
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
    }
    return res;
}

}  // namespace

SampleResult generate_ids(LogitsSource& src, const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos,
                          const std::function<std::string(const std::vector<int32_t>&)>& decode,
                          const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    opt.validate();
    if (prompt.empty())
        throw InputError("the prompt is empty; give at least one token");
    const auto t0 = std::chrono::steady_clock::now();
    src.reset();
    SampleResult res;
    if (opt.beam_width > 1) {
        res = beam_search(src, prompt, opt, eos, decode, on_token, cancel);
    } else {
        const int B = opt.num_samples;
        const uint64_t seed = opt.seed >= 0 ? static_cast<uint64_t>(opt.seed) : std::random_device{}();
        auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
        std::vector<std::vector<int32_t>> seqs(static_cast<size_t>(B), prompt), out(static_cast<size_t>(B));
        std::vector<bool> done(static_cast<size_t>(B), false);
        std::vector<Streamer> streams(static_cast<size_t>(B));
        res.logprob.assign(static_cast<size_t>(B), 0.0);
        res.texts.assign(static_cast<size_t>(B), "");
        const int32_t filler = eos >= 0 ? eos : prompt.back();
        for (int step = 0; step < opt.max_new_tokens; ++step) {
            if (cancel && *cancel) {
                res.cancelled = true;
                break;
            }
            auto logits = src.next_logits(seqs);
            for (int b = 0; b < B; ++b) {
                auto& seq = seqs[static_cast<size_t>(b)];
                if (done[static_cast<size_t>(b)]) {
                    seq.push_back(filler);  // keeps the batch rectangular; ignored
                    continue;
                }
                auto row = logits[b].clone();
                check_logits(row);
                apply_repetition_penalty(row, seq, opt.repetition_penalty);
                apply_no_repeat_ngram(row, seq, opt.no_repeat_ngram);
                if (nothing_allowed(row)) {
                    done[static_cast<size_t>(b)] = true;
                    seq.push_back(filler);
                    const std::string w =
                        exhausted_warning(opt, static_cast<int64_t>(out[static_cast<size_t>(b)].size()));
                    if (std::find(res.warnings.begin(), res.warnings.end(), w) == res.warnings.end())
                        res.warnings.push_back(w);
                    continue;
                }
                const auto logp = torch::log_softmax(row, 0);
                int32_t tok;
                torch::Tensor shown;  // distribution reported to the user
                if (opt.temperature == 0) {
                    tok = static_cast<int32_t>(row.argmax().item<int64_t>());
                    shown = logp.exp();
                } else {
                    row.div_(opt.temperature);
                    shown = torch::softmax(row, 0);
                    apply_top_k(row, opt.top_k);
                    apply_top_p(row, opt.top_p);
                    const auto probs = torch::softmax(row, 0);
                    tok = static_cast<int32_t>(torch::multinomial(probs, 1, false, gen).item<int64_t>());
                }
                res.logprob[static_cast<size_t>(b)] += logp[tok].item<double>();
                seq.push_back(tok);
                ++res.generated;
                if (opt.stop_at_eos && tok == eos) {
                    done[static_cast<size_t>(b)] = true;
                    continue;
                }
                auto& o = out[static_cast<size_t>(b)];
                o.push_back(tok);
                std::string full = decode(o);
                bool stopHere = false;
                for (auto& s : opt.stop_strings) {
                    const size_t at = s.empty() ? std::string::npos : full.find(s);
                    if (at != std::string::npos) {
                        full.resize(at);
                        stopHere = true;
                    }
                }
                res.texts[static_cast<size_t>(b)] = full;
                if (on_token) {
                    TokenEvent ev;
                    ev.sample = b;
                    ev.index = static_cast<int64_t>(o.size()) - 1;
                    ev.token = tok;
                    ev.text = streams[static_cast<size_t>(b)].advance(full);
                    ev.prob = shown[tok].item<double>();
                    if (opt.alternatives > 0) {
                        auto [pv, pi] = shown.topk(std::min<int64_t>(opt.alternatives, shown.size(0)));
                        for (int64_t k = 0; k < pv.size(0); ++k)
                            ev.alternatives.emplace_back(static_cast<int>(pi[k].item<int64_t>()), pv[k].item<double>());
                    }
                    on_token(ev);
                }
                if (stopHere)
                    done[static_cast<size_t>(b)] = true;
            }
            if (std::all_of(done.begin(), done.end(), [](bool d) { return d; }))
                break;
        }
        res.tokens = out;
    }
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    res.tokens_per_s = res.seconds > 0 ? static_cast<double>(res.generated) / res.seconds : 0;
    return res;
}

}  // namespace twb::nn
