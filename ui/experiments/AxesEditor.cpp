#include "ui/experiments/AxesEditor.h"

#include "twb/config.h"
#include "twb/config_options.h"
#include "twb/errors.h"
#include "ui/widgets/ElidingComboBox.h"
#include "ui/widgets/TabWalk.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

AxesEditor::AxesEditor(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    m_table = new QTableWidget(0, 2);
    m_table->setObjectName("axes");
    m_table->setHorizontalHeaderLabels({tr("Config field"), tr("Values")});
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->setColumnWidth(0, 150);  // "learning_rate" and its arrow
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setMinimumHeight(110);
    m_table->viewport()->installEventFilter(this);
    v->addWidget(m_table);
    auto* row = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add axis"));
    m_add = add;
    add->setObjectName("addAxis");
    auto* remove = new QPushButton(tr("Remove axis"));
    remove->setObjectName("removeAxis");
    row->addWidget(add);
    row->addWidget(remove);
    row->addStretch();
    v->addLayout(row);
    connect(add, &QPushButton::clicked, this, [this] { addAxis(); });
    connect(remove, &QPushButton::clicked, this, [this] { removeAxis(m_table->currentRow()); });
}

void AxesEditor::addAxis(const QString& key, const QString& values) {
    QString chosen = key;
    if (chosen.isEmpty()) {  // what a sweep most often varies, not the list's first key (data_dir)
        const QStringList swept = texts();
        for (const char* k : {"learning_rate", "n_layer", "n_head", "n_embd", "dropout", "seed"})
            if (std::none_of(swept.begin(), swept.end(),
                             [k](const QString& t) { return t.startsWith(QString(k) + "="); })) {
                chosen = k;
                break;
            }
    }
    const int r = m_table->rowCount();
    m_table->insertRow(r);
    auto* keys = new ElidingComboBox;
    // Each key with the Training form's name for it ("n_layer — Layers"): the axis list spoke only in
    // config keys, the form only in labels. The key stays the item's data, which the sweep is written in.
    std::map<std::string, const twb::ConfigOption*> options;
    for (const auto& o : twb::config_options())
        options[o.key] = &o;
    for (const auto& k : twb::RunConfig::keys()) {
        const QString key = QString::fromStdString(k);
        const auto it = options.find(k);
        if (it == options.end() || it->second->label.empty()) {
            keys->addItem(key, key);
            continue;
        }
        const auto& o = *it->second;
        keys->addItem(key + " — " + QCoreApplication::translate("ConfigOptions", o.label.c_str()), key);
        keys->setItemData(keys->count() - 1, QCoreApplication::translate("ConfigOptions", o.help.c_str()),
                          Qt::ToolTipRole);
        // The key alone where the box is too narrow for both ("learning_rate — Lea" read as cut)
        keys->setItemData(keys->count() - 1, key, ElidingComboBox::ShortTextRole);
    }
    keys->setHelp(tr("A field of the run config (the Training panel's form)"));  // above the whole entry
    if (!chosen.isEmpty()) {
        // A key not in the list is kept as given (an old setting), so parsing names it rather than it changing.
        if (keys->findData(chosen) < 0)
            keys->addItem(chosen, chosen);
        keys->setCurrentIndex(keys->findData(chosen));
    }
    auto* edit = new QLineEdit(values);
    // The example fits the field: folders for data_dir (it showed numbers), numbers for the rest.
    const auto example = [keys, edit] {
        edit->setPlaceholderText(keys->currentData().toString() == "data_dir"
                                     ? tr("prepared dataset folders, comma-separated (e.g. one per tokenizer)")
                                     : tr("1,4,8,16  or  1e-4..1e-1 log 4  or  0..0.3 lin 4"));
    };
    example();
    connect(keys, &QComboBox::currentTextChanged, edit, example);
    edit->setToolTip(tr("A list of values, or a range: 'a..b log n' (n values evenly spaced in log), 'a..b lin n'"));
    m_table->setCellWidget(r, 0, keys);
    m_table->setCellWidget(r, 1, edit);
    keys->installEventFilter(this);  // after the table's own filter, so that this one sees Tab first
    edit->installEventFilter(this);
    connect(keys, &QComboBox::currentTextChanged, this, &AxesEditor::changed);
    connect(keys, &QComboBox::currentTextChanged, this, &AxesEditor::fitKeyColumn);
    connect(edit, &QLineEdit::textChanged, this, &AxesEditor::changed);
    fitKeyColumn();
    emit changed();
}

