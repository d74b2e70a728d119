// twb export: a run's checkpoint in a format other tools read. --format hf: the Hugging Face GPT-2
// layout (config.json, model.safetensors, vocab.json + merges.txt) that transformers' GPT2LMHeadModel
// reads; --format safetensors: the workbench's own tensor names with config.json and the tokenizer, for
// any architecture; --format gguf: llama.cpp's GGUF (architecture gpt2; twb/gguf_export.h). A format
// that cannot hold the run's architecture or tokenizer is refused with the option's name. Parses, calls
// the engine, prints.
#include "app/twb/commands.h"
#include "twb/errors.h"
#include "twb/gguf_export.h"
#include "twb/model_exchange.h"
#include "twb/output_paths.h"

#include <cstdio>

namespace twb::cli {

namespace {
int export_gguf_file(const std::string& run, const std::string& checkpoint, const std::string& out,
                     const std::string& outtype) {
    GgufOptions g;
    g.f16 = outtype == "f16";
    const auto r = export_gguf(run, checkpoint, out, g);
    std::printf("wrote %s: GGUF v3, architecture gpt2, %s, step %lld, %d tensors, %d keys, %d tokens, %.1f MB\n",
                r.file.c_str(), outtype.c_str(), static_cast<long long>(r.step), r.tensors, r.keys, r.vocab,
                static_cast<double>(r.bytes) / 1e6);
    return 0;
}
}  // namespace

Action add_export(CLI::App& app) {
    struct Opts {
        std::string run, checkpoint = "best", format, out, outtype = "f32";
        bool force = false;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder (from twb train or twb import) or a checkpoint folder")->required();
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    app.add_option("--format,-f", o->format,
                   "hf: Hugging Face layout, GPT-2's for a language model (learned positions, LayerNorm, pre-norm, "
                   "biases) and Marian's for an encoder-decoder (docs/interchange.md); safetensors: the workbench's "
                   "own names + config.json, any architecture; gguf: "
                   "llama.cpp's format, architecture gpt2")
        ->required()
        ->check(CLI::IsMember({"hf", "safetensors", "gguf"}));
    app.add_option("--out,-o", o->out,
                   "hf, safetensors: the folder to write (must not exist or be empty); gguf: FILE.gguf")
        ->required();
    const CLI::Option* force = app.add_flag("--force", o->force, "gguf: replace an existing FILE.gguf");
    const CLI::Option* outtype =
        app.add_option("--outtype", o->outtype, "gguf: f32 (default) or f16 for the matrices; 1-D tensors stay f32")
            ->check(CLI::IsMember({"f32", "f16"}));
    return [o, force, outtype]() {
        // gguf's options were accepted and ignored for the folder formats (float32 written under --outtype f16).
        if (o->format != "gguf" && outtype->count() > 0)
            throw ConfigError("--outtype is for --format gguf; " + o->format +
                              " writes the weights as the run holds them (float32): drop --outtype");
        if (o->format != "gguf" && force->count() > 0)
            throw ConfigError("--force is for --format gguf (a file); " + o->format +
                              " writes a new folder and never replaces one: drop --force, and remove the folder "
                              "or choose another --out");
        if (o->format == "gguf") {
            check_output_file(o->out, {o->run}, o->force);
            return export_gguf_file(o->run, o->checkpoint, o->out, o->outtype);
        }
        const ExportResult r = o->format == "hf" ? export_hf(o->run, o->out, o->checkpoint)
                                                 : export_safetensors(o->run, o->out, o->checkpoint);
        std::string files;
        for (const auto& f : r.files)
            files += (files.empty() ? "" : ", ") + f;
        std::printf("exported %s to %s (%s): %s\n", r.checkpoint.c_str(), r.out.string().c_str(), o->format.c_str(),
                    files.c_str());
        if (!r.note.empty())
            std::printf("note: %s\n", r.note.c_str());
        return 0;
    };
}

}  // namespace twb::cli
