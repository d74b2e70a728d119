// The GGUF side of a tokenizer and the architecture check (see gguf_vocab.h and twb/gguf_export.h).
// The pre-tokenizer names are llama.cpp's (llama-vocab.cpp): "gpt-2" is GPT-2's split pattern exactly;
// "llama-bpe" is Llama 3's, the same regex as GPT-4's cl100k_base that the gpt4 pattern here is.
#include "core/interchange/gguf_vocab.h"

#include "core/run/checkpoint_state.h"
#include "core/tokenizers/bytebpe.h"
#include "core/tokenizers/gpt2_vocab.h"
#include "twb/errors.h"
#include "twb/gguf_check.h"
#include "twb/run_folder.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

namespace twb {

std::string gguf_tokenizer_blocker(const Tokenizer& tokenizer) {
    const ByteBpeModel* m = bytebpe_model(tokenizer);
    if (!m)
        return "tokenizer=" + to_string(tokenizer.kind()) +
               ": llama.cpp's gpt2 architecture reads a byte-level BPE vocabulary only (prepare the data with "
               "--tokenizer bytebpe and train again)";
    if (m->pattern_name() != "gpt2" && m->pattern_name() != "gpt4")
        return "split pattern '" + m->pattern_name() + "': llama.cpp knows GPT-2's and GPT-4's patterns only";
    return {};
}

GgufVocab gguf_vocab(const Tokenizer& tokenizer) {
    if (const std::string why = gguf_tokenizer_blocker(tokenizer); !why.empty())
        throw InputError(why);
    const ByteBpeModel& m = *bytebpe_model(tokenizer);
    GgufVocab v;
    v.pre = m.pattern_name() == "gpt2" ? "gpt-2" : "llama-bpe";
    for (int id = 0; id < m.vocab_size(); ++id) {
        const bool special = m.is_special(id);
        v.tokens.push_back(special ? m.token_bytes(id) : gpt2_unicode_from_bytes(m.token_bytes(id)));
        v.types.push_back(special ? kGgufTokenControl : kGgufTokenNormal);
    }
    for (const auto& [a, b] : m.merges())
        v.merges.push_back(v.tokens[static_cast<size_t>(a)] + " " + v.tokens[static_cast<size_t>(b)]);
    v.bos = tokenizer.bos_id();
    v.eos = tokenizer.eos_id();
    v.pad = tokenizer.pad_id();
    return v;
}

std::filesystem::path checkpoint_tokenizer_dir(const std::filesystem::path& checkpoint, const RunConfig& config) {
    const auto own = checkpoint.parent_path().parent_path() / "tokenizer";
    return std::filesystem::exists(own / "tokenizer.json") ? own : std::filesystem::path(config.data_dir);
}

std::string gguf_export_blocker(const RunConfig& c) {
    std::string why;  // every option that stands in the way, so one retraining fixes them all
    auto add = [&why](const std::string& reason) { why += (why.empty() ? "" : "; ") + reason; };
    if (c.position != Position::Learned)
        add("position=" + to_string(c.position) +
            ": llama.cpp's gpt2 architecture has learned positions only (train with position=learned)");
    if (c.norm != NormKind::LayerNorm)
        add("norm=" + to_string(c.norm) + ": gpt2 uses LayerNorm (train with norm=layernorm)");
    if (c.norm_position != NormPosition::Pre)
        add("norm_position=" + to_string(c.norm_position) +
            ": gpt2 normalises before each sublayer (train with norm_position=pre)");
    if (!c.bias)
        add("bias=false: gpt2 has biases in every linear layer and norm (train with bias=true)");
    if (c.qk_norm)
        add("qk_norm=true: llama.cpp's gpt2 architecture has no norm of the queries and keys (train with "
            "qk_norm=false)");
    if (c.activation != Activation::GeluTanh)
        add("activation=" + to_string(c.activation) +
            ": gpt2 uses GELU's tanh approximation (train with activation=gelu_tanh)");
    if (c.n_head * c.head_dim() != c.n_embd)
        add("head_size=" + std::to_string(c.head_dim()) + ": gpt2 needs n_head * head_size = n_embd (" +
            std::to_string(c.n_head) + " * " + std::to_string(c.head_dim()) + " != " + std::to_string(c.n_embd) +
            "; leave head_size at 0)");
    return why;
}

std::string gguf_run_blocker(const std::string& run, const std::string& checkpoint) {
    const auto ck = find_checkpoint(run, checkpoint);
    const fs::path state = ck / "state.json";
    const RunConfig c = parse_checkpoint_state(read_file(state), state.string()).config;
    const std::string config = gguf_export_blocker(c);
    const auto tok = load_tokenizer(checkpoint_tokenizer_dir(ck, c));
    const std::string tokenizer = gguf_tokenizer_blocker(*tok);
    return config.empty() || tokenizer.empty() ? config + tokenizer : config + "; " + tokenizer;
}

}  // namespace twb
