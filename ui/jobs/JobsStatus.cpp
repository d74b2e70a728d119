#include "ui/jobs/JobsStatus.h"

#include "ui/jobs/JobsService.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

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
        if (m_shown)
            m_shown->cancel();
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
    QString line = m_shown->text().isEmpty() ? m_shown->title() : m_shown->title() + ": " + m_shown->text();
    if (shown.size() > 1)
        line += tr(" (+%1 more)").arg(shown.size() - 1);
    // At most ~40 characters wide, so that the status bar's message keeps room; the whole line is the tooltip.
    m_label->setText(
        m_label->fontMetrics().elidedText(line, Qt::ElideRight, 40 * m_label->fontMetrics().averageCharWidth()));
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
