// A table cell that shows a number with fixed decimals ("2.2519", "2.2528": the default showed six
// significant digits, so a column mixed 2.2519 with 2.25283) and sorts by its value, not its text.
#pragma once
#include <QTableWidgetItem>

class NumberItem : public QTableWidgetItem {
public:
    NumberItem(double value, int decimals) : QTableWidgetItem(QString::number(value, 'f', decimals)), m_value(value) {
        setData(Qt::TextAlignmentRole, int(Qt::AlignRight | Qt::AlignVCenter));
    }
    bool operator<(const QTableWidgetItem& other) const override {
        if (const auto* n = dynamic_cast<const NumberItem*>(&other))
            return m_value < n->m_value;
        return QTableWidgetItem::operator<(other);
    }
    double value() const { return m_value; }

private:
    double m_value;
};
