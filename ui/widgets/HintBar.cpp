#include "ui/widgets/HintBar.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QPainter>

HintBar::HintBar(QLabel* hint, const QString& widest, const QList<QWidget*>& buttons, QWidget* parent)
    : QWidget(parent), m_hint(hint), m_widest(widest), m_buttons(buttons), m_grid(new QGridLayout(this)) {
    m_grid->setContentsMargins(0, 0, 0, 0);
    // The hint gives way (cut, never wrapped) below the room it was judged by; its tooltip may say it whole.
    m_hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_hint->installEventFilter(this);
    arrange();
}

bool HintBar::eventFilter(QObject* watched, QEvent* e) {
    if (watched != m_hint || e->type() != QEvent::Paint || m_hint->textFormat() == Qt::RichText)
        return QWidget::eventFilter(watched, e);
    const QString shown = shownHint();
    if (shown == m_hint->text())
        return false;  // it fits: the label paints itself
    QPainter p(m_hint);
    p.setPen(
        m_hint->palette().color(m_hint->isEnabled() ? QPalette::Active : QPalette::Disabled, m_hint->foregroundRole()));
    p.drawText(m_hint->contentsRect(), int(m_hint->alignment()), shown);
    return true;
}

QString HintBar::shownHint() const {
    return m_hint->fontMetrics().elidedText(m_hint->text(), Qt::ElideRight, m_hint->contentsRect().width());
}

void HintBar::arrange() {
    int need = m_hint->fontMetrics().horizontalAdvance(m_widest) + m_hint->contentsMargins().left() +
               m_hint->contentsMargins().right();
    for (QWidget* b : m_buttons)
        need += b->sizeHint().width() + m_grid->horizontalSpacing();
    const bool stacked = width() < need;
    if (stacked == m_stacked && m_grid->count() > 0)
        return;
    m_stacked = stacked;
    m_grid->removeWidget(m_hint);
    for (QWidget* b : m_buttons)
        m_grid->removeWidget(b);
    for (int c = 0; c <= m_buttons.size(); ++c)
        m_grid->setColumnStretch(c, 0);
    const int row = stacked ? 1 : 0;
    m_grid->addWidget(m_hint, 0, 0, 1, stacked ? m_buttons.size() + 1 : 1);
    for (int i = 0; i < m_buttons.size(); ++i)
        m_grid->addWidget(m_buttons[i], row, i + 1);
    m_grid->setColumnStretch(0, 1);  // the hint's, or the room left of the buttons on their own row
}

void HintBar::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    arrange();
}

void HintBar::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange)
        arrange();
}
