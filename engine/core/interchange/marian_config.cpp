// A Hugging Face Marian config.json read into an encoder-decoder RunConfig (marian_config.h).
#include "core/interchange/marian_config.h"

#include "core/run/checkpoint_state.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace twb {

namespace fs = std::filesystem;

namespace {

nlohmann::json read_object(const fs::path& file) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(file));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(file.string() + ": not valid JSON (" + e.what() + ")");
    }
    if (!j.is_object())
        throw FormatError(file.string() + ": not a JSON object");
    return j;
}

struct Reader {
    const nlohmann::json& j;
    std::string where;
    bool has(const char* key) const { return j.contains(key) && !j[key].is_null(); }
    int whole(const char* key, int lo, int hi, std::optional<int> fallback = std::nullopt) const {
        if (!has(key)) {
            if (fallback)
                return *fallback;
            throw FormatError(where + ": has no '" + key + "'; is this a Marian config?");
        }
        const auto& v = j[key];
        if (v.is_array() && v.size() == 1)  // eos_token_id may be a list of one
            return Reader{nlohmann::json{{key, v[0]}}, where}.whole(key, lo, hi);
        if (!v.is_number_integer() || v.get<int64_t>() < lo || v.get<int64_t>() > hi)
            throw FormatError(where + ": '" + key + "' must be a whole number between " + std::to_string(lo) + " and " +
                              std::to_string(hi) + " (got " + v.dump() + ")");
        return v.get<int>();
    }
    bool flag(const char* key, bool fallback) const {
        if (!has(key))
            return fallback;
        if (!j[key].is_boolean())
            throw FormatError(where + ": '" + key + "' must be true or false (got " + j[key].dump() + ")");
        return j[key].get<bool>();
    }
    void same(const char* a, const char* b) const {
        if (has(a) && has(b) && j[a] != j[b])
            throw FormatError(where + ": " + a + " = " + j[a].dump() + " but " + b + " = " + j[b].dump() +
                              "; the encoder-decoder family has one value for both stacks");
    }
};

Activation marian_activation(const Reader& r) {
    const std::string a = r.has("activation_function") && r.j["activation_function"].is_string()
                              ? r.j["activation_function"].get<std::string>()
                              : (r.has("activation_function") ? r.j["activation_function"].dump() : "gelu");
    if (a == "swish" || a == "silu")
        return Activation::Silu;
    if (a == "gelu")
        return Activation::Gelu;
    if (a == "gelu_new" || a == "gelu_pytorch_tanh" || a == "gelu_fast")
        return Activation::GeluTanh;
    if (a == "relu")
        return Activation::Relu;
    throw FormatError(r.where + ": activation_function '" + a +
                      "' is not supported (swish/silu, gelu, gelu_new or relu are)");
}

}  // namespace

std::string hf_model_type(const fs::path& config_json) {
    const nlohmann::json j = read_object(config_json);
    const auto it = j.find("model_type");
    return it != j.end() && it->is_string() ? it->get<std::string>() : "gpt2";
}

MarianConfig read_marian_config(const fs::path& file) {
    const std::string where = file.string();
    const nlohmann::json j = read_object(file);
    if (j.value("model_type", "") != "marian")
        throw FormatError(where + ": model_type is not 'marian'");
    const Reader r{j, where};
    if (!r.flag("share_encoder_decoder_embeddings", true))
        throw FormatError(where +
                          ": share_encoder_decoder_embeddings = false (separate source and target "
                          "vocabularies) is not supported; the family imports one shared vocabulary");
    r.same("encoder_attention_heads", "decoder_attention_heads");
    r.same("encoder_ffn_dim", "decoder_ffn_dim");
    MarianConfig m;
    RunConfig& c = m.config;
    c.data_dir.clear();
    c.model_kind = ModelKind::EncoderDecoder;
    c.vocab_size = r.whole("vocab_size", 1, 1 << 24);
    if (r.has("decoder_vocab_size") && r.whole("decoder_vocab_size", 1, 1 << 24) != c.vocab_size)
        throw FormatError(where + ": decoder_vocab_size " + j["decoder_vocab_size"].dump() +
                          " differs from vocab_size " + std::to_string(c.vocab_size) +
                          " (a target vocabulary of its own) and is not supported");
    c.n_embd = r.whole("d_model", 1, 1 << 16);
    c.n_head = r.whole("encoder_attention_heads", 1, 1024);
    if (c.n_embd % c.n_head != 0)
        throw FormatError(where + ": d_model " + std::to_string(c.n_embd) + " is not divisible by the " +
                          std::to_string(c.n_head) + " heads");
    c.n_encoder_layer = r.whole("encoder_layers", 1, 128);
    c.n_decoder_layer = r.whole("decoder_layers", 1, 128);
    c.n_layer = c.n_encoder_layer;
    c.ffn_hidden = r.whole("encoder_ffn_dim", 1, 1 << 20);
    c.block_size = r.whole("max_position_embeddings", 1, 65536);
    c.activation = marian_activation(r);
    c.scale_embeddings = r.flag("scale_embedding", false);  // MarianConfig's default
    c.tie_embeddings = r.flag("tie_word_embeddings", true);
    c.position = Position::Sinusoidal;
    c.sinusoid_halves = true;
    c.logits_bias = true;
    c.norm = NormKind::LayerNorm;
    c.norm_position = NormPosition::Post;
    c.norm_eps = 1e-5;  // torch's LayerNorm default, which Marian's layers use
    c.bias = true;
    c.qk_norm = false;
    c.head_size = 0;
    c.dropout = 0.0;
    m.ids.vocab_size = c.vocab_size;
    m.ids.eos = r.whole("eos_token_id", 0, c.vocab_size - 1, 0);
    m.ids.pad = r.whole("pad_token_id", 0, c.vocab_size - 1, c.vocab_size - 1);
    m.ids.decoder_start = r.whole("decoder_start_token_id", 0, c.vocab_size - 1, m.ids.pad);
    check_model_config(c, where);
    return m;
}

}  // namespace twb
