// twb chat through ModelSession::chat (libtorch); `twb chat` without libtorch is light_main.cpp's, the
// options and turns of both are chat_command.h's.
#include "app/twb/chat_command.h"
#include "app/twb/commands.h"
#include "twb/session.h"

namespace twb::cli {

Action add_chat(CLI::App& app) {
    auto o = std::make_shared<ChatOpts>();
    add_chat_options(app, *o);
    return [o]() {
        const SamplingOptions s = chat_sampling_of(*o);
        check_chat_history_place(*o);
        ModelSession m;
        m.open(o->run, o->checkpoint);
        return run_chat(
            *o, s,
            [&m](const Conversation& c, const SamplingOptions& so, const TokenCallback& cb,
                 const std::atomic<bool>* cancel) { return m.chat(c, so, cb, cancel); },
            m.step());
    };
}

}  // namespace twb::cli
