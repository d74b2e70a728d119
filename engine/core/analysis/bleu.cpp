// BLEU and chrF, written from their definitions (Papineni et al. 2002; Popović 2015) with sacreBLEU's
// default choices so the numbers are comparable with published ones: 13a tokenization, corpus-level
// n-gram counts, brevity penalty, exponential smoothing for orders with no match.
#include "twb/bleu.h"

#include "twb/errors.h"

#include <cmath>
#include <map>
#include <regex>
#include <sstream>
#include <unordered_map>

namespace twb {

namespace {

void replace_all(std::string& s, const std::string& from, const std::string& to) {
    for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
        s.replace(p, from.size(), to);
}

std::vector<std::string> split_ws(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    std::string w;
    while (in >> w)
        out.push_back(w);
    return out;
}

/// n-gram counts of a token sequence for n = 1..4, keyed by the n tokens joined with '\x01'.
std::vector<std::unordered_map<std::string, int64_t>> ngrams(const std::vector<std::string>& toks, int maxN) {
    std::vector<std::unordered_map<std::string, int64_t>> out(static_cast<size_t>(maxN));
    for (int n = 1; n <= maxN; ++n)
        for (size_t i = 0; i + static_cast<size_t>(n) <= toks.size(); ++i) {
            std::string key = toks[i];
            for (int k = 1; k < n; ++k)
                key += '\x01' + toks[i + static_cast<size_t>(k)];
            ++out[static_cast<size_t>(n - 1)][key];
        }
    return out;
}

/// Code points of a UTF-8 string (invalid bytes count as one each).
std::vector<std::string> code_points(const std::string& s) {
    std::vector<std::string> out;
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
        if (i + len > s.size())
            len = 1;
        out.push_back(s.substr(i, len));
        i += len;
    }
    return out;
}

}  // namespace

std::string tokenize_13a(const std::string& input) {
    std::string line = input;
    replace_all(line, "<skipped>", "");
    replace_all(line, "-\n", "");
    replace_all(line, "\n", " ");
    if (line.find('&') != std::string::npos) {
        replace_all(line, "&quot;", "\"");
        replace_all(line, "&amp;", "&");
        replace_all(line, "&lt;", "<");
        replace_all(line, "&gt;", ">");
    }
    line = " " + line + " ";
    // The mteval-v13a rules, in order: punctuation and symbols become tokens; period and comma unless
    // between digits; a dash after a digit.
    static const std::regex punct(R"(([\{-\~\[-\` -\&\(-\+\:-\@\/]))");
    static const std::regex periodBefore(R"(([^0-9])([\.,]))");
    static const std::regex periodAfter(R"(([\.,])([^0-9]))");
    static const std::regex dash(R"(([0-9])(-))");
    line = std::regex_replace(line, punct, " $1 ");
    line = std::regex_replace(line, periodBefore, "$1 $2 ");
    line = std::regex_replace(line, periodAfter, " $1 $2");
    line = std::regex_replace(line, dash, "$1 $2 ");
    std::string out;
    for (const auto& w : split_ws(line))
        out += (out.empty() ? "" : " ") + w;
    return out;
}

