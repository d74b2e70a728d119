#include "ui/jobs/JobContext.h"

#include "ui/jobs/Job.h"
#include "ui/jobs/JobState.h"

JobContext::JobContext(Job* job, std::shared_ptr<JobState> state) : m_job(job), m_state(std::move(state)) {}

bool JobContext::cancelled() const {
    return m_state->cancel.load();
}

void JobContext::setProgress(double fraction, const QString& text) {
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->fraction = fraction;
        m_state->text = text;
    }
    // One update in flight at a time: the UI thread reads the newest figures when it gets there.
    if (!m_state->progressPosted.exchange(true))
        QMetaObject::invokeMethod(m_job, &Job::takeProgress, Qt::QueuedConnection);
}

std::function<bool(const std::string&, uint64_t, uint64_t)> JobContext::stageProgress() {
    return [this](const std::string& stage, uint64_t done, uint64_t total) {
        setProgress(total ? static_cast<double>(done) / static_cast<double>(total) : -1.0,
                    QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size())));
        return !cancelled();
    };
}
