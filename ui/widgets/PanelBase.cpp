#include "ui/widgets/PanelBase.h"

#include "ui/widgets/ErrorLabel.h"

PanelBase::PanelBase(QWidget* parent) : QWidget(parent), m_error(new ErrorLabel(this)) {
    m_error->hide();
}

QWidget* PanelBase::errorLabel() const {
    return m_error;
}

QString PanelBase::lastError() const {
    return m_error->error();
}

void PanelBase::showError(const QString& text) {
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
    if (!text.isEmpty())
        emit statusMessage(text);
}

void PanelBase::setBusy(bool busy) {
    m_busy = busy;
    busyChanged(busy);
}
