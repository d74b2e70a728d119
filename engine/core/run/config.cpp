// RunConfig JSON, validation, presets and size estimates.
#include "twb/config.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace twb {

// clang-format off
#define TWB_CONFIG_FIELDS(X) \
    X(data_dir) X(vocab_size) X(n_layer) X(n_head) X(n_embd) X(block_size) X(dropout) X(bias) \
    X(position) X(tie_embeddings) X(batch_size) X(gradient_accumulation_steps) X(learning_rate) \
    X(max_iters) X(schedule) X(warmup_iters) X(lr_decay_iters) X(min_lr) X(weight_decay) \
    X(decay_embeddings) X(beta1) X(beta2) X(grad_clip) X(label_smoothing) X(eval_interval) \
    X(eval_iters) X(log_interval) X(keep_checkpoints) X(probe_prompt) X(seed) X(threads) X(device) \
    X(dtype) X(ffn_hidden) X(activation) X(head_size) X(norm) X(norm_position) X(norm_eps) \
    X(freeze_embeddings) X(sequences) X(embeddings_from) X(model_kind) X(n_encoder_layer) X(n_decoder_layer) \
    X(max_epochs) X(batch_tokens) X(bleu_pairs) X(best_by) X(source_vocab_size)
// clang-format on

void to_json(nlohmann::json& j, const RunConfig& c) {
    j = nlohmann::json::object();
    j["format_version"] = kConfigFormatVersion;
#define X(f) j[#f] = c.f;
    TWB_CONFIG_FIELDS(X)
#undef X
}

namespace {
// Strict readers, one per field type: the JSON value must have the field's type and range, so a
// config file, a checkpoint's state.json and `--set` all refuse what the struct cannot hold exactly
// (2.7 for an integer, 4294967344 for an int, "yes" for a bool) instead of converting it.
std::string shown(const nlohmann::json& v) {
    std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}
[[noreturn]] void bad(const std::string& where, const char* key, const nlohmann::json& v, const std::string& want) {
    throw ConfigError(where + ": " + key + " takes " + want + ", not " + shown(v));
}
void read_field(const nlohmann::json& v, int& f, const std::string& where, const char* key) {
    if (!v.is_number_integer())
        bad(where, key, v, "a whole number");
    const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(INT_MAX)
                                             : v.get<int64_t>() >= INT_MIN && v.get<int64_t>() <= INT_MAX;
    if (!fits)
        bad(where, key, v, "a whole number between " + std::to_string(INT_MIN) + " and " + std::to_string(INT_MAX));
    f = static_cast<int>(v.get<int64_t>());
}
void read_field(const nlohmann::json& v, uint64_t& f, const std::string& where, const char* key) {
    if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<int64_t>() < 0))
        bad(where, key, v, "a whole number of at least 0");
    f = v.get<uint64_t>();
}
void read_field(const nlohmann::json& v, double& f, const std::string& where, const char* key) {
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        bad(where, key, v, "a number");
    f = v.get<double>();
}
void read_field(const nlohmann::json& v, bool& f, const std::string& where, const char* key) {
    if (!v.is_boolean())
        bad(where, key, v, "true or false");
    f = v.get<bool>();
}
void read_field(const nlohmann::json& v, std::string& f, const std::string& where, const char* key) {
    if (!v.is_string())
        bad(where, key, v, "a string");
    f = v.get<std::string>();
}
template <class E>
void read_field(const nlohmann::json& v, E& f, const std::string& where, const char* key) {
    if (!v.is_string())
        bad(
            where, key, v, "one of " + [] {
                std::string all;
                for (auto& n : choice_names<E>())
                    all += (all.empty() ? "" : ", ") + n;
                return all;
            }());
    try {
        f = parse_choice<E>(v.get<std::string>(), key);
    } catch (const ConfigError& e) {
        throw ConfigError(where + ": " + e.what());
    }
}

std::string known_keys() {
    std::string all;
    for (auto& s : RunConfig::keys())
        all += (all.empty() ? "" : ", ") + s;
    return all;
}
}  // namespace

