#include "ui/widgets/RuntimeLabel.h"

RuntimeLabel::RuntimeLabel(QWidget* parent) : QLabel(parent) {
    setObjectName("runtime");
    refresh();
}

void RuntimeLabel::setMachine(const QString& device, int threads, const QString& precision, const QString& blas,
                              const QString& report) {
    m_known = true;
    m_device = device;
    m_threads = threads;
    m_precision = precision;
    m_blas = blas;
    m_report = report;
    refresh();
}

void RuntimeLabel::setRun(int threads, const QString& precision) {
    m_runThreads = threads;
    m_runPrecision = precision;
    refresh();
}

void RuntimeLabel::clearRun() {
    m_runThreads = 0;
    m_runPrecision.clear();
    refresh();
}

void RuntimeLabel::refresh() {
    if (!m_known) {
        setText(tr("checking runtime…"));
        return;
    }
    const QString blas = m_blas.isEmpty() ? tr("reference BLAS (slow!)") : m_blas;
    if (m_runThreads <= 0) {
        setText(tr("%1 · %2 threads · %3 · %4").arg(m_device).arg(m_threads).arg(m_precision, blas));
        setToolTip(m_report);
        return;
    }
    // The status bar said the machine's threads while a run used fewer (threads=1).
    const QString threads = m_runThreads == m_threads ? tr("%1 threads").arg(m_runThreads)
                                                      : tr("%1 of %2 threads").arg(m_runThreads).arg(m_threads);
    setText(tr("%1 · %2 · %3 · %4").arg(m_device, threads, m_runPrecision, blas));
    setToolTip(tr("The training uses %1 thread(s) and %2 (its config's threads and dtype); the machine has %3.\n\n%4")
                   .arg(m_runThreads)
                   .arg(m_runPrecision)
                   .arg(m_threads)
                   .arg(m_report));
}
