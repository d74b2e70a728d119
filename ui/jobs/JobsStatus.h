// The status bar's view of the jobs service: the newest running job's title, text and progress with a
// Cancel button, and how many others run beside it. Hidden while no job (other than quiet ones) runs.
#pragma once
#include <QPointer>
#include <QWidget>

class Job;
class JobsService;
class QLabel;
class QProgressBar;
class QToolButton;

class JobsStatus : public QWidget {
    Q_OBJECT
public:
    explicit JobsStatus(JobsService* jobs, QWidget* parent = nullptr);
    /// The job shown (the newest one listed), or none.
    Job* shownJob() const { return m_shown; }

private:
    void update();

    JobsService* m_jobs;
    QPointer<Job> m_shown;
    QLabel* m_label;
    QProgressBar* m_bar;
    QToolButton* m_cancel;
};
