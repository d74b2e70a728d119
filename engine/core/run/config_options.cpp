// The option table (twb/config_options.h): one row per RunConfig field, the strict JSON readers each
// row uses, and the range words of validate(). A row's type comes from its field; its default is the
// struct's. A field without a row does not build (the static_assert below counts the struct's fields).
#include "twb/config_options.h"

#include "twb/errors.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <type_traits>
#include <utility>

namespace twb {
namespace {

// ---- strict readers, one per field type: the JSON value must have the field's type and range, so a
// config file, a checkpoint's state.json and `--set` all refuse what the struct cannot hold exactly
// (2.7 for an integer, 4294967344 for an int, "yes" for a bool) instead of converting it.
std::string shown(const nlohmann::json& v) {
    std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}
[[noreturn]] void bad(const std::string& where, const std::string& key, const nlohmann::json& v,
                      const std::string& want) {
    throw ConfigError(where + ": " + key + " takes " + want + ", not " + shown(v));
}
void read_field(const nlohmann::json& v, int& f, const std::string& where, const std::string& key) {
    if (!v.is_number_integer())
        bad(where, key, v, "a whole number");
    const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(INT_MAX)
                                             : v.get<int64_t>() >= INT_MIN && v.get<int64_t>() <= INT_MAX;
    if (!fits)
        bad(where, key, v, "a whole number between " + std::to_string(INT_MIN) + " and " + std::to_string(INT_MAX));
    f = static_cast<int>(v.get<int64_t>());
}
void read_field(const nlohmann::json& v, uint64_t& f, const std::string& where, const std::string& key) {
    if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<int64_t>() < 0))
        bad(where, key, v, "a whole number of at least 0");
    f = v.get<uint64_t>();
}
void read_field(const nlohmann::json& v, double& f, const std::string& where, const std::string& key) {
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        bad(where, key, v, "a number");
    f = v.get<double>();
}
void read_field(const nlohmann::json& v, bool& f, const std::string& where, const std::string& key) {
    if (!v.is_boolean())
        bad(where, key, v, "true or false");
    f = v.get<bool>();
}
void read_field(const nlohmann::json& v, std::string& f, const std::string& where, const std::string& key) {
    if (!v.is_string())
        bad(where, key, v, "a string");
    f = v.get<std::string>();
}
template <class E>
void read_field(const nlohmann::json& v, E& f, const std::string& where, const std::string& key) {
    if (!v.is_string()) {
        std::string all;
        for (auto& n : choice_names<E>())
            all += (all.empty() ? "" : ", ") + n;
        bad(where, key, v, "one of " + all);
    }
    try {
        f = parse_choice<E>(v.get<std::string>(), key);
    } catch (const ConfigError& e) {
        throw ConfigError(where + ": " + e.what());
    }
}

// ---- a row: the field gives the type and the accessors; the builder methods the rest.
template <class T>
constexpr OptionType type_of() {
    if constexpr (std::is_same_v<T, int>)
        return OptionType::Integer;
    else if constexpr (std::is_same_v<T, uint64_t>)
        return OptionType::Unsigned;
    else if constexpr (std::is_same_v<T, double>)
        return OptionType::Number;
    else if constexpr (std::is_same_v<T, bool>)
        return OptionType::Bool;
    else if constexpr (std::is_same_v<T, std::string>)
        return OptionType::Text;
    else
        return OptionType::Choice;
}

struct Row {
    ConfigOption o;
    Row&& in(OptionGroup g, const char* label = "") && {
        o.group = g;
        o.label = label;
        return std::move(*this);
    }
    Row&& at_least(double v) && { return std::move(*this).from(v, false); }
    Row&& above(double v) && { return std::move(*this).from(v, true); }
    Row&& from(double v, bool open) && {
        o.min = OptionBound{v, open};
        return std::move(*this);
    }
    Row&& at_most(double v) && {
        o.max = OptionBound{v, false};
        return std::move(*this);
    }
    Row&& below(double v) && {
        o.max = OptionBound{v, true};
        return std::move(*this);
    }
    Row&& between(double lo, double hi) && { return std::move(*this).at_least(lo).at_most(hi); }
    Row&& zero(const char* what) && {
        o.zero = what;
        return std::move(*this);
    }
    Row&& only(OptionFamilies f) && {
        o.families = f;
        return std::move(*this);
    }
    Row&& shapes_model() && {
        o.shapes_model = true;
        return std::move(*this);
    }
    Row&& suggest(std::vector<std::string> s) && {
        o.choices = std::move(s);
        return std::move(*this);
    }
    ConfigOption help(const char* text) && {
        o.help = text;
        return std::move(o);
    }
};

