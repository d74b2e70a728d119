#include "ui/widgets/ElidingComboBox.h"

#include <QStyleOptionComboBox>
#include <QStylePainter>

ElidingComboBox::ElidingComboBox(QWidget* parent) : QComboBox(parent) {
    connect(this, &QComboBox::currentIndexChanged, this, &ElidingComboBox::updateToolTip);
}

QString ElidingComboBox::shownText() const {
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    const QRect field = style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
    const QString whole = currentText(), brief = currentData(ShortTextRole).toString();
    if (brief.isEmpty() || fontMetrics().horizontalAdvance(whole) <= field.width())
        return fontMetrics().elidedText(whole, Qt::ElideMiddle, field.width());
    return fontMetrics().elidedText(brief, Qt::ElideMiddle, field.width());
}

void ElidingComboBox::setHelp(const QString& help) {
    m_help = help;
    updateToolTip();
}

void ElidingComboBox::updateToolTip() {
    const QString chosen = currentText();
    setToolTip(chosen.isEmpty() ? m_help : m_help.isEmpty() ? chosen : m_help + "\n\n" + chosen);
}

void ElidingComboBox::paintEvent(QPaintEvent*) {
    QStylePainter p(this);
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    opt.currentText = shownText();
    p.drawComplexControl(QStyle::CC_ComboBox, opt);
    p.drawControl(QStyle::CE_ComboBoxLabel, opt);
}
