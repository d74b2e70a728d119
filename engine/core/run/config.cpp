// RunConfig JSON and validation over the option table (config_options.cpp), presets and size estimates.
#include "twb/config.h"

#include "twb/config_options.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <set>

namespace twb {

void to_json(nlohmann::json& j, const RunConfig& c) {
    j = nlohmann::json::object();
    j["format_version"] = kConfigFormatVersion;
    for (const auto& o : config_options())
        j[o.key] = o.value(c);
}

namespace {
std::string shown(const nlohmann::json& v) {
    std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

std::string known_keys() {
    std::string all;
    for (const auto& o : config_options())
        all += (all.empty() ? "" : ", ") + o.key;
    return all;
}
}  // namespace

RunConfig config_from_json(const nlohmann::json& j, const RunConfig& base, const std::string& where) {
    if (!j.is_object()) {
        const std::string type = j.type_name();  // "array", "string", "number", "boolean", "null"
        throw ConfigError(where + ": a config is a JSON object of key: value pairs, not " +
                          (type == "null"    ? ""
                           : type == "array" ? "an "
                                             : "a ") +
                          type);
    }
    RunConfig c = base;
    for (auto& [key, v] : j.items()) {
        if (key == "format_version") {
            if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > kConfigFormatVersion)
                throw ConfigError(where + ": format_version " + shown(v) + " is not one this program reads (1.." +
                                  std::to_string(kConfigFormatVersion) + ")");
            continue;
        }
        const ConfigOption* o = find_config_option(key);
        if (!o)
            throw ConfigError(where + ": unknown config key '" + key + "'; known keys: " + known_keys());
        o->read(c, v, where);
    }
    return c;
}

void from_json(const nlohmann::json& j, RunConfig& c) {
    c = config_from_json(j, RunConfig{}, "config");
}

RunConfig read_config_file(const std::string& path, const RunConfig& base, std::vector<std::string>* given) {
    nlohmann::json j;
    // A key given twice would silently take its last value: refused, naming the key.
    std::vector<std::set<std::string>> keys;  // one set per open object
    std::string repeated;
    const auto note_keys = [&](int, nlohmann::json::parse_event_t ev, nlohmann::json& v) {
        using E = nlohmann::json::parse_event_t;
        if (ev == E::object_start)
            keys.emplace_back();
        else if (ev == E::object_end && !keys.empty())
            keys.pop_back();
        else if (ev == E::key && !keys.empty() && !keys.back().insert(v.get<std::string>()).second && repeated.empty())
            repeated = v.get<std::string>();
        return true;
    };
    try {
        j = nlohmann::json::parse(read_file(path, 1 << 20), note_keys);  // a config is small: 1 MiB at most
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": not valid JSON (" + std::string(e.what()) + "); a config is {\"n_layer\": 6, ...}");
    }
    if (!repeated.empty())
        throw InputError(path + ": the key '" + repeated + "' is given twice; keep one (which was meant?)");
    RunConfig c = config_from_json(j, base, path);
    if (given)
        for (const auto& item : j.items())
            if (item.key() != "format_version")
                given->push_back(item.key());
    return c;
}

std::vector<std::string> RunConfig::keys() {
    std::vector<std::string> k;
    for (const auto& o : config_options())
        k.push_back(o.key);
    return k;
}

