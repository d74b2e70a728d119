// A sortable table of runs (twb::RunSummary from twb::collect_runs): name, dataset, model size,
// parameters, steps, best validation loss, bits per character, date and status, plus optional extra
// columns for config keys that vary; or, in the sweep-results layout, the cell, the swept keys and the
// figures a sweep compares. Used by the Runs view and the Experiments panel's sweep results.
// Remembers its column widths (by column, so columns may come and go) and sort order under a QSettings key
// when given one; keeps the selection (by run folder) across setRuns(). It only shows runs: reading and
// changing them is the caller's.
#pragma once
#include "twb/experiments.h"
#include "ui/widgets/RunsTableModel.h"

#include <QString>
#include <QStringList>
#include <QTableView>
#include <vector>

class QSortFilterProxyModel;

class RunsTable : public QTableView {
    Q_OBJECT
public:
    explicit RunsTable(QWidget* parent = nullptr);
    ~RunsTable() override;

    /// Replaces the rows, keeping the selected runs selected and the sort order.
    void setRuns(std::vector<twb::RunSummary> runs);
    const std::vector<twb::RunSummary>& runs() const;
    /// Config keys shown as extra columns after the fixed ones (twb::varied_keys gives a sweep's).
    void setExtraColumns(const QStringList& configKeys);
    /// The Runs view's columns (the default) or a sweep's results (sorted by cell until a header is clicked).
    void setColumnLayout(RunsTableModel::Layout layout);
    /// The folder of the run shown in view row `row` ("" when none).
    QString runAt(int row) const;
    /// Remembers column widths and the sort order under this QSettings group ("runsView/table").
    void setSettingsKey(const QString& key);

    /// The selected runs' folders, in the table's order.
    QStringList selectedRuns() const;
    /// The current run's folder ("" when none).
    QString currentRun() const;
    /// The summary of a run folder shown in the table, or nullptr.
    const twb::RunSummary* summary(const QString& dir) const;
    /// Makes this run current and selected; false when it is not in the table.
    bool selectRun(const QString& dir);
    /// The view row of a run folder, or -1 (also when the filter hides it).
    int rowOf(const QString& dir) const;
    /// Shows only the runs whose name, folder, dataset, notes or status hold every word of `text`, in any
    /// case and order ("" shows every run).
    void setFilterText(const QString& text);
    /// How many runs the filter lets through (all of them without one).
    int shownRuns() const;

    RunsTableModel* tableModel() const { return m_model; }

signals:
    /// Double click or Enter on a run.
    void runActivated(const QString& dir);
    /// The selection changed (selectedRuns() tells which).
    void selectedRunsChanged();

protected:
    void keyPressEvent(QKeyEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void saveLayout();
    void restoreLayout();
    /// The widths without remembered ones: room for each column's figures and never less than its title.
    void setDefaultWidths();
    /// Any column narrower than its title (widths remembered at a smaller text size) made as wide as it.
    void widenToTitles();
    /// The steps, the model's size and the date as wide as their longest figure; the name and the dataset too,
    /// up to a bound (the rows' text, at the text size in force).
    void keepFiguresWhole();
    /// Hides the Best BLEU column unless a listed run has a BLEU.
    void hideBleuWithoutTranslation();

    RunsTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QString m_settingsKey;
    bool m_restoring = false;
    bool m_sized = false;       // columns fitted to the first rows (when no widths are remembered)
    bool m_remembered = false;  // the widths came from the settings
};
