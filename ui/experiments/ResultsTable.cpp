#include "ui/experiments/ResultsTable.h"

#include <QMenu>

ResultsTable::ResultsTable(QWidget* parent) : RunsTable(parent) {
    setObjectName("results");
    setColumnLayout(RunsTableModel::Layout::SweepResults);
    setSettingsKey("experiments/results");
    setSelectionMode(QAbstractItemView::SingleSelection);
    setContextMenuPolicy(Qt::CustomContextMenu);
    setToolTip(tr("Double-click a row to open its run in the Training panel; right-click for more"));
    connect(this, &RunsTable::runActivated, this, [this](const QString& dir) {
        if (!dir.isEmpty())
            emit openRequested(dir, "Training");
    });
    connect(this, &QWidget::customContextMenuRequested, this, [this](const QPoint& p) {
        const QString dir = runAt(rowAt(p.y()));
        if (dir.isEmpty())
            return;
        QMenu menu;
        for (const char* panel : {"Training", "Attention", "Sampling"})
            menu.addAction(tr("Open in %1").arg(tr(panel)), this,
                           [this, dir, panel] { emit openRequested(dir, QString::fromLatin1(panel)); });
        menu.addSeparator();
        menu.addAction(tr("Remove cell (delete its run folder)"), this, [this, dir] { emit removeRequested(dir); });
        menu.exec(viewport()->mapToGlobal(p));
    });
}

void ResultsTable::showRuns(const std::vector<twb::RunSummary>& runs, const QStringList& swept) {
    QStringList keys = swept;
    for (const auto& k : twb::varied_keys(runs))
        if (!keys.contains(QString::fromStdString(k)))
            keys << QString::fromStdString(k);
    setExtraColumns(keys);
    setRuns(runs);
}
