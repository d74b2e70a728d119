// ModelSession: the one model facade of the engine, a LoadedModel behind a pimpl. `twb sample`,
// `twb attention`, `twb eval` and the GUI's workers all go through it.
#include "twb/session.h"

#include "core/data/chat_data.h"
#include "core/data/document_index.h"
#include "core/data/token_file.h"
#include "core/decoding/generation_prompt.h"
#include "nn/analysis/attention_capture.h"
#include "nn/analysis/embedding_geometry.h"
#include "nn/analysis/position_view.h"
#include "nn/decoding/cuda_decoder.h"
#include "nn/decoding/fast_decode.h"
#include "nn/decoding/gpt_source.h"
#include "nn/device.h"
#include "nn/models/model_loader.h"
#include "nn/session_impl.h"
#include "nn/training/evaluator.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace twb {

using namespace twb::nn;

namespace {
struct DecodeChoice {
    bool fast = false;
    std::string text;
};

/// Which decoder single-sequence generation uses, and the sentence that says so.
DecodeChoice decode_choice(const LoadedModel& m, DecodeWeights want, bool use_cache) {
    const std::string opt = std::string(" (decode_weights ") + to_string(want);
    if (!m.device.is_cpu()) {
        if (want == DecodeWeights::BFloat16)
            throw InputError("decode weights bfloat16 runs on the CPU only and this model is on " + m.device.str() +
                             "; use auto or float32");
        // One sequence on a GPU: twb's kernels where they serve (GptSource), else libtorch's ops.
        const std::string why =
            use_cache ? CudaDecoder::unavailable(m.model, m.device) : std::string("without the KV cache");
        if (why.empty())
            return {false, "float32 weights, twb's CUDA kernels on " + m.device.str() + opt + ")"};
        return {false, "float32 weights, libtorch on " + m.device.str() + opt + ": " + why + ")"};
    }
    if (want == DecodeWeights::Float32)
        return {false, "float32 weights, libtorch" + opt + ")"};
    if (m.model->has_head_gates()) {  // the bf16 decoder has its own pass, without head gates
        if (want == DecodeWeights::BFloat16)
            throw InputError("decode weights bfloat16 cannot decode with heads switched off; use auto or float32");
        return {false, "float32 weights, libtorch" + opt + ": heads are switched off)"};
    }
    const std::string why = fast_decode_unsupported(m.config);
    if (!why.empty()) {
        if (want == DecodeWeights::BFloat16)
            throw InputError("decode weights bfloat16 cannot decode this model: " + why + "; use auto or float32");
        return {false, "float32 weights, libtorch" + opt + ": " + why + ")"};
    }
    const bool avx2 = cpu_has_avx2_fma();
    if (want == DecodeWeights::Auto && !avx2)
        return {false, "float32 weights, libtorch" + opt + ": this CPU lacks AVX2+FMA)"};
    return {true, std::string("bfloat16 weights, ") + (avx2 ? "AVX2+FMA" : "portable") + " gemv" + opt + ")"};
}
}  // namespace

ModelSession::ModelSession() : d(std::make_unique<Impl>()) {}
ModelSession::~ModelSession() = default;

void ModelSession::open(const std::string& run, const std::string& which) {
    const std::string ck = find_checkpoint(run, which).string();
    // The same folder is reloaded when its weights were replaced in place (it kept the old ones, even after
    // a refresh).
    const std::string stamp = checkpoint_stamp(ck);
    if (d->open && d->m.checkpoint == ck && d->stamp == stamp)
        return;
    d->open = false;
    d->fast.reset();
    d->ablated.clear();
    d->m = load_model(ck);  // a checkpoint folder names itself
    d->stamp = stamp;
    d->open = true;
}

bool ModelSession::is_open() const {
    return d->open;
}
std::string ModelSession::run() const {
    return d->open ? std::filesystem::path(d->m.checkpoint).parent_path().parent_path().string() : std::string();
}
std::string ModelSession::checkpoint() const {
    return d->m.checkpoint;
}
int64_t ModelSession::step() const {
    return d->m.step;
}
const RunConfig& ModelSession::config() const {
    return d->m.config;
}

namespace {

/// Whether scoring in `precision` runs under bf16 autocast: auto follows the run's own dtype here.
bool scoring_bf16(const LoadedModel& m, DType precision) {
    return resolve_precision(precision == DType::Auto ? m.config.dtype : precision, m.device).dtype == DType::BFloat16;
}
}  // namespace

std::vector<int32_t> ModelSession::encode(const std::string& prompt) const {
    return encode_prompt(d->need(), prompt);
}
std::string ModelSession::decode(const std::vector<int32_t>& ids) const {
    return d->need().tokenizer->decode(ids);
}
std::string ModelSession::token_text(int id) const {
    return d->need().tokenizer->token_text(id);
}
int ModelSession::vocab_size() const {
    return d->need().tokenizer->vocab_size();
}

