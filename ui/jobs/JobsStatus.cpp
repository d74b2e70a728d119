#include "ui/jobs/JobsStatus.h"

#include "ui/jobs/JobsService.h"

#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QProgressBar>
#include <QToolButton>

#include <algorithm>

JobsStatus::JobsStatus(JobsService* jobs, QWidget* parent) : QWidget(parent), m_jobs(jobs) {
    setObjectName("jobsStatus");
    m_label = new QLabel;
    m_bar = new QProgressBar;
    m_bar->setObjectName("jobsProgress");
    m_bar->setMaximumWidth(160);
    m_bar->setMaximumHeight(16);
    m_bar->setTextVisible(false);
    m_cancel = new QToolButton;
    m_cancel->setObjectName("jobsCancel");
    m_cancel->setText(tr("Cancel"));
    m_cancel->setAutoRaise(true);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_label);
    row->addWidget(m_bar);
    row->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, [this] {
        if (!m_shown)
            return;
        const QPointer<Job> job = m_shown;
        if (!job->cancelQuestion().isEmpty() &&  // a click beside the message stopped a training run
            QMessageBox::question(this, job->title(), job->cancelQuestion()) != QMessageBox::Yes)
            return;
        if (job)
            job->cancel();
    });
    connect(m_jobs, &JobsService::changed, this, &JobsStatus::update);
    update();
}

void JobsStatus::update() {
    QList<Job*> shown;
    for (Job* j : m_jobs->running())
        if (!j->isQuiet())
            shown << j;
    setVisible(!shown.isEmpty());
    m_shown = shown.isEmpty() ? nullptr : shown.last();
    if (!m_shown)
        return;
    // At most ~64 characters wide (a run's whole name and its step), so that the status bar's message keeps
    // room; the title is cut before the job's own text (a run's step and loss), and the whole line is the
    // tooltip.
    const QFontMetrics fm = m_label->fontMetrics();
    const int most = 64 * fm.averageCharWidth();
    QString tail = m_shown->text().isEmpty() ? QString() : ": " + m_shown->text();
    if (shown.size() > 1)
        tail += tr(" (+%1 more)").arg(shown.size() - 1);
    const int forTitle = std::max(most / 3, most - fm.horizontalAdvance(tail));
    const QString line = fm.elidedText(m_shown->title(), Qt::ElideMiddle, forTitle) + tail;
    m_label->setText(fm.elidedText(line, Qt::ElideRight, most));
    m_cancel->setVisible(m_shown->isCancellable());
    QStringList all;
    for (Job* j : shown)
        all << (j->text().isEmpty() ? j->title() : j->title() + ": " + j->text());
    setToolTip(all.join('\n'));
    const double f = m_shown->fraction();
    m_bar->setRange(0, f < 0 ? 0 : 1000);  // no fraction: a busy bar
    if (f >= 0)
        m_bar->setValue(static_cast<int>(1000 * std::min(1.0, f)));
}
