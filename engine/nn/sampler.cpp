// Decoding strategies, the GPT logits source with its KV cache, and attention capture.
#include "engine/nn/sampler.h"

#include "engine/data/errors.h"
#include "engine/data/prepare.h"
#include "engine/data/text_utils.h"
#include "engine/nn/checkpoint.h"
#include "engine/nn/device.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <set>

namespace twb::nn {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}

void SamplingOptions::validate() const {
    if (max_new_tokens < 0) throw ConfigError("max new tokens must not be negative");
    if (!(temperature >= 0)) throw ConfigError("temperature must be 0 (greedy) or positive, not " + std::to_string(temperature));
    if (!(top_p > 0 && top_p <= 1)) throw ConfigError("top-p must be in (0, 1], not " + std::to_string(top_p));
    if (top_k < 0) throw ConfigError("top-k must be 0 (off) or positive");
    if (!(repetition_penalty > 0)) throw ConfigError("repetition penalty must be positive (1 = off)");
    if (no_repeat_ngram < 0) throw ConfigError("no-repeat-ngram must be 0 (off) or positive");
    if (beam_width < 1) throw ConfigError("beam width must be at least 1");
    if (num_samples < 1) throw ConfigError("number of samples must be at least 1");
    if (beam_width > 1 && num_samples > beam_width)
        throw ConfigError("beam search returns at most beam-width sequences; lower num_samples");
}

// ---------------------------------------------------------------- filters

void apply_repetition_penalty(torch::Tensor& logits, const std::vector<int32_t>& seq, double r) {
    if (r == 1.0 || seq.empty()) return;
    auto* p = logits.data_ptr<float>();
    std::set<int32_t> seen(seq.begin(), seq.end());
    for (int32_t t : seen) p[t] = p[t] > 0 ? static_cast<float>(p[t] / r) : static_cast<float>(p[t] * r);
}

void apply_no_repeat_ngram(torch::Tensor& logits, const std::vector<int32_t>& seq, int n) {
    if (n <= 0 || static_cast<int>(seq.size()) < n - 1) return;
    auto* p = logits.data_ptr<float>();
    if (n == 1) {
        for (int32_t t : seq) p[t] = kNegInf;
        return;
    }
    const size_t L = seq.size();
    // The last n-1 tokens; any earlier occurrence of them bans the token that followed.
    for (size_t i = 0; i + n - 1 < L; ++i) {
        bool match = true;
        for (int k = 0; k < n - 1 && match; ++k) match = seq[i + static_cast<size_t>(k)] == seq[L - (n - 1) + static_cast<size_t>(k)];
        if (match) p[seq[i + static_cast<size_t>(n - 1)]] = kNegInf;
    }
}

void apply_top_k(torch::Tensor& logits, int k) {
    if (k <= 0 || k >= logits.size(0)) return;
    const float kth = std::get<0>(logits.topk(k)).min().item<float>();
    logits.masked_fill_(logits < kth, kNegInf);
}

void apply_top_p(torch::Tensor& logits, double p) {
    if (p >= 1.0) return;
    auto [sorted, idx] = logits.sort(/*dim=*/0, /*descending=*/true);
    auto probs = torch::softmax(sorted, 0);
    auto cum = probs.cumsum(0);
    // Keep a token when the mass before it is still below p: the smallest set reaching p.
    auto remove = (cum - probs) >= p;
    logits.index_put_({idx.masked_select(remove)}, kNegInf);
}

// ---------------------------------------------------------------- GPT source

GptSource::GptSource(GPT model, torch::Device device, bool use_cache)
    : m_model(std::move(model)), m_device(device), m_useCache(use_cache) {
    m_model->eval();
}

int64_t GptSource::window_start(int64_t n) const {
    const int64_t block = m_model->config().block_size;
    if (n <= block) return 0;
    const int64_t half = std::max<int64_t>(1, block / 2);
    return (n - block + half - 1) / half * half;
}

void GptSource::reset() {
    m_cache.clear();
    m_cacheStart = -1;
    m_cacheLen = 0;
}

void GptSource::reorder(const std::vector<int64_t>& parents) {
    if (m_cache.empty()) return;
    auto idx = torch::tensor(parents, torch::kInt64).to(m_device);
    for (auto& c : m_cache) c.reorder(idx);
}