RunConfig config_from_json(const nlohmann::json& j, const RunConfig& base, const std::string& where) {
    if (!j.is_object())
        throw ConfigError(where + ": a config is a JSON object of key: value pairs, not " + std::string(j.type_name()));
    RunConfig c = base;
    for (auto& [key, v] : j.items()) {
        if (key == "format_version") {
            if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > kConfigFormatVersion)
                throw ConfigError(where + ": format_version " + shown(v) + " is not one this program reads (1.." +
                                  std::to_string(kConfigFormatVersion) + ")");
            continue;
        }
        bool known = false;
#define X(f)                           \
    if (!known && key == #f) {         \
        read_field(v, c.f, where, #f); \
        known = true;                  \
    }
        TWB_CONFIG_FIELDS(X)
#undef X
        if (!known)
            throw ConfigError(where + ": unknown config key '" + key + "'; known keys: " + known_keys());
    }
    return c;
}

void from_json(const nlohmann::json& j, RunConfig& c) {
    c = config_from_json(j, RunConfig{}, "config");
}

RunConfig read_config_file(const std::string& path, const RunConfig& base) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(path, 1 << 20));  // a config is small: 1 MiB at most
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": not valid JSON (" + std::string(e.what()) + "); a config is {\"n_layer\": 6, ...}");
    }
    return config_from_json(j, base, path);
}

std::vector<std::string> RunConfig::keys() {
    std::vector<std::string> k;
#define X(f) k.push_back(#f);
    TWB_CONFIG_FIELDS(X)
#undef X
    return k;
}

