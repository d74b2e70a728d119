#include "ui/widgets/SteadyLabel.h"

#include <QEvent>
#include <algorithm>

int SteadyLabel::heightForWidth(int width) const {
    const int h = QLabel::heightForWidth(width);
    if (m_tallest.size() > 64)  // widths seen while the window was resized: start again
        m_tallest.clear();
    int& tallest = m_tallest[width];
    tallest = std::max(tallest, h);
    return tallest;
}

void SteadyLabel::reset() {
    m_tallest.clear();
    updateGeometry();
}

void SteadyLabel::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange)  // the heights were of the old size
        m_tallest.clear();
    QLabel::changeEvent(e);
}
