// The one way the UI runs background work: a callable runs on the service's thread pool, reports progress
// and polls a cancel flag through a JobContext, and hands its result (or its error) back on the UI thread.
// MainWindow owns one and hands it to the panels; a panel made without one (tests) makes its own. The
// service lists the running jobs (the status bar shows them with Cancel) and reports the errors nobody
// else shows. An exception from the work never escapes its thread: it becomes the job's failed().
// Work that keeps its own thread (training, with pause and stop) is tracked here instead: track().
// On destruction the service cancels every job and waits for the work to return.
#pragma once
#include "ui/jobs/Job.h"
#include "ui/jobs/JobContext.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <functional>
#include <optional>
#include <type_traits>

class JobsService : public QObject {
    Q_OBJECT
public:
    explicit JobsService(QObject* parent = nullptr);
    ~JobsService() override;

    /// Runs work(JobContext&) off the UI thread. On success done(result) runs on the UI thread (with
    /// receiver as its context: nothing is called once the receiver is gone); on an error or a cancel,
    /// failed(message), or without one the service's unhandledError. An empty title makes a quiet job
    /// (not listed in the status bar). Returns the job, to cancel it or to show its progress.
    template <class Work, class Done>
    Job* run(const QString& title, Work work, QObject* receiver, Done done,
             std::function<void(const QString&)> failed = {}) {
        using R = std::invoke_result_t<Work&, JobContext&>;
        if constexpr (std::is_void_v<R>) {
            Job* job = start(title, std::function<void(JobContext&)>(std::move(work)));
            connect(job, &Job::succeeded, receiver, std::move(done));
            attachFailed(job, receiver, std::move(failed));
            return job;
        } else {
            auto result = std::make_shared<std::optional<R>>();
            Job* job =
                start(title, [work = std::move(work), result](JobContext& ctx) mutable { result->emplace(work(ctx)); });
            connect(job, &Job::succeeded, receiver,
                    [done = std::move(done), result]() mutable { done(std::move(**result)); });
            attachFailed(job, receiver, std::move(failed));
            return job;
        }
    }

    /// A job whose work runs elsewhere: its owner reports progress and the end through the Job, shows
    /// its errors itself, and calls abandon() when it goes away first; Cancel calls onCancel.
    Job* track(const QString& title, std::function<void()> onCancel);

    /// The jobs running now, oldest first.
    QList<Job*> running() const;

signals:
    /// A job started, reported progress or ended: the list to show has changed.
    void changed();
    /// A job failed and nobody took its error.
    void unhandledError(const QString& title, const QString& error);

private:
    Job* start(const QString& title, std::function<void(JobContext&)> body);
    void adopt(Job* job);
    void attachFailed(Job* job, QObject* receiver, std::function<void(const QString&)> failed);

    QThreadPool m_pool;
    QList<QPointer<Job>> m_jobs;
};

/// Whether a job held in a QPointer is still running (false when none or when it has ended).
inline bool isRunning(const QPointer<Job>& job) {
    return job && job->isRunning();
}
