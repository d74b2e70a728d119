#include "ui/widgets/RunsTable.h"

#include "ui/widgets/RunsTableModel.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QRegularExpression>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <algorithm>
#include <cmath>

RunsTable::RunsTable(QWidget* parent) : QTableView(parent) {
    m_model = new RunsTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunsTableModel::SortRole);
    m_proxy->setFilterRole(RunsTableModel::SearchRole);
    m_proxy->setFilterKeyColumn(0);
    setModel(m_proxy);
    setSortingEnabled(true);
    sortByColumn(m_model->columnOf(RunsTableModel::Created), Qt::DescendingOrder);  // newest first until the user sorts
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(true);
    setWordWrap(false);
    // A name too long for its column keeps its start and its end: a sweep cell's "sweep-… / 000_learning_rate=…"
    // showed only the sweep's part.
    setTextElideMode(Qt::ElideMiddle);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    horizontalHeader()->setStretchLastSection(true);  // no empty strip right of the last column
    horizontalHeader()->setHighlightSections(false);
    horizontalHeader()->setSectionsMovable(false);
    setColumnWidth(m_model->columnOf(RunsTableModel::Name), 220);
    hideBleuWithoutTranslation();
    connect(this, &QAbstractItemView::activated, this,
            [this](const QModelIndex& i) { emit runActivated(i.data(RunsTableModel::DirRole).toString()); });
    connect(selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsTable::selectedRunsChanged);
    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this] {
        if (!m_restoring)
            saveLayout();
    });
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this] {
        if (!m_restoring)
            saveLayout();
    });
}

RunsTable::~RunsTable() = default;

void RunsTable::changeEvent(QEvent* e) {
    QTableView::changeEvent(e);
    if (e->type() == QEvent::FontChange) {  // View → Larger / Smaller text: rows as tall as the text again
        verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
        // Widths nobody chose follow the titles' new size, once the header has its font too; chosen ones
        // widen where their title no longer fits.
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_restoring = true;
                if (!m_remembered && !m_sized)
                    setDefaultWidths();
                else
                    widenToTitles();
                keepFiguresWhole();  // the figures grew with the text too
                m_restoring = false;
            },
            Qt::QueuedConnection);
    }
}

void RunsTable::setRuns(std::vector<twb::RunSummary> runs) {
    const QStringList selected = selectedRuns();
    const QString current = currentRun();
    m_model->setRuns(std::move(runs));
    hideBleuWithoutTranslation();
    if (!m_sized && !m_remembered && !m_model->runs().empty()) {
        // Without remembered widths, the first rows decide them (fixed defaults left a 220-pixel name
        // column half empty and pushed the last columns out of sight at 1280x720), up to 260 pixels each.
        resizeColumnsToContents();
        for (int c = 0; c < m_model->columnCount(); ++c)
            if (columnWidth(c) > 260)
                setColumnWidth(c, 260);
        m_sized = true;
    }
    keepFiguresWhole();
    widenToTitles();  // a sweep's key columns come and go with its cells ("earning_rate" at 150%)
    QItemSelection sel;
    for (const QString& d : selected) {
        const int row = rowOf(d);
        if (row >= 0)
            sel.select(m_proxy->index(row, 0), m_proxy->index(row, m_proxy->columnCount() - 1));
    }
    selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect);
    const int cur = rowOf(current);
    if (cur >= 0)
        selectionModel()->setCurrentIndex(m_proxy->index(cur, 0), QItemSelectionModel::NoUpdate);
    emit selectedRunsChanged();
}

void RunsTable::keepFiguresWhole() {
    // The steps ("1,800 of 3,000"), the model's size ("4×4×128, 0.8 M") and the date are never cut, whatever
    // widths were remembered from shorter ones (or set by the first rows, a run of a wider model added later, or
    // at a smaller text size: "85…60" for "85 of 560" at 125%).
    // The last of them too: the date, last of the Runs view's columns, stretches no narrower than itself.
    for (const auto column : {RunsTableModel::Steps, RunsTableModel::Model, RunsTableModel::Created})
        if (const int c = m_model->columnOf(column); c >= 0)
            setColumnWidth(c, std::max(columnWidth(c), sizeHintForColumn(c)));
    // Nor a name up to 420 pixels or a dataset up to 260: a run named after the widths were set read "first sh…"
    // beside a wide Status, a sweep's stopped cell "000 (stopp…" in a column as wide as "000" had needed, a listed
    // sweep cell "sweep-20261…_rate=0.001" and a dataset "tato…n-nb".
    for (const auto& [column, most] : {std::pair{RunsTableModel::Name, 420}, std::pair{RunsTableModel::Dataset, 260}})
        if (const int c = m_model->columnOf(column); c >= 0 && c + 1 < m_model->columnCount())
            setColumnWidth(c, std::max(columnWidth(c), std::min(sizeHintForColumn(c), most)));
}

void RunsTable::hideBleuWithoutTranslation() {
    // The BLEU column only where a translation run is listed: a language model has none (nor has an empty table).
    if (const int c = m_model->columnOf(RunsTableModel::BestBleu); c >= 0)
        setColumnHidden(c, std::none_of(m_model->runs().begin(), m_model->runs().end(),
                                        [](const twb::RunSummary& r) { return !std::isnan(r.best_bleu); }));
}

void RunsTable::setColumnLayout(RunsTableModel::Layout l) {
    if (l == m_model->layout())
        return;
    m_model->setLayout(l);
    sortByColumn(l == RunsTableModel::Layout::Runs ? m_model->columnOf(RunsTableModel::Created) : 0,
                 l == RunsTableModel::Layout::Runs ? Qt::DescendingOrder : Qt::AscendingOrder);
    m_sized = false;
    restoreLayout();
    hideBleuWithoutTranslation();
}

