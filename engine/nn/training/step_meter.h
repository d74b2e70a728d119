// Step timing of the training spine (training/training_run.h): the steps since the last report
// become one StepReport (mean ms per step, tokens per second, mean all-reduce time), and the run's
// median step time goes into its summary.
#pragma once
#include "twb/config.h"
#include "twb/training.h"

#include <algorithm>
#include <vector>

namespace twb::nn {

class StepMeter {
public:
    /// A step of ms milliseconds that trained on tokens tokens.
    void add(double ms, double tokens) {
        m_all.push_back(ms);
        m_ms += ms;
        m_tokens += tokens;
        ++m_steps;
        ++m_unsettled;
    }
    /// The steps added since the last settle() share their time equally. Steps queued on a GPU return
    /// before they are done; the step that waits for them takes the rest, so only their sum means
    /// anything. A step settled alone keeps its own time.
    void settle() {
        const auto n = static_cast<size_t>(m_unsettled);
        double sum = 0;
        for (size_t i = m_all.size() - n; i < m_all.size(); ++i)
            sum += m_all[i];
        for (size_t i = m_all.size() - n; i < m_all.size(); ++i)
            m_all[i] = sum / static_cast<double>(n);
        m_unsettled = 0;
    }
    /// Time spent in the gradient all-reduce during the current step.
    void add_comm(double ms) { m_commMs += ms; }
    /// Whether the step just done is reported (every log_interval steps and the last).
    static bool due(int64_t step, const RunConfig& c) { return step % c.log_interval == 0 || step == c.max_iters; }
    /// The report of the steps since the last one (their timing filled in); starts a new interval.
    StepReport take(int64_t step, const RunConfig& c, double loss, double lr, double grad_norm) {
        StepReport r;
        r.step = step;
        r.max_iters = c.max_iters;
        r.loss = loss;
        r.lr = lr;
        r.grad_norm = grad_norm;
        r.ms_per_step = m_ms / std::max(1, m_steps);
        r.tokens_per_s = m_ms > 0 ? 1000.0 * m_tokens / m_ms : 0;
        r.comm_ms_per_step = m_commMs / std::max(1, m_steps);
        m_ms = m_tokens = m_commMs = 0;
        m_steps = 0;
        return r;
    }
    double median_ms() const {
        if (m_all.empty())
            return 0;
        std::vector<double> s(m_all);
        std::nth_element(s.begin(), s.begin() + static_cast<long>(s.size() / 2), s.end());
        return s[s.size() / 2];
    }

private:
    std::vector<double> m_all;
    double m_ms = 0, m_tokens = 0, m_commMs = 0;
    int m_steps = 0, m_unsettled = 0;
};

}  // namespace twb::nn