std::vector<std::string> RunConfig::validate() const {
    std::vector<std::string> p;
    auto need = [&](bool ok, const std::string& msg) {
        if (!ok)
            p.push_back(msg);
    };
    need(n_layer >= 1 && n_layer <= 128, "n_layer must be between 1 and 128 (got " + std::to_string(n_layer) + ")");
    need(n_head >= 1 && n_head <= 1024, "n_head must be between 1 and 1024 (got " + std::to_string(n_head) + ")");
    need(n_embd >= 1 && n_embd <= 65536, "n_embd must be between 1 and 65536 (got " + std::to_string(n_embd) + ")");
    need(head_size >= 0, "head_size must be 0 (n_embd / n_head) or a positive number of channels (got " +
                             std::to_string(head_size) + ")");
    if (n_head >= 1 && n_embd >= 1 && head_size == 0)
        need(n_embd % n_head == 0, "n_embd " + std::to_string(n_embd) + " must be divisible by n_head " +
                                       std::to_string(n_head) + " (or set head_size to choose the head width)");
    if (n_head >= 1 && head_size > 0)
        need(static_cast<int64_t>(n_head) * head_size <= 65536,
             "the attention width n_head * head_size = " + std::to_string(n_head) + " * " + std::to_string(head_size) +
                 " = " + std::to_string(static_cast<int64_t>(n_head) * head_size) + " must be at most 65536");
    if (position == Position::Rotary && n_head >= 1 && n_embd >= 1 && (head_size > 0 || n_embd % n_head == 0))
        need(head_dim() % 2 == 0, "rotary positions rotate pairs of channels, so they need an even head size (" +
                                      std::string(head_size > 0 ? "head_size" : "n_embd / n_head") + " = " +
                                      std::to_string(head_dim()) + ")");
    need(
        ffn_hidden >= 0 && ffn_hidden <= 1048576,
        "ffn_hidden must be 0 (4 * n_embd) or a positive width up to 1048576 (got " + std::to_string(ffn_hidden) + ")");
    need(norm_eps > 0 && norm_eps <= 0.1,
         "norm_eps must be positive and small, e.g. 1e-5 (got " + nlohmann::json(norm_eps).dump() + ")");
    need(block_size >= 1 && block_size <= 65536, "block_size must be between 1 and 65536");
    need(dropout >= 0 && dropout < 1, "dropout must be in [0, 1)");
    need(batch_size >= 1 && batch_size <= 65536,
         "batch_size must be between 1 and 65536 (got " + std::to_string(batch_size) + ")");
    need(gradient_accumulation_steps >= 1 && gradient_accumulation_steps <= 65536,
         "gradient_accumulation_steps must be between 1 and 65536");
    need(learning_rate > 0 && learning_rate < 10, "learning_rate must be positive and below 10 (e.g. 1e-3)");
    need(max_iters >= 0, "max_iters must not be negative");
    need(warmup_iters >= 0, "warmup_iters must not be negative");
    if (schedule == Schedule::InverseSqrt || schedule == Schedule::Noam)
        need(warmup_iters >= 1, to_string(schedule) + " needs warmup_iters of at least 1");
    need(n_encoder_layer >= 0 && n_encoder_layer <= 128, "n_encoder_layer must be 0 (n_layer) or up to 128");
    need(n_decoder_layer >= 0 && n_decoder_layer <= 128, "n_decoder_layer must be 0 (n_layer) or up to 128");
    need(max_epochs >= 0, "max_epochs must not be negative (0 = max_iters decides)");
    need(batch_tokens >= 0, "batch_tokens must not be negative (0 = batch_size * block_size)");
    need(bleu_pairs >= 0, "bleu_pairs must not be negative (0 = no BLEU at evaluations)");
    if (model_kind == ModelKind::Decoder)
        need(best_by == BestBy::Loss, "best_by=bleu needs model_kind=encoder_decoder (a decoder LM has no BLEU)");
    if (best_by == BestBy::Bleu)
        need(bleu_pairs > 0, "best_by=bleu needs bleu_pairs > 0 (the validation pairs BLEU is measured on)");
    if (model_kind == ModelKind::EncoderDecoder)
        need(sequences == Sequences::Stream, "model_kind=encoder_decoder trains on pairs; leave sequences at stream");
    if (schedule == Schedule::Cosine)
        need(lr_decay_iters > warmup_iters, "lr_decay_iters (" + std::to_string(lr_decay_iters) +
                                                ") must be larger than warmup_iters (" + std::to_string(warmup_iters) +
                                                ")");
    need(min_lr >= 0 && min_lr <= learning_rate, "min_lr must be between 0 and learning_rate");
    need(weight_decay >= 0, "weight_decay must not be negative");
    need(beta1 >= 0 && beta1 < 1 && beta2 >= 0 && beta2 < 1, "beta1 and beta2 must be in [0, 1)");
    need(grad_clip >= 0, "grad_clip must not be negative (0 turns clipping off)");
    need(label_smoothing >= 0 && label_smoothing < 1, "label_smoothing must be in [0, 1)");
    need(eval_interval >= 1, "eval_interval must be at least 1");
    need(eval_iters >= 1, "eval_iters must be at least 1");
    need(log_interval >= 1, "log_interval must be at least 1");
    need(keep_checkpoints >= 1, "keep_checkpoints must be at least 1");
    need(threads >= 0 && threads <= 1024, "threads must be between 0 (all cores) and 1024");
    need(probe_prompt.size() <= 4096, "probe_prompt holds at most 4096 bytes (the probe uses its first 64 tokens)");
    try {
        parse_device(device);
    } catch (const ConfigError& e) {
        p.push_back(e.what());
    }
    need(vocab_size >= 0 && vocab_size <= (1 << 24), "vocab_size must be between 0 (from the dataset) and 16777216");
    need(source_vocab_size >= 0 && source_vocab_size <= (1 << 24),
         "source_vocab_size must be between 0 (shared with the target) and 16777216");
    need(source_vocab_size == 0 || model_kind == ModelKind::EncoderDecoder,
         "source_vocab_size is for encoder-decoder runs (model_kind=encoder_decoder)");
    return p;
}

void RunConfig::check() const {
    const auto p = validate();
    if (p.empty())
        return;
    std::string msg = "invalid config: ";
    for (size_t i = 0; i < p.size(); ++i)
        msg += (i ? "; " : "") + p[i];
    throw ConfigError(msg);
}

