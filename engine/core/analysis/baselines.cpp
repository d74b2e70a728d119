// Reference baselines for a prepared dataset: uniform, unigram and add-k bigram models fitted on the
// train split and scored on the validation split in the trainer's units.
#include "twb/baselines.h"
#include "core/data/token_file.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/metrics.h"

#include <cmath>
#include <unordered_map>

namespace twb {

namespace {

BaselineResult result(const char* name, double nats, double correct, double n, double charsPerToken) {
    const SplitMetrics m = split_metrics(nats / n, correct / n, charsPerToken);
    return {name, m.loss, m.accuracy, m.perplexity, m.bits_per_char};
}

}  // namespace

std::vector<BaselineResult> evaluate_baselines(const std::filesystem::path& data_dir, double k) {
    if (!(k > 0) || !std::isfinite(k))
        throw ConfigError("the add-k smoothing of the baselines must be a positive, finite number (e.g. 1)");
    const PreparedDataset d = open_prepared(data_dir);
    const TokenFile train(d.dir / "train.bin", d.dtype), val(d.dir / "val.bin", d.dtype);
    if (train.size() < 2 || val.size() < 2)
        throw InputError(d.dir.string() + ": the train and validation splits need at least two tokens each");
    const auto V = static_cast<size_t>(d.vocab_size);
    auto id = [&](const TokenFile& f, uint64_t i) {
        const auto t = static_cast<size_t>(f.at(i));
        if (t >= V)
            throw FormatError(d.dir.string() + ": token id " + std::to_string(t) + " is outside the vocabulary of " +
                              std::to_string(V) + "; prepare the dataset again");
        return t;
    };

    // Counts on the train split: unigrams over every token, bigrams over consecutive pairs.
    std::vector<double> uni(V, 0.0), ctx(V, 0.0);  // ctx[a]: how often a is followed by anything
    std::unordered_map<uint64_t, double> bi;
    std::vector<size_t> bestNext(V, 0);  // argmax_b c(a, b); ties keep the lower id
    std::vector<double> bestCount(V, 0.0);
    for (uint64_t i = 0; i < train.size(); ++i) {
        const size_t b = id(train, i);
        uni[b] += 1;
        if (i == 0)
            continue;
        const size_t a = id(train, i - 1);
        ctx[a] += 1;
        const double c = (bi[static_cast<uint64_t>(a) * V + b] += 1);
        if (c > bestCount[a] || (c == bestCount[a] && b < bestNext[a])) {
            bestCount[a] = c;
            bestNext[a] = b;
        }
    }
    const double N = static_cast<double>(train.size());
    size_t uniBest = 0;
    for (size_t t = 1; t < V; ++t)
        if (uni[t] > uni[uniBest])
            uniBest = t;

    // Scores on positions 1.. of the validation split (position 0 has no previous token).
    double uniNats = 0, uniCorrect = 0, biNats = 0, biCorrect = 0;
    const double Vd = static_cast<double>(V);
    for (uint64_t i = 1; i < val.size(); ++i) {
        const size_t a = id(val, i - 1), b = id(val, i);
        uniNats -= std::log((uni[b] + k) / (N + k * Vd));
        uniCorrect += b == uniBest;
        const auto it = bi.find(static_cast<uint64_t>(a) * V + b);
        const double c = it == bi.end() ? 0.0 : it->second;
        biNats -= std::log((c + k) / (ctx[a] + k * Vd));
        // An unseen context has a uniform row: fall back to the most frequent token.
        biCorrect += b == (ctx[a] > 0 ? bestNext[a] : uniBest);
    }
    const double n = static_cast<double>(val.size() - 1);
    std::vector<BaselineResult> out;
    const double cpt = split_chars_per_token(d, "val");
    out.push_back(result("uniform", n * std::log(Vd), n / Vd, n, cpt));
    out.push_back(result("unigram", uniNats, uniCorrect, n, cpt));
    out.push_back(result("bigram", biNats, biCorrect, n, cpt));
    return out;
}

}  // namespace twb
