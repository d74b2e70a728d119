// One background job as the UI thread sees it: its title, the latest progress, Cancel, and how it ended.
// JobsService makes it; it lives on the UI thread and is deleted (later) once it has ended, so keep it in a
// QPointer. Its signals come on the UI thread. A job the service did not start itself (training, which keeps
// its own thread for pause and stop) is "tracked": its owner reports progress and the end, and Cancel calls
// the owner's stop.
#pragma once
#include <QObject>
#include <QString>
#include <functional>
#include <memory>

struct JobState;

class Job : public QObject {
    Q_OBJECT
public:
    enum class Outcome { Running, Succeeded, Failed, Cancelled };
    Job(const QString& title, std::shared_ptr<JobState> state, QObject* parent = nullptr);
    ~Job() override;

    QString title() const { return m_title; }
    bool isRunning() const { return m_outcome == Outcome::Running; }
    Outcome outcome() const { return m_outcome; }
    /// The latest progress: 0..1, or below 0 when unknown; and its text.
    double fraction() const { return m_fraction; }
    QString text() const { return m_text; }
    /// Quiet jobs (previews, listings) are not shown in the status bar.
    bool isQuiet() const { return m_title.isEmpty(); }
    /// The message failed() carries when the job stopped on request (default "TITLE cancelled").
    void setCancelText(const QString& text) { m_cancelText = text; }
    /// Work that cannot stop part-way (an engine call without a cancel, such as an export) is not
    /// cancellable: the status bar offers no Cancel for it and cancel() does nothing.
    void setCancellable(bool cancellable);
    bool isCancellable() const { return m_cancellable; }
    /// Long work that one click should not end (training, a sweep): the status bar's Cancel asks this
    /// question first. Empty (the default): it cancels at once.
    void setCancelQuestion(const QString& question) { m_cancelQuestion = question; }
    QString cancelQuestion() const { return m_cancelQuestion; }
    /// Whether someone shows this job's errors (else the service reports them).
    void setErrorHandled(bool handled) { m_errorHandled = handled; }
    bool errorHandled() const { return m_errorHandled; }

    // A tracked job's owner reports through these.
    void setOnCancel(std::function<void()> fn) { m_onCancel = std::move(fn); }
    void setProgress(double fraction, const QString& text);
    void succeed();
    void fail(const QString& error, bool cancelled = false);
    /// A tracked job's owner is going away while the job runs: it ends as cancelled, and its Cancel can
    /// no longer reach the owner. Called from the owner's destructor, before anything onCancel uses is gone.
    void abandon();

    /// Called on the UI thread by the work's context: shows the newest progress.
    void takeProgress();

public slots:
    /// Asks the work to stop; it ends (failed with the cancel text) when it notices. Nothing for a job
    /// that is not cancellable.
    void cancel();

signals:
    void progressed(double fraction, const QString& text);
    /// The job is over: emitted first, so its owner is idle again before the outcome's handlers run.
    void ended();
    /// Then one of these two.
    void succeeded();
    /// A failure or a cancellation; the text says which.
    void failed(const QString& error);

private:
    void end(Outcome outcome);

    QString m_title;
    std::shared_ptr<JobState> m_state;
    Outcome m_outcome = Outcome::Running;
    double m_fraction = -1;
    QString m_text;
    QString m_cancelQuestion;
    QString m_cancelText;
    bool m_errorHandled = false;
    bool m_cancellable = true;
    std::function<void()> m_onCancel;
};
