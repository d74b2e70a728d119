// "Find learning rate…": the range finder (twb::find_learning_rate) on a fresh model of the form's
// config — nothing of the open run is read or written. Bounds and steps, Start/Cancel with progress,
// the smoothed loss against the learning rate on a log axis with both suggestions marked (the lowest
// loss / 10 and the steepest fall), and "Use this rate", which hands the chosen rate to the form. Runs
// on the ExperimentWorker it is given (its own thread); the dialog only shows. A search is listed in the
// jobs service it is given (the status bar), whose Cancel cancels it as the dialog's own does.
#pragma once
#include "twb/experiments.h"
#include "ui/jobs/Job.h"
#include "ui/workers/ExperimentWorker.h"

#include <QDialog>
#include <QPointer>
#include <atomic>
#include <memory>

class JobsService;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QVBoxLayout;

class LrFindDialog : public QDialog {
    Q_OBJECT
public:
    LrFindDialog(ExperimentWorker* worker, JobsService* jobs, const twb::RunConfig& config, QWidget* parent = nullptr);
    ~LrFindDialog() override;
    void setSteps(int steps);
    void setBounds(double lo, double hi);
    bool isRunning() const { return m_running; }
    const twb::LrFindResult& result() const { return m_result; }
    /// The suggestion the radio buttons choose (0 before a result).
    double chosenRate() const;
    QCustomPlot* plot() const { return m_plot; }
    /// Whether a mark's label (`width` px) goes left of its line at pixel `x`, in a plot from `left` to `right`:
    /// where on the right it would run past the edge, or lie across the other mark's line at `other` while the
    /// left side has room and is clear of it.
    static bool labelGoesLeft(double x, double width, double other, double left, double right);

public slots:
    void start();
    void cancel();
    /// Emits rateChosen(chosenRate()) and closes.
    void useRate();

signals:
    void findRequested(const LrFindRequest& request);
    void rateChosen(double lr);

private:
    void addBoundsAndPlot(QVBoxLayout* v);
    QPushButton* addChoiceAndButtons(QVBoxLayout* v);
    void connectButtons(QPushButton* close);
    void connectWorker(ExperimentWorker* worker);
    void showResult();

    twb::RunConfig m_config;
    twb::LrFindResult m_result;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
    JobsService* m_jobs;
    QPointer<Job> m_job;  // the running search, as the jobs service lists it
    QDoubleSpinBox *m_lo = nullptr, *m_hi = nullptr;
    QSpinBox* m_steps = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QCustomPlot* m_plot = nullptr;
    QRadioButton *m_minRule = nullptr, *m_steepest = nullptr;
    QPushButton *m_start = nullptr, *m_cancelButton = nullptr, *m_use = nullptr;
};