template <auto M>
Row row(const char* key) {
    using T = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<RunConfig&>().*M)>>;
    Row r;
    r.o.key = key;
    r.o.type = type_of<T>();
    if constexpr (std::is_enum_v<T>)
        r.o.choices = choice_names<T>();
    if constexpr (std::is_same_v<T, bool>)
        r.o.choices = {"true", "false"};
    r.o.get_ = [](const RunConfig& c) { return nlohmann::json(c.*M); };
    r.o.set_ = [](RunConfig& c, const nlohmann::json& v, const std::string& where, const std::string& k) {
        read_field(v, c.*M, where, k);
    };
    return r;
}
#define TWB_KEY(field) row<&RunConfig::field>(#field)

constexpr auto Data = OptionGroup::Data, Model = OptionGroup::Model, Arch = OptionGroup::Architecture,
               Optim = OptionGroup::Optimisation, Eval = OptionGroup::Evaluation, Runtime = OptionGroup::Runtime;
constexpr auto DecoderOnly = OptionFamilies::Decoder, PairsOnly = OptionFamilies::EncoderDecoder;

// ---- the struct's field count, to hold the table to it (aggregate initialisation with N placeholders).
struct AnyField {
    template <class T>
    constexpr operator T&() const noexcept;
};
template <class T, class... A>
constexpr auto braces(int) -> decltype(T{std::declval<A>()...}, true) {
    return true;
}
template <class T, class... A>
constexpr bool braces(long) {
    return false;
}
template <class T, class... A>
constexpr size_t field_count() {
    if constexpr (braces<T, A..., AnyField>(0))
        return field_count<T, A..., AnyField>();
    else
        return sizeof...(A);
}

