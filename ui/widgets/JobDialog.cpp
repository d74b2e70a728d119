#include "ui/widgets/JobDialog.h"

#include <QLayout>
#include <QScreen>

#include <algorithm>

void JobDialog::done(int result) {
    if (m_busy) {
        m_closeWhenDone = true;
        hide();
        return;
    }
    QDialog::done(result);
}

void JobDialog::setJobRunning(bool running) {
    m_busy = running;
    if (!running && m_closeWhenDone)
        QMetaObject::invokeMethod(
            this, [this] { QDialog::done(QDialog::Rejected); }, Qt::QueuedConnection);
}

void JobDialog::growToFit() {
    layout()->activate();
    const int need = hasHeightForWidth() ? heightForWidth(width()) : sizeHint().height();
    if (need <= height())
        return;
    resize(width(), need);
    // Grown down past the screen's foot (a 1280x720 screen at 150% text cut Export and Close off): moved up
    // as far as that takes, never above the screen's top.
    const QScreen* s = screen();
    if (!s || !isVisible())
        return;
    const QRect room = s->availableGeometry();
    const int frameFoot = frameGeometry().bottom() - geometry().bottom();
    const int foot = geometry().top() + need - 1 + std::max(0, frameFoot);
    if (foot > room.bottom())
        move(x(), std::max(room.top(), y() - (foot - room.bottom())));
}
