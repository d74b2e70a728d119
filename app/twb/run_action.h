// How a `twb` command ends, the same in the program with libtorch and in the one without (main.cpp,
// light_main.cpp): every failure as one line on stderr, and the process ended without tearing libraries down.
#pragma once
#include "app/twb/commands.h"

#include <string>

namespace twb::cli {

/// A message as one line: a library's trace is cut to its first line; an engine message whose parts
/// span lines has them joined.
std::string one_line(const std::string& msg, bool first_only);

/// Runs a parsed subcommand's action. Every failure ends as one line on stderr: the engine's own errors
/// say what to do; anything else (a library's exception, a bug) is cut to its first line, and verbose
/// shows it whole.
int run_action(const Action& action, bool verbose);

/// Ends the process with rc once the command is over (its objects destroyed, its files closed): the
/// streams are flushed and exit's handlers skipped, since what they would do is tear down libtorch's
/// and its ~280 libraries' static objects (~0.1 s of a `twb sample`). Sanitizer builds exit normally, so
/// that the leak check (an exit handler) still runs. Output that did not reach standard output (a full
/// disk) is an error: said on stderr, and rc 0 becomes 1.
[[noreturn]] void finish(int rc);

}  // namespace twb::cli
