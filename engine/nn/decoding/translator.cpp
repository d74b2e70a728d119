// twb::Translator (translation.h): an encoder-decoder run's checkpoint, translating and evaluating.
#include "twb/translation.h"

#include "core/run/checkpoint_state.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/decoding/seq2seq_source.h"
#include "nn/decoding/translator_impl.h"
#include "nn/decoding/translator_stream.h"
#include "nn/device.h"
#include "nn/interchange/checkpoint.h"
#include "nn/training/evaluator.h"
#include "nn/training/pair_batcher.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/run_folder.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <cmath>

namespace twb {

namespace fs = std::filesystem;

void TranslateOptions::validate() const {
    if (beam_width < 1 || beam_width > 64)
        throw ConfigError("beam width must be between 1 and 64 (got " + std::to_string(beam_width) + ")");
    if (!(max_length_ratio > 0) || !std::isfinite(max_length_ratio) || max_length_extra < 0)
        throw ConfigError(
            "the maximum length ratio must be a positive, finite number (e.g. 1.5) and the extra "
            "tokens at least 0");
    if (batch_size < 1)
        throw ConfigError("batch size must be at least 1");
}

Translator::Translator() : d(std::make_unique<Impl>()) {}
Translator::~Translator() = default;

bool is_encoder_decoder_run(const std::string& run) {
    // The run's own config says it, whichever checkpoint a command then takes: a damaged newest checkpoint
    // refused eval, lens, attention and ablate of another one asked for by name.
    if (fs::is_regular_file(fs::path(run) / "config.json") && !fs::exists(fs::path(run) / "state.json"))
        try {
            return read_run_config(run).model_kind == ModelKind::EncoderDecoder;
        } catch (const Error&) {  // a damaged config.json: the newest checkpoint's copy says it
        }
    const fs::path ck = find_checkpoint(run, "last");
    const auto st = parse_checkpoint_state(read_file(ck / "state.json"), (ck / "state.json").string());
    return st.config.model_kind == ModelKind::EncoderDecoder;
}

void Translator::open(const std::string& run, const std::string& which) {
    const fs::path ck = find_checkpoint(run, which);
    // The checkpoint loaded already is kept (a viewer asks per request), unless its weights were replaced in
    // place; "best"/"last" naming a newer one is another folder.
    const std::string stamp = checkpoint_stamp(ck);
    if (d->model && !stamp.empty() && d->checkpoint == ck.string() && d->stamp == stamp)
        return;
    d->stamp.clear();  // set again only when the whole open succeeds
    auto loaded = nn::read_checkpoint(ck);
    if (loaded.state.config.model_kind != ModelKind::EncoderDecoder)
        throw InputError(ck.string() +
                         " is a decoder LM run, not a translation model; train one with --set "
                         "model_kind=encoder_decoder on a parallel dataset, or generate with twb sample");
    d->cfg = loaded.state.config;
    d->step = loaded.state.step;
    d->checkpoint = ck.string();
    nn::apply_threads(d->cfg.threads);
    d->device = nn::resolve_device(d->cfg.device);
    d->model = nn::Seq2Seq(d->cfg);
    d->ablated.clear();  // a new model has every head on
    d->model->to(d->device);
    nn::load_weights(d->model->named_weights(), loaded.weights, ck.string());
    d->model->eval();
    const fs::path runDir = ck.parent_path().parent_path();
    d->tok = load_tokenizer(run_tokenizer_dir(runDir, d->cfg.data_dir));
    if (d->tok->vocab_size() != d->cfg.vocab_size)
        throw FormatError("the tokenizer has " + std::to_string(d->tok->vocab_size()) + " tokens but the model " +
                          std::to_string(d->cfg.vocab_size) + "; the run's tokenizer files do not belong to it");
    if (d->cfg.source_vocab_size > 0) {
        // The run's own copy, as for the target side: never the dataset's, which may have been prepared again.
        const fs::path own = runDir / "source_tokenizer";
        require_kept_tokenizer(own,
                               d->cfg.data_dir.empty() ? fs::path() : fs::path(d->cfg.data_dir) / "source_tokenizer");
        d->src_tok = load_tokenizer(own);
        if (d->src_tok->vocab_size() != d->cfg.source_vocab_size)
            throw FormatError("the source tokenizer has " + std::to_string(d->src_tok->vocab_size()) +
                              " tokens but the model's source embedding " + std::to_string(d->cfg.source_vocab_size) +
                              "; the run's tokenizer files do not belong to it");
    }
    d->stamp = stamp;
}

std::vector<size_t> Translator::cropped_lines() const {
    return d->cropped;
}

std::vector<size_t> Translator::limited_lines() const {
    return d->limited;
}

int64_t Translator::max_source_tokens() const {
    return d->cfg.block_size - 1;
}

std::string Translator::checkpoint() const {
    return d->checkpoint;
}

int64_t Translator::step() const {
    return d->step;
}

namespace {
std::vector<std::vector<int32_t>> translate_ids(nn::Seq2Seq& model, const Tokenizer& tok,
                                                const std::vector<std::vector<int32_t>>& sources,
                                                const TranslateOptions& opt, const torch::Device& device,
                                                const TranslateProgress& progress) {
    opt.validate();
    std::vector<std::vector<int32_t>> out;
    const size_t chunk = opt.beam_width > 1 ? 1 : static_cast<size_t>(opt.batch_size);
    for (size_t first = 0; first < sources.size(); first += chunk) {
        const size_t n = std::min(chunk, sources.size() - first);
        if (opt.beam_width == 1) {
            const std::vector<std::vector<int32_t>> part(sources.begin() + static_cast<long>(first),
                                                         sources.begin() + static_cast<long>(first + n));
            for (auto& ids :
                 nn::greedy_translate(model, part, tok.bos_id(), tok.eos_id(), tok.pad_id(), opt.max_length_ratio,
                                      opt.max_length_extra, device, opt.batch_size, opt.use_kv_cache))
                out.push_back(std::move(ids));
        } else {
            nn::Seq2SeqSource src(model, sources[first], tok.eos_id(), device, opt.use_kv_cache);
            SamplingOptions so;
            so.beam_width = opt.beam_width;
            so.length_penalty = opt.length_penalty;
            so.temperature = 0;
            so.max_new_tokens = static_cast<int>(nn::max_target_length(model->config(), sources[first].size(),
                                                                       opt.max_length_ratio, opt.max_length_extra));
            const auto r = nn::generate_ids(src, {static_cast<int32_t>(tok.bos_id())}, so, tok.eos_id(),
                                            [&](const std::vector<int32_t>& ids) { return tok.decode(ids); });
            out.push_back(r.tokens.empty() ? std::vector<int32_t>{} : r.tokens[0]);
        }
        if (progress && !progress(first + n, sources.size()))
            throw Cancelled();
    }
    return out;
}
}  // namespace

std::vector<std::string> Translator::translate(const std::vector<std::string>& lines, const TranslateOptions& opt,
                                               const TranslateProgress& progress) {
    if (!d->model)
        throw InputError("no translation run is open");
    // A blank line stays blank (line-aligned files keep their alignment): the model is not asked to
    // translate nothing, which it filled with made-up text.
    std::vector<std::vector<int32_t>> sources;
    std::vector<size_t> at;  // the line of each source
    d->cropped.clear();
    d->limited.clear();
    for (size_t i = 0; i < lines.size(); ++i) {
        if (find_invalid_utf8(lines[i]) != std::string::npos)
            throw InputError("line " + std::to_string(i + 1) + " of the input is not valid UTF-8 text");
        if (lines[i].find_first_not_of(" \t\r\f\v") == std::string::npos)
            continue;
        sources.push_back(d->source_tok().encode(lines[i]));  // InputError naming characters the vocabulary lacks
        at.push_back(i);
        if (static_cast<int64_t>(sources.back().size()) + 1 > d->cfg.block_size)
            d->cropped.push_back(i + 1);
    }
    std::vector<std::string> out(lines.size());
    if (sources.empty())
        return out;
    const auto translated = translate_ids(d->model, *d->tok, sources, opt, d->device, progress);
    for (size_t k = 0; k < translated.size() && k < at.size(); ++k) {
        out[at[k]] = d->tok->decode(translated[k]);
        const auto limit = nn::max_target_length(d->cfg, sources[k].size(), opt.max_length_ratio, opt.max_length_extra);
        if (static_cast<int64_t>(translated[k].size()) >= limit)  // no <eos> came before the limit
            d->limited.push_back(at[k] + 1);
    }
    if (translated.size() < at.size())  // cancelled: the lines before the first one left untranslated
        out.resize(at[translated.size()]);
    return out;
}

nn::PairBatcher Translator::Impl::batcher(const std::string& data_dir, const std::string& split) const {
    const PreparedDataset data = open_prepared(data_dir.empty() ? cfg.data_dir : data_dir);
    if (data.vocab_size != cfg.vocab_size || data.source_vocab_size != cfg.source_vocab_size)
        throw InputError(data.dir.string() + " has a vocabulary of " + std::to_string(data.vocab_size) +
                         (data.source_vocab_size ? " (source " + std::to_string(data.source_vocab_size) + ")" : "") +
                         " but the model " + std::to_string(cfg.vocab_size) +
                         (cfg.source_vocab_size ? " (source " + std::to_string(cfg.source_vocab_size) + ")" : "") +
                         "; evaluate on data of its tokenizer");
    // Sizes that agree are not enough: a dataset prepared again (the run's own, or another) with another
    // tokenizer of the same size reads every id as other text.
    const fs::path runDir = fs::path(checkpoint).parent_path().parent_path();
    require_same_tokenizer(runDir / "tokenizer", data.dir, "evaluate on " + data.dir.string());
    if (cfg.source_vocab_size > 0)
        require_same_tokenizer(runDir / "source_tokenizer", data.dir / "source_tokenizer",
                               "evaluate on " + data.dir.string());
    nn::PairIds ids{tok->bos_id(), tok->eos_id(), tok->pad_id()};
    const int64_t budget = cfg.batch_tokens > 0 ? cfg.batch_tokens : cfg.batch_size * cfg.block_size;
    auto pairs = read_pairs(data, split);
    if (pairs.empty())
        throw InputError(data.dir.string() + ": the " + split +
                         " split is empty (the dataset was prepared without one); choose another split");
    nn::PairBatcher batches(std::move(pairs), ids, cfg.block_size, budget, cfg.seed);
    if (batches.pairs().empty())
        throw InputError(data.dir.string() + ": the " + split + " split holds no pair that fits the model");
    return batches;
}

Translator::Impl::TeacherForced Translator::Impl::teacher_forced(const nn::PairBatcher& batches, int64_t max_tokens) {
    TeacherForced r;
    torch::NoGradGuard ng;
    for (size_t i = 0; i < batches.batches() && (max_tokens <= 0 || r.tokens < max_tokens); ++i) {
        const auto b = batches.batch(i, device);
        auto logits = model->forward(b.src, b.src_pad, b.tgt_in, b.tgt_pad).to(torch::kFloat32);
        const int64_t V = logits.size(-1);
        r.loss_sum +=
            nn::masked_cross_entropy(logits.view({-1, V}), b.tgt_out.reshape({-1}), torch::kSum).item<double>();
        const auto [c, t] = nn::masked_correct(logits.view({-1, V}), b.tgt_out.reshape({-1}));
        r.correct += c;
        r.tokens += t;
    }
    return r;
}

TranslationEval Translator::evaluate(const std::string& split, const TranslateOptions& opt, const std::string& data_dir,
                                     const TranslateProgress& progress) {
    if (!d->model)
        throw InputError("no translation run is open");
    const nn::PairBatcher batches = d->batcher(data_dir, split);
    TranslationEval ev;
    ev.split = split;
    ev.skipped = static_cast<int64_t>(batches.skipped());
    ev.pairs = static_cast<int64_t>(batches.pairs().size());
    const auto scored = d->teacher_forced(batches, 0);
    ev.target_tokens = scored.tokens;
    ev.loss = scored.loss_sum / static_cast<double>(ev.target_tokens);
    ev.accuracy = static_cast<double>(scored.correct) / static_cast<double>(ev.target_tokens);
    std::vector<std::vector<int32_t>> sources;
    for (const auto& p : batches.pairs()) {
        sources.push_back(p.source);
        ev.references.push_back(d->tok->decode(p.target));
    }
    for (const auto& h : translate_ids(d->model, *d->tok, sources, opt, d->device, progress))
        ev.hypotheses.push_back(d->tok->decode(h));
    ev.bleu = corpus_bleu(ev.hypotheses, ev.references);
    ev.chrf = corpus_chrf(ev.hypotheses, ev.references);
    return ev;
}

// ---- streamed translation (nn/decoding/translator_stream.*)

StreamedTranslation Translator::translate_stream(const std::string& source, const TranslateOptions& opt,
                                                 const TranslationTokenCallback& on_token, int alternatives,
                                                 const std::atomic<bool>* cancel) {
    if (!d->model)
        throw InputError("no translation run is open");
    if (find_invalid_utf8(source) != std::string::npos)
        throw InputError("the source is not valid UTF-8 text");
    auto out = nn::stream_translation(d->model, *d->tok, d->source_tok().encode(source), opt, d->device, on_token,
                                      alternatives, cancel);
    out.step = d->step;
    return out;
}

std::string Translator::token_text(int id) const {
    if (!d->tok)
        throw InputError("no translation run is open");
    return d->tok->token_text(id);
}

}  // namespace twb
