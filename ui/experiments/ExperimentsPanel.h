// The Experiments panel: a sweep over the Training panel's config. Axes come from the config form's
// fields (AxesEditor); a grid or N random cells; the number of cells and an estimated total time before
// starting; a queue with each cell's state, overall progress and ETA; the results table filling as cells
// finish (ResultsTable) and the cells' validation curves and final loss against a swept parameter
// (SweepPlots). Stop keeps finished cells and the running cell's checkpoint; Resume continues an
// interrupted sweep folder (offered on start-up); a pending cell can be removed from the queue and a
// finished one deleted. "Compare tokenizers" prepares one text under char and BPE tokenizers and sweeps
// the dataset axis. The sweep runs in an ExperimentWorker on its own thread; this panel only turns
// clicks into requests and signals into widgets.
#pragma once
#include "twb/config.h"
#include "ui/jobs/Job.h"
#include "ui/widgets/PanelBase.h"
#include "ui/workers/ExperimentWorker.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QThread>
#include <functional>
#include <map>
#include <memory>

class AxesEditor;
class QAction;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QVBoxLayout;
class ResultsTable;
class SweepPlots;

class ExperimentsPanel : public PanelBase {
    Q_OBJECT
public:
    /// jobs: the main window's service, where a running sweep is listed (the panel makes its own when null).
    explicit ExperimentsPanel(JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~ExperimentsPanel() override;

    /// Where the base config comes from (the main window hands in the Training panel's form and
    /// dataset); without one the panel uses the config set with setBaseConfig.
    void setBaseConfigProvider(std::function<twb::RunConfig()> provider);
    void setBaseConfig(const twb::RunConfig& c);
    twb::RunConfig baseConfig() const;

    AxesEditor* axes() const { return m_axes; }
    ResultsTable* results() const { return m_results; }
    SweepPlots* plots() const { return m_plots; }
    QListWidget* queue() const { return m_queue; }
    QString sweepFolder() const;
    void setSweepFolder(const QString& dir);
    void setRandomSamples(int n);  // 0 = the full grid
    /// The spec the panel would run now; throws twb::ConfigError (a bad axis or cell).
    twb::SweepSpec spec() const;
    /// The number of cells of spec(), or -1 (and the reason) when it is not a valid sweep.
    int cellCount(QString* why = nullptr) const;
    /// Estimated seconds for every cell of spec() at the remembered throughput.
    double estimatedSeconds() const;
    QAction* startAction() const { return m_startAct; }
    QAction* stopAction() const { return m_stopAct; }

public slots:
    void start();
    void stop();
    /// Continues the sweep in dir (its sweep.json is the spec).
    bool resumeSweep(const QString& dir);
    /// Leaves the queue's selected cell out (a pending cell) or deletes its run folder (a finished one).
    void removeSelectedCell();
    /// Re-reads the sweep folder's runs into the table and plots.
    void refreshResults();
    /// A run deleted elsewhere (the Runs panel): a cell of the sweep shown is marked removed and leaves the
    /// table and plots (its row stood there with its figures).
    void runDeleted(const QString& dir);
    /// The workspace moved: the folder field's own proposal moves with it (a folder typed stays).
    void workspaceChanged();
    /// The table's rows only, read in the background: the running cell's figures after each evaluation
    /// (they stayed at its last cell boundary, the row behind its curve).
    void refreshRowsLater();
    /// Prepares inputs under each tokenizer into the workspace's datasets and sweeps data_dir over them.
    void compareTokenizers(const QStringList& inputs, const std::vector<twb::TokenizerSpec>& tokenizers);
    void compareTokenizersDialog();

signals:
    void sweepRequested(const SweepRequest& r);
    void prepareRequested(const PrepareSetRequest& r);
    /// panel: "Training", "Attention" or "Sampling".
    void openRunRequested(const QString& runDir, const QString& panel);
    void sweepFinished(bool complete);
    /// Compare tokenizers prepared these datasets (the other panels' dataset lists take them in).
    void datasetsPrepared(const QStringList& dirs);

protected:
    void busyChanged(bool busy) override;
    /// Estimates again: the Training form (the cells' base) may have changed while the panel was hidden.
    void showEvent(QShowEvent* e) override;

private:
    /// WORKSPACE/sweeps/sweep-<now>.
    static QString timedSweepFolder();
    /// The folder field's own proposal, once a sweep has taken it, gives way to a new one (a folder typed
    /// by the user stays).
    void renewTakenFolder();
    // Building (ExperimentsPanelLayout.cpp).
    QWidget* buildLeft();
    void addQueue(QVBoxLayout* column);
    void connectControls();
    // Following a sweep (ExperimentsPanelProgress.cpp).
    void connectWorker();
    void onCellStarted(int index, int total, const QString& dir, bool resumed);
    void onStep(const twb::StepReport& report);
    void onCellDone(int index, const QString& dir, bool skipped);
    void onSweepFinished(bool complete);
    void onSetPrepared(const QStringList& dirs);
    void onFailed(const QString& error);

    void updateEstimate();
    void fillQueue(const twb::SweepSpec& spec);
    void setCellState(int index, const QString& state);
    void run(const twb::SweepSpec& spec, const QString& dir);
    void removeCellFolder(const QString& runDir);
    void offerInterruptedSweep();
    // ExperimentsPanelEstimate.cpp, with updateEstimate, cellCount and estimatedSeconds
    double cellSeconds(const twb::RunConfig& c) const;
    int vocabOf(const std::string& dataDir) const;

    QThread m_thread;
    ExperimentWorker* m_worker = nullptr;
    std::shared_ptr<twb::TrainControl> m_control;
    std::shared_ptr<SkippedCells> m_skipped;
    QPointer<Job> m_job;       // the running sweep or preparation, as the jobs service lists it
    QPointer<Job> m_rowsJob;   // the table's rows read again after an evaluation, off the UI thread
    bool m_rowsAgain = false;  // another evaluation came while they were read
    QStringList m_swept;       // the sweep's axes, as refreshResults last read them
    std::function<twb::RunConfig()> m_provider;
    twb::RunConfig m_base;
    AxesEditor* m_axes = nullptr;
    QRadioButton *m_grid = nullptr, *m_random = nullptr;
    QSpinBox* m_samples = nullptr;
    QLineEdit* m_folder = nullptr;
    QString m_autoFolder;          // the folder named after the time, renamed at each start while nobody edits it
    QLabel* m_baseNote = nullptr;  // what every cell starts from: the Training panel's dataset and model, named
    QLabel* m_estimate = nullptr;
    QLabel* m_offer = nullptr;
    QString m_offerDir;
    QPushButton *m_start = nullptr, *m_stop = nullptr, *m_resume = nullptr, *m_remove = nullptr;
    QAction *m_startAct = nullptr, *m_stopAct = nullptr;
    QListWidget* m_queue = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    ResultsTable* m_results = nullptr;
    SweepPlots* m_plots = nullptr;
    // the running sweep
    QString m_dir;
    std::vector<twb::RunConfig> m_cellConfigs;
    std::vector<double> m_cellEstimates;  // seconds, at the throughput known when it started
    int m_current = -1;
    QString m_currentDir;
    int64_t m_currentStep = 0;
    double m_currentMsPerStep = 0;
    mutable std::map<std::string, int> m_vocab;  // dataset folder -> vocabulary size
};
