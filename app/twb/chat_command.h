// `twb chat`'s options and its turns over either session: ModelSession (libtorch, cmd_chat.cpp) or
// CpuSession (no libtorch, light_main.cpp), the history kept in RUN/chat.jsonl (twb/chat_history.h), as the
// Sampling console's Chat mode does.
#pragma once
#include "app/twb/commands.h"
#include "twb/chat.h"
#include "twb/generation.h"

#include <functional>
#include <string>
#include <vector>

namespace twb::cli {

struct ChatOpts {
    std::string run, checkpoint = "best", system;
    std::vector<std::string> messages;
    SamplingOptions s;
    bool greedy = false, fresh = false, noHistory = false;
};

/// Registers the options of `twb chat` on app, into o (with its defaults: 256 tokens, temperature 0.7).
void add_chat_options(CLI::App& app, ChatOpts& o);
/// The sampling options the command line asks for (ConfigError for a bad value).
SamplingOptions chat_sampling_of(const ChatOpts& o);

/// Refuses a run whose chat.jsonl is not a file (a folder) unless --no-history: said before the model
/// answers (it answered, then failed to record the answer).
void check_chat_history_place(const ChatOpts& o);

/// One reply of an open session: ModelSession::chat or CpuSession::chat.
using ChatFn = std::function<SampleResult(const Conversation&, const SamplingOptions&, const TokenCallback&,
                                          const std::atomic<bool>*)>;
/// The command over an open session whose checkpoint is of `step`: --message turns, the terminal's, or
/// stdin's lines. Returns the exit status.
int run_chat(const ChatOpts& o, const SamplingOptions& s, const ChatFn& reply, int64_t step);

}  // namespace twb::cli