QString RunsTable::runAt(int row) const {
    return m_proxy->index(row, 0).data(RunsTableModel::DirRole).toString();
}

const std::vector<twb::RunSummary>& RunsTable::runs() const {
    return m_model->runs();
}

void RunsTable::setExtraColumns(const QStringList& configKeys) {
    if (configKeys == m_model->extraColumns())
        return;
    m_model->setExtraColumns(configKeys);  // a model reset: the header's sections start again
    m_sized = false;
    restoreLayout();
    hideBleuWithoutTranslation();
}

void RunsTable::setSettingsKey(const QString& key) {
    m_settingsKey = key;
    restoreLayout();
}

QStringList RunsTable::selectedRuns() const {
    QList<int> rows;
    for (const QModelIndex& i : selectionModel()->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end());
    QStringList out;
    for (int r : rows)
        out << runAt(r);
    return out;
}

QString RunsTable::currentRun() const {
    const QModelIndex i = currentIndex();
    return i.isValid() ? i.data(RunsTableModel::DirRole).toString() : QString();
}

const twb::RunSummary* RunsTable::summary(const QString& dir) const {
    const int row = m_model->rowOf(dir);
    return row < 0 ? nullptr : &m_model->runs()[static_cast<size_t>(row)];
}

int RunsTable::rowOf(const QString& dir) const {
    const int row = m_model->rowOf(dir);
    return row < 0 ? -1 : m_proxy->mapFromSource(m_model->index(row, 0)).row();
}

void RunsTable::setFilterText(const QString& text) {
    // Every word, anywhere in the run's text: "shakes bpe" finds a BPE run on shakespeare whatever the order.
    QString pattern = "^";
    for (const QString& word : text.split(' ', Qt::SkipEmptyParts))
        pattern += "(?=.*" + QRegularExpression::escape(word) + ")";
    m_proxy->setFilterRegularExpression(QRegularExpression(
        pattern, QRegularExpression::CaseInsensitiveOption | QRegularExpression::DotMatchesEverythingOption));
}

int RunsTable::shownRuns() const {
    return m_proxy->rowCount();
}

bool RunsTable::selectRun(const QString& dir) {
    const int row = rowOf(dir);
    if (row < 0)
        return false;
    selectionModel()->setCurrentIndex(m_proxy->index(row, 0),
                                      QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    scrollTo(m_proxy->index(row, 0));
    return true;
}

void RunsTable::keyPressEvent(QKeyEvent* e) {
    if ((e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter) && currentIndex().isValid()) {
        emit runActivated(currentRun());
        return;
    }
    QTableView::keyPressEvent(e);
}

// Widths and the sort are kept by column name, not by position: a column added to the table (Best BLEU) or a sweep
// whose keys differ from the last one's shifted every remembered width one column along.
void RunsTable::saveLayout() {
    if (m_settingsKey.isEmpty())
        return;
    QSettings s;
    QVariantMap widths = s.value(m_settingsKey + "/widths").toMap();  // columns not shown now keep theirs
    for (int c = 0; c < m_model->columnCount(); ++c)
        if (!isColumnHidden(c) && !m_model->columnId(c).isEmpty())
            widths[m_model->columnId(c)] = columnWidth(c);
    s.setValue(m_settingsKey + "/widths", widths);
    s.setValue(m_settingsKey + "/sort", m_model->columnId(horizontalHeader()->sortIndicatorSection()));
    s.setValue(m_settingsKey + "/order", int(horizontalHeader()->sortIndicatorOrder()));
    s.remove(m_settingsKey + "/header");  // the positional state of before
}

void RunsTable::setDefaultWidths() {
    const bool cells = m_model->layout() == RunsTableModel::Layout::SweepResults;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        const auto figure = m_model->columnAt(c);
        // A sweep's Name column holds cell numbers ("000"): narrow, so the figures show at 1280x720.
        const int width = figure == RunsTableModel::Name      ? (cells ? 80 : 220)
                          : figure == RunsTableModel::Dataset ? 170
                          : figure == RunsTableModel::Created ? 130
                          : figure == RunsTableModel::Steps   ? 120  // "1,800 of 3,000" whole
                                                              : 95;
        // ...and never narrower than the column's title: at 150% text "Best val loss" read "est val los".
        setColumnWidth(c, std::max(width, horizontalHeader()->sectionSizeHint(c)));
    }
}

void RunsTable::restoreLayout() {
    if (m_settingsKey.isEmpty())
        return;
    m_restoring = true;
    const QSettings s;
    const QVariantMap widths = s.value(m_settingsKey + "/widths").toMap();
    setDefaultWidths();  // for the columns nothing is remembered of
    m_remembered = false;
    for (int c = 0; c < m_model->columnCount(); ++c)
        if (const auto w = widths.find(m_model->columnId(c)); w != widths.end() && w->toInt() > 0) {
            setColumnWidth(c, w->toInt());
            m_remembered = true;
        }
    if (const int c = m_model->columnOfId(s.value(m_settingsKey + "/sort").toString()); c >= 0)
        sortByColumn(c, s.value(m_settingsKey + "/order").toInt() == int(Qt::DescendingOrder) ? Qt::DescendingOrder
                                                                                              : Qt::AscendingOrder);
    if (m_remembered)
        widenToTitles();  // widths kept at 100% text cut "Best val loss" to "3est val loss" at 150%
    m_restoring = false;
}

void RunsTable::widenToTitles() {
    QHeaderView* h = horizontalHeader();
    for (int c = 0; c < m_model->columnCount(); ++c)
        if (!h->isSectionHidden(c) && c != h->count() - 1 && h->sectionSize(c) < h->sectionSizeHint(c))
            setColumnWidth(c, h->sectionSizeHint(c));
}