void AxesEditor::fitKeyColumn() {
    // Wide enough for the chosen fields' "key — Label" ("learning_rate — Lea" was cut), leaving the values
    // room for a range ("1e-4..1e-1 log 4"; at 150% text they were cut to "alu" and the table scrolled
    // sideways) and half the table at least. A field's label that does not fit is elided; its combo box's
    // tooltip says it whole.
    const QFontMetrics fm = m_table->fontMetrics();
    int want = fm.horizontalAdvance(QStringLiteral("learning_rate")) + 48;
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (const auto* c = qobject_cast<QComboBox*>(m_table->cellWidget(r, 0)))
            want = std::max(want, c->fontMetrics().horizontalAdvance(c->currentText()) + 48);
    const int values = fm.horizontalAdvance(QStringLiteral("1e-4..1e-1 log 4")) + 24;
    const int room = m_table->viewport()->width();
    m_table->setColumnWidth(0, std::max(std::min(want, std::max(room - values, room / 2)), 40));
}

void AxesEditor::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    fitKeyColumn();
}

bool AxesEditor::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() == QEvent::KeyPress) {
        const auto* k = static_cast<QKeyEvent*>(e);
        auto* w = qobject_cast<QWidget*>(watched);
        if ((k->key() == Qt::Key_Tab || k->key() == Qt::Key_Backtab) &&
            !(k->modifiers() & (Qt::ControlModifier | Qt::AltModifier)) && w && m_table->isAncestorOf(w)) {
            tabFrom(w, k->key() == Qt::Key_Tab && !(k->modifiers() & Qt::ShiftModifier));
            return true;
        }
    }
    // The table's viewport, not this widget, is what the columns share: it also narrows when a scroll bar
    // appears or the column around the editor is laid out again, without this widget's size changing.
    if (watched == m_table->viewport() && e->type() == QEvent::Resize)
        fitKeyColumn();
    return QWidget::eventFilter(watched, e);
}

void AxesEditor::tabFrom(QWidget* from, bool forward) {
    QList<QWidget*> order;
    for (int r = 0; r < m_table->rowCount(); ++r)
        order << m_table->cellWidget(r, 0) << m_table->cellWidget(r, 1);
    const int i = int(order.indexOf(from)) + (forward ? 1 : -1);
    if (i >= 0 && i < order.size()) {
        m_table->setCurrentCell(i / 2, i % 2);
        order[i]->setFocus(forward ? Qt::TabFocusReason : Qt::BacktabFocusReason);
        return;
    }
    if (forward)
        return m_add->setFocus(Qt::TabFocusReason);
    if (QWidget* before = TabWalk::stop(m_table, false, [this](const QWidget* w) { return !m_table->isAncestorOf(w); }))
        before->setFocus(Qt::BacktabFocusReason);
}

void AxesEditor::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange)  // Larger text: the label and the values both need more
        fitKeyColumn();
}

void AxesEditor::removeAxis(int row) {
    if (row < 0 || row >= m_table->rowCount())
        return;
    m_table->removeRow(row);
    emit changed();
}

void AxesEditor::clear() {
    m_table->setRowCount(0);
    emit changed();
}

int AxesEditor::count() const {
    return m_table->rowCount();
}

QStringList AxesEditor::texts() const {
    QStringList out;
    for (int r = 0; r < m_table->rowCount(); ++r)
        out << static_cast<QComboBox*>(m_table->cellWidget(r, 0))->currentData().toString() + "=" +
                   static_cast<QLineEdit*>(m_table->cellWidget(r, 1))->text().trimmed();
    return out;
}

void AxesEditor::setTexts(const QStringList& texts) {
    m_table->setRowCount(0);
    for (const auto& t : texts) {
        const int eq = t.indexOf('=');
        if (eq > 0)
            addAxis(t.left(eq), t.mid(eq + 1));
    }
    emit changed();
}

std::vector<twb::SweepAxis> AxesEditor::axes() const {
    std::vector<twb::SweepAxis> out;
    const QStringList t = texts();
    for (int r = 0; r < t.size(); ++r) {
        if (t[r].endsWith('='))
            throw twb::ConfigError(
                tr("axis %1 (%2) has no values; type a list like 1,2,4 or a range like 1e-4..1e-1 log 4")
                    .arg(r + 1)
                    .arg(t[r].chopped(1))
                    .toStdString());
        out.push_back(twb::parse_sweep_axis(t[r].toStdString()));
    }
    return out;
}
