// The table model behind RunsTable: one row per twb::RunSummary (from twb::collect_runs), a column per
// figure a run has (name, dataset, model size, steps, losses, accuracy, speed, date, status) and extra
// columns for config keys (what a sweep varied). Two layouts: the Runs view's (every run of a workspace:
// fixed columns, then the extras) and a sweep's results (the cell, the swept keys, then the figures a
// sweep compares). Display text in Qt::DisplayRole; a sort key in Qt::UserRole (numbers as numbers, a
// missing figure sorting last). It reads no files itself.
#pragma once
#include "twb/experiments.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <vector>

class RunsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// The figures a column can show. In the Runs layout the first ten are also the column indices.
    enum Column {
        Name,
        Dataset,
        Model,
        Parameters,
        Steps,
        BestValLoss,
        BitsPerChar,
        BestBleu,  // translation runs' best validation BLEU (hidden by RunsTable where no run has one)
        Created,
        Status,
        FinalValLoss,
        Accuracy,
        Perplexity,
        TokensPerSecond,
        WallTime,
        Extra  // a config key of extraColumns()
    };
    Q_ENUM(Column)
    enum class Layout { Runs, SweepResults };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int DirRole = Qt::UserRole + 1;  // the run folder, in every column
    // What the Runs view's filter looks in, in every column: the name, the folder's name, the dataset, the
    // notes and the status, a line each.
    static constexpr int SearchRole = Qt::UserRole + 2;

    explicit RunsTableModel(QObject* parent = nullptr);
    void setRuns(std::vector<twb::RunSummary> runs);
    const std::vector<twb::RunSummary>& runs() const { return m_runs; }
    /// Runs: the fixed columns, then the extras. SweepResults: the name, the extras, then parameters,
    /// final and best validation loss, accuracy, perplexity, bits per character, best BLEU, tokens/s, time,
    /// status.
    void setLayout(Layout layout);
    Layout layout() const { return m_layout; }
    /// The view column of a figure (the first for Extra), -1 when the layout has none.
    int columnOf(Column c) const;
    /// What view column `col` shows, and for Extra which key (an index into extraColumns()).
    Column columnAt(int col, int* extra = nullptr) const;
    /// What view column `col` shows, as a name that stays when columns come and go: the figure's ("BestValLoss")
    /// or "key:" and the config key ("key:learning_rate").
    QString columnId(int col) const;
    /// The view column of a columnId(), -1 when the layout has none.
    int columnOfId(const QString& id) const;
    /// Config keys shown as extra columns, with their values as text.
    void setExtraColumns(const QStringList& configKeys);
    QStringList extraColumns() const { return m_extra; }
    /// The row of a run folder, or -1.
    int rowOf(const QString& dir) const;
    /// The run's name and notes as just saved to its run.json (an empty name: known by its folder), shown
    /// at once: the panel read them back from the listing before the next refresh.
    void setDetails(const QString& dir, const QString& name, const QString& notes);
    /// The run this window's training has paused (empty: none): its status reads "paused", not "running".
    void setPausedRun(const QString& dir);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    /// "4×4×128": layers × heads × width, from a run's config.
    static QString modelShape(const twb::RunSummary& r);
    /// "1.2 M" parameters.
    static QString parameterText(int64_t n);
    /// A sweep cell's number from its run folder name ("003" of "003_n_head=4_n_embd=128"); empty for a
    /// folder of another name.
    static QString cellNumber(const twb::RunSummary& r);
    /// A sweep cell as its curve's legend names it: its number and the swept keys' values ("003: 4, 128"),
    /// the folder's name for a run that is not a cell.
    static QString cellLabel(const twb::RunSummary& r, const QStringList& swept);

private:
    /// A figure of the last evaluation of a run that has not finished: shown in italics, said so on hover.
    bool soFar(const twb::RunSummary& r, Column col) const;
    void rebuildColumns();
    QVariant displayText(const twb::RunSummary& r, Column c, int extra) const;
    QVariant sortKey(const twb::RunSummary& r, Column c, int extra) const;
    /// Beside the best loss (the Runs list) the best evaluation's bits per character, beside the final loss
    /// (a sweep's results) the last one's.
    double bitsPerChar(const twb::RunSummary& r) const {
        return m_layout == Layout::Runs ? r.best_bits_per_char : r.bits_per_char;
    }

    std::vector<twb::RunSummary> m_runs;
    QString m_pausedRun;
    QStringList m_extra;
    Layout m_layout = Layout::Runs;
    std::vector<std::pair<Column, int>> m_columns;  // per view column: figure, extra key index
};
