// Import from and export to the Hugging Face GPT-2 layout, and the plain safetensors export.
//
// GPT-2's tensor names are the workbench's (nanoGPT kept them) with or without the "transformer."
// prefix; its attention and MLP weights are Conv1D modules stored [in, out], where a Linear is
// [out, in], so those four matrices per block are transposed on the way in and out. c_attn's output
// is q, k, v one after the other in both, so it needs no reordering. attn.bias / attn.masked_bias are
// GPT-2's causal-mask buffers, not weights: ignored.
#include "twb/model_exchange.h"

#include "core/interchange/hf_config.h"
#include "core/interchange/marian_config.h"
#include "core/interchange/safetensors_header.h"
#include "core/run/checkpoint_state.h"
#include "core/tokenizers/gpt2_vocab.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/interchange/checkpoint.h"
#include "nn/interchange/exchange_folder.h"
#include "nn/interchange/marian_exchange.h"
#include "nn/interchange/safetensors.h"
#include "nn/models/model.h"
#include "twb/errors.h"
#include "twb/output_paths.h"
#include "twb/run_folder.h"
#include "twb/run_info.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <random>
#include <set>
#include <sstream>

namespace twb {

namespace fs = std::filesystem;
using nn::check_hf_folder;
using nn::GPT;
using nn::read_safetensors_header;
using nn::shape_text;
using nn::write_folder;

namespace {

constexpr const char* kPrefix = "transformer.";

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// GPT-2 keeps these four as Conv1D ([in, out]); the workbench as Linear ([out, in]).
bool is_conv1d(const std::string& name) {
    return ends_with(name, "attn.c_attn.weight") || ends_with(name, "attn.c_proj.weight") ||
           ends_with(name, "mlp.c_fc.weight") || ends_with(name, "mlp.c_proj.weight");
}

/// Our name without the "transformer." prefix (GPT2Model's names; GPT2LMHeadModel adds the prefix).
std::string bare(const std::string& ours) {
    return ours.rfind(kPrefix, 0) == 0 ? ours.substr(std::string(kPrefix).size()) : ours;
}

/// tokenizer_config.json for transformers' GPT2Tokenizer: which tokens of vocab.json are the specials
/// (GPT-2's own <|endoftext|>, or a tokenizer trained here: <bos>, <eos>, <pad>), so that its tokenizer
/// knows them as config.json's ids do.
nlohmann::ordered_json gpt2_tokenizer_config(const Tokenizer& tok, int block_size) {
    nlohmann::ordered_json j = {
        {"tokenizer_class", "GPT2Tokenizer"}, {"model_max_length", block_size}, {"add_prefix_space", false}};
    auto name = [&](int id) { return tok.token_text(id); };
    if (tok.bos_id() >= 0)
        j["bos_token"] = name(tok.bos_id());
    if (tok.eos_id() >= 0) {
        j["eos_token"] = name(tok.eos_id());
        j["unk_token"] = name(tok.eos_id());  // as GPT-2's: a byte-level vocabulary has no unknown text
    }
    if (tok.pad_id() >= 0)
        j["pad_token"] = name(tok.pad_id());
    return j;
}

// ------------------------------------------------------------------ reading the tokenizer

/// The folder's tokenizer, with config.json's bos/eos ids marked special (mark_special_ids).
std::unique_ptr<Tokenizer> read_hf_tokenizer(const fs::path& dir, std::string& files) {
    Gpt2Vocab v;
    if (fs::exists(dir / "vocab.json") || fs::exists(dir / "merges.txt")) {
        files = "vocab.json + merges.txt";
        v = read_gpt2_vocab(dir / "vocab.json", dir / "merges.txt");
    } else if (fs::exists(dir / "tokenizer.json")) {
        files = "tokenizer.json";
        v = read_hf_tokenizer_json(dir / "tokenizer.json");
    } else if (fs::exists(dir / "twb_tokenizer" / "tokenizer.json")) {
        // twb export --format hf of a char, byte, word or sentencepiece run: GPT-2's files cannot hold that
        // tokenizer, so the export keeps the workbench's own beside the model; its ids are the model's.
        files = "twb_tokenizer/";
        return load_tokenizer(dir / "twb_tokenizer");
    } else {
        throw InputError(dir.string() +
                         ": no tokenizer (vocab.json + merges.txt, tokenizer.json, or a workbench export's "
                         "twb_tokenizer/) in the folder");
    }
    const HfSpecialIds ids = read_hf_special_ids(dir / "config.json");
    for (const auto& [key, id] : {std::pair<const char*, int>{"bos_token_id", ids.bos}, {"eos_token_id", ids.eos}})
        if (id >= static_cast<int>(v.tokens.size()))
            throw FormatError((dir / "config.json").string() + ": " + key + " " + std::to_string(id) +
                              " is beyond the tokenizer's " + std::to_string(v.tokens.size()) + " tokens (" + files +
                              "); correct it, or remove it if the model has no such token");
    mark_special_ids(v, ids.bos, ids.eos);
    return make_gpt2_tokenizer(std::move(v));
}

// ------------------------------------------------------------------ reading model.safetensors

}  // namespace

// ------------------------------------------------------------------ import

namespace {

/// Which tensor of model.safetensors becomes which of ours (and the untied head, when the file has
/// one), every name, dtype and shape checked against the config before any data is read. Notes the
/// file's dtype in res.
struct Gpt2TensorPlan {
    std::vector<std::pair<std::string, std::string>> tensors;  // our name -> file's name
    std::string head;                                          // the file's lm_head, if it has one
};

Gpt2TensorPlan plan_gpt2_tensors(const fs::path& st, const RunConfig& cfg, HfImportResult& res) {
    const SafetensorsHeader header = read_safetensors_header(st);
    std::map<std::string, const SafetensorsEntry*> byName;
    for (const auto& e : header.tensors)
        byName[e.name] = &e;
    const std::string where = st.string();
    auto check_entry = [&](const SafetensorsEntry& e, const std::vector<int64_t>& want) {
        if (e.dtype != "F32" && e.dtype != "F16" && e.dtype != "BF16")
            throw FormatError(where + ": tensor '" + e.name + "' is " + e.dtype + "; only F32, F16 and BF16 are read");
        if (e.shape != want)
            throw FormatError(where + ": tensor '" + e.name + "' has shape " + shape_text(e.shape) +
                              " but config.json needs " + shape_text(want));
        if (res.source_dtype.empty())
            res.source_dtype = e.dtype;
        else if (res.source_dtype != e.dtype)
            res.source_dtype = "mixed";
    };
    Gpt2TensorPlan plan;
    std::set<std::string> used;
    {
        torch::NoGradGuard ng;
        GPT shape(cfg);
        for (const auto& [ours, p] : shape->named_weights()) {
            const std::string b = bare(ours);
            const std::string key = byName.count(b) ? b : (byName.count(kPrefix + b) ? kPrefix + b : "");
            if (key.empty())
                throw FormatError(where + ": has no tensor '" + b + "' (nor '" + kPrefix + b +
                                  "'); it is not a GPT-2 checkpoint of this config.json");
            std::vector<int64_t> want = p.sizes().vec();
            if (is_conv1d(ours))
                std::swap(want[0], want[1]);
            check_entry(*byName[key], want);
            plan.tensors.emplace_back(ours, key);
            used.insert(key);
        }
    }
    for (const char* k : {"lm_head.weight", "transformer.lm_head.weight"})
        if (byName.count(k)) {
            plan.head = k;
            check_entry(*byName[k], {cfg.vocab_size, cfg.n_embd});
            used.insert(k);
        }
    for (const auto& e : header.tensors)
        if (!used.count(e.name) && !ends_with(e.name, ".attn.bias") && !ends_with(e.name, ".attn.masked_bias"))
            throw FormatError(where + ": tensor '" + e.name + "' is not part of GPT-2 (a different architecture?)");
    return plan;
}

/// The planned tensors under our names, in float32 (Conv1D weights transposed); an untied head is
/// kept (and cfg's tie_embeddings cleared), a head equal to the embedding dropped.
nn::SafetensorsData read_gpt2_tensors(const fs::path& st, const Gpt2TensorPlan& plan, RunConfig& cfg,
                                      HfImportResult& res) {
    auto data = nn::load_safetensors(st);
    nn::SafetensorsData ours;
    for (const auto& [o, key] : plan.tensors) {
        auto t = data.tensors.at(key).to(torch::kFloat32);
        ours.tensors[o] = is_conv1d(o) ? t.t().contiguous() : t.contiguous();
    }
    if (!plan.head.empty()) {
        auto h = data.tensors.at(plan.head).to(torch::kFloat32).contiguous();
        res.tied = torch::equal(h, ours.tensors.at("transformer.wte.weight"));
        if (!res.tied) {
            cfg.tie_embeddings = false;
            ours.tensors["lm_head.weight"] = h;
        }
    }
    return ours;
}

/// Whether dir is export_safetensors' folder: the workbench's own config.json (its keys, no model_type).
/// Its tokenizer/ is checked when it is read (without it, the folder was taken for GPT-2's and refused
/// for a GPT-2 key its config never had).
bool is_workbench_export(const fs::path& dir) {
    std::ifstream in(dir / "config.json");
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    return j.is_object() && !j.contains("model_type") && j.contains("model_kind") && j.contains("n_embd");
}

/// A run from export_safetensors' folder: its config, tokenizer and weights as they were, checked as a
/// checkpoint is (every tensor with its shape, finite, none extra), at step 0.
HfImportResult import_workbench_export(const fs::path& dir, const fs::path& out_run, const std::string& name,
                                       const ExchangeProgressFn& say) {
    HfImportResult res;
    say("reading config.json");
    RunConfig cfg = read_run_config(dir);
    cfg.data_dir.clear();  // the exporting machine's dataset: this run has none of its own
    say("reading the tokenizer");
    if (!fs::exists(dir / "tokenizer" / "tokenizer.json"))
        throw FormatError((dir / "tokenizer" / "tokenizer.json").string() +
                          ": missing; a workbench export (twb export --format safetensors) keeps the model's "
                          "tokenizer in tokenizer/ beside config.json: copy it back or export the run again");
    const auto tok = load_tokenizer(dir / "tokenizer");
    if (tok->vocab_size() != cfg.vocab_size)
        throw FormatError((dir / "tokenizer").string() + ": has " + std::to_string(tok->vocab_size()) +
                          " tokens but config.json's vocab_size is " + std::to_string(cfg.vocab_size) +
                          "; the tokenizer does not belong to this model");
    say("reading the weights");
    nn::LoadedCheckpoint exported;
    exported.dir = dir;
    exported.state.config = cfg;
    exported.weights = nn::load_safetensors(dir / "model.safetensors");
    nn::check_checkpoint_weights(exported);
    res.tokenizer_files = "tokenizer/";
    // A translation run with separate vocabularies reads its source side with a tokenizer of its own.
    std::unique_ptr<Tokenizer> source;
    if (cfg.source_vocab_size > 0) {
        const fs::path src = dir / "source_tokenizer";
        if (!fs::exists(src / "tokenizer.json"))
            throw FormatError((src / "tokenizer.json").string() +
                              ": missing; config.json's source_vocab_size=" + std::to_string(cfg.source_vocab_size) +
                              " needs the source side's tokenizer beside tokenizer/ (export the run again with "
                              "this version: it writes source_tokenizer/ too)");
        source = load_tokenizer(src);
        if (source->vocab_size() != cfg.source_vocab_size)
            throw FormatError(src.string() + ": has " + std::to_string(source->vocab_size()) +
                              " tokens but config.json's source_vocab_size is " +
                              std::to_string(cfg.source_vocab_size) + "; the tokenizer does not belong to this model");
        res.tokenizer_files = "tokenizer/, source_tokenizer/";
    }
    res.source_dtype = "F32";
    res.tied = cfg.tie_embeddings;
    say("writing the run");
    write_folder(out_run, [&](const fs::path& tmp) {
        std::vector<std::pair<std::string, torch::Tensor>> weights;
        for (const auto& [key, tensor] : exported.weights.tensors) {
            weights.emplace_back(key, tensor);
            res.parameters += tensor.numel();
        }
        nn::write_imported_run(tmp, cfg, weights, *tok, name, dir,
                               "Imported from the workbench export " + fs::absolute(dir).string() + ".");
        if (source) {
            fs::create_directories(tmp / "source_tokenizer");
            source->save(tmp / "source_tokenizer");
        }
    });
    res.run = out_run;
    res.config = cfg;
    return res;
}

}  // namespace

HfImportResult import_hf(const fs::path& dir, const fs::path& out_run, const std::string& name,
                         const ExchangeProgressFn& progress) {
    auto say = [&](const std::string& m) {
        if (progress)
            progress(m);
    };
    check_hf_folder(dir, "GPT2LMHeadModel");
    check_output_place(out_run, {dir});  // the run inside the folder it is read from, as export refuses
    if (is_workbench_export(dir))        // File → Export model's "safetensors + config.json", back in as a run
        return import_workbench_export(dir, out_run, name, say);
    if (hf_model_type(dir / "config.json") == "marian")
        return nn::import_marian(dir, out_run, name, progress);
    const fs::path st = dir / "model.safetensors";
    say("reading config.json");
    RunConfig cfg = read_hf_config(dir / "config.json");

    say("reading the tokenizer");
    HfImportResult res;
    const auto tok = read_hf_tokenizer(dir, res.tokenizer_files);
    if (tok->vocab_size() != cfg.vocab_size)
        throw FormatError((dir / (res.tokenizer_files == "vocab.json + merges.txt" ? "vocab.json"
                                  : res.tokenizer_files == "twb_tokenizer/"        ? "twb_tokenizer/tokenizer.json"
                                                                                   : "tokenizer.json"))
                              .string() +
                          ": has " + std::to_string(tok->vocab_size()) + " tokens but config.json's vocab_size is " +
                          std::to_string(cfg.vocab_size) + "; the tokenizer does not belong to this model");

    say("checking model.safetensors");
    const Gpt2TensorPlan plan = plan_gpt2_tensors(st, cfg, res);
    say("reading the weights");
    const nn::SafetensorsData ours = read_gpt2_tensors(st, plan, cfg, res);

    say("writing the run");
    write_folder(out_run, [&](const fs::path& tmp) {
        GPT model(cfg);
        nn::load_weights(model, ours, st.string());
        nn::write_imported_run(tmp, cfg, model->named_weights(), *tok, name, dir,
                               "Imported from the Hugging Face folder " + fs::absolute(dir).string() + " (" +
                                   res.tokenizer_files + ", " + res.source_dtype + " weights).");
        res.parameters = model->num_parameters();
    });
    res.run = out_run;
    res.config = cfg;
    return res;
}

// ------------------------------------------------------------------ export

std::string hf_export_blocker(const RunConfig& c) {
    if (c.model_kind == ModelKind::EncoderDecoder)
        return nn::marian_export_blocker(c);
    if (c.position != Position::Learned)
        return "position=" + to_string(c.position) + ": GPT-2 has learned positions (position=learned)";
    if (c.norm != NormKind::LayerNorm)
        return "norm=" + to_string(c.norm) + ": GPT-2 uses LayerNorm (norm=layernorm)";
    if (c.norm_position != NormPosition::Pre)
        return "norm_position=" + to_string(c.norm_position) + ": GPT-2 normalises before each sublayer (pre)";
    if (!c.bias)
        return "bias=false: GPT-2's layers and norms all have biases (bias=true)";
    if (c.qk_norm)
        return "qk_norm=true: GPT-2 has no norm of the queries and keys (qk_norm=false)";
    if (c.head_dim() * c.n_head != c.n_embd)
        return "head_size=" + std::to_string(c.head_size) +
               ": GPT-2's heads are n_embd / n_head = " + std::to_string(c.n_head > 0 ? c.n_embd / c.n_head : 0) +
               " wide";
    return "";
}

namespace {

struct RunCheckpoint {
    fs::path dir, runDir;
    nn::LoadedCheckpoint loaded;
};

RunCheckpoint open_checkpoint(const fs::path& run, const std::string& which) {
    RunCheckpoint r;
    r.dir = find_checkpoint(run, which);
    r.runDir = r.dir.parent_path().parent_path();
    r.loaded = nn::read_checkpoint(r.dir);
    nn::check_checkpoint_weights(r.loaded);  // an export never carries a tensor the config has no place for
    return r;
}

fs::path run_tokenizer_dir(const RunCheckpoint& r) {
    return twb::run_tokenizer_dir(r.runDir, r.loaded.state.config.data_dir);
}

/// The Marian layout (MarianMTModel) of an encoder-decoder run's checkpoint.
ExportResult export_marian(const RunCheckpoint& r, const fs::path& out_dir) {
    const RunConfig& c = r.loaded.state.config;
    if (const std::string why = nn::marian_export_blocker(c); !why.empty())
        throw ConfigError(r.runDir.string() + ": the Hugging Face Marian layout cannot hold this model: " + why +
                          ". Export it in the plain safetensors layout instead (twb export --format safetensors)");
    ExportResult res;
    res.checkpoint = r.dir.string();
    const auto tok = load_tokenizer(run_tokenizer_dir(r));
    write_folder(out_dir, [&](const fs::path& tmp) { nn::write_marian_folder(tmp, c, r.loaded.weights, *tok, res); });
    res.out = out_dir;
    return res;
}

}  // namespace

ExportResult export_hf(const fs::path& run, const fs::path& out_dir, const std::string& checkpoint) {
    const RunCheckpoint r = open_checkpoint(run, checkpoint);
    const RunConfig& c = r.loaded.state.config;
    if (c.model_kind == ModelKind::EncoderDecoder)
        return export_marian(r, out_dir);
    if (const std::string why = hf_export_blocker(c); !why.empty())
        throw ConfigError(run.string() + ": the Hugging Face GPT-2 layout cannot hold this model: " + why +
                          ". Export it in the plain safetensors layout instead (twb export --format safetensors)");
    ExportResult res;
    res.checkpoint = r.dir.string();
    const auto tok = load_tokenizer(run_tokenizer_dir(r));
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    {
        torch::NoGradGuard ng;
        GPT shape(c);  // the config's names in the model's order
        for (const auto& [name, p] : shape->named_weights()) {
            const auto it = r.loaded.weights.tensors.find(name);
            if (it == r.loaded.weights.tensors.end())
                throw FormatError(r.dir.string() + ": has no tensor '" + name + "'");
            auto t = it->second.to(torch::kFloat32);
            tensors.emplace_back(name, is_conv1d(name) ? t.t().contiguous() : t.contiguous());
        }
    }
    nlohmann::ordered_json cfg = {
        {"architectures", {"GPT2LMHeadModel"}},
        {"model_type", "gpt2"},
        {"vocab_size", c.vocab_size},
        {"n_positions", c.block_size},
        {"n_ctx", c.block_size},
        {"n_embd", c.n_embd},
        {"n_layer", c.n_layer},
        {"n_head", c.n_head},
        {"n_inner", nullptr},
        {"activation_function", c.activation == Activation::GeluTanh ? "gelu_new" : to_string(c.activation)},
        {"resid_pdrop", c.dropout},
        {"embd_pdrop", c.dropout},
        {"attn_pdrop", c.dropout},
        {"layer_norm_epsilon", c.norm_eps},
        {"initializer_range", 0.02},
        {"scale_attn_weights", true},
        {"tie_word_embeddings", c.tie_embeddings},
        {"use_cache", true},
        {"torch_dtype", "float32"},
        {"bos_token_id", tok->bos_id() >= 0 ? nlohmann::ordered_json(tok->bos_id()) : nlohmann::ordered_json()},
        {"eos_token_id", tok->eos_id() >= 0 ? nlohmann::ordered_json(tok->eos_id()) : nlohmann::ordered_json()},
    };
    if (c.ffn_dim() != 4 * c.n_embd)
        cfg["n_inner"] = c.ffn_dim();
    write_folder(out_dir, [&](const fs::path& tmp) {
        write_file_atomic(tmp / "config.json", cfg.dump(2));
        nn::save_safetensors(tmp / "model.safetensors", tensors, {{"format", "pt"}});
        res.files = {"config.json", "model.safetensors"};
        if (tok->kind() == TokenizerKind::ByteBpe) {
            write_gpt2_vocab(*tok, tmp);
            write_file_atomic(tmp / "tokenizer_config.json", gpt2_tokenizer_config(*tok, c.block_size).dump(2));
            res.files.insert(res.files.end(), {"vocab.json", "merges.txt", "tokenizer_config.json"});
        } else {
            fs::create_directories(tmp / "twb_tokenizer");
            tok->save(tmp / "twb_tokenizer");
            res.files.push_back("twb_tokenizer/");
            res.note = "the run's tokenizer is " + to_string(tok->kind()) +
                       ", which GPT-2's vocab.json/merges.txt cannot hold: no Hugging Face tokenizer was written; "
                       "the workbench's own tokenizer files are in twb_tokenizer/ (ids match the model)";
        }
    });
    res.out = out_dir;
    return res;
}

ExportResult export_safetensors(const fs::path& run, const fs::path& out_dir, const std::string& checkpoint) {
    const RunCheckpoint r = open_checkpoint(run, checkpoint);
    ExportResult res;
    res.checkpoint = r.dir.string();
    const RunConfig& cfg = r.loaded.state.config;
    // The tokenizers the run keeps: a translation run with separate vocabularies has its source side's too.
    std::vector<std::pair<fs::path, std::string>> tokenizers{{run_tokenizer_dir(r), "tokenizer"}};
    if (cfg.source_vocab_size > 0) {
        const fs::path src = r.runDir / "source_tokenizer";
        require_kept_tokenizer(src, cfg.data_dir.empty() ? fs::path() : fs::path(cfg.data_dir) / "source_tokenizer");
        tokenizers.emplace_back(src, "source_tokenizer");
    }
    write_folder(out_dir, [&](const fs::path& tmp) {
        fs::copy_file(r.dir / "model.safetensors", tmp / "model.safetensors");
        write_file_atomic(tmp / "config.json", nlohmann::json(cfg).dump(2));
        res.files = {"model.safetensors", "config.json"};
        for (const auto& [from, name] : tokenizers) {
            fs::create_directories(tmp / name);
            for (const auto& e : fs::directory_iterator(from))
                if (e.is_regular_file())
                    fs::copy_file(e.path(), tmp / name / e.path().filename());
            res.files.push_back(name + "/");
        }
    });
    res.out = out_dir;
    return res;
}

}  // namespace twb
