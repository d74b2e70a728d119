// A Hugging Face GPT-2 config.json read into a RunConfig (import --hf), torch-free so it can be fuzzed.
#include "core/interchange/hf_config.h"

#include "core/run/checkpoint_state.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

namespace twb {

namespace fs = std::filesystem;

namespace {
struct HfConfigReader {
    const nlohmann::json& j;
    std::string where;
    const nlohmann::json* find(std::initializer_list<const char*> keys) const {
        for (const char* k : keys)
            if (j.contains(k) && !j[k].is_null())
                return &j[k];
        return nullptr;
    }
    int whole(std::initializer_list<const char*> keys, int lo, int hi) const {
        const nlohmann::json* v = find(keys);
        if (!v)
            throw FormatError(where + ": has no '" + *keys.begin() + "'; is this a GPT-2 config?");
        if (!v->is_number_integer() || v->get<int64_t>() < lo || v->get<int64_t>() > hi)
            throw FormatError(where + ": '" + *keys.begin() + "' must be a whole number between " + std::to_string(lo) +
                              " and " + std::to_string(hi) + " (got " + v->dump() + ")");
        return v->get<int>();
    }
};

void check_model_type(const nlohmann::json& j, const std::string& where) {
    const nlohmann::json* model_type = j.contains("model_type") ? &j["model_type"] : nullptr;
    if (model_type && !model_type->is_string())
        throw FormatError(where + ": model_type must be a string such as \"gpt2\" (got " + model_type->dump() + ")");
    const std::string type = model_type ? model_type->get<std::string>() : "gpt2";
    if (type != "gpt2")
        throw FormatError(where + ": model_type is '" + type +
                          "'; only GPT-2-family (model_type gpt2) and Marian (model_type marian) checkpoints can be "
                          "imported");
}

/// activation_function (GPT-2's default gelu_new when absent).
Activation activation_of(const nlohmann::json* act, const std::string& where) {
    const std::string a = act && act->is_string() ? act->get<std::string>() : (act ? act->dump() : "gelu_new");
    if (a == "gelu_new" || a == "gelu_pytorch_tanh" || a == "gelu_fast")
        return Activation::GeluTanh;
    if (a == "gelu")
        return Activation::Gelu;
    if (a == "relu")
        return Activation::Relu;
    if (a == "silu" || a == "swish")
        return Activation::Silu;
    throw FormatError(where + ": activation_function '" + a +
                      "' is not supported (gelu_new, gelu_pytorch_tanh, gelu, relu or silu are)");
}
}  // namespace

HfSpecialIds read_hf_special_ids(const fs::path& file) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(file));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(file.string() + ": not valid JSON (" + e.what() + ")");
    }
    // Absent or null: the model has no such token. Anything else that is not a token id was read as none
    // and the token lost its meaning without a word (its id decoded as the text "<bos>").
    auto id = [&](const char* key) {
        if (!j.is_object() || !j.contains(key) || j[key].is_null())
            return -1;
        const auto& v = j[key];
        if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= (int64_t{1} << 30))
            throw FormatError(file.string() + ": " + key + " is " + v.dump() +
                              ", not a token id (a whole number from 0); correct it, or remove it if the model has "
                              "no such token");
        return static_cast<int>(v.get<int64_t>());
    };
    return {id("bos_token_id"), id("eos_token_id")};
}

RunConfig read_hf_config(const fs::path& file) {
    const std::string where = file.string();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(file));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(where + ": not valid JSON (" + e.what() + ")");
    }
    if (!j.is_object())
        throw FormatError(where + ": not a JSON object");
    check_model_type(j, where);
    auto flag = [&](const char* key, bool fine) {
        if (j.contains(key) && j[key].is_boolean() && j[key].get<bool>() != fine)
            throw FormatError(where + ": " + key + " = " + j[key].dump() + " is not supported (GPT-2 small's is " +
                              (fine ? "true" : "false") + ")");
    };
    flag("scale_attn_weights", true);
    flag("scale_attn_by_inverse_layer_idx", false);
    flag("add_cross_attention", false);
    const HfConfigReader r{j, where};
    RunConfig c;
    c.data_dir.clear();
    c.n_layer = r.whole({"n_layer", "num_hidden_layers"}, 1, 1024);
    c.n_head = r.whole({"n_head", "num_attention_heads"}, 1, 1024);
    c.n_embd = r.whole({"n_embd", "hidden_size"}, 1, 1 << 16);
    c.block_size = r.whole({"n_positions", "n_ctx"}, 1, 65536);
    c.vocab_size = r.whole({"vocab_size"}, 1, 1 << 24);
    if (c.n_embd % c.n_head != 0)
        throw FormatError(where + ": n_embd " + std::to_string(c.n_embd) + " is not divisible by n_head " +
                          std::to_string(c.n_head));
    c.ffn_hidden = r.find({"n_inner"}) ? r.whole({"n_inner"}, 1, 1 << 20) : 0;
    const nlohmann::json* eps = r.find({"layer_norm_epsilon"});
    if (eps && (!eps->is_number() || eps->get<double>() <= 0 || eps->get<double>() > 1))
        throw FormatError(where + ": 'layer_norm_epsilon' must be a number in (0, 1] (got " + eps->dump() + ")");
    c.norm_eps = eps ? eps->get<double>() : 1e-5;
    c.activation = activation_of(r.find({"activation_function"}), where);
    c.position = Position::Learned;
    c.bias = true;
    c.norm = NormKind::LayerNorm;
    c.norm_position = NormPosition::Pre;
    c.head_size = 0;
    c.dropout = 0.0;
    c.tie_embeddings = true;
    check_model_config(c, where);
    return c;
}

}  // namespace twb
