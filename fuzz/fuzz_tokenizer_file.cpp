// A dataset's or run's tokenizer.json (char, byte and word; sentencepiece's .model is its own library's
// parser and is loaded through a module that sanitizer builds do not fuzz), then encode and decode.
#include "core/tokenizers/tokenizer.h"
#include "fuzz_util.h"
#include "twb/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string in(twbfuzz::view(data, size));
    if (in.find("bpe") != std::string::npos || in.find("unigram") != std::string::npos)
        return 0;
    const auto dir = twbfuzz::scratch() / "tok";
    std::filesystem::create_directories(dir);
    twbfuzz::write("tok/tokenizer.json", in);
    try {
        const auto tok = twb::load_tokenizer(dir);
        const std::string text = "Hello, w\xC3\xB6rld!\n\t12 \xE6\x97\xA5";
        std::vector<int32_t> ids;
        try {
            ids = tok->encode(text);
        } catch (const twb::Error&) {
        }
        for (int32_t id : ids)
            if (id < 0 || id >= tok->vocab_size())
                __builtin_trap();
        (void)tok->decode(ids);
        for (int id = -1; id <= tok->vocab_size(); ++id)
            (void)tok->token_text(id);
    } catch (const twb::Error&) {
    }
    return 0;
}
