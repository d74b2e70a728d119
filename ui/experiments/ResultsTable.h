// The sweep's results table: the shared RunsTable in its sweep-results layout (one row per cell run,
// a column for every config key that varies between them, then parameters, final and best validation
// loss, accuracy, perplexity, bits per character, tokens/s, time and status; sortable, numbers as
// numbers; widths and sort remembered). A double click opens the run in the Training panel; the context
// menu opens it in Training, Attention or Sampling, or removes the cell.
#pragma once
#include "ui/widgets/RunsTable.h"

class ResultsTable : public RunsTable {
    Q_OBJECT
public:
    explicit ResultsTable(QWidget* parent = nullptr);
    /// Shows the cells' runs, with a column for each swept key (given: the sweep's axes, known before its cells differ)
    /// and each other key whose value differs among them.
    void showRuns(const std::vector<twb::RunSummary>& runs, const QStringList& swept = {});

signals:
    /// panel: "Training", "Attention" or "Sampling".
    void openRequested(const QString& runDir, const QString& panel);
    void removeRequested(const QString& runDir);
};