SampleResult ModelSession::generate(const std::vector<int32_t>& prompt, const SamplingOptions& opt,
                                    const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    auto& m = d->need();
    opt.validate();
    if (prompt.empty())
        throw InputError("the prompt has no tokens");
    // A documents run's samples start at <bos> and end at the <eos> it learned (stop_at_eos).
    const std::vector<int32_t> ids = generation_start(m.config, *m.tokenizer, prompt);
    const DecodeChoice choice = decode_choice(m, opt.decode_weights, opt.use_kv_cache);
    if (choice.fast && !d->fast)
        d->fast = make_fast_weights(m.model, cpu_has_avx2_fma());
    GptSource src(m.model, m.device, opt.use_kv_cache, choice.fast ? d->fast : nullptr);
    auto res = generate_ids(
        src, ids, opt, m.tokenizer->eos_id(), [&](const std::vector<int32_t>& v) { return m.tokenizer->decode(v); },
        on_token, cancel);
    add_prompt_warnings(res, m.config, *m.tokenizer, prompt);
    return res;
}

std::string ModelSession::decode_path(const SamplingOptions& opt) const {
    return decode_choice(d->need(), opt.decode_weights, opt.use_kv_cache).text;
}

AttentionCapture ModelSession::attention(const std::string& text, int top) {
    return capture_attention(d->need(), text, top);
}

PositionTable ModelSession::positions(int64_t maxRows) const {
    const auto& m = d->need();
    return nn::viewer_position_table(
        m.config, m.config.position == Position::Learned ? m.model->transformer->wpe->weight : torch::Tensor(),
        maxRows);
}

EvalResult ModelSession::evaluate(const EvalOptions& opt) {
    auto& m = d->need();
    if (opt.split != "val" && opt.split != "train")
        throw ConfigError("split must be val or train (got '" + opt.split + "')");
    if (opt.batch_size < 1)
        throw ConfigError("batch size must be at least 1 (got " + std::to_string(opt.batch_size) + ")");
    if (opt.max_tokens < 0)
        throw ConfigError("max tokens must not be negative (0 = the whole split)");
    if (opt.data_dir.empty() && m.config.data_dir.empty())
        throw InputError(run() +
                         ": this run has no dataset of its own (an imported model); give one prepared with its "
                         "tokenizer (twb prepare --tokenizer-from " +
                         run() + " ...), or score a text file (twb eval --text FILE)");
    const auto data = open_prepared(opt.data_dir.empty() ? m.config.data_dir : opt.data_dir);
    if (data.parallel)  // as training refuses it: pairs scored as one stream of source and target text
        throw InputError(data.dir.string() +
                         " is a parallel dataset (translation pairs), which a language model "
                         "does not score; evaluate on a text dataset, or a file with --text");
    // The run's own dataset too: prepared again with another tokenizer of the same size, it was scored
    // without a word (each id read as other text).
    require_same_tokenizer(run(), data.dir,
                           opt.data_dir.empty() ? "evaluate on the run's dataset" : "evaluate on another dataset");
    if (data.vocab_size != m.config.vocab_size)
        throw InputError("the dataset's vocab size " + std::to_string(data.vocab_size) + " differs from the model's " +
                         std::to_string(m.config.vocab_size) + "; evaluate on data prepared with the same tokenizer");
    TokenFile f = open_split(data, opt.split);
    const bool bf16 = scoring_bf16(m, opt.precision);
    EvalResult out;
    out.precision = bf16 ? "bfloat16" : "float32";
    SplitEval r;
    if ((m.config.sequences == Sequences::Documents || !data.chat_template.empty()) && data.has_documents) {
        // As the run's validation saw the split: each document <bos> ... <eos>, padding not scored. A chat
        // dataset is scored so by any run (its replies only), so a base model and its finetune compare.
        const auto index = DocumentIndex::read(data.dir / (opt.split + ".docs"), f.size(),
                                               opt.split == "val" ? data.val_documents : data.train_documents);
        if (index.docs.empty())
            throw InputError(data.dir.string() + ": the " + opt.split + " split holds no documents to evaluate");
        DocumentSource src = document_source(data);
        src.index = &index;
        const auto loss = read_loss_spans(data, opt.split, f.size());  // a chat dataset: the replies only
        src.trained = loss ? &*loss : nullptr;
        r = evaluate_documents(m.model, f, src, opt.batch_size, opt.max_tokens, m.device, bf16);
        out.sequences = Sequences::Documents;
        out.documents = static_cast<int64_t>(index.docs.size());
    } else {
        r = evaluate_sequential(m.model, f, opt.batch_size, opt.max_tokens, m.device, bf16);
    }
    const SplitMetrics sm = split_metrics(r.loss, r.accuracy, split_chars_per_token(data, opt.split));
    out.split = opt.split;
    out.tokens = r.tokens;
    out.loss = sm.loss;
    out.accuracy = sm.accuracy;
    out.perplexity = sm.perplexity;
    out.bits_per_char = sm.bits_per_char;
    return out;
}

