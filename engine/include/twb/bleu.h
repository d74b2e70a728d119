// Corpus BLEU and chrF as sacreBLEU computes them by default, on detokenized text: BLEU with the 13a
// tokenizer, n-grams up to 4, the brevity penalty and exponential smoothing; chrF with character
// n-grams up to 6 (whitespace removed) and beta 2. One reference per hypothesis. Scores are 0..100.
// Public API; no torch.
#pragma once
#include <string>
#include <vector>

namespace twb {

struct BleuScore {
    double score = 0;                // 0..100
    std::vector<double> precisions;  // per n-gram order, 0..100 (smoothed where a count was 0)
    double brevity_penalty = 1;
    int64_t hyp_length = 0, ref_length = 0;  // tokens after 13a tokenization
    std::vector<int64_t> correct, total;     // matched and total n-grams per order
    std::string signature;                   // "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.x-compatible"
};

/// sacreBLEU's 13a tokenization of one line (the default of WMT's mteval-v13a).
std::string tokenize_13a(const std::string& line);

/// Corpus BLEU of hypotheses against references, line by line. Throws InputError when the counts differ.
BleuScore corpus_bleu(const std::vector<std::string>& hypotheses, const std::vector<std::string>& references);

struct ChrfScore {
    double score = 0;  // 0..100
    std::string signature;
};
/// Corpus chrF (character 6-grams, beta 2, whitespace ignored), statistics summed over the corpus.
ChrfScore corpus_chrf(const std::vector<std::string>& hypotheses, const std::vector<std::string>& references);

}  // namespace twb