// The table: a field without a row, or a row too many, fails the static_assert below. Data only, so one
// function however long; a function-local static, so it is built on first use in any order of start-up.
const std::vector<ConfigOption>& table() {
    static const ConfigOption rows[] = {
        // --- data ---
        TWB_KEY(data_dir).in(Data).help("Prepared dataset folder (twb prepare --out), e.g. data/shakespeare"),
        TWB_KEY(vocab_size)
            .shapes_model()
            .in(Data)
            .between(0, 1 << 24)
            .zero("from the dataset")
            .help("Vocabulary size; filled from the dataset's meta.json when 0"),
        TWB_KEY(source_vocab_size)
            .shapes_model()
            .in(Data)
            .between(0, 1 << 24)
            .zero("shared with the target")
            .only(PairsOnly)
            .help("The source side's vocabulary when the two sides have their own (its own embedding); filled "
                  "from the dataset"),
        // --- model ---
        TWB_KEY(model_kind)
            .shapes_model()
            .in(Model, "Model kind")
            .help("decoder: a GPT that continues text (a token-stream dataset); encoder_decoder: the original "
                  "transformer for translation (a parallel dataset of pairs)"),
        TWB_KEY(n_layer).shapes_model().in(Model, "Layers").between(1, 128).help("Transformer blocks"),
        TWB_KEY(n_encoder_layer)
            .shapes_model()
            .in(Model, "Encoder layers")
            .between(0, 128)
            .zero("as n_layer")
            .only(PairsOnly)
            .help("Encoder blocks"),
        TWB_KEY(n_decoder_layer)
            .shapes_model()
            .in(Model, "Decoder layers")
            .between(0, 128)
            .zero("as n_layer")
            .only(PairsOnly)
            .help("Decoder blocks, each with self- and cross-attention (block_size = max tokens per side)"),
        TWB_KEY(n_head)
            .shapes_model()
            .in(Model, "Heads")
            .between(1, 1024)
            .help("Attention heads per block; n_embd must divide by it unless head_size is set"),
        TWB_KEY(n_embd).shapes_model().in(Model, "Width").between(1, 65536).help("Model width: the embedding channels"),
        TWB_KEY(block_size).shapes_model().in(Model, "Context").between(1, 65536).help("Context length in tokens"),
        TWB_KEY(dropout)
            .in(Model, "Dropout")
            .at_least(0)
            .below(1)
            .help("Dropout on embeddings, attention and residuals, e.g. 0.1"),
        TWB_KEY(position)
            .shapes_model()
            .in(Model, "Positions")
            .help("learned table, fixed sinusoids (Vaswani et al.) or rotary (RoPE on queries and keys; the lowest val "
                  "loss in bench/)"),
        TWB_KEY(bias).shapes_model().in(Model, "Bias").help("Biases in the linear layers and LayerNorms"),
        TWB_KEY(tie_embeddings)
            .shapes_model()
            .in(Model, "Tie embeddings")
            .help("The output layer shares the token embedding matrix"),
        // --- architecture ---
        TWB_KEY(ffn_hidden)
            .shapes_model()
            .in(Arch, "Feed-forward width")
            .between(0, 1048576)
            .zero("4 * n_embd")
            .help("Hidden width of each block's MLP"),
        TWB_KEY(activation)
            .shapes_model()
            .in(Arch, "Activation")
            .help(
                "Feed-forward activation: gelu (exact), gelu_tanh (its tanh approximation, GPT-2's gelu_new), relu or "
                "silu (x * sigmoid(x), Marian's swish)"),
        TWB_KEY(head_size)
            .shapes_model()
            .in(Arch, "Head size")
            .at_least(0)
            .zero("n_embd / n_head")
            .help("Channels per attention head; otherwise attention projects the width to n_head * head_size and back"),
        TWB_KEY(norm)
            .shapes_model()
            .in(Arch, "Norm")
            .help("layernorm: (x - mean) / std * weight + bias; rmsnorm: x / sqrt(mean(x^2) + eps) * weight, no bias"),
        TWB_KEY(norm_position)
            .shapes_model()
            .in(Arch, "Norm position")
            .help("pre: x + f(norm(x)) with a final norm (GPT-2); post: norm(x + f(x)), the original transformer, no "
                  "final norm"),
        TWB_KEY(norm_eps)
            .shapes_model()
            .in(Arch, "Norm epsilon")
            .above(0)
            .at_most(0.1)
            .help("Added to the variance (or mean square) in every norm, e.g. 1e-5"),
        TWB_KEY(qk_norm)
            .shapes_model()
            .in(Arch, "Q/K norm")
            .help("A norm of the kind `norm` over each head's queries and keys before the dot product (OLMo, Gemma): "
                  "bounded attention logits; the bf16 fast decoder and GPT-2/GGUF export do not take it"),
        TWB_KEY(sinusoid_halves)
            .shapes_model()
            .in(Arch, "Sinusoid halves")
            .help("position=sinusoidal: sines in the first half of the channels and cosines in the second (fairseq, "
                  "Marian) instead of interleaved (sin, cos, sin, ...); the same frequencies"),
        TWB_KEY(scale_embeddings)
            .shapes_model()
            .in(Arch, "Scale embeddings")
            .only(PairsOnly)
            .help("Token embeddings multiplied by sqrt(n_embd) before the positions are added (Vaswani et al., "
                  "Marian); false: as they are"),
        TWB_KEY(logits_bias)
            .shapes_model()
            .in(Arch, "Logits bias")
            .only(PairsOnly)
            .help("A learned bias over the vocabulary added to the output logits (Marian's final_logits_bias)"),
        TWB_KEY(freeze_embeddings)
            .in(Arch, "Freeze embeddings")
            .help("The token embedding is not trained; with tie_embeddings the output layer is not trained either"),
        TWB_KEY(embeddings_from)
            .in(Arch, "Embeddings from")
            .only(DecoderOnly)
            .help("Token embedding rows from a word-vectors text file (word2vec/GloVe/fastText .vec, n_embd values "
                  "per word, matched by token text) or from a run/checkpoint with the same tokenizer and width; "
                  "tokens the file lacks keep their random start. \"\" = none"),
        // --- optimisation ---
        TWB_KEY(batch_size).in(Optim, "Batch size").between(1, 65536).help("Sequences per micro-batch"),
        TWB_KEY(batch_tokens)
            .in(Optim, "Tokens per batch")
            .at_least(0)
            .zero("batch_size * block_size")
            .only(PairsOnly)
            .help("Token budget of a micro-batch of pairs, source + target, padding included; pairs of similar "
                  "length go together"),
        TWB_KEY(gradient_accumulation_steps)
            .in(Optim, "Accumulation")
            .between(1, 65536)
            .help("Micro-batches per optimiser step"),
        TWB_KEY(learning_rate)
            .in(Optim, "Learning rate")
            .above(0)
            .below(10)
            .help("Peak learning rate (3e-3 beat 1e-3, 2e-3 and 5e-3 for 4x4x128 in bench/); noam: the scale"),
        TWB_KEY(max_iters).in(Optim, "Steps").at_least(0).help("Optimiser steps"),
        TWB_KEY(max_epochs)
            .in(Optim, "Epochs")
            .at_least(0)
            .zero("up to max_iters")
            .only(PairsOnly)
            .help("Passes over the training pairs; training stops at max_iters or after max_epochs, whichever "
                  "comes first"),
        TWB_KEY(schedule)
            .in(Optim, "Schedule")
            .help("constant; cosine: warmup then cosine to min_lr; inverse_sqrt: Vaswani's schedule peaking at "
                  "learning_rate; noam: the paper's exactly, learning_rate * n_embd^-0.5 * min(s^-0.5, s * "
                  "warmup_iters^-1.5)"),
        TWB_KEY(warmup_iters).in(Optim, "Warmup").at_least(0).help("Linear warmup steps"),
        TWB_KEY(lr_decay_iters).in(Optim, "Decay steps").help("The cosine schedule reaches min_lr here"),
        TWB_KEY(min_lr)
            .in(Optim, "Min LR")
            .at_least(0)
            .help("Floor of the cosine schedule (learning_rate / 10), at most learning_rate"),
        TWB_KEY(weight_decay).in(Optim, "Weight decay").at_least(0).help("AdamW decay on the weight matrices"),
        TWB_KEY(decay_embeddings).in(Optim).help("Also decay the embedding matrices"),
        TWB_KEY(beta1).in(Optim).at_least(0).below(1).help("Adam's first-moment decay"),
        TWB_KEY(beta2).in(Optim, "Adam β2").at_least(0).below(1).help("Adam's second-moment decay"),
        TWB_KEY(grad_clip).in(Optim, "Grad clip").at_least(0).zero("off").help("Max global gradient norm"),
        TWB_KEY(label_smoothing)
            .in(Optim, "Label smoothing")
            .at_least(0)
            .below(1)
            .help("Target probability spread over the vocabulary, e.g. 0.1"),
        TWB_KEY(sequences)
            .shapes_model()
            .in(Optim, "Sequences")
            .only(DecoderOnly)
            .help("stream: random windows of the token stream (nanoGPT); documents: one <bos> ... <eos> document "
                  "per row, padded (needs a dataset prepared with --documents)"),
        // --- evaluation and checkpoints ---
        TWB_KEY(eval_interval).in(Eval, "Eval every").at_least(1).help("Steps between evaluations and checkpoints"),
        TWB_KEY(eval_iters).in(Eval, "Eval batches").at_least(1).help("Batches per evaluation split"),
        TWB_KEY(log_interval).in(Eval, "Report every").at_least(1).help("Steps between progress reports"),
        TWB_KEY(keep_checkpoints)
            .in(Eval, "Keep checkpoints")
            .at_least(1)
            .help("Most recent checkpoints kept on disk (the best one is always kept as well)"),
        TWB_KEY(tensorboard)
            .in(Eval, "TensorBoard files")
            .help("Also write the curves (every metrics.csv number) and the config as TensorBoard event files "
                  "in RUN/tb/, as training goes; false: none (twb export-metrics writes them later)"),
        TWB_KEY(probe_prompt)
            .in(Eval)
            .help("Text whose attention is captured at each evaluation (at most 4096 bytes); \"\" = from val"),
        TWB_KEY(bleu_pairs)
            .in(Eval, "BLEU pairs")
            .at_least(0)
            .zero("off")
            .only(PairsOnly)
            .help("Validation BLEU at each evaluation, greedy, over the first N validation pairs"),
        TWB_KEY(best_by)
            .in(Eval, "Keep best by")
            .only(PairsOnly)
            .help("The checkpoint kept as the best: lowest validation loss, or highest validation BLEU"),
        // --- runtime ---
        TWB_KEY(seed).in(Runtime, "Seed").help("Random seed"),
        TWB_KEY(threads).in(Runtime, "Threads").between(0, 1024).zero("all cores").help("Intra-op CPU threads"),
        TWB_KEY(device)
            .in(Runtime, "Device")
            .suggest({"auto", "cpu", "cuda"})
            .help("auto (a CUDA GPU where this build can use one, else the CPU), cpu, cuda or cuda:N"),
        TWB_KEY(dtype)
            .in(Runtime, "Precision")
            .help("auto: bf16 mixed precision where the hardware does bf16 natively; float32; bfloat16: autocast "
                  "matmuls with float32 master weights (about 2x faster on CPUs with AVX512-BF16)"),
    };
    static_assert(sizeof(rows) / sizeof(rows[0]) == field_count<RunConfig>(),
                  "every RunConfig field needs its row in the option table");
    static const std::vector<ConfigOption> all(std::begin(rows), std::end(rows));
    return all;
}
#undef TWB_KEY

