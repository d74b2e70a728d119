// The one signal handler of `twb`.
#include "app/twb/interrupt.h"

#include "twb/train_job.h"

#include <csignal>
#include <cstdlib>

namespace twb::cli {

namespace {
std::atomic<bool> g_interrupted{false};
std::atomic<TrainControl*> g_control{nullptr};

extern "C" void on_signal(int) {
    if (g_interrupted.exchange(true))
        std::_Exit(130);
    if (TrainControl* c = g_control.load())
        c->request_stop_from_signal();  // only sets an atomic flag: async-signal-safe
}
}  // namespace

const std::atomic<bool>& install_interrupt_flag(TrainControl* control) {
    g_control = control;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    return g_interrupted;
}

}  // namespace twb::cli
