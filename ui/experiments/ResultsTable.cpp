#include "ui/experiments/ResultsTable.h"

#include <QHeaderView>
#include <QMenu>
#include <cmath>

namespace {
/// A cell that sorts by its number and shows it with `decimals` (empty when NaN).
QTableWidgetItem* number(double v, int decimals) {
    auto* it = new QTableWidgetItem;
    if (std::isfinite(v)) {
        it->setData(Qt::EditRole, v);
        it->setText(QString::number(v, 'f', decimals));
    }
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}
}  // namespace

ResultsTable::ResultsTable(QWidget* parent) : QTableWidget(parent) {
    setObjectName("results");
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setSortingEnabled(true);
    horizontalHeader()->setSortIndicator(0, Qt::AscendingOrder);  // the cells' order until a header is clicked
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setContextMenuPolicy(Qt::CustomContextMenu);
    setToolTip(tr("Double-click a row to open its run in the Training panel; right-click for more"));
    connect(this, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (!runDir(row).isEmpty())
            emit openRequested(runDir(row), "Training");
    });
    connect(this, &QWidget::customContextMenuRequested, this, [this](const QPoint& p) {
        const QString dir = runDir(rowAt(p.y()));
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

QString ResultsTable::runDir(int row) const {
    const auto* it = item(row, 0);
    return it ? it->data(Qt::UserRole).toString() : QString();
}

void ResultsTable::setRuns(const std::vector<twb::RunSummary>& runs) {
    m_runs = runs;
    const auto keys = twb::varied_keys(runs);
    QStringList headers{tr("cell")};
    for (const auto& k : keys)
        headers << QString::fromStdString(k);
    headers << tr("params") << tr("final val") << tr("best val") << tr("accuracy %") << tr("perplexity")
            << tr("bits/char") << tr("tokens/s") << tr("time (s)") << tr("status");
    const int sortColumn = horizontalHeader()->sortIndicatorSection();
    const Qt::SortOrder order = horizontalHeader()->sortIndicatorOrder();
    setSortingEnabled(false);  // rows are filled in place; sorting while filling scrambles them
    clear();
    setColumnCount(int(headers.size()));
    setHorizontalHeaderLabels(headers);
    setRowCount(int(runs.size()));
    for (int r = 0; r < int(runs.size()); ++r) {
        const auto& s = runs[size_t(r)];
        int c = 0;
        auto* name = new QTableWidgetItem(QString::fromStdString(s.name));
        name->setData(Qt::UserRole, QString::fromStdString(s.dir));
        name->setToolTip(QString::fromStdString(s.dir));
        setItem(r, c++, name);
        for (const auto& k : keys) {
            const auto it = s.config.find(k);
            const QString text = it == s.config.end() ? QString() : QString::fromStdString(it->second);
            bool isNumber = false;
            const double v = text.toDouble(&isNumber);
            auto* cell = isNumber ? number(v, 0) : new QTableWidgetItem(text);
            if (isNumber)
                cell->setText(text);  // as typed: 3e-3 stays 3e-3
            setItem(r, c++, cell);
        }
        setItem(r, c++, number(double(s.parameters), 0));
        setItem(r, c++, number(s.final_val_loss, 4));
        setItem(r, c++, number(s.best_val_loss, 4));
        setItem(r, c++, number(s.accuracy * 100.0, 1));
        setItem(r, c++, number(s.perplexity, 2));
        setItem(r, c++, number(s.bits_per_char, 3));
        setItem(r, c++, number(s.tokens_per_s, 0));
        setItem(r, c++, number(s.wall_s, 1));
        setItem(r, c++, new QTableWidgetItem(QString::fromStdString(s.status)));
    }
    setSortingEnabled(true);
    if (sortColumn >= 0 && sortColumn < columnCount())
        sortByColumn(sortColumn, order);
}
