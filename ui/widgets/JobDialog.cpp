#include "ui/widgets/JobDialog.h"

#include <QLayout>

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
    if (need > height())
        resize(width(), need);
}