torch::Tensor GptSource::next_logits(const std::vector<std::vector<int32_t>>& seqs) {
    torch::NoGradGuard ng;
    const int64_t B = static_cast<int64_t>(seqs.size()), n = static_cast<int64_t>(seqs[0].size());
    const int64_t ws = window_start(n);
    auto rows = [&](int64_t from, int64_t to) {
        auto t = torch::empty({B, to - from}, torch::kInt64);
        auto* p = t.data_ptr<int64_t>();
        for (int64_t b = 0; b < B; ++b)
            for (int64_t i = from; i < to; ++i) p[b * (to - from) + (i - from)] = seqs[static_cast<size_t>(b)][static_cast<size_t>(i)];
        return t.to(m_device);
    };
    ForwardOptions fo;
    fo.last_only = true;
    torch::Tensor logits;
    if (!m_useCache) {
        logits = m_model->forward(rows(ws, n), fo);
    } else {
        // A new window, a sequence that did not grow, or another batch size: start the cache afresh.
        const bool refill = m_cache.empty() || m_cacheStart != ws || m_cacheLen >= n - ws ||
                            (m_cache[0].k.defined() && m_cache[0].k.size(0) != B);
        if (refill) {
            m_cache.assign(m_model->transformer->h->size(), LayerCache());
            m_cacheStart = ws;
            m_cacheLen = 0;
        }
        fo.cache = &m_cache;
        fo.pos_offset = m_cacheLen;
        logits = m_model->forward(rows(ws + m_cacheLen, n), fo);
        m_cacheLen = n - ws;
    }
    return logits.select(1, 0).to(torch::kCPU, torch::kFloat32);  // (B, V)
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
        for (size_t b = 0; b < alive.size(); ++b) {
            auto row = logits[static_cast<int64_t>(b)].clone();
            apply_repetition_penalty(row, seqs[b], opt.repetition_penalty);
            apply_no_repeat_ngram(row, seqs[b], opt.no_repeat_ngram);
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
            if (std::isinf(score)) continue;
            Hyp h{alive[static_cast<size_t>(parent)].gen, score};
            if (opt.stop_at_eos && tok == eos) {
                finished.push_back(h);
                continue;
            }
            h.gen.push_back(tok);
            next.push_back(std::move(h));
            parents.push_back(parent);
            if (static_cast<int>(next.size()) == W) break;
        }
        if (next.empty()) break;
        res.generated += static_cast<int64_t>(next.size());
        // Done when W hypotheses have finished and none alive can still beat the best of them.
        if (static_cast<int>(finished.size()) >= W) {
            double bestDone = -1e300;
            for (auto& f : finished) bestDone = std::max(bestDone, normalised(f));
            if (normalised(next.front()) <= bestDone) break;
        }
        src.reorder(parents);
        alive = std::move(next);
    }
    for (auto& h : alive) finished.push_back(h);
    std::sort(finished.begin(), finished.end(), [&](auto& a, auto& b) { return normalised(a) > normalised(b); });
    for (int i = 0; i < opt.num_samples && i < static_cast<int>(finished.size()); ++i) {
        const auto& h = finished[static_cast<size_t>(i)];
        res.tokens.push_back(h.gen);
        res.logprob.push_back(h.score);
        std::string text = decode(h.gen);
        for (auto& s : opt.stop_strings) {
            const size_t at = text.find(s);
            if (!s.empty() && at != std::string::npos) text.resize(at);
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

} // namespace

SampleResult generate_ids(LogitsSource& src, const std::vector<int32_t>& prompt, const SamplingOptions& opt, int eos,
                          const std::function<std::string(const std::vector<int32_t>&)>& decode,
                          const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    opt.validate();
    if (prompt.empty()) throw InputError("the prompt is empty; give at least one token");
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
                apply_repetition_penalty(row, seq, opt.repetition_penalty);
                apply_no_repeat_ngram(row, seq, opt.no_repeat_ngram);
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
                if (stopHere) done[static_cast<size_t>(b)] = true;
            }
            if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) break;
        }
        res.tokens = out;
    }
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    res.tokens_per_s = res.seconds > 0 ? static_cast<double>(res.generated) / res.seconds : 0;
    return res;
}

// ---------------------------------------------------------------- models from runs

