// Loading a run's checkpoint with its tokenizer, and encoding prompts for it.
#include "nn/models/model_loader.h"

#include "core/decoding/generation_prompt.h"
#include "nn/device.h"
#include "nn/interchange/checkpoint.h"
#include "twb/errors.h"
#include "twb/run_folder.h"

namespace twb::nn {

namespace fs = std::filesystem;

LoadedModel load_model(const std::string& run_or_checkpoint, const std::string& which) {
    LoadedModel m;
    const fs::path ck = find_checkpoint(run_or_checkpoint, which);
    auto loaded = read_checkpoint(ck);
    m.config = loaded.state.config;
    if (m.config.model_kind == ModelKind::EncoderDecoder)
        throw InputError(ck.string() +
                         " is an encoder-decoder (translation) run; translate with twb translate --run RUN (twb "
                         "attention, lens, attribute and ablate and the Attention panel look inside it; sampling, "
                         "chat and embeddings take decoder LM runs)");
    m.step = loaded.state.step;
    m.checkpoint = ck.string();
    apply_threads(m.config.threads);
    m.device = resolve_device(m.config.device);
    m.model = GPT(m.config, GPTImpl::Init::None);
    m.model->to(m.device);
    load_weights(m.model, loaded.weights, ck.string());
    m.model->eval();
    const fs::path runDir = ck.parent_path().parent_path();
    m.tokenizer = load_tokenizer(run_tokenizer_dir(runDir, m.config.data_dir));
    if (m.tokenizer->vocab_size() != m.config.vocab_size)
        throw FormatError("the tokenizer has " + std::to_string(m.tokenizer->vocab_size()) + " tokens but the model " +
                          std::to_string(m.config.vocab_size) + "; the run's tokenizer files do not belong to it");
    return m;
}

std::vector<int32_t> encode_prompt(const LoadedModel& m, const std::string& prompt) {
    return twb::encode_prompt(*m.tokenizer, prompt);
}

}  // namespace twb::nn
