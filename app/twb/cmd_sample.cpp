// twb sample / twb attention: through the engine's ModelSession (a translation run's attention: Translator),
// as the GUI does. `twb sample` without libtorch is light_main.cpp's; the options and printing of both are
// sample_command.h's.
#include "app/twb/commands.h"
#include "app/twb/sample_command.h"
#include "twb/attention.h"
#include "twb/errors.h"
#include "twb/output_paths.h"
#include "twb/process.h"
#include "twb/samples_history.h"
#include "twb/session.h"
#include "twb/text.h"
#include "twb/translation.h"
#include "twb/translation_attention.h"

#include <cstdio>

namespace twb::cli {

Action add_sample(CLI::App& app) {
    auto o = std::make_shared<SampleOpts>();
    add_sample_options(app, *o);
    return [o]() {
        const std::string prompt = prompt_of(*o);
        const SamplingOptions s = sampling_of(*o);
        ModelSession m;
        m.open(o->run, o->checkpoint);
        return sample_with(m, *o, s, prompt);
    };
}

Action add_attention(CLI::App& app) {
    struct Opts {
        std::string run, checkpoint = "best", prompt, target, out;
        bool force = false;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder or checkpoint folder")->required();
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    app.add_option("--prompt,-p,--text", o->prompt,
                   "Text whose attention to capture (a translation run: the source sentence)")
        ->required();
    app.add_option("--target", o->target,
                   "A translation run only: the target sentence, teacher-forced (default: the model's greedy "
                   "translation)");
    app.add_option("--out,-o", o->out,
                   "Output JSON (the attention export format: tokens, weights[layer][head][query][key], "
                   "next_token_top; a translation run: encoder_self, decoder_self and cross)")
        ->required();
    app.add_flag("--force", o->force, "Replace an existing output file");
    return [o]() {
        check_output_file(o->out, {o->run}, o->force);
        if (is_encoder_decoder_run(o->run)) {
            Translator t;
            t.open(o->run, o->checkpoint);
            const auto a = t.attention(o->prompt, o->target);
            AttentionExportInfo info;
            info.checkpoint = t.checkpoint();
            info.step = t.step();
            write_translation_attention_json(o->out, a, info);
            for (auto& w : a.warnings)
                std::fprintf(stderr, "twb: warning: %s\n", w.c_str());
            if (a.target_from_model)
                std::fprintf(stderr, "target (the model's greedy translation): %s\n", a.target.c_str());
            std::printf(
                "wrote %s: encoder %lld x %lld over %lld source tokens, decoder %lld x %lld over %lld target "
                "tokens, cross-attention %lld x %lld source\n",
                o->out.c_str(), static_cast<long long>(a.encoder.layers), static_cast<long long>(a.encoder.heads),
                static_cast<long long>(a.encoder.length), static_cast<long long>(a.decoder.layers),
                static_cast<long long>(a.decoder.heads), static_cast<long long>(a.decoder.length),
                static_cast<long long>(a.cross.length), static_cast<long long>(a.cross.keys()));
            return 0;
        }
        if (!o->target.empty())
            throw InputError("--target is for translation (encoder-decoder) runs; " + o->run +
                             " is a decoder LM: drop --target");
        ModelSession m;
        m.open(o->run, o->checkpoint);
        const auto cap = m.attention(o->prompt);
        AttentionExportInfo info;
        info.checkpoint = m.checkpoint();
        info.step = m.step();
        info.token_text = [&](int id) { return m.token_text(id); };
        write_attention_json(o->out, cap, info);
        for (auto& w : cap.warnings)
            std::fprintf(stderr, "twb: warning: %s\n", w.c_str());
        std::printf("wrote %s: %lld layers x %lld heads x %lld tokens\n", o->out.c_str(),
                    static_cast<long long>(cap.layers), static_cast<long long>(cap.heads),
                    static_cast<long long>(cap.length));
        return 0;
    };
}

}  // namespace twb::cli
