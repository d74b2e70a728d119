// The work's side of a job (JobsService::run): it polls cancelled() and reports progress. Thread-safe;
// progress reported faster than the UI thread takes it is coalesced, so the work may report every step.
// It does not end the job: returning does, and so does throwing (twb::Cancelled when it stopped on
// request, any std::exception when it failed).
#pragma once
#include <QString>
#include <functional>
#include <memory>
#include <string>

struct JobState;
class Job;

class JobContext {
public:
    JobContext(Job* job, std::shared_ptr<JobState> state);
    bool cancelled() const;
    /// fraction in 0..1, or below 0 when the work cannot say how far it is.
    void setProgress(double fraction, const QString& text);
    /// The engine's progress callback (PrepareProgressFn and the like): reports the stage and done/total,
    /// answers false once the job is cancelled.
    std::function<bool(const std::string& stage, uint64_t done, uint64_t total)> stageProgress();

private:
    Job* m_job;  // only to post the update to; lives until the work has returned
    std::shared_ptr<JobState> m_state;
};
