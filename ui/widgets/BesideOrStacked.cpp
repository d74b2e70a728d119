#include "ui/widgets/BesideOrStacked.h"

QBoxLayout::Direction besideOrStacked(const QBoxLayout* columns, int width) {
    const QMargins m = columns->contentsMargins();
    int need = m.left() + m.right() + columns->spacing() * std::max(0, columns->count() - 1);
    for (int i = 0; i < columns->count(); ++i)
        need += columns->itemAt(i)->minimumSize().width();
    return width >= need ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
}
