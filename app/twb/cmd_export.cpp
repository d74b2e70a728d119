// twb export: a run's checkpoint in a format other tools read. --format gguf writes llama.cpp's GGUF
// (architecture gpt2; twb/gguf_export.h), refused with the option's name for a run whose architecture
// or tokenizer GPT-2's lacks. Parses, calls the engine, prints.
#include "app/twb/commands.h"
#include "twb/errors.h"
#include "twb/gguf_export.h"

#include <cstdio>

namespace twb::cli {

Action add_export(CLI::App& app) {
    struct Opts {
        std::string run, checkpoint = "best", format, out, outtype = "f32";
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder (from twb train) or a checkpoint folder")->required();
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    app.add_option("--format", o->format, "gguf: llama.cpp's format, architecture gpt2")
        ->required()
        ->check(CLI::IsMember({"gguf"}));
    app.add_option("--out,-o", o->out, "The file to write (gguf: FILE.gguf)")->required();
    app.add_option("--outtype", o->outtype, "gguf: f32 (default) or f16 for the matrices; 1-D tensors stay f32")
        ->check(CLI::IsMember({"f32", "f16"}));
    return [o]() {
        GgufOptions g;
        g.f16 = o->outtype == "f16";
        const auto r = export_gguf(o->run, o->checkpoint, o->out, g);
        std::printf("wrote %s: GGUF v3, architecture gpt2, %s, step %lld, %d tensors, %d keys, %d tokens, %.1f MB\n",
                    r.file.c_str(), o->outtype.c_str(), static_cast<long long>(r.step), r.tensors, r.keys, r.vocab,
                    static_cast<double>(r.bytes) / 1e6);
        return 0;
    };
}

}  // namespace twb::cli
