// Ctrl-C and SIGTERM for every long `twb` command, in one place: the first signal asks the running job
// to stop (it writes what it must, e.g. a checkpoint, and the command exits 130); a second one exits
// at once.
#pragma once
#include <atomic>

namespace twb {
class TrainControl;
}

namespace twb::cli {

/// Installs the handler for SIGINT and SIGTERM and returns the flag the first signal sets. When
/// control is given, the first signal also asks that training job to stop.
const std::atomic<bool>& install_interrupt_flag(TrainControl* control = nullptr);

}  // namespace twb::cli
