#include "ui/jobs/Job.h"

#include "ui/jobs/JobState.h"

Job::Job(const QString& title, std::shared_ptr<JobState> state, QObject* parent)
    : QObject(parent), m_title(title), m_state(std::move(state)) {}

Job::~Job() = default;

void Job::setCancellable(bool cancellable) {
    m_cancellable = cancellable;
    emit progressed(m_fraction, m_text);  // the status bar shows or hides its Cancel
}

void Job::abandon() {
    if (isRunning())
        fail(tr("the window closed"), true);
}

void Job::cancel() {
    if (!isRunning() || !m_cancellable)
        return;
    m_state->cancel = true;
    if (m_onCancel)
        m_onCancel();
}

void Job::takeProgress() {
    double f;
    QString t;
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->progressPosted = false;
        f = m_state->fraction;
        t = m_state->text;
    }
    setProgress(f, t);
}

void Job::setProgress(double fraction, const QString& text) {
    if (!isRunning())
        return;
    m_fraction = fraction;
    m_text = text;
    emit progressed(fraction, text);
}

void Job::succeed() {
    if (!isRunning())
        return;
    end(Outcome::Succeeded);
    emit ended();
    emit succeeded();
}

void Job::fail(const QString& error, bool cancelled) {
    if (!isRunning())
        return;
    end(cancelled ? Outcome::Cancelled : Outcome::Failed);
    QString text = error;
    if (cancelled && !m_cancelText.isEmpty())
        text = m_cancelText;
    else if (cancelled && text.isEmpty())
        text = tr("%1 cancelled").arg(m_title.isEmpty() ? tr("the job") : m_title);
    emit ended();
    emit failed(text);
}

void Job::end(Outcome outcome) {
    m_outcome = outcome;
    m_onCancel = nullptr;
}
