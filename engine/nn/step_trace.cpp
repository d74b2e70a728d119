// StepTrace: libtorch's profiler around a range of steps.
#include "nn/step_trace.h"

#include <torch/csrc/autograd/profiler_kineto.h>
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>

namespace twb::nn {

namespace prof = torch::autograd::profiler;
using torch::profiler::impl::ActivityType;

StepTrace::StepTrace(const char* file_env, const char* range_env) {
    const char* path = std::getenv(file_env);
    m_path = path ? path : "";
    long long from = 0, to = 0;
    if (const char* steps = std::getenv(range_env);
        steps && std::sscanf(steps, "%lld-%lld", &from, &to) == 2 && from >= 0 && to >= from) {
        m_from = from;
        m_to = to;
    }
}

StepTrace::~StepTrace() {
    try {
        finish();
    } catch (const std::exception&) {  // a trace is a diagnostic: never a reason to fail
    }
}

std::string StepTrace::before_step(int64_t step) {
    if (m_path.empty())
        return {};
    if (step == m_from && !m_on) {
        std::set<ActivityType> activities{ActivityType::CPU};
        if (torch::cuda::is_available())
            activities.insert(ActivityType::CUDA);
        const torch::profiler::impl::ProfilerConfig config(torch::profiler::impl::ProfilerState::KINETO);
        try {
            prof::prepareProfiler(config, activities);
            prof::enableProfiler(config, activities);
        } catch (const std::exception& e) {  // another trace runs on this thread, say
            m_path.clear();
            return std::string("could not trace: ") + e.what();
        }
        m_on = true;
        return {};
    }
    return step == m_to + 1 ? finish() : std::string();
}

std::string StepTrace::finish() {
    if (!m_on)
        return {};
    m_on = false;
    if (torch::cuda::is_available())
        torch::cuda::synchronize();
    const auto result = prof::disableProfiler();
    try {
        result->save(m_path);
    } catch (const std::exception&) {  // libtorch without Kineto (Debian's 1.13) records but cannot save
        return "could not write the trace " + m_path +
               ": this libtorch's profiler has no Kineto (Debian's libtorch has none; a build against "
               "the torch wheel traces)";
    }
    return "traced steps " + std::to_string(m_from) + " to " + std::to_string(m_to) + " into " + m_path;
}

}  // namespace twb::nn
