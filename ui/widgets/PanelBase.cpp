#include "ui/widgets/PanelBase.h"

#include "ui/jobs/JobsService.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/TabWalk.h"

#include <QEvent>

PanelBase::PanelBase(JobsService* jobs, QWidget* parent)
    : QWidget(parent), m_error(new ErrorLabel(this)), m_jobs(jobs) {
    m_error->hide();
}

bool PanelBase::event(QEvent* e) {
    if (e->type() == QEvent::Polish)
        TabWalk::apply(this);
    return QWidget::event(e);
}

JobsService* PanelBase::jobs() const {
    if (!m_jobs)
        m_jobs = new JobsService(const_cast<PanelBase*>(this));
    return m_jobs;
}

QWidget* PanelBase::errorLabel() const {
    return m_error;
}

QString PanelBase::lastError() const {
    return m_error->error();
}

void PanelBase::showError(const QString& text) {
    const QString before = m_error->error();
    showErrorHere(text);
    if (!text.isEmpty())
        emit statusMessage(text);
    else if (!before.isEmpty())
        emit statusWithdrawn(before);
}

void PanelBase::showErrorHere(const QString& text) {
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

void PanelBase::setBusy(bool busy) {
    m_busy = busy;
    busyChanged(busy);
}
