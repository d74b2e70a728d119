#include "ui/widgets/ColumnScroll.h"

#include <QEvent>
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
        // "Never narrower than it has been" holds within one text size. Measured again once the combo
        // boxes have dropped their old sizes (TextScale does that after the fonts have arrived).
        QTimer::singleShot(0, this, [this] {
            setMinimumWidth(0);
            fitWidth();
        });
    }
    if (watched == widget() && e->type() == QEvent::LayoutRequest)
        fitWidth();
    return QScrollArea::eventFilter(watched, e);
}
