// Decoding strategies over a LogitsSource: beam search with a length penalty here, greedy choice and
// sampling through the stream sampler (core/decoding/stream_sampler.h), whose logit filters the beams use
// too. Nothing here knows which model produces the logits.
#include "nn/decoding/decoding.h"

#include "twb/errors.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace twb::nn {

// ---------------------------------------------------------------- filters (core/decoding/stream_sampler.h)

namespace {
/// A (V) row's floats, contiguous on the CPU (the filters' input and output).
float* row_data(torch::Tensor& row) {
    if (row.device().is_cpu() && row.scalar_type() == torch::kFloat32 && row.is_contiguous())
        return row.data_ptr<float>();
    row = row.to(torch::kCPU, torch::kFloat32).contiguous();
    return row.data_ptr<float>();
}
}  // namespace

void apply_repetition_penalty(torch::Tensor& logits, const std::vector<int32_t>& seq, double r) {
    penalise_repeats(row_data(logits), seq, r);
}

void apply_no_repeat_ngram(torch::Tensor& logits, const std::vector<int32_t>& seq, int n) {
    ban_repeated_ngrams(row_data(logits), seq, n);
}

void apply_top_k(torch::Tensor& logits, int k) {
    keep_top_k(row_data(logits), logits.size(0), k);
}

void apply_top_p(torch::Tensor& logits, double p) {
    keep_top_p(row_data(logits), logits.size(0), p);
}

// ---------------------------------------------------------------- decoding

namespace {

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
            check_logits(row_data(row), V);
            apply_repetition_penalty(row, seqs[b], m_opt.repetition_penalty);
            apply_no_repeat_ngram(row, seqs[b], m_opt.no_repeat_ngram);
            if (nothing_allowed(row.data_ptr<float>(), V)) {
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

/// A LogitsSource's (B, V) tensors as the stream sampler's plain rows.
class TensorRows : public RowSource {
public:
    explicit TensorRows(LogitsSource& src) : m_src(src) {}
    int64_t next_rows(const std::vector<std::vector<int32_t>>& seqs, std::vector<float>& out) override {
        const auto logits = m_src.next_logits(seqs).to(torch::kCPU, torch::kFloat32).contiguous();
        out.assign(logits.data_ptr<float>(), logits.data_ptr<float>() + logits.numel());
        return logits.size(1);
    }
    void reset() override { m_src.reset(); }
    void expect_greedy(bool greedy) override { m_src.expect_greedy(greedy); }

private:
    LogitsSource& m_src;
};

}  // namespace

SampleResult generate_ids(LogitsSource& src, const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos,
                          const Decode& decode, const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    src.expect_greedy(false);
    if (opt.beam_width <= 1) {
        TensorRows rows(src);
        return sample_streams(rows, prompt, opt, eos, decode, on_token, cancel);
    }
    opt.validate();
    if (prompt.empty())
        throw InputError("the prompt is empty; give at least one token");
    const auto t0 = std::chrono::steady_clock::now();
    src.reset();
    SampleResult res = BeamSearch(src, prompt, opt, eos).run(decode, on_token, cancel);
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    res.tokens_per_s = res.seconds > 0 ? static_cast<double>(res.generated) / res.seconds : 0;
    return res;
}

}  // namespace twb::nn