std::vector<double> ModelSession::log_probs(const std::vector<int32_t>& ids, size_t from) {
    auto& m = d->need();
    for (int32_t id : ids)
        if (id < 0 || id >= m.config.vocab_size)
            throw InputError("token id " + std::to_string(id) + " is outside this model's vocabulary");
    return token_log_probs(m.model, ids, from, m.device, scoring_bf16(m, d->scoring));
}

void ModelSession::set_scoring_precision(DType precision) {
    d->scoring = precision;
}

std::string ModelSession::scoring_precision() const {
    return scoring_bf16(d->need(), d->scoring) ? "bfloat16" : "float32";
}

EvalResult ModelSession::score_text(const std::string& text) {
    const auto ids = encode(text);
    if (ids.size() < 2)
        throw InputError("the text has fewer than two tokens; there is nothing to predict");
    const auto lp = log_probs(ids, 1);
    double nats = 0;
    for (double v : lp)
        nats -= v;
    // The first token is context only: the characters it covers are not predicted.
    const uint64_t chars = code_points(decode(ids)) - code_points(decode({ids.front()}));
    EvalResult r;
    r.split = "text";
    r.tokens = static_cast<int64_t>(lp.size());
    const SplitMetrics sm = split_metrics(nats / static_cast<double>(lp.size()), NAN,
                                          chars ? static_cast<double>(chars) / static_cast<double>(lp.size()) : 1.0);
    r.loss = sm.loss;
    r.accuracy = NAN;
    r.perplexity = sm.perplexity;
    r.bits_per_char = sm.bits_per_char;
    r.precision = scoring_precision();
    // A text of words the vocabulary lacks is scored as <unk>s: the figures say little about the model.
    if (const int unk = d->need().tokenizer->unk_id(); unk >= 0) {
        const auto n = static_cast<int64_t>(std::count(ids.begin(), ids.end(), unk));
        if (2 * n > static_cast<int64_t>(ids.size()))
            r.warnings.push_back(std::to_string(100 * n / static_cast<int64_t>(ids.size())) +
                                 "% of the text's tokens are <unk> (words the vocabulary lacks), so these figures say "
                                 "little about the model; score a text in the words of its training data");
    }
    return r;
}

EvalResult ModelSession::score_continuation(const std::string& prompt, const std::string& continuation) {
    if (continuation.empty())
        throw InputError("the generated text is empty; there is nothing to judge");
    if (find_invalid_utf8(continuation) != std::string::npos)
        throw InputError(
            "the generated text is not valid UTF-8 (a byte-level model broke a character), so it cannot "
            "be encoded for the judge");
    auto ids = encode(prompt);
    const size_t from = ids.size();
    const auto out = encode(continuation);
    ids.insert(ids.end(), out.begin(), out.end());
    const auto lp = log_probs(ids, from);
    double nats = 0;
    for (double v : lp)
        nats -= v;
    const uint64_t chars = code_points(continuation);
    const double n = static_cast<double>(lp.size());
    const SplitMetrics sm = split_metrics(nats / n, NAN, chars ? static_cast<double>(chars) / n : 1.0);
    EvalResult r;
    r.split = "text";
    r.tokens = static_cast<int64_t>(lp.size());
    r.loss = sm.loss;
    r.accuracy = NAN;
    r.perplexity = sm.perplexity;
    r.bits_per_char = sm.bits_per_char;
    r.precision = scoring_precision();
    return r;
}

// ---------------------------------------------------------------- embedding explorer

namespace {
std::vector<int32_t> embedding_query(const LoadedModel& m, const std::string& text, const char* what) {
    if (text.empty())
        throw InputError(std::string("the ") + what + " is empty; type a word or a short text");
    auto ids = encode_prompt(m, text);  // InputError naming characters the tokenizer lacks
    if (ids.empty())
        throw InputError(std::string("the ") + what + " '" + text + "' has no tokens");
    // A word tokenizer maps words it lacks to <unk>: their neighbours would be <unk>'s, not the word's.
    // Its words carry the space before them (" king"), so a bare word is tried with one.
    const int unk = m.tokenizer->unk_id();
    auto has_unk = [unk](const std::vector<int32_t>& v) {
        return unk >= 0 && std::find(v.begin(), v.end(), unk) != v.end();
    };
    if (!has_unk(ids))
        return ids;
    if (text.front() != ' ') {
        auto spaced = encode_prompt(m, " " + text);
        if (!has_unk(spaced))
            return spaced;
    }
    throw InputError(std::string("the ") + what + " '" + text +
                     "' is not in the vocabulary (it encodes to <unk>); try a word the dataset has");
}
const torch::Tensor& wte_of(const LoadedModel& m) {
    return m.model->transformer->wte->weight;
}
}  // namespace