BleuScore corpus_bleu(const std::vector<std::string>& hyps, const std::vector<std::string>& refs) {
    if (hyps.size() != refs.size())
        throw InputError("BLEU needs one reference per hypothesis: " + std::to_string(hyps.size()) + " hypotheses, " +
                         std::to_string(refs.size()) + " references");
    constexpr int N = 4;
    BleuScore b;
    b.correct.assign(N, 0);
    b.total.assign(N, 0);
    for (size_t s = 0; s < hyps.size(); ++s) {
        const auto h = split_ws(tokenize_13a(hyps[s])), r = split_ws(tokenize_13a(refs[s]));
        b.hyp_length += static_cast<int64_t>(h.size());
        b.ref_length += static_cast<int64_t>(r.size());
        const auto hc = ngrams(h, N), rc = ngrams(r, N);
        for (int n = 0; n < N; ++n) {
            b.total[static_cast<size_t>(n)] += std::max<int64_t>(0, static_cast<int64_t>(h.size()) - n);
            for (const auto& [g, c] : hc[static_cast<size_t>(n)]) {
                const auto it = rc[static_cast<size_t>(n)].find(g);
                if (it != rc[static_cast<size_t>(n)].end())
                    b.correct[static_cast<size_t>(n)] += std::min(c, it->second);
            }
        }
    }
    b.signature = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.x-compatible";
    b.precisions.assign(N, 0.0);
    double smooth = 1;
    for (int n = 0; n < N; ++n) {
        const auto correct = static_cast<double>(b.correct[static_cast<size_t>(n)]);
        const auto total = static_cast<double>(b.total[static_cast<size_t>(n)]);
        if (total == 0)
            break;
        if (correct == 0) {
            smooth *= 2;
            b.precisions[static_cast<size_t>(n)] = 100.0 / (smooth * total);
        } else {
            b.precisions[static_cast<size_t>(n)] = 100.0 * correct / total;
        }
    }
    if (b.hyp_length == 0)
        return b;
    b.brevity_penalty = b.hyp_length >= b.ref_length
                            ? 1.0
                            : std::exp(1.0 - static_cast<double>(b.ref_length) / static_cast<double>(b.hyp_length));
    double logSum = 0;
    for (double p : b.precisions)
        logSum += p > 0 ? std::log(p) : -9999999999.0;
    b.score = b.brevity_penalty * std::exp(logSum / N);
    return b;
}

ChrfScore corpus_chrf(const std::vector<std::string>& hyps, const std::vector<std::string>& refs) {
    if (hyps.size() != refs.size())
        throw InputError("chrF needs one reference per hypothesis: " + std::to_string(hyps.size()) + " hypotheses, " +
                         std::to_string(refs.size()) + " references");
    constexpr int N = 6;
    constexpr double beta = 2;
    std::vector<double> nHyp(N, 0), nRef(N, 0), nMatch(N, 0);
    auto chars = [](const std::string& s) {
        std::string joined;
        for (const auto& w : split_ws(s))
            joined += w;
        return code_points(joined);
    };
    for (size_t s = 0; s < hyps.size(); ++s) {
        const auto h = ngrams(chars(hyps[s]), N), r = ngrams(chars(refs[s]), N);
        for (int n = 0; n < N; ++n) {
            for (const auto& [g, c] : h[static_cast<size_t>(n)]) {
                nHyp[static_cast<size_t>(n)] += static_cast<double>(c);
                const auto it = r[static_cast<size_t>(n)].find(g);
                if (it != r[static_cast<size_t>(n)].end())
                    nMatch[static_cast<size_t>(n)] += static_cast<double>(std::min(c, it->second));
            }
            for (const auto& [g, c] : r[static_cast<size_t>(n)])
                nRef[static_cast<size_t>(n)] += static_cast<double>(c);
        }
    }
    constexpr double eps = 1e-16;
    double avgPrec = 0, avgRec = 0;
    int effective = 0;
    for (int n = 0; n < N; ++n) {
        const double prec =
            nHyp[static_cast<size_t>(n)] > 0 ? nMatch[static_cast<size_t>(n)] / nHyp[static_cast<size_t>(n)] : eps;
        const double rec =
            nRef[static_cast<size_t>(n)] > 0 ? nMatch[static_cast<size_t>(n)] / nRef[static_cast<size_t>(n)] : eps;
        effective += nHyp[static_cast<size_t>(n)] > 0 && nRef[static_cast<size_t>(n)] > 0;
        avgPrec += prec;
        avgRec += rec;
    }
    ChrfScore c;
    c.signature = "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.x-compatible";
    if (effective == 0)
        return c;
    avgPrec /= effective;
    avgRec /= effective;
    const double f = beta * beta;
    if (avgPrec + avgRec > 0)
        c.score = 100 * (1 + f) * avgPrec * avgRec / (f * avgPrec + avgRec);
    return c;
}

}  // namespace twb
