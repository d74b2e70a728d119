// Greedy choice and sampling over plain rows of logits (stream_sampler.h).
#include "core/decoding/stream_sampler.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <set>

namespace twb {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

/// log of the sum of exp over the row, from its largest value (-inf when every value is).
double log_sum_exp(const float* row, int64_t V) {
    const float mx = *std::max_element(row, row + V);
    if (mx == kNegInf)
        return -std::numeric_limits<double>::infinity();
    double s = 0;
    for (int64_t i = 0; i < V; ++i)
        s += std::exp(static_cast<double>(row[i]) - mx);
    return mx + std::log(s);
}

/// The row's probabilities: exp(row - log_sum_exp).
std::vector<double> softmax(const float* row, int64_t V) {
    const double lse = log_sum_exp(row, V);
    std::vector<double> p(static_cast<size_t>(V));
    for (int64_t i = 0; i < V; ++i)
        p[static_cast<size_t>(i)] = std::exp(static_cast<double>(row[i]) - lse);
    return p;
}
}  // namespace

// ---------------------------------------------------------------- filters

void penalise_repeats(float* row, const std::vector<int32_t>& seq, double r) {
    if (r == 1.0 || seq.empty())
        return;
    for (int32_t t : std::set<int32_t>(seq.begin(), seq.end()))
        row[t] = row[t] > 0 ? static_cast<float>(row[t] / r) : static_cast<float>(row[t] * r);
}

void ban_repeated_ngrams(float* row, const std::vector<int32_t>& seq, int n) {
    if (n <= 0 || static_cast<int>(seq.size()) < n - 1)
        return;
    if (n == 1) {
        for (int32_t t : seq)
            row[t] = kNegInf;
        return;
    }
    const size_t L = seq.size();
    // The last n-1 tokens; any earlier occurrence of them bans the token that followed.
    for (size_t i = 0; i + n - 1 < L; ++i) {
        bool match = true;
        for (int k = 0; k < n - 1 && match; ++k)
            match = seq[i + static_cast<size_t>(k)] == seq[L - (n - 1) + static_cast<size_t>(k)];
        if (match)
            row[seq[i + static_cast<size_t>(n - 1)]] = kNegInf;
    }
}

void keep_top_k(float* row, int64_t V, int k) {
    if (k <= 0 || k >= V)
        return;
    std::vector<float> v(row, row + V);
    std::nth_element(v.begin(), v.begin() + (k - 1), v.end(), std::greater<float>());
    const float kth = v[static_cast<size_t>(k - 1)];
    for (int64_t i = 0; i < V; ++i)
        if (row[i] < kth)
            row[i] = kNegInf;
}

void keep_top_p(float* row, int64_t V, double p) {
    if (p >= 1.0)
        return;
    std::vector<int64_t> order(static_cast<size_t>(V));
    std::iota(order.begin(), order.end(), int64_t{0});
    std::stable_sort(order.begin(), order.end(), [row](int64_t a, int64_t b) { return row[a] > row[b]; });
    const std::vector<double> probs = softmax(row, V);
    // Keep a token while the mass before it is still below p: the smallest set reaching p.
    double before = 0;
    for (const int64_t i : order) {
        const double pi = probs[static_cast<size_t>(i)];
        if (before >= p)
            row[i] = kNegInf;
        before += pi;
    }
}

void check_logits(const float* row, int64_t V) {
    if (std::any_of(row, row + V, [](float x) { return std::isnan(x); }))
        throw FormatError(
            "the model's output is NaN: its weights are broken (a diverged run?); sample from an earlier checkpoint");
}

bool nothing_allowed(const float* row, int64_t V) {
    return std::all_of(row, row + V, [](float x) { return x == kNegInf; });
}

std::string exhausted_warning(const SamplingOptions& opt, int64_t at) {
    return "no-repeat-ngram " + std::to_string(opt.no_repeat_ngram) + " left no token to choose after " +
           std::to_string(at) + " generated tokens, so generation stopped there (use a larger n or a shorter output)";
}

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

std::string Streamer::advance(const std::string& full) {
    if (full.size() < emitted.size() || full.compare(0, emitted.size(), emitted) != 0) {
        // Decoding changed earlier text (rare with byte merges): emit nothing new until it settles.
        return {};
    }
    std::string_view rest = std::string_view(full).substr(emitted.size());
    rest = rest.substr(0, rest.size() - utf8_incomplete_tail(rest));
    emitted.append(rest);
    return std::string(rest);
}

// ---------------------------------------------------------------- sampling

namespace {

class StreamSampler {
public:
    StreamSampler(const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos)
        : m_opt(opt),
          m_eos(eos),
          m_B(static_cast<size_t>(opt.num_samples)),
          m_gen(opt.seed >= 0 ? static_cast<uint64_t>(opt.seed) : std::random_device{}()),
          m_seqs(m_B, prompt),
          m_out(m_B),
          m_done(m_B, false),
          m_streams(m_B),
          m_filler(eos >= 0 ? eos : prompt.back()) {
        m_res.logprob.assign(m_B, 0.0);
        m_res.texts.assign(m_B, "");
    }

