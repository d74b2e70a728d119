// The Runs view: every run of the workspace in a RunsTable (name, dataset, model size, steps, best
// validation loss, bits per character, date, status), with the selected run's name and notes to edit,
// and the actions people expect: open, duplicate config, compare selected, delete (asked first,
// refused while a trainer writes the run), export to TensorBoard (RUN/tb/ from metrics.csv, on the jobs
// service: twb/tensorboard.h). The table is read on the jobs service (twb::collect_runs);
// names, notes and deletion go through the engine's run_info.h. Opening, duplicating and comparing are
// the Training panel's: this panel only asks for them through signals.
#pragma once
#include "twb/experiments.h"
#include "ui/widgets/PanelBase.h"

#include <QPointer>
#include <vector>

class Job;
class RunsTable;
class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

class RunsPanel : public PanelBase {
    Q_OBJECT
public:
    explicit RunsPanel(JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~RunsPanel() override;
    RunsTable* table() const { return m_table; }
    /// Whether the sweeps' cells are listed beside the runs (remembered).
    void setShowSweepCells(bool on);
    QLineEdit* nameEdit() const { return m_name; }
    QPlainTextEdit* notesEdit() const { return m_notes; }
    QLineEdit* filterEdit() const { return m_filter; }

    /// Gives a run a name (stored in RUN/run.json); false with the error shown when it cannot.
    bool renameRun(const QString& dir, const QString& name);
    /// Replaces a run's notes.
    bool setNotes(const QString& dir, const QString& notes);
    /// Deletes a run after asking (unless ask is false); refused while it is running.
    bool deleteRun(const QString& dir, bool ask = true);
    /// Says in the panel (not only in the status bar, where the next checkpoint's line covered it at once)
    /// why an action waits for `run`, training in this window, to stop; the message goes when it stops.
    void refuseWhileTraining(const QString& run, const QString& text);
    /// Writes the runs' TensorBoard files (RUN/tb/ from metrics.csv) off the UI thread;
    /// tensorBoardExported() follows, or the error is shown.
    void exportTensorBoard(const QStringList& dirs);

public slots:
    /// Re-reads the workspace's runs in the background; refreshed() follows.
    void refresh();
    /// Saves the name and notes fields into the selected run.
    void saveDetails();
    void deleteSelected();

signals:
    void refreshed();
    void openRequested(const QString& dir);
    void duplicateRequested(const QString& dir);
    void compareRequested(const QStringList& dirs);
    /// A run was renamed, its notes changed, or it was deleted.
    void runEdited(const QString& dir);
    void runDeleted(const QString& dir);
    /// The event files export_tensorboard wrote, one per run.
    void tensorBoardExported(const QStringList& eventFiles);

protected:
    void showEvent(QShowEvent* e) override;
    /// Leaving the panel (or closing the window) keeps a name or notes typed and not yet saved.
    void hideEvent(QHideEvent* e) override;
    /// Writes the name and notes fields into dir's run.json; false (with the reason shown) when it cannot.
    /// (dir by value: the fields' run, m_shownRun, changes under it when the saved name hides its row.)
    bool writeDetails(QString dir);
    /// The name or notes typed for the shown run and not saved yet are written (a refresh, another run
    /// selected or another panel would otherwise drop them).
    void keepTypedDetails();

private:
    /// The table's, the buttons' and the fields' signals and the panel's keys.
    void connectControls();
    /// The listing's result, on the UI thread.
    void showRuns(std::vector<twb::RunSummary> runs);
    void showDetails();
    void updateActions();
    /// The list narrowed to the filter's words; the selection moves to the first run shown when it was hidden.
    void applyFilter();
    /// The workspace's count of runs, and with a filter how many it shows.
    void updateSummary();

    RunsTable* m_table = nullptr;
    QLabel* m_summary = nullptr;
    QString m_listed;  // the summary of the listing: how many runs, cells and running ones
    QLineEdit* m_filter = nullptr;
    QCheckBox* m_cells = nullptr;  // the sweeps' cells listed too, named "sweep / cell"
    QLabel* m_folder = nullptr;
    QLineEdit* m_name = nullptr;
    QPlainTextEdit* m_notes = nullptr;
    QPushButton *m_open, *m_duplicate, *m_compare, *m_delete, *m_saveDetails, *m_tensorBoard;
    QLabel* m_exportNote = nullptr;  // the last TensorBoard export's files and command
    QPointer<Job> m_loader, m_exporter;
    bool m_refreshAgain = false;  // a refresh was asked for while one was running
    int m_rowAfterDelete = -1;    // the row a deleted run had: the run after it is selected there
    QString m_shownRun;           // whose name and notes the fields hold
    QString m_refusedBusy;        // a run whose deletion was refused while it trained (that message goes when it stops)
};
