#include "ui/jobs/JobsService.h"

#include "twb/errors.h"
#include "ui/jobs/JobState.h"

#include <QThread>

JobsService::JobsService(QObject* parent) : QObject(parent) {
    // Enough threads that a quick listing is not queued behind a long preparation.
    m_pool.setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
}

JobsService::~JobsService() {
    for (const auto& j : m_jobs)
        if (j)
            j->cancel();
    m_pool.waitForDone();  // the work posts to its Job until it returns: the jobs outlive it
}

Job* JobsService::start(const QString& title, std::function<void(JobContext&)> body) {
    auto state = std::make_shared<JobState>();
    auto* job = new Job(title, state, this);
    adopt(job);
    m_pool.start([job, state, body = std::move(body)] {
        JobContext ctx(job, state);
        // What ended the work, handed to the UI thread; an exception never leaves this thread.
        int how = 0;  // 0 done, 1 failed, 2 cancelled
        QString error;
        try {
            body(ctx);
        } catch (const twb::Cancelled& e) {
            how = 2;
            error = QString::fromUtf8(e.what());
        } catch (const std::exception& e) {
            how = 1;
            error = QString::fromUtf8(e.what());
        } catch (...) {
            how = 1;
            error = QObject::tr("failed with an unknown error");
        }
        if (how == 0 && state->cancel)
            how = 2;  // stopped on request without saying so: nothing it returned is used
        QMetaObject::invokeMethod(
            job,
            [job, how, error] {
                if (how == 0)
                    job->succeed();
                else
                    job->fail(error, how == 2);
            },
            Qt::QueuedConnection);
    });
    return job;
}

Job* JobsService::track(const QString& title, std::function<void()> onCancel) {
    auto* job = new Job(title, std::make_shared<JobState>(), this);
    job->setOnCancel(std::move(onCancel));
    job->setErrorHandled(true);  // the owner shows them
    adopt(job);
    return job;
}

void JobsService::adopt(Job* job) {
    m_jobs << job;
    connect(job, &Job::progressed, this, &JobsService::changed);
    connect(job, &Job::failed, this, [this, job](const QString& error) {
        if (!job->errorHandled() && job->outcome() == Job::Outcome::Failed)
            emit unhandledError(job->title(), error);
    });
    connect(job, &Job::ended, this, [this, job] {
        m_jobs.removeAll(job);
        job->deleteLater();
        emit changed();
    });
    emit changed();
}

void JobsService::attachFailed(Job* job, QObject* receiver, std::function<void(const QString&)> failed) {
    if (!failed)
        return;
    job->setErrorHandled(true);
    connect(job, &Job::failed, receiver, std::move(failed));
}

QList<Job*> JobsService::running() const {
    QList<Job*> out;
    for (const auto& j : m_jobs)
        if (j && j->isRunning())
            out << j;
    return out;
}
