// The torch-free half of import --hf: config.json (read_hf_config, its bos/eos ids, and as a Marian
// model's: hf_model_type, read_marian_config), vocab.json + merges.txt (read_gpt2_vocab, with those ids
// marked special) and tokenizer.json (read_hf_tokenizer_json), then the tokenizer they make encodes and
// decodes a text. The input is cut at its 0xFF bytes
// into config.json, vocab.json and merges.txt; the whole input is also read as a tokenizer.json.
#include "core/interchange/hf_config.h"
#include "core/interchange/marian_config.h"
#include "core/tokenizers/gpt2_vocab.h"
#include "core/tokenizers/tokenizer.h"
#include "fuzz_util.h"
#include "twb/errors.h"

namespace {
void use(std::unique_ptr<twb::Tokenizer> tok) {
    const std::string text = "Hello, w\xC3\xB6rld!\n\t12 \xE6\x97\xA5";
    const auto ids = tok->encode(text);
    for (int32_t id : ids)
        if (id < 0 || id >= tok->vocab_size())
            __builtin_trap();
    if (tok->decode(ids) != text)  // byte-level BPE is lossless by construction
        __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto in = twbfuzz::view(data, size);
    std::string_view part[3];
    size_t at = 0;
    for (int i = 0; i < 3; ++i) {
        const size_t cut = i < 2 ? in.find('\xFF', at) : std::string_view::npos;
        part[i] = at <= in.size() ? in.substr(at, cut == std::string_view::npos ? std::string_view::npos : cut - at)
                                  : std::string_view();
        at = cut == std::string_view::npos ? in.size() + 1 : cut + 1;
    }
    const auto config = twbfuzz::write("config.json", part[0]);
    try {
        (void)twb::read_hf_config(config);
    } catch (const twb::Error&) {
    }
    try {
        if (twb::hf_model_type(config) == "marian")
            (void)twb::read_marian_config(config);
    } catch (const twb::Error&) {
    }
    twb::HfSpecialIds ids;  // config.json's bos/eos ids, marked special in the vocabulary as import does
    try {
        ids = twb::read_hf_special_ids(config);
    } catch (const twb::Error&) {
    }
    try {
        auto v = twb::read_gpt2_vocab(twbfuzz::write("vocab.json", part[1]), twbfuzz::write("merges.txt", part[2]));
        twb::mark_special_ids(v, ids.bos, ids.eos);
        use(twb::make_gpt2_tokenizer(std::move(v)));
    } catch (const twb::Error&) {
    }
    try {
        use(twb::make_gpt2_tokenizer(twb::read_hf_tokenizer_json(twbfuzz::write("tokenizer.json", in))));
    } catch (const twb::Error&) {
    }
    return 0;
}
