// twb import: a pretrained checkpoint in the Hugging Face layout becomes an ordinary run folder: a GPT-2-family
// model (config.json, model.safetensors, vocab.json + merges.txt or tokenizer.json) a decoder run, a Marian
// translation model (model_type marian: source.spm, target.spm, vocab.json) an encoder-decoder run.
#include "app/twb/commands.h"
#include "twb/model_exchange.h"

#include <unistd.h>
#include <cstdio>
#include <string>

namespace twb::cli {

Action add_import(CLI::App& app) {
    struct Opts {
        std::string hf, out, name;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--hf", o->hf,
                   "Hugging Face folder: config.json, model.safetensors (never pickle) and the tokenizer: GPT-2's "
                   "vocab.json + merges.txt or tokenizer.json (e.g. openai-community/gpt2), or Marian's source.spm, "
                   "target.spm and vocab.json (model_type marian, e.g. Helsinki-NLP/opus-mt-en-de: a translation "
                   "run); or a folder `twb export --format safetensors` wrote (config.json, model.safetensors, "
                   "tokenizer/)")
        ->required();
    app.add_option("--out,-o", o->out, "Run folder to write (must not exist or be empty)")->required();
    app.add_option("--name", o->name, "The run's name (RUN/run.json); default: imported from FOLDER");
    return [o]() {
        const HfImportResult r = import_hf(o->hf, o->out, o->name, [](const std::string& m) {
            if (::isatty(2))  // stages on a terminal only: stderr otherwise holds just an error line
                std::fprintf(stderr, "%s\n", m.c_str());
        });
        const RunConfig& c = r.config;
        const std::string layers = c.model_kind == ModelKind::EncoderDecoder
                                       ? std::to_string(c.encoder_layers()) + "+" + std::to_string(c.decoder_layers())
                                       : std::to_string(c.n_layer);
        std::printf(
            "imported %s into %s: %s layers x %d heads x %d channels, block %d, vocab %d, %s, %s head, %lld "
            "parameters (%s weights, %s)\n",
            o->hf.c_str(), r.run.string().c_str(), layers.c_str(), c.n_head, c.n_embd, c.block_size, c.vocab_size,
            to_string(c.activation).c_str(), r.tied ? "tied" : "untied", static_cast<long long>(r.parameters),
            r.source_dtype.c_str(), r.tokenizer_files.c_str());
        const char* run = r.run.c_str();
        if (c.model_kind == ModelKind::EncoderDecoder)
            std::printf(
                "translate: echo \"...\" | twb translate --run %s; finetune: twb prepare --source SRC --target TGT "
                "--tokenizer-from %s --out DATA then twb train --init-from %s --data DATA --out RUN2\n",
                run, run, run);
        else
            std::printf(
                "sample: twb sample --run %s --prompt \"...\"; finetune: twb prepare --tokenizer-from %s ... then twb "
                "train --init-from %s --data DATA --out RUN2\n",
                run, run, run);
        return 0;
    };
}

}  // namespace twb::cli
