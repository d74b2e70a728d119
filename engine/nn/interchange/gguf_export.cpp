// twb::export_gguf: a run's checkpoint as a GGUF file of llama.cpp's `gpt2` architecture. The keys and
// tensor names are those llama.cpp's loader reads for LLM_ARCH_GPT2 (llama-arch.cpp, llama-model.cpp):
// token_embd, position_embd, blk.N.{attn_norm, attn_qkv, attn_output, ffn_norm, ffn_up, ffn_down} with
// weight and bias, output_norm, and output only when the head is untied (llama.cpp reuses token_embd
// otherwise). Our Linear weights are (out, in) like nanoGPT's, so their row-major bytes are already the
// ggml tensors {in, out}: no transposition, only the dimension order reversed in the file. The container
// is core/interchange/gguf_writer.*, the tokenizer's spelling and the architecture check core/interchange/gguf_vocab.*.
#include "twb/gguf_export.h"
#include "core/interchange/gguf_vocab.h"
#include "core/interchange/gguf_writer.h"
#include "nn/interchange/checkpoint.h"
#include "twb/errors.h"
#include "twb/run_info.h"
#include "twb/tokenizer.h"

namespace twb {

namespace fs = std::filesystem;

namespace {
/// The metadata llama.cpp's gpt2 architecture reads: the model's shape and the tokenizer.
void add_metadata(GgufWriter& w, const RunConfig& c, const GgufVocab& vocab, const std::string& name, bool f16) {
    w.add_string("general.architecture", "gpt2");
    w.add_string("general.name", name);
    w.add_u32("general.file_type", f16 ? 1 : 0);  // llama_ftype: ALL_F32 = 0, MOSTLY_F16 = 1
    w.add_u32("gpt2.context_length", static_cast<uint32_t>(c.block_size));
    w.add_u32("gpt2.embedding_length", static_cast<uint32_t>(c.n_embd));
    w.add_u32("gpt2.feed_forward_length", static_cast<uint32_t>(c.ffn_dim()));
    w.add_u32("gpt2.block_count", static_cast<uint32_t>(c.n_layer));
    w.add_u32("gpt2.attention.head_count", static_cast<uint32_t>(c.n_head));
    w.add_f32("gpt2.attention.layer_norm_epsilon", static_cast<float>(c.norm_eps));
    w.add_string("tokenizer.ggml.model", "gpt2");
    w.add_string("tokenizer.ggml.pre", vocab.pre);
    w.add_string_array("tokenizer.ggml.tokens", vocab.tokens);
    w.add_i32_array("tokenizer.ggml.token_type", vocab.types);
    w.add_string_array("tokenizer.ggml.merges", vocab.merges);
    if (vocab.bos >= 0)
        w.add_u32("tokenizer.ggml.bos_token_id", static_cast<uint32_t>(vocab.bos));
    if (vocab.eos >= 0)
        w.add_u32("tokenizer.ggml.eos_token_id", static_cast<uint32_t>(vocab.eos));
    if (vocab.pad >= 0)
        w.add_u32("tokenizer.ggml.padding_token_id", static_cast<uint32_t>(vocab.pad));
    // twb encodes a prompt as it is: no <bos> in front, no <eos> after.
    w.add_bool("tokenizer.ggml.add_bos_token", false);
    w.add_bool("tokenizer.ggml.add_eos_token", false);
}

/// The weights under llama.cpp's gpt2 names (matrices in f16 when asked).
void add_tensors(GgufWriter& w, const nn::LoadedCheckpoint& loaded, const fs::path& ck, bool f16) {
    const RunConfig& c = loaded.state.config;
    auto add = [&](const std::string& to, const std::string& from) {
        const auto it = loaded.weights.tensors.find(from);
        if (it == loaded.weights.tensors.end())
            throw FormatError(ck.string() + ": the checkpoint has no tensor " + from);
        const torch::Tensor t = it->second.to(torch::kFloat32).contiguous();
        const auto sizes = t.sizes();
        const bool matrix = t.dim() >= 2;
        w.add_tensor(to, std::vector<int64_t>(sizes.begin(), sizes.end()), t.data_ptr<float>(),
                     f16 && matrix ? GgufTensorType::F16 : GgufTensorType::F32);
    };
    add("token_embd.weight", "transformer.wte.weight");
    add("position_embd.weight", "transformer.wpe.weight");
    for (int i = 0; i < c.n_layer; ++i) {
        const std::string blk = "blk." + std::to_string(i) + ".", h = "transformer.h." + std::to_string(i) + ".";
        for (const char* p : {"weight", "bias"}) {
            add(blk + "attn_norm." + p, h + "ln_1." + p);
            add(blk + "attn_qkv." + p, h + "attn.c_attn." + p);
            add(blk + "attn_output." + p, h + "attn.c_proj." + p);
            add(blk + "ffn_norm." + p, h + "ln_2." + p);
            add(blk + "ffn_up." + p, h + "mlp.c_fc." + p);
            add(blk + "ffn_down." + p, h + "mlp.c_proj." + p);
        }
    }
    add("output_norm.weight", "transformer.ln_f.weight");
    add("output_norm.bias", "transformer.ln_f.bias");
    if (!c.tie_embeddings)
        add("output.weight", "lm_head.weight");
}
}  // namespace

GgufExportResult export_gguf(const std::string& run, const std::string& checkpoint, const std::string& out_file,
                             const GgufOptions& options) {
    const fs::path ck = find_checkpoint(run, checkpoint);
    const fs::path runDir = ck.parent_path().parent_path();
    const auto loaded = nn::read_checkpoint(ck);
    nn::check_checkpoint_weights(loaded);
    const RunConfig& c = loaded.state.config;
    if (const std::string why = gguf_run_blocker(run, checkpoint); !why.empty())  // every reason at once
        throw InputError(run + " cannot be exported to GGUF: " + why);
    const auto tok = load_tokenizer(checkpoint_tokenizer_dir(ck, c));
    const GgufVocab vocab = gguf_vocab(*tok);
    if (static_cast<int>(vocab.tokens.size()) != c.vocab_size)
        throw FormatError(ck.string() + ": the tokenizer has " + std::to_string(vocab.tokens.size()) +
                          " tokens but the model " + std::to_string(c.vocab_size));
    // A checkpoint folder on its own (copied out of its run) has no run.json to name it: the folder does.
    std::string name = fs::exists(runDir / "config.json") ? read_run_info(runDir).name : std::string();
    if (name.empty())
        name = runDir.filename().string();
    GgufWriter w;  // general.alignment = 32
    add_metadata(w, c, vocab, name, options.f16);
    add_tensors(w, loaded, ck, options.f16);
    w.write(out_file);

    GgufExportResult r;
    r.file = out_file;
    r.checkpoint = ck.string();
    r.step = loaded.state.step;
    r.tensors = static_cast<int>(w.tensor_count());
    r.keys = static_cast<int>(w.kv_count());
    r.vocab = static_cast<int>(vocab.tokens.size());
    r.bytes = static_cast<uint64_t>(fs::file_size(out_file));
    return r;
}

}  // namespace twb
