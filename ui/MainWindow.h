// The main window composes the panels (Datasets, Training, Attention, Sampling, Experiments, Runs), menus,
// shortcuts and the status bar with the running jobs and device, threads, precision and BLAS. It wires signals and
// remembers layout; no tensors, no parsing, no training logic live here. It owns the jobs service every panel runs
// its background work on, and the one model thread the Attention and Sampling panels share, so a checkpoint both
// show is loaded once.
#pragma once
#include <QDeadlineTimer>
#include <QMainWindow>
#include <QPointer>
#include <memory>

class QListWidget;
class QStackedWidget;
class QMenu;
class QLabel;
class TrainingPanel;
class SamplingPanel;
class AttentionPanel;
class DatasetsPanel;
class RunsPanel;
class ExperimentsPanel;
class ModelThread;
class JobsService;
class JobsStatus;
class RuntimeLabel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
    TrainingPanel* trainingPanel() const { return m_training; }
    SamplingPanel* samplingPanel() const { return m_sampling; }
    AttentionPanel* attentionPanel() const { return m_attention; }
    DatasetsPanel* datasetsPanel() const { return m_datasets; }
    RunsPanel* runsPanel() const { return m_runs; }
    ExperimentsPanel* experimentsPanel() const { return m_experiments; }
    /// The background jobs of every panel (the status bar lists them).
    JobsService* jobs() const { return m_jobs; }
    /// Shows the panel with this name ("Datasets", "Training", "Attention", "Sampling", "Experiments", "Runs",
    /// in any case); false for a name that is none of them.
    bool showPanel(const QString& name);
    /// The command line that starts the program again where it is now: the run open in Training and the
    /// panel shown (View → Language's restart came back on the run it had been started with).
    QStringList restartArguments() const;
    /// Keyboard focus to the shown panel's focus proxy (where typing starts) or first control (Alt+1..6
    /// left it on the side bar, where the panel's own keys did nothing).
    void focusPanel();
    /// The workspace folder changed (File → Set workspace folder): every panel's lists follow it (Runs,
    /// Datasets and the Training form's datasets; the sweep folder Experiments proposes).
    void workspaceChanged();
    /// Where the window opens on a screen whose free area is `available`: the preferred 1400x860 or less,
    /// never past the screen's edges, centred.
    static QRect initialGeometry(const QRect& available);

protected:
    void closeEvent(QCloseEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void buildPanels();
    /// The side bar (navigation and the help hint) beside the panels.
    void buildCentral();
    /// The running jobs and the runtime facts (measured off the UI thread).
    void buildStatusBar();
    void wirePanels();
    /// "run name — Transformer Workbench" for the Training panel's run, the program's name alone without one.
    void updateTitle(const QString& run);
    /// The saved geometry and panel, within the screen.
    void restoreLayout();
    /// Opens the last run used again; one stopped before its last step is offered for resuming.
    void restoreLastRun();
    /// The panels' tab bars show every tab, eliding titles rather than scrolling.
    void fitTabBars();
    // MainWindowMenus.cpp
    void buildMenus();
    void rebuildRecent();
    void fitNavigation();
    void buildTextSizeActions(QMenu* view);
    void buildLanguageMenu(QMenu* menu);
    void openRunDialog();
    void initFromDialog();
    void exportPlots();
    void exportModelDialog();
    void importModelDialog();
    // MainWindowDialogs.cpp
    void compareDialog();
    void about();
    void shortcutsHelp();
    /// The shortcut table's rows (HTML): the menus' keys, or else every panel's (actions outside the menus,
    /// QShortcuts, buttons' keys), each "key: where → what".
    QStringList shortcutRows(bool menus) const;
    void gettingStarted();

    void showStatus(const QString& text);
    /// Clears the status bar's message when it is still `text` (an error its panel no longer shows).
    void withdrawStatus(const QString& text);
    /// The message shown cut to the bar's room for it; shown anew (for the rest of its time) only when
    /// that cut changed, or always.
    void fitStatus(bool always);
    void wireRunsPanel();
    /// The other panels' run lists after a run appeared, was renamed or was deleted.
    void runsChanged();

    JobsService* m_jobs = nullptr;         // a child: the panels, deleted first, run their work on it
    std::unique_ptr<ModelThread> m_model;  // shared by the Attention and Sampling panels
    QListWidget* m_nav = nullptr;
    QStackedWidget* m_stack = nullptr;
    TrainingPanel* m_training = nullptr;
    SamplingPanel* m_sampling = nullptr;
    AttentionPanel* m_attention = nullptr;
    DatasetsPanel* m_datasets = nullptr;
    RunsPanel* m_runs = nullptr;
    ExperimentsPanel* m_experiments = nullptr;
    QMenu* m_recent = nullptr;
    RuntimeLabel* m_runtime = nullptr;
    JobsStatus* m_jobsStatus = nullptr;  // the running jobs, left of the runtime facts
    QString m_doctorText;
    QString m_statusText;            // the status message shown (whole), cut again when the jobs' room changes
    QDeadlineTimer m_statusExpiry;   // when it goes
    QPointer<QObject> m_statusFrom;  // the panel that said it: opening another panel takes the message away
};
