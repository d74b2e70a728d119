// Hugging Face Marian (MarianMTModel: the opus-mt translation models) in and out of the encoder-decoder
// family. import_hf and export_hf (twb/model_exchange.h) come here for a folder whose config.json says
// model_type "marian" and for an encoder-decoder run. Names: Marian's model.encoder.layers.N.self_attn.
// {q,k,v}_proj are the rows of our encoder.h.N.attn.c_attn (q, k, v one after the other), out_proj our
// c_proj, self_attn_layer_norm our ln_1, fc1/fc2 our mlp.c_fc/c_proj, final_layer_norm our ln_2 (ln_3 in
// the decoder, whose encoder_attn is our cross_attn: q_proj c_q, k_proj and v_proj the rows of c_kv,
// encoder_attn_layer_norm ln_2); model.shared is wte, lm_head (untied only) lm_head, final_logits_bias
// [1, V] ours [V]. The position tables are not weights: when a file holds them they must be Marian's
// sinusoids. Only safetensors is read.
#pragma once
#include "nn/interchange/safetensors.h"
#include "twb/model_exchange.h"

#include <filesystem>
#include <string>

namespace twb {
class Tokenizer;
}

namespace twb::nn {

/// import_hf for a Marian folder: config.json, model.safetensors, source.spm, target.spm, vocab.json.
HfImportResult import_marian(const std::filesystem::path& dir, const std::filesystem::path& out_run,
                             const std::string& name, const ExchangeProgressFn& progress);

/// Why Marian's layout cannot hold an encoder-decoder of this config, naming the option; "" when it can.
std::string marian_export_blocker(const RunConfig& c);

/// Writes config.json, model.safetensors and the tokenizer files (source.spm, target.spm, vocab.json for
/// an imported Marian tokenizer; the workbench's own in twb_tokenizer/ otherwise, said in res.note) into
/// the folder `out` (the caller's temporary folder).
void write_marian_folder(const std::filesystem::path& out, const RunConfig& c, const SafetensorsData& weights,
                         const Tokenizer& tok, ExportResult& res);

}  // namespace twb::nn
