// Engine tests: a training job run through the public entry point (twb::train) with every step and
// evaluation report collected, optionally resumed or stopped after a given step.
#pragma once
#include "twb/training.h"

#include <cstdint>
#include <filesystem>
#include <vector>

namespace twbtest {

struct TrainOutcome {
    std::vector<twb::StepReport> steps;
    std::vector<twb::EvalReport> evals;
    twb::TrainSummary summary;
};

/// Trains c into dir (resume: from its last checkpoint); on_step stops the run after step stop_at (-1 = never).
inline TrainOutcome run_training(const twb::RunConfig& c, const std::filesystem::path& dir, bool resume = false,
                                 int64_t stop_at = -1) {
    TrainOutcome o;
    twb::TrainJob job;
    job.config = c;
    job.run_dir = dir.string();
    job.resume = resume;
    twb::TrainCallbacks cb;
    cb.on_step = [&](const twb::StepReport& s) {
        o.steps.push_back(s);
        return s.step != stop_at;
    };
    cb.on_eval = [&](const twb::EvalReport& e) { o.evals.push_back(e); };
    o.summary = twb::train(job, cb);
    return o;
}

}  // namespace twbtest
