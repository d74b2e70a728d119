// Marian in and out of the encoder-decoder family (marian_exchange.h).
#include "nn/interchange/marian_exchange.h"

#include "core/interchange/marian_config.h"
#include "core/run/checkpoint_state.h"
#include "core/tokenizers/marian_vocab.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/interchange/checkpoint.h"
#include "nn/interchange/exchange_folder.h"
#include "nn/models/position_tables.h"
#include "nn/models/seq2seq_model.h"
#include "twb/errors.h"
#include "twb/run_info.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <set>

namespace twb::nn {

namespace fs = std::filesystem;

namespace {

/// One of our tensors and the Marian tensors whose rows it is, in order (names without "model.").
struct MarianTensor {
    std::string ours;
    std::vector<std::string> theirs;
};

void linear_pair(std::vector<MarianTensor>& out, const std::string& ours, const std::vector<std::string>& theirs) {
    for (const char* part : {"weight", "bias"}) {
        std::vector<std::string> t;
        for (const auto& n : theirs)
            t.push_back(n + "." + part);
        out.push_back({ours + "." + part, t});
    }
}

/// Every block tensor of the config with its Marian names (the embeddings and the logits bias apart).
std::vector<MarianTensor> block_tensors(const RunConfig& c) {
    std::vector<MarianTensor> out;
    for (int i = 0; i < c.encoder_layers(); ++i) {
        const std::string p = "encoder.h." + std::to_string(i) + ".", m = "encoder.layers." + std::to_string(i) + ".";
        linear_pair(out, p + "attn.c_attn", {m + "self_attn.q_proj", m + "self_attn.k_proj", m + "self_attn.v_proj"});
        linear_pair(out, p + "attn.c_proj", {m + "self_attn.out_proj"});
        linear_pair(out, p + "ln_1", {m + "self_attn_layer_norm"});
        linear_pair(out, p + "mlp.c_fc", {m + "fc1"});
        linear_pair(out, p + "mlp.c_proj", {m + "fc2"});
        linear_pair(out, p + "ln_2", {m + "final_layer_norm"});
    }
    for (int i = 0; i < c.decoder_layers(); ++i) {
        const std::string p = "decoder.h." + std::to_string(i) + ".", m = "decoder.layers." + std::to_string(i) + ".";
        linear_pair(out, p + "self_attn.c_attn",
                    {m + "self_attn.q_proj", m + "self_attn.k_proj", m + "self_attn.v_proj"});
        linear_pair(out, p + "self_attn.c_proj", {m + "self_attn.out_proj"});
        linear_pair(out, p + "ln_1", {m + "self_attn_layer_norm"});
        linear_pair(out, p + "cross_attn.c_q", {m + "encoder_attn.q_proj"});
        linear_pair(out, p + "cross_attn.c_kv", {m + "encoder_attn.k_proj", m + "encoder_attn.v_proj"});
        linear_pair(out, p + "cross_attn.c_proj", {m + "encoder_attn.out_proj"});
        linear_pair(out, p + "ln_2", {m + "encoder_attn_layer_norm"});
        linear_pair(out, p + "mlp.c_fc", {m + "fc1"});
        linear_pair(out, p + "mlp.c_proj", {m + "fc2"});
        linear_pair(out, p + "ln_3", {m + "final_layer_norm"});
    }
    return out;
}

/// The file's tensors by name, a name looked up with or without MarianMTModel's "model." prefix.
struct FileTensors {
    std::map<std::string, const SafetensorsEntry*> byName;
    std::set<std::string> used;
    std::string where, dtype;
    const SafetensorsEntry* find(const std::string& name, bool prefixed = true) {
        for (const std::string& k :
             prefixed ? std::vector<std::string>{"model." + name, name} : std::vector<std::string>{name}) {
            const auto it = byName.find(k);
            if (it != byName.end()) {
                used.insert(k);
                return it->second;
            }
        }
        return nullptr;
    }
    const SafetensorsEntry& need(const std::string& name, const std::vector<int64_t>& shape) {
        const SafetensorsEntry* e = find(name);
        if (!e)
            throw FormatError(where + ": has no tensor 'model." + name +
                              "'; it is not a Marian checkpoint of this "
                              "config.json");
        check(*e, shape);
        return *e;
    }
    void check(const SafetensorsEntry& e, const std::vector<int64_t>& shape) {
        if (e.dtype != "F32" && e.dtype != "F16" && e.dtype != "BF16")
            throw FormatError(where + ": tensor '" + e.name + "' is " + e.dtype + "; only F32, F16 and BF16 are read");
        if (e.shape != shape)
            throw FormatError(where + ": tensor '" + e.name + "' has shape " + shape_text(e.shape) +
                              " but config.json needs " + shape_text(shape));
        dtype = dtype.empty() || dtype == e.dtype ? e.dtype : "mixed";
    }
};

/// Our weights from the file, every tensor checked before any data is read.
SafetensorsData read_marian_weights(const fs::path& st, const RunConfig& c, std::string& dtype) {
    FileTensors f;
    f.where = st.string();
    const SafetensorsHeader header = read_safetensors_header(st);
    for (const auto& e : header.tensors)
        f.byName[e.name] = &e;
    std::map<std::string, std::vector<std::string>> plan;  // ours -> the file's names, rows in order
    {
        torch::NoGradGuard ng;
        Seq2Seq shape(c);
        std::map<std::string, std::vector<int64_t>> want;
        for (const auto& [n, p] : shape->named_weights())
            want[n] = p.sizes().vec();
        for (const auto& t : block_tensors(c)) {
            std::vector<int64_t> part = want.at(t.ours);
            part[0] /= static_cast<int64_t>(t.theirs.size());
            for (const auto& name : t.theirs)
                plan[t.ours].push_back(f.need(name, part).name);
        }
    }
    const std::vector<int64_t> emb{c.vocab_size, c.n_embd};
    std::vector<std::string> embeddings;  // shared, and the two stacks' copies when stored
    for (const char* n : {"shared.weight", "encoder.embed_tokens.weight", "decoder.embed_tokens.weight"})
        if (const auto* e = f.find(n)) {
            f.check(*e, emb);
            embeddings.push_back(e->name);
        }
    if (embeddings.empty())
        throw FormatError(f.where + ": has no token embedding (model.shared.weight)");
    const SafetensorsEntry* head = f.find("lm_head.weight", false);
    if (head)
        f.check(*head, emb);
    else if (!c.tie_embeddings)
        throw FormatError(f.where + ": has no lm_head.weight, which tie_word_embeddings = false needs");
    const SafetensorsEntry* bias = f.find("final_logits_bias", false);
    if (bias)
        f.check(*bias, {1, c.vocab_size});
    std::vector<std::string> positions;
    for (const char* n : {"encoder.embed_positions.weight", "decoder.embed_positions.weight"})
        if (const auto* e = f.find(n)) {
            f.check(*e, {c.block_size, c.n_embd});
            positions.push_back(e->name);
        }
    for (const auto& e : header.tensors)
        if (!f.used.count(e.name))
            throw FormatError(f.where + ": tensor '" + e.name +
                              "' is not part of Marian's encoder-decoder (a different architecture?)");

    auto data = load_safetensors(st);
    auto get = [&](const std::string& n) { return data.tensors.at(n).to(torch::kFloat32).contiguous(); };
    SafetensorsData ours;
    for (const auto& [o, names] : plan) {
        std::vector<torch::Tensor> parts;
        for (const auto& n : names)
            parts.push_back(get(n));
        ours.tensors[o] = torch::cat(parts, 0).contiguous();
    }
    ours.tensors["wte.weight"] = get(embeddings[0]);
    for (const auto& n : embeddings)
        if (!torch::equal(get(n), ours.tensors["wte.weight"]))
            throw FormatError(f.where + ": '" + n + "' differs from '" + embeddings[0] +
                              "'; the family shares one embedding between the encoder and the decoder");
    if (head && c.tie_embeddings && !torch::equal(get(head->name), ours.tensors["wte.weight"]))
        throw FormatError(f.where +
                          ": lm_head.weight differs from the shared embedding though config.json's "
                          "tie_word_embeddings is true");
    if (!c.tie_embeddings)
        ours.tensors["lm_head.weight"] = get(head->name);
    ours.tensors["final_logits_bias"] = bias ? get(bias->name).view({c.vocab_size}) : torch::zeros({c.vocab_size});
    const auto table = sinusoidal_table(c.block_size, c.n_embd, true);
    for (const auto& n : positions)
        if ((get(n) - table).abs().max().item<double>() > 1e-4)
            throw FormatError(f.where + ": '" + n +
                              "' is not Marian's sinusoidal table (a different position type "
                              "the family cannot hold)");
    dtype = f.dtype;
    return ours;
}

}  // namespace

HfImportResult import_marian(const fs::path& dir, const fs::path& out_run, const std::string& name,
                             const ExchangeProgressFn& progress) {
    auto say = [&](const std::string& m) {
        if (progress)
            progress(m);
    };
    say("reading config.json");
    MarianConfig mc = read_marian_config(dir / "config.json");
    RunConfig& cfg = mc.config;
    say("reading the tokenizer");
    HfImportResult res;
    std::unique_ptr<Tokenizer> tok;
    if (!fs::exists(dir / "source.spm") && fs::exists(dir / "twb_tokenizer" / "tokenizer.json")) {
        // twb export --format hf of a run trained here: Marian's files cannot hold its tokenizer, so the
        // export keeps the workbench's own beside the model; its ids are the model's (it was refused here).
        tok = load_tokenizer(dir / "twb_tokenizer");
        if (tok->vocab_size() != cfg.vocab_size)
            throw FormatError((dir / "twb_tokenizer").string() + ": its vocabulary has " +
                              std::to_string(tok->vocab_size()) + " tokens and config.json's vocab_size is " +
                              std::to_string(cfg.vocab_size) + "; they come from different exports");
        res.tokenizer_files = "twb_tokenizer/";
    } else {
        tok = make_marian_tokenizer(dir / "source.spm", dir / "target.spm", dir / "vocab.json", mc.ids);
        res.tokenizer_files = "source.spm + target.spm + vocab.json";
    }
    say("reading model.safetensors");
    const fs::path st = dir / "model.safetensors";
    const SafetensorsData weights = read_marian_weights(st, cfg, res.source_dtype);
    res.tied = cfg.tie_embeddings;
    say("writing the run");
    write_folder(out_run, [&](const fs::path& tmp) {
        Seq2Seq model(cfg);
        load_weights(model->named_weights(), weights, st.string());
        write_imported_run(tmp, cfg, model->named_weights(), *tok, name, dir,
                           "Imported from the Hugging Face Marian folder " + fs::absolute(dir).string() + " (" +
                               res.tokenizer_files + ", " + res.source_dtype + " weights).");
        res.parameters = model->num_parameters();
    });
    res.run = out_run;
    res.config = cfg;
    return res;
}

std::string marian_export_blocker(const RunConfig& c) {
    if (c.model_kind != ModelKind::EncoderDecoder)
        return "model_kind=" + to_string(c.model_kind) + ": Marian is an encoder-decoder (model_kind=encoder_decoder)";
    if (c.position != Position::Sinusoidal || !c.sinusoid_halves)
        return "position=" + to_string(c.position) + (c.sinusoid_halves ? "" : ", sinusoid_halves=false") +
               ": Marian has fixed sinusoids in halves (position=sinusoidal, sinusoid_halves=true)";
    if (c.norm != NormKind::LayerNorm)
        return "norm=" + to_string(c.norm) + ": Marian uses LayerNorm (norm=layernorm)";
    if (c.norm_position != NormPosition::Post)
        return "norm_position=" + to_string(c.norm_position) + ": Marian normalises after each sublayer (post)";
    if (std::abs(c.norm_eps - 1e-5) > 1e-12)
        return "norm_eps=" + nlohmann::json(c.norm_eps).dump() + ": Marian's LayerNorms have epsilon 1e-5";
    if (!c.bias)
        return "bias=false: Marian's layers and norms all have biases (bias=true)";
    if (c.qk_norm)
        return "qk_norm=true: Marian has no norm of the queries and keys (qk_norm=false)";
    if (c.source_vocab_size > 0)
        return "source_vocab_size=" + std::to_string(c.source_vocab_size) +
               ": the export writes one vocabulary shared by both sides (source_vocab_size=0)";
    if (c.head_dim() * c.n_head != c.n_embd)
        return "head_size=" + std::to_string(c.head_size) + ": Marian's heads are d_model / heads wide";
    return "";
}

namespace {
const char* marian_activation(Activation a) {
    switch (a) {
        case Activation::Silu:
            return "swish";
        case Activation::GeluTanh:
            return "gelu_new";
        case Activation::Relu:
            return "relu";
        case Activation::Gelu:
            break;
    }
    return "gelu";
}

nlohmann::ordered_json marian_config_json(const RunConfig& c, const Tokenizer& tok) {
    const int pad = tok.pad_id() >= 0 ? tok.pad_id() : tok.bos_id();
    return {{"architectures", {"MarianMTModel"}},
            {"model_type", "marian"},
            {"vocab_size", c.vocab_size},
            {"decoder_vocab_size", c.vocab_size},
            {"d_model", c.n_embd},
            {"encoder_layers", c.encoder_layers()},
            {"decoder_layers", c.decoder_layers()},
            {"encoder_attention_heads", c.n_head},
            {"decoder_attention_heads", c.n_head},
            {"encoder_ffn_dim", c.ffn_dim()},
            {"decoder_ffn_dim", c.ffn_dim()},
            {"max_position_embeddings", c.block_size},
            {"activation_function", marian_activation(c.activation)},
            {"scale_embedding", c.scale_embeddings},
            {"share_encoder_decoder_embeddings", true},
            {"tie_word_embeddings", c.tie_embeddings},
            {"dropout", c.dropout},
            {"attention_dropout", 0.0},
            {"activation_dropout", 0.0},
            {"init_std", 0.02},
            {"is_encoder_decoder", true},
            {"use_cache", true},
            {"torch_dtype", "float32"},
            {"eos_token_id", tok.eos_id()},
            {"forced_eos_token_id", tok.eos_id()},
            {"pad_token_id", pad},
            {"decoder_start_token_id", tok.bos_id()},
            {"bad_words_ids", {{pad}}}};
}
}  // namespace

void write_marian_folder(const fs::path& out, const RunConfig& c, const SafetensorsData& weights, const Tokenizer& tok,
                         ExportResult& res) {
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    auto ours = [&](const std::string& n) {
        const auto it = weights.tensors.find(n);
        if (it == weights.tensors.end())
            throw FormatError("the checkpoint has no tensor '" + n + "'");
        return it->second.to(torch::kFloat32).contiguous();
    };
    tensors.emplace_back("model.shared.weight", ours("wte.weight"));
    for (const auto& t : block_tensors(c)) {
        const auto parts = ours(t.ours).chunk(static_cast<int64_t>(t.theirs.size()), 0);
        for (size_t i = 0; i < t.theirs.size(); ++i)
            tensors.emplace_back("model." + t.theirs[i], parts[i].contiguous());
    }
    if (!c.tie_embeddings)
        tensors.emplace_back("lm_head.weight", ours("lm_head.weight"));
    tensors.emplace_back("final_logits_bias", c.logits_bias ? ours("final_logits_bias").view({1, c.vocab_size})
                                                            : torch::zeros({1, c.vocab_size}));
    write_file_atomic(out / "config.json", marian_config_json(c, tok).dump(2));
    save_safetensors(out / "model.safetensors", tensors, {{"format", "pt"}});
    res.files = {"config.json", "model.safetensors"};
    try {
        write_marian_vocab(tok, out);
        for (const char* f : {"source.spm", "target.spm", "vocab.json"})
            res.files.push_back(f);
        write_file_atomic(out / "tokenizer_config.json",
                          nlohmann::json{{"tokenizer_class", "MarianTokenizer"}}.dump(2));
        res.files.push_back("tokenizer_config.json");
    } catch (const InputError&) {
        fs::create_directories(out / "twb_tokenizer");
        tok.save(out / "twb_tokenizer");
        res.files.push_back("twb_tokenizer/");
        res.note = "the run's tokenizer is " + to_string(tok.kind()) +
                   ", not Marian's source.spm/target.spm/vocab.json: no Hugging Face tokenizer was written; the "
                   "workbench's own tokenizer files are in twb_tokenizer/ (ids match the model)";
    }
}

}  // namespace twb::nn
