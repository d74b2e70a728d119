// How a `twb` command ends (run_action.h).
#include "app/twb/run_action.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>

namespace twb::cli {

std::string one_line(const std::string& msg, bool first_only) {
    std::string out;
    size_t pos = 0;
    while (pos <= msg.size()) {
        size_t nl = msg.find('\n', pos);
        if (nl == std::string::npos)
            nl = msg.size();
        std::string line = msg.substr(pos, nl - pos);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.pop_back();
        if (!line.empty()) {
            if (!out.empty())
                out += "; ";
            out += line;
            if (first_only)
                break;
        }
        pos = nl + 1;
    }
    return out.empty() ? "unknown error" : printable_text(out);  // whatever bytes a file put in it
}

int run_action(const Action& action, bool verbose) {
    try {
        return action();
    } catch (const Cancelled&) {
        std::cerr << "twb: cancelled\n";
        return 130;
    } catch (const Error& e) {
        std::cerr << "twb: error: " << (verbose ? printable_text(e.what()) : one_line(e.what(), false)) << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << "twb: error: out of memory; use a smaller model, batch or input\n";
        return 1;
    } catch (const std::exception& e) {
        if (verbose)
            std::cerr << "twb: error: " << printable_text(e.what()) << "\n";
        else
            std::cerr << "twb: error: " << one_line(e.what(), true)
                      << " (unexpected: run again with --verbose for details and report it)\n";
        return 1;
    } catch (...) {
        std::cerr << "twb: error: an unknown exception (unexpected: please report it)\n";
        return 1;
    }
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)  // GCC
#define TWB_SANITIZED 1
#elif defined(__has_feature)  // Clang
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TWB_SANITIZED 1
#endif
#endif
namespace {
/// Whether everything printed reached standard output: a full disk or a file-size limit cut it short
/// while the command said 0 (`twb translate > out` is a translation's only output).
bool output_written() {
    std::cout.flush();
    errno = 0;
    const bool ok = std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout.good();
    if (!ok)  // errno names the cause when the last write failed; an earlier one left only the stream's flag
        std::cerr << "twb: error: writing the output failed (" << (errno ? std::strerror(errno) : "disk full?")
                  << "); it is incomplete\n";
    return ok;
}
}  // namespace

[[noreturn]] void finish(int rc) {
    if (!output_written() && rc == 0)
        rc = 1;
#ifdef TWB_SANITIZED
    std::exit(rc);
#else
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(rc);
#endif
}

}  // namespace twb::cli
