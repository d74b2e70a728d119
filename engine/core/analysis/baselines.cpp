// Reference baselines for a prepared dataset: uniform, unigram and add-k bigram models fitted on the
// train split and scored on the validation split in the trainer's units, on the tokens the model's own
// loss sees: every next token of plain text, a chat dataset's replies, a parallel dataset's targets.
#include "twb/baselines.h"
#include "core/data/chat_data.h"
#include "core/data/document_index.h"
#include "core/data/token_file.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/metrics.h"

#include <cmath>
#include <functional>
#include <unordered_map>

namespace twb {

namespace {

BaselineResult result(const char* name, double nats, double correct, double n, double charsPerToken) {
    const SplitMetrics m = split_metrics(nats / n, correct / n, charsPerToken);
    return {name, m.loss, m.accuracy, m.perplexity, std::isnan(charsPerToken) ? NAN : m.bits_per_char};
}

/// Calls fn(context, target) for every position of a split that the model's loss scores, and for plain
/// text fn(kNoContext, first token): the unigram counts it, nothing scores it.
using EventFn = std::function<void(size_t, size_t)>;
constexpr size_t kNoContext = static_cast<size_t>(-1);

class Events {
public:
    explicit Events(const PreparedDataset& d) : m_d(d) {
        const auto special = d.meta.value("special_tokens", nlohmann::json::object());
        m_bos = special.value("bos", -1);
        m_eos = special.value("eos", -1);
        if ((d.parallel || !d.chat_template.empty()) && (m_bos < 0 || m_eos < 0))
            throw FormatError(d.dir.string() + ": its meta.json names no <bos>/<eos>; prepare the dataset again");
    }
    const char* what() const {
        return m_d.parallel ? "target tokens" : !m_d.chat_template.empty() ? "reply tokens" : "tokens";
    }
    /// Each event of split ("train" or "val"); ids are checked against the vocabulary.
    void each(const std::string& split, const EventFn& fn) const {
        const TokenFile f(m_d.dir / (split + ".bin"), m_d.dtype);
        const auto at = [&](uint64_t i) { return id(f.at(i)); };
        if (m_d.parallel) {
            // The decoder reads <bos> target and predicts target <eos> (nn/training/pair_batcher).
            for (const TokenPair& p : read_pairs(m_d, split)) {
                size_t prev = id(m_bos);
                for (int32_t t : p.target) {
                    fn(prev, id(t));
                    prev = id(t);
                }
                fn(prev, id(m_eos));
            }
        } else if (const auto spans = read_loss_spans(m_d, split, f.size())) {
            // A chat dataset: each document is read as <bos> doc <eos>, and only its replies' tokens are
            // targets (nn/training/batcher).
            const auto docs = DocumentIndex::read(m_d.dir / (split + ".docs"), f.size(),
                                                  split == "val" ? m_d.val_documents : m_d.train_documents);
            size_t s = 0;
            const auto& sp = spans->docs;
            for (const auto& [first, end] : docs.docs)
                for (uint64_t o = first; o < end; ++o) {
                    while (s < sp.size() && sp[s].second <= o)
                        ++s;
                    if (s < sp.size() && sp[s].first <= o)
                        fn(o == first ? id(m_bos) : at(o - 1), at(o));
                }
        } else {
            for (uint64_t i = 0; i < f.size(); ++i)
                fn(i ? at(i - 1) : kNoContext, at(i));
        }
    }

private:
    size_t id(int64_t t) const {
        if (t < 0 || t >= m_d.vocab_size)
            throw FormatError(m_d.dir.string() + ": token id " + std::to_string(t) + " is outside the vocabulary of " +
                              std::to_string(m_d.vocab_size) + "; prepare the dataset again");
        return static_cast<size_t>(t);
    }
    const PreparedDataset& m_d;
    int m_bos = -1, m_eos = -1;
};

}  // namespace

std::vector<BaselineResult> evaluate_baselines(const std::filesystem::path& data_dir, double k) {
    if (!(k > 0) || !std::isfinite(k))
        throw ConfigError("the add-k smoothing of the baselines must be a positive, finite number (e.g. 1)");
    const PreparedDataset d = open_prepared(data_dir);
    const auto V = static_cast<size_t>(d.vocab_size);
    const Events events(d);

    // Counts on the train split's events: unigrams over the targets, bigrams over (context, target).
    std::vector<double> uni(V, 0.0), ctx(V, 0.0);  // ctx[a]: how often a precedes a target
    std::unordered_map<uint64_t, double> bi;
    std::vector<size_t> bestNext(V, 0);  // argmax_b c(a, b); ties keep the lower id
    std::vector<double> bestCount(V, 0.0);
    double N = 0;
    events.each("train", [&](size_t a, size_t b) {
        uni[b] += 1;
        N += 1;
        if (a == kNoContext)
            return;
        ctx[a] += 1;
        const double c = (bi[static_cast<uint64_t>(a) * V + b] += 1);
        if (c > bestCount[a] || (c == bestCount[a] && b < bestNext[a])) {
            bestCount[a] = c;
            bestNext[a] = b;
        }
    });
    size_t uniBest = 0;
    for (size_t t = 1; t < V; ++t)
        if (uni[t] > uni[uniBest])
            uniBest = t;

    double uniNats = 0, uniCorrect = 0, biNats = 0, biCorrect = 0, n = 0;
    const double Vd = static_cast<double>(V);
    events.each("val", [&](size_t a, size_t b) {
        if (a == kNoContext)
            return;  // position 0 has no previous token
        n += 1;
        uniNats -= std::log((uni[b] + k) / (N + k * Vd));
        uniCorrect += b == uniBest;
        const auto it = bi.find(static_cast<uint64_t>(a) * V + b);
        const double c = it == bi.end() ? 0.0 : it->second;
        biNats -= std::log((c + k) / (ctx[a] + k * Vd));
        // An unseen context has a uniform row: fall back to the most frequent token.
        biCorrect += b == (ctx[a] > 0 ? bestNext[a] : uniBest);
    });
    if (N < 2 || n < 1)
        throw InputError(d.dir.string() + ": the train and validation splits need " + events.what() +
                         " to score (at least two tokens each)");
    std::vector<BaselineResult> out;
    // Bits per character as the trainer reports them; an encoder-decoder reports none.
    const double cpt = d.parallel ? NAN : split_chars_per_token(d, "val");
    out.push_back(result("uniform", n * std::log(Vd), n / Vd, n, cpt));
    out.push_back(result("unigram", uniNats, uniCorrect, n, cpt));
    out.push_back(result("bigram", biNats, biCorrect, n, cpt));
    return out;
}

}  // namespace twb