LoadedModel load_model(const std::string& run_or_checkpoint, const std::string& which) {
    LoadedModel m;
    const fs::path ck = find_checkpoint(run_or_checkpoint, which);
    auto loaded = read_checkpoint(ck);
    m.config = loaded.state.config;
    m.step = loaded.state.step;
    m.checkpoint = ck.string();
    apply_threads(m.config.threads);
    m.device = resolve_device(m.config.device);
    m.model = GPT(m.config);
    m.model->to(m.device);
    load_weights(m.model, loaded.weights, ck.string());
    m.model->eval();
    const fs::path runDir = ck.parent_path().parent_path();
    if (fs::exists(runDir / "tokenizer" / "tokenizer.json")) m.tokenizer = load_tokenizer(runDir / "tokenizer");
    else m.tokenizer = load_tokenizer(m.config.data_dir);
    if (m.tokenizer->vocab_size() != m.config.vocab_size)
        throw FormatError("the tokenizer has " + std::to_string(m.tokenizer->vocab_size()) + " tokens but the model " +
                          std::to_string(m.config.vocab_size) + "; the run's tokenizer files do not belong to it");
    return m;
}

std::vector<int32_t> encode_prompt(const LoadedModel& m, const std::string& prompt) {
    const auto& tok = *m.tokenizer;
    if (find_invalid_utf8(prompt) != std::string::npos) throw InputError("the prompt is not valid UTF-8 text");
    if (prompt.empty()) {
        if (tok.bos_id() >= 0) return {tok.bos_id()};
        const auto nl = tok.unknown_chars("\n").empty() ? tok.encode("\n") : std::vector<int32_t>{};
        return nl.empty() ? std::vector<int32_t>{0} : nl;
    }
    return tok.encode(prompt);  // the char tokenizer's InputError names the missing characters
}

SampleResult generate_text(LoadedModel& m, const std::string& prompt, const SamplingOptions& opt,
                           const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    opt.validate();
    const auto ids = encode_prompt(m, prompt);
    GptSource src(m.model, m.device, opt.use_kv_cache);
    auto res = generate_ids(src, ids, opt, m.tokenizer->eos_id(),
                            [&](const std::vector<int32_t>& v) { return m.tokenizer->decode(v); }, on_token, cancel);
    if (static_cast<int64_t>(ids.size()) > m.config.block_size)
        res.warnings.push_back("the prompt has " + std::to_string(ids.size()) + " tokens, more than block_size " +
                               std::to_string(m.config.block_size) + "; the model sees only the most recent ones");
    return res;
}

AttentionCapture capture_attention_ids(GPT& model, const std::vector<int32_t>& idsIn, const torch::Device& device, int top) {
    torch::NoGradGuard ng;
    AttentionCapture cap;
    const int64_t block = model->config().block_size;
    std::vector<int32_t> ids = idsIn;
    if (static_cast<int64_t>(ids.size()) > block) {
        cap.warnings.push_back("the text has " + std::to_string(ids.size()) + " tokens; showing the last " +
                               std::to_string(block) + " (block_size)");
        ids.erase(ids.begin(), ids.end() - block);
    }
    if (ids.empty()) throw InputError("the text is empty; type a prompt to see its attention");
    const bool was = model->is_training();
    model->eval();
    std::vector<int64_t> v(ids.begin(), ids.end());
    auto x = torch::tensor(v, torch::kInt64).unsqueeze(0).to(device);
    std::vector<torch::Tensor> att;
    ForwardOptions fo;
    fo.attention = &att;
    auto logits = model->forward(x, fo).to(torch::kCPU, torch::kFloat32)[0];  // (T, V)
    model->train(was);
    cap.layers = static_cast<int64_t>(att.size());
    cap.heads = model->config().n_head;
    cap.length = static_cast<int64_t>(ids.size());
    auto all = torch::stack(att, 0).select(1, 0).to(torch::kCPU, torch::kFloat32).contiguous();  // (L, H, T, T)
    cap.weights.assign(all.data_ptr<float>(), all.data_ptr<float>() + all.numel());
    auto probs = torch::softmax(logits, -1);
    auto [pv, pi] = probs.topk(std::min<int64_t>(top, probs.size(-1)), -1);
    for (int64_t t = 0; t < cap.length; ++t) {
        std::vector<std::pair<int, float>> row;
        for (int64_t k = 0; k < pv.size(1); ++k)
            row.emplace_back(static_cast<int>(pi[t][k].item<int64_t>()), pv[t][k].item<float>());
        cap.next_top.push_back(std::move(row));
    }
    return cap;
}

AttentionCapture capture_attention(LoadedModel& m, const std::string& text, int top) {
    const auto ids = encode_prompt(m, text);
    auto cap = capture_attention_ids(m.model, ids, m.device, top);
    const size_t start = ids.size() - static_cast<size_t>(cap.length);
    for (size_t i = start; i < ids.size(); ++i) cap.tokens.push_back(m.tokenizer->token_text(ids[i]));
    return cap;
}

} // namespace twb::nn
