// The table model behind RunsTable: one row per twb::RunSummary (from twb::collect_runs), fixed
// columns for what every run has (name, dataset, model size, steps, losses, date, status) and optional
// extra columns for config keys (what a sweep varied). Display text in Qt::DisplayRole; a sort key in
// Qt::UserRole (numbers as numbers, a missing figure sorting last). It reads no files itself.
#pragma once
#include "twb/experiments.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <vector>

class RunsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Dataset, Model, Parameters, Steps, BestValLoss, BitsPerChar, Created, Status, FirstExtra };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int DirRole = Qt::UserRole + 1;  // the run folder, in every column

    explicit RunsTableModel(QObject* parent = nullptr);
    void setRuns(std::vector<twb::RunSummary> runs);
    const std::vector<twb::RunSummary>& runs() const { return m_runs; }
    /// Config keys shown after the fixed columns, with their values as text.
    void setExtraColumns(const QStringList& configKeys);
    QStringList extraColumns() const { return m_extra; }
    /// The row of a run folder, or -1.
    int rowOf(const QString& dir) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    /// "4×4×128": layers × heads × width, from a run's config.
    static QString modelShape(const twb::RunSummary& r);
    /// "1.2 M" parameters.
    static QString parameterText(int64_t n);

private:
    std::vector<twb::RunSummary> m_runs;
    QStringList m_extra;
};
