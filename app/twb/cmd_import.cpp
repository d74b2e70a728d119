// twb import: a pretrained GPT-2-family checkpoint in the Hugging Face layout (config.json,
// model.safetensors, vocab.json + merges.txt or tokenizer.json) becomes an ordinary run folder.
#include "app/twb/commands.h"
#include "twb/model_exchange.h"

#include <unistd.h>
#include <cstdio>

namespace twb::cli {

Action add_import(CLI::App& app) {
    struct Opts {
        std::string hf, out, name;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--hf", o->hf,
                   "Hugging Face folder: config.json, model.safetensors (never pickle), vocab.json + merges.txt or "
                   "tokenizer.json (e.g. the files of openai-community/gpt2)")
        ->required();
    app.add_option("--out,-o", o->out, "Run folder to write (must not exist or be empty)")->required();
    app.add_option("--name", o->name, "The run's name (RUN/run.json); default: imported from FOLDER");
    return [o]() {
        const HfImportResult r = import_hf(o->hf, o->out, o->name, [](const std::string& m) {
            if (::isatty(2))  // stages on a terminal only: stderr otherwise holds just an error line
                std::fprintf(stderr, "%s\n", m.c_str());
        });
        const RunConfig& c = r.config;
        std::printf(
            "imported %s into %s: %d layers x %d heads x %d channels, block %d, vocab %d, %s, %s head, %lld "
            "parameters (%s weights, %s)\n",
            o->hf.c_str(), r.run.string().c_str(), c.n_layer, c.n_head, c.n_embd, c.block_size, c.vocab_size,
            to_string(c.activation).c_str(), r.tied ? "tied" : "untied", static_cast<long long>(r.parameters),
            r.source_dtype.c_str(), r.tokenizer_files.c_str());
        std::printf(
            "sample: twb sample --run %s --prompt \"...\"; finetune: twb prepare --tokenizer-from %s ... then twb "
            "train --init-from %s --data DATA --out RUN2\n",
            r.run.string().c_str(), r.run.string().c_str(), r.run.string().c_str());
        return 0;
    };
}

}  // namespace twb::cli