std::string number(double v) {
    char buf[32];
    if (std::abs(v) < 1e15 && v == std::floor(v))
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    else
        std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

/// "between 1 and 128", "at least 0 and below 1", "positive", ... for the bounds given.
std::string bounds_text(const std::optional<OptionBound>& lo, const std::optional<OptionBound>& hi) {
    std::string low, high;
    if (lo)
        low = lo->value == 0 && lo->open ? "positive" : (lo->open ? "above " : "at least ") + number(lo->value);
    if (hi)
        high = (hi->open ? "below " : "at most ") + number(hi->value);
    if (lo && hi && !lo->open && !hi->open)
        return "between " + number(lo->value) + " and " + number(hi->value);
    return low.empty() ? high : high.empty() ? low : low + " and " + high;
}

}  // namespace

const std::vector<ConfigOption>& config_options() {
    return table();
}

const ConfigOption* find_config_option(const std::string& key) {
    for (const auto& o : config_options())
        if (o.key == key)
            return &o;
    return nullptr;
}

bool ConfigOption::applies_to(ModelKind kind) const {
    return families == OptionFamilies::Both || (families == OptionFamilies::Decoder) == (kind == ModelKind::Decoder);
}

std::string ConfigOption::family_problem(const RunConfig& c) const {
    const ModelKind kind = c.model_kind;
    if (applies_to(kind) || value(c) == default_value())
        return {};
    return key +
           (families == OptionFamilies::Decoder ? " is for decoder LMs (model_kind=decoder)"
                                                : " is for encoder-decoder runs (model_kind=encoder_decoder)") +
           "; this run is " + (kind == ModelKind::Decoder ? "a decoder LM, which" : "an encoder-decoder, which") +
           " does not use it";
}

