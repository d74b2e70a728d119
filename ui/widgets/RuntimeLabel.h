// The status bar's runtime line: the device, threads, precision and BLAS library. The machine's (what
// the doctor found) until this window trains; then the run's own threads and precision ("1 of 2
// threads · float32"), and the machine's again when the training ends.
#pragma once
#include <QLabel>

class RuntimeLabel : public QLabel {
    Q_OBJECT
public:
    explicit RuntimeLabel(QWidget* parent = nullptr);
    /// What the machine offers: its device in words, threads, the precision dtype=auto chooses, and the
    /// BLAS library (empty: reference BLAS, said as slow). `report` is the tooltip.
    void setMachine(const QString& device, int threads, const QString& precision, const QString& blas,
                    const QString& report);
    /// A training started here with these threads and this precision (what it uses).
    void setRun(int threads, const QString& precision);
    /// The training ended: the machine's line again.
    void clearRun();

private:
    void refresh();

    bool m_known = false;
    QString m_device, m_precision, m_blas, m_report;
    int m_threads = 0;
    int m_runThreads = 0;  // 0: no training
    QString m_runPrecision;
};
