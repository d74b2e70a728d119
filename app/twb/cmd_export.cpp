// twb export: a run's checkpoint in another layout. --format hf: the Hugging Face GPT-2 layout
// (config.json, model.safetensors, vocab.json + merges.txt) that transformers' GPT2LMHeadModel reads;
// --format safetensors: the workbench's own tensor names with config.json and the tokenizer, for any
// architecture.
#include "app/twb/commands.h"
#include "twb/model_exchange.h"

#include <cstdio>

namespace twb::cli {

Action add_export(CLI::App& app) {
    struct Opts {
        std::string run, checkpoint = "best", format, out;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder (from twb train or twb import) or a checkpoint folder")->required();
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    app.add_option("--format,-f", o->format,
                   "hf: Hugging Face GPT-2 layout (GPT-2 architectures only: learned positions, LayerNorm, pre-norm, "
                   "biases); safetensors: the workbench's own names + config.json, any architecture")
        ->required()
        ->check(CLI::IsMember({"hf", "safetensors"}));
    app.add_option("--out,-o", o->out, "Folder to write (must not exist or be empty)")->required();
    return [o]() {
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
