// A trace of a few steps for chrome://tracing or Perfetto (ui.perfetto.dev): libtorch's profiler
// (Kineto) records the operators on the host and, on a GPU, every kernel with its duration. Asked for in
// the environment, for looking into speed: TWB_TRACE=FILE.json traces training steps 50 to 54
// (TWB_TRACE_STEPS=FROM-TO others), TWB_TRACE_DECODE=FILE.json the decoding of tokens 50 to 54 of a
// generation (TWB_TRACE_TOKENS=FROM-TO). bench/trace_summary.py sums a trace's kernels. With
// TWB_CUDA_GRAPHS=0 each kernel is launched on its own, as a profile of launches wants.
#pragma once
#include <cstdint>
#include <string>

namespace twb::nn {

class StepTrace {
public:
    /// Reads the file from the environment variable `file_env` and the range from `range_env`; traces
    /// nothing when the first is unset or empty.
    StepTrace(const char* file_env, const char* range_env);
    ~StepTrace();
    StepTrace(const StepTrace&) = delete;
    StepTrace& operator=(const StepTrace&) = delete;

    /// Called before each training step: starts the trace at the first step asked for, and writes it
    /// after the last (so at its next call). Returns a line to tell the user when it wrote the file,
    /// else empty.
    std::string before_step(int64_t step);
    /// Writes what was traced when the run ends inside the range (the destructor does too); returns the
    /// line as before_step.
    std::string finish();

private:
    std::string m_path;
    int64_t m_from = 50, m_to = 54;
    bool m_on = false;
};

}  // namespace twb::nn