std::vector<std::string> RunConfig::validate() const {
    std::vector<std::string> p;
    auto need = [&](bool ok, const std::string& msg) {
        if (!ok)
            p.push_back(msg);
    };
    // What joins several keys here (over values in range); each key's own range is the table's, below.
    const bool headsOk = n_head >= 1 && n_head <= 1024 && n_embd >= 1 && n_embd <= 65536 && head_size >= 0;
    if (headsOk && head_size == 0)
        need(n_embd % n_head == 0, "n_embd " + std::to_string(n_embd) + " must be divisible by n_head " +
                                       std::to_string(n_head) + " (or set head_size to choose the head width)");
    if (headsOk && head_size > 0)
        need(static_cast<int64_t>(n_head) * head_size <= 65536,
             "the attention width n_head * head_size = " + std::to_string(n_head) + " * " + std::to_string(head_size) +
                 " = " + std::to_string(static_cast<int64_t>(n_head) * head_size) + " must be at most 65536");
    if (position == Position::Rotary && headsOk && (head_size > 0 || n_embd % n_head == 0))
        need(head_dim() % 2 == 0, "rotary positions rotate pairs of channels, so they need an even head size (" +
                                      std::string(head_size > 0 ? "head_size" : "n_embd / n_head") + " = " +
                                      std::to_string(head_dim()) + ")");
    if (schedule == Schedule::InverseSqrt || schedule == Schedule::Noam)
        need(warmup_iters >= 1, to_string(schedule) + " needs warmup_iters of at least 1");
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
    need(min_lr <= learning_rate, "min_lr must be between 0 and learning_rate");
    need(probe_prompt.size() <= 4096, "probe_prompt holds at most 4096 bytes (the probe uses its first 64 tokens)");
    try {
        parse_device(device);
    } catch (const ConfigError& e) {
        p.push_back(e.what());
    }
    need(source_vocab_size == 0 || model_kind == ModelKind::EncoderDecoder,
         "source_vocab_size is for encoder-decoder runs (model_kind=encoder_decoder)");
    for (const auto& o : config_options())
        if (std::string why = o.range_problem(*this); !why.empty())
            p.push_back(why);
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
    // qk_norm: a norm over each head's queries and one over its keys (head_dim wide, shared by the heads)
    const int64_t D = head_dim(), qk = qk_norm ? 2 * (norm == NormKind::RmsNorm ? D : D + b * D) : 0;
    ParameterParts p;
    p.embeddings = V * C + (position == Position::Learned ? T * C : 0);  // wte, wpe
    p.attention = L * (C * 3 * A + b * 3 * A + A * C + b * C);           // c_attn, attn c_proj
    p.feed_forward = L * (C * F + b * F + F * C + b * C);                // c_fc, mlp c_proj
    // ln_1, ln_2; ln_f only for pre-norm (post-norm blocks end normalised)
    p.norms = L * (2 * perNorm + qk) + (norm_position == NormPosition::Pre ? perNorm : 0);
    p.lm_head = tie_embeddings ? 0 : V * C;
    if (model_kind == ModelKind::EncoderDecoder) {
        // nn/models/seq2seq_model: one shared token embedding (learned positions: one table per side), encoder
        // blocks as the decoder LM's, decoder blocks with a cross-attention (c_q, c_kv, c_proj) and a third norm.
        const int64_t E = encoder_layers(), Dl = decoder_layers();
        const int64_t self = C * 3 * A + b * 3 * A + A * C + b * C,
                      cross = C * A + b * A + C * 2 * A + b * 2 * A + A * C + b * C;
        p.embeddings = V * C + static_cast<int64_t>(source_vocab_size) * C +
                       (position == Position::Learned ? 2 * T * C : 0);  // + the source's own, when separate
        p.attention = E * self + Dl * (self + cross);
        p.feed_forward = (E + Dl) * (C * F + b * F + F * C + b * C);
        // a decoder block's cross-attention normalises its queries and keys too
        p.norms = E * (2 * perNorm + qk) + Dl * (3 * perNorm + 2 * qk) +
                  (norm_position == NormPosition::Pre ? 2 * perNorm : 0);
        p.lm_head += logits_bias ? V : 0;  // final_logits_bias
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

namespace {
void nanogpt_cpu(RunConfig& c) {
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
    c.bias = false;  // train.py's bias = False: no biases in the Linear layers and LayerNorms
}

void baby_gpt(RunConfig& c) {
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
    c.bias = false;  // train.py's default, which the config keeps
}

void tiny(RunConfig& c) {
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
}

void seq2seq_preset(RunConfig& c, bool tatoeba) {
    // The encoder-decoder (Vaswani et al.'s model, smaller) for Multi30k de->en on 2 CPU cores:
    // 3+3 blocks 256 wide, sinusoidal positions and ReLU as the paper, pre-norm (post-norm wants a longer
    // warmup than a short run has); the paper's schedule, label smoothing 0.1, token-budget batches.
    // Multi30k's recipe is one hour: 1600 steps (6.9 epochs) took 54 minutes at 2 threads on the project's
    // 2-core machine and reached test BLEU above 30 (docs/benchmarks/translation.md); a schedule peaking
    // at 1.25e-3 at step 400. Raise max_iters to train the 20 epochs.
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
    if (tatoeba) {  // 6k short pairs: a smaller model, shorter warmup
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
}
}  // namespace

RunConfig preset_config(const std::string& name) {
    RunConfig c;
    // "default": the struct's defaults: nanoGPT's CPU budget with rotary positions and a 3x learning rate,
    // val loss 1.70 against the recipe's 1.89 on tiny shakespeare (docs/benchmarks/cpu-training.md).
    if (name == "nanogpt-cpu")
        nanogpt_cpu(c);
    else if (name == "baby-gpt")
        baby_gpt(c);
    else if (name == "tiny")
        tiny(c);
    else if (name == "multi30k" || name == "tatoeba")
        seq2seq_preset(c, name == "tatoeba");
    else if (name != "default")
        throw ConfigError("unknown preset '" + name + "'; choose " + [] {
            std::string all;
            for (auto& n : preset_config_names())
                all += (all.empty() ? "" : ", ") + n;
            return all;
        }());
    return c;
}

std::vector<std::string> preset_config_names() {
    return {"default", "nanogpt-cpu", "baby-gpt", "tiny", "multi30k", "tatoeba"};
}

}  // namespace twb
