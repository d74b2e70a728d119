// A one-line progress display on stderr for long CLI jobs (stage, percent, ETA). Redraws at most
// ten times a second and only when stderr is a terminal.
#pragma once
#include <unistd.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace twb::cli {

class ProgressLine {
public:
    explicit ProgressLine(bool enabled) : m_on(enabled && ::isatty(2)) {}
    void update(const std::string& stage, uint64_t done, uint64_t total) {
        if (!m_on)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (stage != m_stage) {
            m_stage = stage;
            m_stageStart = now;
        } else if (now - m_last < std::chrono::milliseconds(100) && done < total) {
            return;
        }
        m_last = now;
        const double frac = total ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
        const double el = std::chrono::duration<double>(now - m_stageStart).count();
        char eta[32] = "";
        if (frac > 0.02 && frac < 1.0)
            std::snprintf(eta, sizeof eta, ", ETA %.0f s", el * (1 - frac) / frac);
        std::fprintf(stderr, "\r\033[K%-10s %5.1f%%%s", stage.c_str(), 100 * frac, eta);
        std::fflush(stderr);
        m_drawn = true;
    }
    void finish() {
        if (m_drawn)
            std::fprintf(stderr, "\r\033[K");
        m_drawn = false;
    }

private:
    bool m_on;
    bool m_drawn = false;
    std::string m_stage;
    std::chrono::steady_clock::time_point m_stageStart{}, m_last{};
};

}  // namespace twb::cli