std::string ConfigOption::range_text() const {
    if (!zero.empty() && min && min->value == 0 && !min->open) {  // 0 is the automatic value
        if (max)
            return "between 0 (" + zero + ") and " + number(max->value);
        return "0 (" + zero + ") or positive";
    }
    return bounds_text(min, max);
}

std::string ConfigOption::range_problem(const RunConfig& c) const {
    if (!min && !max)
        return {};
    const nlohmann::json v = value(c);
    if (!v.is_number())
        return {};
    const double x = v.get<double>();
    const bool low = min && (min->open ? x <= min->value : x < min->value);
    const bool high = max && (max->open ? x >= max->value : x > max->value);
    if (!low && !high)
        return {};
    return key + " must be " + range_text() + " (got " + (v.is_number_float() ? v.dump() : number(x)) + ")";
}

std::string ConfigOption::type_name() const {
    switch (type) {
        case OptionType::Integer:
            return "integer";
        case OptionType::Unsigned:
            return "unsigned";
        case OptionType::Number:
            return "number";
        case OptionType::Bool:
            return "bool";
        case OptionType::Text:
            return "text";
        case OptionType::Choice:
            break;
    }
    return "choice";
}

std::string to_string(OptionGroup g) {
    static const char* names[] = {"data", "model", "architecture", "optimisation", "evaluation", "runtime"};
    return names[static_cast<int>(g)];
}

std::string to_string(OptionFamilies f) {
    static const char* names[] = {"both", "decoder", "encoder_decoder"};
    return names[static_cast<int>(f)];
}

}  // namespace twb