void RunConfig::set(const std::string& kv) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError("'" + kv + "' is not key=value (e.g. n_layer=6)");
    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
    const auto k = keys();
    if (std::find(k.begin(), k.end(), key) == k.end())
        throw ConfigError("unknown config key '" + key + "'; known keys: " + known_keys());
    // The text becomes a JSON value (a string when it is not a JSON number or literal), then takes the
    // same strict path as a config file: type, whole number and range are checked there.
    nlohmann::json v;
    try {
        v = nlohmann::json::parse(value);
        if (!v.is_primitive())
            v = value;
    } catch (const nlohmann::json::exception&) {
        v = value;
    }
    const nlohmann::json cur = nlohmann::json(*this)[key];
    if (cur.is_string())
        v = value;  // string keys take the text as it is ("device=cpu", "probe_prompt=1")
    *this = config_from_json(nlohmann::json{{key, v}}, *this, "--set " + kv);
}

RunConfig::ParameterParts RunConfig::parameter_parts() const {
    const int64_t C = n_embd, V = vocab_size, L = n_layer, T = block_size, b = bias ? 1 : 0;
    const int64_t A = static_cast<int64_t>(n_head) * head_dim(), F = ffn_dim();  // attention and MLP widths
    const int64_t perNorm = norm == NormKind::RmsNorm ? C : C + b * C;           // RMSNorm has no bias
    ParameterParts p;
    p.embeddings = V * C + (position == Position::Learned ? T * C : 0);  // wte, wpe
    p.attention = L * (C * 3 * A + b * 3 * A + A * C + b * C);           // c_attn, attn c_proj
    p.feed_forward = L * (C * F + b * F + F * C + b * C);                // c_fc, mlp c_proj
    // ln_1, ln_2; ln_f only for pre-norm (post-norm blocks end normalised)
    p.norms = L * 2 * perNorm + (norm_position == NormPosition::Pre ? perNorm : 0);
    p.lm_head = tie_embeddings ? 0 : V * C;
    if (model_kind == ModelKind::EncoderDecoder) {
        // nn/seq2seq_model: one shared token embedding (learned positions: one table per side), encoder
        // blocks as the decoder LM's, decoder blocks with a cross-attention (c_q, c_kv, c_proj) and a third norm.
        const int64_t E = encoder_layers(), D = decoder_layers();
        const int64_t self = C * 3 * A + b * 3 * A + A * C + b * C,
                      cross = C * A + b * A + C * 2 * A + b * 2 * A + A * C + b * C;
        p.embeddings = V * C + static_cast<int64_t>(source_vocab_size) * C +
                       (position == Position::Learned ? 2 * T * C : 0);  // + the source's own, when separate
        p.attention = E * self + D * (self + cross);
        p.feed_forward = (E + D) * (C * F + b * F + F * C + b * C);
        p.norms = E * 2 * perNorm + D * 3 * perNorm + (norm_position == NormPosition::Pre ? 2 * perNorm : 0);
    }
    return p;
}

int64_t RunConfig::parameter_count() const {
    return parameter_parts().total();
}

int64_t RunConfig::estimated_memory_bytes() const {
    // In double: a hostile config (huge width, batch and context) must not overflow into a small number.
    const double P = static_cast<double>(parameter_count());
    const double B = batch_size, T = block_size, C = n_embd, L = n_layer, H = n_head, V = vocab_size;
    const double A = H * head_dim(), F = ffn_dim();
    // weights + grads + two Adam moments, fp32; activations kept for backward (rough: per layer four
    // C-wide tensors, q, k, v and the heads' output, two F-wide MLP tensors and the attention matrices,
    // which is 16 C at the default widths; plus logits).
    const double acts = B * T * (L * (4 * C + 4 * A + 2 * F + 2 * H * T) + 2 * V);
    const double bytes = 4 * (4 * P + acts);
    return bytes >= 9.2e18 ? INT64_MAX : static_cast<int64_t>(bytes);
}