NeighbourResult ModelSession::nearest_tokens(const std::string& text, int k) const {
    const auto& m = d->need();
    if (k < 1)
        throw InputError("the number of neighbours must be at least 1 (got " + std::to_string(k) + ")");
    NeighbourResult r;
    r.query = text;
    r.query_ids = embedding_query(m, text, "word");
    const auto sims = cosine_to_rows(wte_of(m), mean_embedding(wte_of(m), r.query_ids));
    const auto* sim = sims.data_ptr<double>();
    std::vector<int> order;
    for (int id = 0; id < static_cast<int>(sims.size(0)); ++id)
        if (std::find(r.query_ids.begin(), r.query_ids.end(), id) == r.query_ids.end())
            order.push_back(id);
    const size_t n = std::min(order.size(), static_cast<size_t>(k));
    // Most similar first; ties by id, so the list does not depend on the sort.
    std::partial_sort(order.begin(), order.begin() + static_cast<long>(n), order.end(),
                      [&](int a, int b) { return sim[a] != sim[b] ? sim[a] > sim[b] : a < b; });
    for (size_t i = 0; i < n; ++i)
        r.neighbours.push_back({order[i], token_text(order[i]), sim[order[i]]});
    return r;
}

SimilarityResult ModelSession::similarity(const std::string& a, const std::string& b) const {
    const auto& m = d->need();
    SimilarityResult r;
    r.a_ids = embedding_query(m, a, "first text");
    r.b_ids = embedding_query(m, b, "second text");
    r.similarity = cosine(mean_embedding(wte_of(m), r.a_ids), mean_embedding(wte_of(m), r.b_ids));
    return r;
}

EmbeddingMap ModelSession::embedding_map(int n) const {
    const auto& m = d->need();
    const int vocab = static_cast<int>(wte_of(m).size(0));
    if (n < 2)
        throw InputError("the map needs at least 2 tokens (got " + std::to_string(n) + ")");
    EmbeddingMap map;
    std::vector<uint64_t> counts;
    try {
        if (m.config.data_dir.empty())  // an imported model: it read "could not be read (: no such folder ...)"
            throw InputError("imported");
        require_same_tokenizer(run(), m.config.data_dir, "count the tokens of the run's dataset");
        counts = inspect_prepared(m.config.data_dir, 0).counts;
        if (counts.size() != static_cast<size_t>(vocab))
            throw InputError("its vocabulary has " + std::to_string(counts.size()) + " tokens, the model's " +
                             std::to_string(vocab));
    } catch (const Error& e) {
        counts.clear();
        const std::string why = m.config.data_dir.empty()
                                    ? "the run was imported and has no dataset of its own to count its tokens in"
                                    : "the run's dataset could not be read (" + std::string(e.what()) + ")";
        map.source = why + ", so these are the first " + std::to_string(std::min(n, vocab)) + " token ids";
    }
    std::vector<int> ids(static_cast<size_t>(vocab));
    std::iota(ids.begin(), ids.end(), 0);
    if (!counts.empty()) {
        map.by_frequency = true;
        std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return counts[a] > counts[b]; });
        ids.erase(std::find_if(ids.begin(), ids.end(), [&](int id) { return counts[id] == 0; }), ids.end());
    }
    if (static_cast<int>(ids.size()) > n)
        ids.resize(static_cast<size_t>(n));
    if (map.by_frequency) {
        map.dataset = m.config.data_dir;
        map.source = "the " + std::to_string(ids.size()) + " most frequent tokens of " + map.dataset + " (train + val)";
    }
    if (ids.size() < 2)
        throw InputError("the map needs at least 2 tokens, and only " + std::to_string(ids.size()) +
                         " occur in the run's dataset");
    if (wte_of(m).size(1) < 2)
        throw InputError("the embedding has fewer than 2 dimensions; there is nothing to map");
    torch::NoGradGuard ng;
    const auto rows =
        wte_of(m).index_select(0, torch::tensor(std::vector<int64_t>(ids.begin(), ids.end()),
                                                torch::TensorOptions().dtype(torch::kLong).device(wte_of(m).device())));
    const auto pca = pca_2d(rows);
    const auto* xy = pca.coords.data_ptr<double>();
    for (size_t i = 0; i < ids.size(); ++i)
        map.points.push_back({ids[i], token_text(ids[i]), counts.empty() ? 0 : counts[static_cast<size_t>(ids[i])],
                              xy[2 * i], xy[2 * i + 1]});
    map.explained[0] = pca.explained[0];
    map.explained[1] = pca.explained[1];
    return map;
}

}  // namespace twb