    SampleResult run(RowSource& src, const Decode& decode, const TokenCallback& on_token,
                     const std::atomic<bool>* cancel) {
        src.expect_greedy(m_B == 1 && m_opt.temperature == 0 && m_opt.repetition_penalty == 1.0 &&
                          m_opt.no_repeat_ngram <= 0);
        std::vector<float> rows;
        for (int step = 0; step < m_opt.max_new_tokens; ++step) {
            if (cancel && *cancel) {
                m_res.cancelled = true;
                break;
            }
            const int64_t V = src.next_rows(m_seqs, rows);
            for (size_t b = 0; b < m_B; ++b)
                step_stream(b, rows.data() + static_cast<int64_t>(b) * V, V, decode, on_token);
            if (std::all_of(m_done.begin(), m_done.end(), [](bool d) { return d; }))
                break;
        }
        m_res.tokens = m_out;
        return std::move(m_res);
    }

private:
    void step_stream(size_t b, float* row, int64_t V, const Decode& decode, const TokenCallback& on_token) {
        auto& seq = m_seqs[b];
        if (m_done[b]) {
            seq.push_back(m_filler);  // keeps the batch rectangular; ignored
            return;
        }
        check_logits(row, V);
        penalise_repeats(row, seq, m_opt.repetition_penalty);
        ban_repeated_ngrams(row, seq, m_opt.no_repeat_ngram);
        if (nothing_allowed(row, V)) {
            m_done[b] = true;
            seq.push_back(m_filler);
            const std::string w = exhausted_warning(m_opt, static_cast<int64_t>(m_out[b].size()));
            if (std::find(m_res.warnings.begin(), m_res.warnings.end(), w) == m_res.warnings.end())
                m_res.warnings.push_back(w);
            return;
        }
        const double lse = log_sum_exp(row, V);
        std::vector<double> shown;  // the distribution reported to the user
        const int32_t tok = pick(row, V, lse, shown);
        m_res.logprob[b] += static_cast<double>(row[tok]) - lse;
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

    /// Greedy at temperature 0, else a draw after temperature, top-k and top-p (row itself unchanged).
    /// `shown` gets the distribution the user sees: the penalised logits' (greedy) or the tempered ones'
    /// before top-k/p.
    int32_t pick(const float* row, int64_t V, double lse, std::vector<double>& shown) {
        if (m_opt.temperature == 0) {
            shown.resize(static_cast<size_t>(V));
            for (int64_t i = 0; i < V; ++i)
                shown[static_cast<size_t>(i)] = std::exp(static_cast<double>(row[i]) - lse);
            return static_cast<int32_t>(std::max_element(row, row + V) - row);
        }
        m_tempered.resize(static_cast<size_t>(V));
        float* t = m_tempered.data();
        for (int64_t i = 0; i < V; ++i)
            t[i] = static_cast<float>(row[i] / m_opt.temperature);
        shown = softmax(t, V);
        keep_top_k(t, V, m_opt.top_k);
        keep_top_p(t, V, m_opt.top_p);
        const std::vector<double> probs = softmax(t, V);
        // The first token whose cumulative probability passes a uniform draw in [0, 1).
        const double u = static_cast<double>(m_gen() >> 11) * 0x1.0p-53;
        double cum = 0;
        int64_t last = -1;
        for (int64_t i = 0; i < V; ++i) {
            const double p = probs[static_cast<size_t>(i)];
            if (p <= 0)
                continue;
            cum += p;
            last = i;
            if (cum > u)
                return static_cast<int32_t>(i);
        }
        return static_cast<int32_t>(last);  // rounding left the sum just under u
    }

    TokenEvent event(size_t b, int32_t tok, const std::string& full, const std::vector<double>& shown) {
        TokenEvent ev;
        ev.sample = static_cast<int>(b);
        ev.index = static_cast<int64_t>(m_out[b].size()) - 1;
        ev.token = tok;
        ev.text = m_streams[b].advance(full);
        ev.prob = shown[static_cast<size_t>(tok)];
        if (m_opt.alternatives > 0) {
            const size_t k = std::min<size_t>(static_cast<size_t>(m_opt.alternatives), shown.size());
            std::vector<int> ids(shown.size());
            std::iota(ids.begin(), ids.end(), 0);
            std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(k), ids.end(), [&](int a, int c) {
                return shown[static_cast<size_t>(a)] > shown[static_cast<size_t>(c)] ||
                       (shown[static_cast<size_t>(a)] == shown[static_cast<size_t>(c)] && a < c);
            });
            for (size_t i = 0; i < k; ++i)
                ev.alternatives.emplace_back(ids[i], shown[static_cast<size_t>(ids[i])]);
        }
        return ev;
    }

    const SamplingOptions& m_opt;
    const int m_eos;
    const size_t m_B;
    std::mt19937_64 m_gen;
    std::vector<std::vector<int32_t>> m_seqs, m_out;
    std::vector<bool> m_done;
    std::vector<Streamer> m_streams;
    const int32_t m_filler;
    std::vector<float> m_tempered;  // the row after temperature and top-k/p, drawn from
    SampleResult m_res;
};

}  // namespace

SampleResult sample_streams(RowSource& src, const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos,
                            const Decode& decode, const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    opt.validate();
    if (prompt.empty())
        throw InputError("the prompt is empty; give at least one token");
    const auto t0 = std::chrono::steady_clock::now();
    src.reset();
    SampleResult res = StreamSampler(prompt, opt, eos).run(src, decode, on_token, cancel);
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    res.tokens_per_s = res.seconds > 0 ? static_cast<double>(res.generated) / res.seconds : 0;
    return res;
}

}  // namespace twb