RunConfig preset_config(const std::string& name) {
    RunConfig c;
    if (name == "default") {
        // The struct's defaults: nanoGPT's CPU budget with rotary positions and a 3x learning rate,
        // val loss 1.70 against the recipe's 1.89 on tiny shakespeare (docs/benchmarks.md).
    } else if (name == "nanogpt-cpu") {
        // nanoGPT's CPU recipe for tiny shakespeare (README "I only have a macbook").
        c.n_layer = 4;
        c.n_head = 4;
        c.n_embd = 128;
        c.block_size = 64;
        c.batch_size = 12;
        c.max_iters = 2000;
        c.lr_decay_iters = 2000;
        c.learning_rate = 1e-3;
        c.min_lr = 1e-4;
        c.beta2 = 0.99;
        c.warmup_iters = 100;
        c.dropout = 0.0;
        c.eval_iters = 20;
        c.eval_interval = 250;
        c.position = Position::Learned;
    } else if (name == "baby-gpt") {
        // nanoGPT's shakespeare_char config: 6 layers, 6 heads, 384 wide, block 256.
        c.n_layer = 6;
        c.n_head = 6;
        c.n_embd = 384;
        c.block_size = 256;
        c.batch_size = 64;
        c.max_iters = 5000;
        c.lr_decay_iters = 5000;
        c.learning_rate = 1e-3;
        c.min_lr = 1e-4;
        c.beta2 = 0.99;
        c.warmup_iters = 100;
        c.dropout = 0.2;
        c.eval_iters = 200;
        c.eval_interval = 250;
        c.position = Position::Learned;
    } else if (name == "tiny") {
        // Trains in well under a minute on 2 cores: the first-run default.
        c.n_layer = 3;
        c.n_head = 4;
        c.n_embd = 96;
        c.block_size = 64;
        c.batch_size = 16;
        c.max_iters = 500;
        c.lr_decay_iters = 500;
        c.learning_rate = 3e-3;
        c.min_lr = 3e-4;
        c.warmup_iters = 30;
        c.eval_interval = 100;
        c.eval_iters = 10;
        c.log_interval = 5;
    } else if (name == "multi30k" || name == "tatoeba") {
        // The encoder-decoder (Vaswani et al.'s model, smaller) for Multi30k de->en on 2 CPU cores:
        // 3+3 blocks 256 wide, sinusoidal positions and ReLU as the paper, pre-norm (post-norm wants a longer
        // warmup than a short run has); the paper's schedule, label smoothing 0.1, token-budget batches.
        // Multi30k's recipe is one hour: 1600 steps (6.9 epochs) took 54 minutes at 2 threads on the project's
        // 2-core machine and reached test BLEU above 30 (docs/benchmarks.md); a schedule peaking at 1.25e-3
        // at step 400. Raise max_iters to train the 20 epochs.
        c.model_kind = ModelKind::EncoderDecoder;
        c.n_layer = 3;
        c.n_head = 4;
        c.n_embd = 256;
        c.ffn_hidden = 1024;
        c.block_size = 96;
        c.dropout = 0.1;
        c.position = Position::Sinusoidal;
        c.activation = Activation::Relu;
        c.batch_tokens = 4096;
        c.schedule = Schedule::Noam;
        c.learning_rate = 0.4;
        c.min_lr = 0;
        c.warmup_iters = 400;
        c.beta2 = 0.98;
        c.weight_decay = 0.0;
        c.label_smoothing = 0.1;
        c.max_iters = 1600;
        c.max_epochs = 20;
        c.eval_interval = 200;
        c.eval_iters = 50;
        c.bleu_pairs = 200;
        c.best_by = BestBy::Bleu;
        if (name == "tatoeba") {  // 6k short pairs: a smaller model, shorter warmup
            c.n_layer = 2;
            c.n_embd = 128;
            c.ffn_hidden = 512;
            c.block_size = 64;
            c.batch_tokens = 2048;
            c.learning_rate = 1.0;
            c.warmup_iters = 200;
            c.max_iters = 20000;  // the 20 epochs end it
            c.eval_interval = 100;
        }
    } else {
        throw ConfigError("unknown preset '" + name + "'; choose " + [] {
            std::string all;
            for (auto& n : preset_config_names())
                all += (all.empty() ? "" : ", ") + n;
            return all;
        }());
    }
    return c;
}

std::vector<std::string> preset_config_names() {
    return {"default", "nanogpt-cpu", "baby-gpt", "tiny", "multi30k", "tatoeba"};
}

}  // namespace twb
