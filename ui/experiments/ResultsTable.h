// The sweep's results table: one row per cell run (twb::RunSummary from collect_runs), a column for
// every config key that varies between them, then parameters, final and best validation loss,
// accuracy, perplexity, bits per character, tokens/s, time and status. Sortable by any column
// (numbers sort as numbers). A double click opens the run in the Training panel; the context menu opens
// it in Training, Attention or Sampling, or removes the cell. The shared widgets/RunsTable (branch gui)
// is not used yet: it needs RunSummary fields from that branch's engine commit (display_name, notes,
// created) and lacks the final loss, accuracy, perplexity, tokens/s and time columns a sweep's table
// shows; swap this for it once it has them.
#pragma once
#include "twb/experiments.h"

#include <QTableWidget>

class ResultsTable : public QTableWidget {
    Q_OBJECT
public:
    explicit ResultsTable(QWidget* parent = nullptr);
    void setRuns(const std::vector<twb::RunSummary>& runs);
    const std::vector<twb::RunSummary>& runs() const { return m_runs; }
    /// The run folder of a table row (as sorted now).
    QString runDir(int row) const;

signals:
    /// panel: "Training", "Attention" or "Sampling".
    void openRequested(const QString& runDir, const QString& panel);
    void removeRequested(const QString& runDir);

private:
    std::vector<twb::RunSummary> m_runs;
};
