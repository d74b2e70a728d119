// Generation from a GPT run on the CPU without libtorch: the checkpoint's weights read from its file into
// the bf16 decoder, the stream sampler over it. `twb sample` takes this path when it serves the run and
// the options (one sequence, the KV cache, bf16 decode weights, a CPU run), so such a process never loads
// libtorch (0.4-0.8 s of start-up); otherwise it goes through ModelSession, with the same text: both run
// the same decoder and sampler. `twb chat` likewise. Public API; no torch.
#pragma once
#include "twb/chat.h"
#include "twb/generation.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace twb {

class CpuSession {
public:
    CpuSession();
    ~CpuSession();
    CpuSession(const CpuSession&) = delete;
    CpuSession& operator=(const CpuSession&) = delete;

    /// Opens a run's checkpoint ("best", "last" or a step) for generation with opt when this path serves
    /// them, and returns ""; otherwise returns why not and opens nothing (every error, too, is such a
    /// reason: ModelSession then says it in full). TWB_TORCH_FREE=0 (or false, off, no) in the environment
    /// refuses always.
    std::string open(const std::string& run, const std::string& which, const SamplingOptions& opt);

    std::string run() const;
    std::string checkpoint() const;
    int64_t step() const;
    /// As ModelSession's: the prompt's ids (InputError for characters the vocabulary lacks).
    std::vector<int32_t> encode(const std::string& prompt) const;
    std::string token_text(int id) const;
    /// The sentence `twb sample` prints about the decoder.
    std::string decode_path(const SamplingOptions& opt) const;
    /// As ModelSession::generate, for the options open() accepted.
    SampleResult generate(const std::vector<int32_t>& prompt, const SamplingOptions& opt,
                          const TokenCallback& on_token = {}, const std::atomic<bool>* cancel = nullptr);
    /// As ModelSession::chat: one assistant reply to the conversation in the chat template.
    SampleResult chat(const Conversation& conversation, const SamplingOptions& opt, const TokenCallback& on_token = {},
                      const std::atomic<bool>* cancel = nullptr);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

}  // namespace twb
