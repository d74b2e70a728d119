// Generation on the CPU without libtorch (twb/cpu_session.h).
#include "twb/cpu_session.h"

#include "core/decoding/chat_prompt.h"
#include "core/decoding/checkpoint_weights.h"
#include "core/decoding/context_window.h"
#include "core/decoding/generation_prompt.h"
#include "core/decoding/spin_pool.h"
#include "core/decoding/stream_sampler.h"
#include "core/run/checkpoint_state.h"
#include "core/tokenizers/tokenizer.h"
#include "twb/devices.h"
#include "twb/errors.h"
#include "twb/run_folder.h"
#include "twb/text.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace twb {

namespace fs = std::filesystem;

namespace {
/// One sequence through the CPU decoder, under the shared context window policy.
class DecoderRows : public RowSource {
public:
    explicit DecoderRows(std::shared_ptr<const FastWeights> w) : m_block(w->config.block_size), m_dec(std::move(w)) {}
    int64_t next_rows(const std::vector<std::vector<int32_t>>& seqs, std::vector<float>& out) override {
        if (seqs.size() != 1)
            throw std::logic_error("the CPU decoder takes one sequence");
        const auto& seq = seqs[0];
        const auto& logits =
            feed_window(m_dec, m_start, window_start(static_cast<int64_t>(seq.size()), m_block), seq, true);
        out.assign(logits.begin(), logits.end());
        return static_cast<int64_t>(logits.size());
    }
    void reset() override { m_start = -1; }

private:
    int64_t m_block;
    FastDecoder m_dec;
    int64_t m_start = -1;  // window start the decoder's cache holds (-1: nothing valid)
};

/// Whether a run configured for `device` runs on the CPU here: cpu, or auto on a machine without a CUDA device.
bool runs_on_cpu(const std::string& device) {
    if (device == "cpu")
        return true;
    if (device != "auto")
        return false;
    const auto devices = compute_devices();
    return std::none_of(devices.begin(), devices.end(),
                        [](const ComputeDevice& d) { return d.spelling.rfind("cuda", 0) == 0; });
}
}  // namespace

struct CpuSession::Impl {
    fs::path checkpoint;
    CheckpointState state;
    std::unique_ptr<Tokenizer> tokenizer;
    std::shared_ptr<const FastWeights> weights;

    const Tokenizer& tok() const {
        if (!tokenizer)
            throw std::logic_error("CpuSession: no checkpoint is open");
        return *tokenizer;
    }
};

CpuSession::CpuSession() : d(std::make_unique<Impl>()) {}
CpuSession::~CpuSession() = default;

std::string CpuSession::open(const std::string& run, const std::string& which, const SamplingOptions& opt) {
    d = std::make_unique<Impl>();
    const char* set = std::getenv("TWB_TORCH_FREE");
    const std::string env = set ? set : "";
    if (env == "0" || env == "false" || env == "off" || env == "no")
        return "TWB_TORCH_FREE=" + env;
    if (opt.beam_width > 1 || opt.num_samples > 1)
        return "more than one sequence";
    if (!opt.use_kv_cache)
        return "without the KV cache";
    if (opt.decode_weights == DecodeWeights::Float32)
        return "decode_weights float32";
    const bool avx2 = cpu_has_avx2_fma();
    if (opt.decode_weights == DecodeWeights::Auto && !avx2)
        return "this CPU lacks AVX2+FMA";
    auto impl = std::make_unique<Impl>();
    try {
        impl->checkpoint = find_checkpoint(run, which);
        const fs::path stateFile = impl->checkpoint / "state.json";
        impl->state = parse_checkpoint_state(read_file(stateFile), stateFile.string());
        const std::string folder = impl->checkpoint.filename().string();
        if (folder.rfind("step_", 0) == 0 && folder != checkpoint_dir_name(impl->state.step))
            return "the checkpoint's folder and state.json disagree";
        const RunConfig& c = impl->state.config;
        if (c.model_kind != ModelKind::Decoder)
            return "an encoder-decoder run";
        if (const std::string why = fast_decode_unsupported(c); !why.empty())
            return why;
        if (!runs_on_cpu(c.device))
            return "the run's device is " + c.device;
        const fs::path runDir = impl->checkpoint.parent_path().parent_path();
        impl->tokenizer = load_tokenizer(run_tokenizer_dir(runDir, c.data_dir));
        if (impl->tokenizer->vocab_size() != c.vocab_size)
            return "the tokenizer's vocabulary and the model's differ";
        set_decode_threads(resolve_threads(c.threads));
        impl->weights = read_fast_weights(impl->checkpoint / "model.safetensors", c, avx2);
    } catch (const std::exception& e) {
        return e.what();
    }
    d = std::move(impl);
    return {};
}

std::string CpuSession::run() const {
    return d->weights ? d->checkpoint.parent_path().parent_path().string() : std::string();
}
std::string CpuSession::checkpoint() const {
    return d->checkpoint.string();
}
int64_t CpuSession::step() const {
    return d->state.step;
}
std::vector<int32_t> CpuSession::encode(const std::string& prompt) const {
    return encode_prompt(d->tok(), prompt);
}
std::string CpuSession::token_text(int id) const {
    return d->tok().token_text(id);
}

std::string CpuSession::decode_path(const SamplingOptions& opt) const {
    return std::string("bfloat16 weights, ") + (d->weights && d->weights->avx2 ? "AVX2+FMA" : "portable") +
           " gemv, without libtorch (decode_weights " + to_string(opt.decode_weights) + ")";
}

SampleResult CpuSession::generate(const std::vector<int32_t>& prompt, const SamplingOptions& opt,
                                  const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    const Tokenizer& tok = d->tok();
    opt.validate();
    if (prompt.empty())
        throw InputError("the prompt has no tokens");
    const RunConfig& c = d->state.config;
    DecoderRows rows(d->weights);
    auto res = sample_streams(
        rows, generation_start(c, tok, prompt), opt, tok.eos_id(),
        [&](const std::vector<int32_t>& v) { return tok.decode(v); }, on_token, cancel);
    add_prompt_warnings(res, c, tok, prompt);
    return res;
}

SampleResult CpuSession::chat(const Conversation& conversation, const SamplingOptions& opt,
                              const TokenCallback& on_token, const std::atomic<bool>* cancel) {
    SamplingOptions o = opt;
    o.stop_at_eos = true;
    SampleResult r = generate(chat_reply_prompt(d->tok(), conversation), o, on_token, cancel);
    if (const std::string w = chat_run_warning(d->state.config); !w.empty())
        r.warnings.push_back(w);
    return r;
}

}  // namespace twb
