// Streamed translation of one source (translator_stream.h).
#include "nn/decoding/translator_stream.h"

#include "nn/decoding/decoding.h"
#include "nn/decoding/seq2seq_source.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <chrono>

namespace twb::nn {

namespace {
/// Forwards to the real source and raises `stop` when the caller's cancel flag is set, so one flag
/// (generate_ids's) answers both the callback's return and the caller's flag, also inside a beam search.
class CancelWatch : public LogitsSource {
public:
    CancelWatch(LogitsSource& inner, const std::atomic<bool>* cancel, std::atomic<bool>& stop)
        : m_inner(inner), m_cancel(cancel), m_stop(stop) {}
    torch::Tensor next_logits(const std::vector<std::vector<int32_t>>& seqs) override {
        if (m_cancel && *m_cancel)
            m_stop = true;
        return m_inner.next_logits(seqs);
    }
    void reorder(const std::vector<int64_t>& parents) override { m_inner.reorder(parents); }
    void reset() override { m_inner.reset(); }

private:
    LogitsSource& m_inner;
    const std::atomic<bool>* m_cancel;
    std::atomic<bool>& m_stop;
};

/// The new complete text after the tokens so far (an unfinished UTF-8 sequence is held back).
std::string advance(std::string& emitted, const std::string& full) {
    if (full.size() < emitted.size() || full.compare(0, emitted.size(), emitted) != 0)
        return {};  // decoding changed earlier text: nothing new until it settles
    std::string_view rest = std::string_view(full).substr(emitted.size());
    rest = rest.substr(0, rest.size() - utf8_incomplete_tail(rest));
    emitted.append(rest);
    return std::string(rest);
}

void fill_alternatives(TranslationToken& t, const torch::Tensor& probs, int k, const Tokenizer& tok) {
    if (k <= 0)
        return;
    auto [pv, pi] = probs.topk(std::min<int64_t>(k, probs.size(0)));
    for (int64_t j = 0; j < pv.size(0); ++j) {
        const int id = static_cast<int>(pi[j].item<int64_t>());
        t.alternatives.push_back({id, tok.token_text(id), pv[j].item<double>()});
    }
}
}  // namespace

StreamedTranslation stream_translation(Seq2Seq& model, const Tokenizer& tok, const std::vector<int32_t>& source,
                                       const TranslateOptions& opt, const torch::Device& device,
                                       const TranslationTokenCallback& on_token, int alternatives,
                                       const std::atomic<bool>* cancel) {
    opt.validate();
    if (alternatives < 0 || alternatives > 100)
        throw ConfigError("alternatives must be between 0 and 100 (got " + std::to_string(alternatives) + ")");
    const auto t0 = std::chrono::steady_clock::now();
    StreamedTranslation out;
    out.source_ids = source;
    Seq2SeqSource real(model, source, tok.eos_id(), device, opt.use_kv_cache);
    std::atomic<bool> stop{cancel && *cancel};
    CancelWatch src(real, cancel, stop);
    SamplingOptions so;  // what translate() decodes with (translator.cpp's translate_ids)
    so.beam_width = opt.beam_width;
    so.length_penalty = opt.length_penalty;
    so.temperature = 0;
    so.alternatives = alternatives;
    so.max_new_tokens =
        static_cast<int>(max_target_length(model->config(), source.size(), opt.max_length_ratio, opt.max_length_extra));
    const std::vector<int32_t> prompt{static_cast<int32_t>(tok.bos_id())};
    const auto decode = [&](const std::vector<int32_t>& ids) { return tok.decode(ids); };
    std::string emitted;
    auto emit = [&](TranslationToken& t) {
        if (on_token && !on_token(t))
            stop = true;
    };
    SampleResult r;
    if (opt.beam_width == 1) {
        // Greedy: generate_ids reports the softmax of the logits (temperature 0) and its top alternatives.
        r = generate_ids(
            src, prompt, so, tok.eos_id(), decode,
            [&](const TokenEvent& e) {
                if (stop)
                    return;
                TranslationToken t;
                t.index = e.index;
                t.token = e.token;
                t.token_text = tok.token_text(e.token);
                t.text = e.text;
                t.prob = e.prob;
                for (const auto& [id, p] : e.alternatives)
                    t.alternatives.push_back({id, tok.token_text(id), p});
                emit(t);
            },
            &stop);
        out.ids = r.tokens.empty() ? std::vector<int32_t>{} : r.tokens[0];
    } else {
        r = generate_ids(src, prompt, so, tok.eos_id(), decode, {}, &stop);
        out.ids = r.tokens.empty() ? std::vector<int32_t>{} : r.tokens[0];
        if (!out.ids.empty() && !stop) {
            std::vector<int32_t> seq = prompt;
            seq.insert(seq.end(), out.ids.begin(), out.ids.end());
            const auto probs = torch::softmax(real.prefix_logits(seq), -1);  // (n + 1, V): row k predicts ids[k]
            std::vector<int32_t> sofar;
            for (size_t k = 0; k < out.ids.size() && !stop; ++k) {
                sofar.push_back(out.ids[k]);
                const auto row = probs[static_cast<int64_t>(k)];
                TranslationToken t;
                t.index = static_cast<int64_t>(k);
                t.token = out.ids[k];
                t.token_text = tok.token_text(t.token);
                t.text = advance(emitted, tok.decode(sofar));
                t.prob = row[t.token].item<double>();
                fill_alternatives(t, row, alternatives, tok);
                emit(t);
            }
        }
    }
    out.text = tok.decode(out.ids);
    out.cancelled = r.cancelled || stop;
    out.length_limit = so.max_new_tokens;
    out.at_limit = !out.cancelled && static_cast<int64_t>(out.ids.size()) >= out.length_limit;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

}  // namespace twb::nn
