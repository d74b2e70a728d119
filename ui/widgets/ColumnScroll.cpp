#include "ui/widgets/ColumnScroll.h"

#include <QEvent>
#include <QLayout>
#include <QScrollBar>
#include <QTimer>
#include <algorithm>

ColumnScroll::ColumnScroll(QWidget* content, QWidget* parent) : QScrollArea(parent) {
    setWidget(content);
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    content->installEventFilter(this);
    fitWidth();
}

void ColumnScroll::fitWidth() {
    setMinimumWidth(std::max(minimumWidth(), widget()->minimumSizeHint().width() +
                                                 verticalScrollBar()->sizeHint().width() + 2 * frameWidth()));
}

bool ColumnScroll::eventFilter(QObject* watched, QEvent* e) {
    if (watched == widget() && e->type() == QEvent::FontChange) {
        // The control at the view's top, while the column still has its old layout (the first change of
        // a burst of them counts)
        const int top = verticalScrollBar()->value();
        if (!m_anchor && top > 0)
            if (QWidget* at = widget()->childAt(widget()->width() / 2, top + 1)) {
                m_anchor = at;
                m_anchorOffset = top - at->mapTo(widget(), QPoint()).y();
            }
        // "Never narrower than it has been" holds within one text size. Measured again once the combo
        // boxes have dropped their old sizes (TextScale does that after the fonts have arrived).
        QTimer::singleShot(0, this, [this] {
            setMinimumWidth(0);
            fitWidth();
            // gone, or moved out of the column since (QWidget::mapTo walks up to a null parent then)
            if (!m_anchor || !widget() || !widget()->isAncestorOf(m_anchor)) {
                m_anchor = nullptr;
                return;
            }
            widget()->layout()->activate();
            // as the scroll area sizes it, at once: the bar's range is the new column's
            widget()->resize(widget()->width(), std::max(widget()->minimumSizeHint().height(), viewport()->height()));
            QWidget* anchor = m_anchor;
            m_anchor = nullptr;
            verticalScrollBar()->setValue(anchor->mapTo(widget(), QPoint()).y() + m_anchorOffset);
        });
    }
    if (watched == widget() && e->type() == QEvent::LayoutRequest)
        fitWidth();
    return QScrollArea::eventFilter(watched, e);
}
