// The training panel: dataset chooser, run-config form, Start/Pause/Stop/Checkpoint controls, progress
// with ETA and throughput, and live plots. Training runs in the engine on a TrainWorker living on its
// own QThread, reported to the jobs service as a tracked job (its Cancel stops the run); the Quick start
// prepares its dataset as a job. This panel only turns clicks into requests and signals into widgets.
#pragma once
#include "ui/widgets/PanelBase.h"
#include "ui/workers/ExperimentWorker.h"
#include "ui/workers/TrainWorker.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QThread>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

class ConfigForm;
class Job;
class MetricsPlot;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class EnlargeToggle;
class QCheckBox;
class QSlider;
class QSpinBox;
class QVBoxLayout;
class QAction;
class LrFindDialog;
class SteadyLabel;
namespace twb {
struct MetricsRow;
}

class TrainingPanel : public PanelBase {
    Q_OBJECT
public:
    explicit TrainingPanel(JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~TrainingPanel() override;

    QString currentRun() const { return m_runDir; }
    ConfigForm* form() const { return m_form; }
    MetricsPlot* plot() const { return m_plot; }
    TrainWorker* worker() const { return m_worker; }
    /// Selects a prepared dataset folder (adds it to the list if needed). When the open run was trained on
    /// another dataset, the panel turns to a new run (the old one is kept): a run never continues on
    /// data it was not made for.
    void setDataset(const QString& dir);
    /// Takes a folder the user chose as a dataset: false (with a message naming what it lacks, and a
    /// request to show the Datasets panel) when it is not a prepared dataset.
    bool chooseDatasetFolder(const QString& dir);
    /// Why Start cannot proceed now, in the form's words; empty when it can.
    QString startBlocker() const;
    /// The Run menu's actions; each is enabled only when it can do something.
    QAction* quickStartAction() const { return m_quickAct; }
    QAction* startAction() const { return m_startAct; }
    QAction* pauseAction() const { return m_pauseAct; }
    QAction* stopAction() const { return m_stopAct; }
    QAction* checkpointAction() const { return m_saveAct; }
    QAction* lrFindAction() const { return m_lrFindAct; }
    /// The config a Start would train: the form's values and the chosen dataset.
    twb::RunConfig runConfig() const;
    /// "Show baselines" over the loss plot (uniform, unigram and bigram validation losses).
    QCheckBox* baselinesToggle() const { return m_baselines; }
    ExperimentWorker* experimentWorker() const { return m_expWorker; }
    /// The note under the dataset saying the model kind was set from it (hidden when it was not).
    QLabel* kindNote() const { return m_kindNote; }
    /// The plots' x-axis: steps (false) or epochs (true, encoder-decoder runs).
    QComboBox* xAxisChoice() const { return m_xAxis; }

public slots:
    void newRun();
    /// Loads a run folder's config and curves; false (with a message) when it is not a run.
    bool openRun(const QString& dir);
    /// Prepares the fortunes corpus when needed and trains the tiny preset on it: the first-run path. When
    /// an earlier Quick start's run is still there, offers it (open or resume it, or train another) instead.
    void quickStart();
    /// The Quick start without that offer: a new run even when an earlier one is there.
    void quickStartAgain();
    void start();
    void resumeRun();
    void togglePause();
    void stop();
    void saveCheckpointNow();
    void initialiseFromRun(const QString& dir);
    /// Overlays these runs' validation loss; when their tokenizers differ, in bits per character, saying why.
    void compareWith(const QStringList& runs);
    /// A run deleted (or moved away) is no longer compared: its dashed curve goes.
    void forgetRun(const QString& dir);
    /// A new run with another run's settings and dataset (the Runs view's "Duplicate config").
    void duplicateRun(const QString& dir);
    /// Shows the open run's name again (after the Runs view renamed it).
    void refreshRunName();
    /// Extends the open, finished run by `steps` and continues it. The cosine schedule has already
    /// reached its floor, so the extra steps train at the minimum LR (no jump back up, no loss spike).
    void trainMore(int steps);
    /// Shows a line offering to resume an interrupted run (from the start-up check).
    void offerResume(const QString& dir);
    void refreshDatasets();
    /// Opens the learning-rate range finder on the form's config (non-modal); returns the dialog.
    LrFindDialog* findLearningRate();
    /// Sets the form's learning rate (the range finder's "Use this rate").
    void setLearningRate(double lr);
    /// The plots over the whole panel, the settings column set aside (Enlarge, a double-click on a plot;
    /// Esc returns): at 1280x720 with 175% text the loss plot was 60 px high. Not remembered.
    void setPlotEnlarged(bool on);
    bool plotEnlarged() const;

signals:
    void runChanged(const QString& dir);
    void trainRequested(const TrainRequest& request);
    /// The Quick start prepared its dataset (the Datasets panel lists it).
    void datasetPrepared(const QString& dir);
    /// The user followed the link to the Datasets panel in the note that a folder chosen in Browse is not a
    /// prepared dataset (the panel itself never moves the user there).
    void datasetsPanelRequested();
    /// The open run's training paused (true) or went on or ended (false).
    void pauseChanged(const QString& run, bool paused);

protected:
    void busyChanged(bool busy) override;

private:
    /// " · best val loss 2.1743 at step 500" (or BLEU) of a run's metrics, "" when it has no evaluation after step 0.
    QString bestText(const std::vector<twb::MetricsRow>& rows) const;
    /// " · median 16.9 ms/step · 1 min 12 s of training" of a run's metrics, as the line said when it ended
    /// here; "" without logged steps.
    QString timingText(const std::vector<twb::MetricsRow>& rows) const;
    // Building (TrainingPanelLayout.cpp).
    QWidget* buildLeft();
    void addControls(QVBoxLayout* column);
    void createActions();
    QWidget* buildRight();
    void addPlotOptions(QVBoxLayout* column);
    void addPlot(QVBoxLayout* column);
    void connectBaselines();
    // Following a run (TrainingPanelProgress.cpp).
    void connectWorker();
    void onStarted(const twb::TrainStartInfo& info);
    void onStep(const twb::StepReport& report);
    void onEvaluated(const twb::EvalReport& report);
    /// The "Last evaluation" line (and m_lastEval) for an evaluation, live or read from metrics.csv.
    void showEvaluation(const twb::EvalReport& report);
    void showEvaluationLine(bool saved);
    /// After a failure or on opening: the last evaluation's line says when its checkpoint is not among `steps`.
    void noteUnsavedEvaluation(const std::vector<int64_t>& steps);
    void onFinished(const twb::TrainSummary& summary);
    void onFailed(const QString& error);
    /// The engine waits at `step`: the step a stop now checkpoints (the one under way at Pause is done).
    void onPaused(qint64 step);

    /// Forgets the open run: no run folder, empty plots, an unstarted progress bar.
    void clearRun();
    /// The Quick start's dataset is ready: select it and start.
    void quickStartPrepared(const QString& dir);
    void startJob(bool resume);
    void updateStartEnabled();
    /// The step the open run finished at, when it has trained to the form's max_iters; else -1.
    qint64 finishedAt() const;
    void onDatasetChanged();
    void showIdleStatus();
    void showNewRunStatus();
    QString pausedText() const;
    /// Said at start and finish of a run whose "validation" figures are its training split's.
    QString noValidationNote() const;
    /// " · GPU memory 12.3 / 139.8 GiB" for a step of a CUDA run; "" on the CPU.
    static QString deviceMemoryText(const twb::StepReport& r);
    void forgetUnstartedRun();
    void updateMoreRow();
    /// "name (folder)" for the header, or the folder alone for an unnamed run; HTML.
    QString runLabelText(const QString& dir) const;
    /// The label above the form: the run's folder and its checkpoints ("3 checkpoints, last at step 500");
    /// returns those checkpoints' steps.
    std::vector<int64_t> showRunLabel(const QString& dir);
    /// "3 checkpoints, last at step 800", or "no checkpoint yet": the run label's second line.
    static QString checkpointsLine(const std::vector<int64_t>& steps);
    /// Shows the chosen dataset's baselines on the loss plot when the toggle is on (computed once per
    /// dataset, in the experiment worker).
    void updateBaselines();
    /// The comparison that turned the loss to bits per character is over: the unit shown before it returns.
    void endComparison();

    QThread m_thread;
    QThread m_expThread;  // the range finder and baselines: training's thread is busy while it trains
    ExperimentWorker* m_expWorker = nullptr;
    QAction* m_lrFindAct = nullptr;
    QCheckBox* m_baselines = nullptr;
    std::map<QString, QVector<QPair<QString, double>>> m_baselineCache;     // dataset folder -> lines
    std::map<QString, QVector<QPair<QString, double>>> m_baselineBpcCache;  // the same lines in bits per character
    QString m_baselinesPending;  // the dataset whose baselines are being computed
    TrainWorker* m_worker = nullptr;
    std::shared_ptr<twb::TrainControl> m_control;
    ConfigForm* m_form = nullptr;
    MetricsPlot* m_plot = nullptr;
    QComboBox* m_dataset = nullptr;
    QLabel* m_kindNote = nullptr;
    QLabel* m_datasetError = nullptr;  // why Browse's folder is not a dataset, under the field
    QComboBox* m_xAxis = nullptr;
    /// What the chosen dataset is: -1 unknown (none or unreadable), 0 a token stream, 1 parallel pairs.
    int m_dataParallel = -1;
    QString m_dataPairs;  // "de→en, 29,000 training pairs" for a parallel dataset
    QPushButton *m_quick, *m_start, *m_pause, *m_stop, *m_save;
    QAction *m_quickAct, *m_startAct, *m_pauseAct, *m_stopAct, *m_saveAct;
    QProgressBar* m_progress = nullptr;
    SteadyLabel* m_status = nullptr;  // the step line: never shorter while it counts
    QLabel* m_runLabel = nullptr;
    SteadyLabel* m_evalLabel = nullptr;
    QLabel* m_offer = nullptr;        // "Run X stopped at step N of M. Resume it · Dismiss", or the Quick start's
    bool m_quickStarting = false;     // the run startJob makes next is a Quick start's (remembered for its offer)
    bool m_documentsForChat = false;  // the form's sequences=documents was set for a chat dataset, not by hand
    QString m_offerRun;
    QWidget* m_moreRow = nullptr;            // "Train [500] more steps", for a finished run
    QWidget* m_left = nullptr;               // the settings column: set aside while the plots are enlarged
    EnlargeToggle* m_enlargePlot = nullptr;  // Enlarge / Restore at the end of the plot options, and Esc
    QLabel* m_startWhy = nullptr;  // why Start is off for the open run (only its tooltip said), unless a field says
    QPushButton* m_browseData = nullptr;  // the dataset's Browse…, off with the dataset while training
    QSpinBox* m_moreSteps = nullptr;
    QString m_lastEval;  // the last evaluation: loss, perplexity, bits per character, accuracy
    int64_t m_lastEvalStep = -1;
    bool m_lastEvalBest = false;
    QCheckBox* m_logScale = nullptr;
    QComboBox* m_lossUnit = nullptr;  // nats per token / bits per character
    QLabel* m_compareNote = nullptr;  // why the comparison is in the unit it is in
    int m_unitBeforeCompare = -1;     // the unit a comparison replaced with bits per character; -1 none
    QStringList m_compared;           // the runs compared now
    bool m_comparisonUnit = false;    // the comparison is setting the unit (not the user: not remembered)
    QSlider* m_smooth = nullptr;
    QString m_runDir, m_initFrom;
    QPointer<Job> m_trainJob;       // the running training, as the jobs service lists it
    bool m_openingRun = false;      // openRun selects the run's own dataset: no switch to a new run
    bool m_noDataOfItsOwn = false;  // the open run was imported: no dataset to continue on
    bool m_trainedMore = false;     // the form's Steps were raised by Train more, past the run's decay
    int64_t m_maxIters = 0;
    bool m_bestByBleu = false;    // the running job keeps its best checkpoint by validation BLEU
    bool m_noValidation = false;  // its dataset's validation split is too short: "val" figures are train's
    int64_t m_lastStep = 0;
    double m_parameters = 0;  // of the run training now
    // The passes over the training pairs the run m_epochsRun has made (its last metrics row with an epoch):
    // an encoder-decoder's max_epochs may have finished it before max_iters.
    double m_epochsDone = NAN;
    QString m_epochsRun;
    int64_t m_pausedAt = -1;      // the step the engine waits at; -1 while running or still pausing
    QElapsedTimer m_pausedSince;  // running while paused
    double m_pausedSeconds = 0;   // paused time of this session, left out of "elapsed"
};
