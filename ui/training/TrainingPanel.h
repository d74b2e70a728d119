// The training panel: dataset chooser, run-config form, Start/Pause/Stop/Checkpoint controls, progress
// with ETA and throughput, and live plots. Training runs in the engine on a TrainWorker living on its
// own QThread; this panel only turns clicks into requests and signals into widgets.
#pragma once
#include "ui/widgets/PanelBase.h"
#include "ui/workers/TrainWorker.h"

#include <QElapsedTimer>
#include <QThread>
#include <memory>

class ConfigForm;
class MetricsPlot;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QCheckBox;
class QSlider;

class TrainingPanel : public PanelBase {
    Q_OBJECT
public:
    explicit TrainingPanel(QWidget* parent = nullptr);
    ~TrainingPanel() override;

    QString currentRun() const { return m_runDir; }
    ConfigForm* form() const { return m_form; }
    MetricsPlot* plot() const { return m_plot; }
    TrainWorker* worker() const { return m_worker; }
    /// Selects a prepared dataset folder (adds it to the list if needed).
    void setDataset(const QString& dir);

public slots:
    void newRun();
    /// Loads a run folder's config and curves; false (with a message) when it is not a run.
    bool openRun(const QString& dir);
    /// Prepares the fortunes corpus when needed and trains the tiny preset on it: the first-run path.
    void quickStart();
    void start();
    void resumeRun();
    void togglePause();
    void stop();
    void saveCheckpointNow();
    void initialiseFromRun(const QString& dir);
    void compareWith(const QStringList& runs);
    void refreshDatasets();

signals:
    void runChanged(const QString& dir);
    void trainRequested(const TrainRequest& request);
    void prepareRequested(const PrepareRequest& request);

protected:
    void busyChanged(bool busy) override;

private:
    void startJob(bool resume);
    void updateStartEnabled();
    void onDatasetChanged();

    QThread m_thread;
    TrainWorker* m_worker = nullptr;
    std::shared_ptr<twb::TrainControl> m_control;
    ConfigForm* m_form = nullptr;
    MetricsPlot* m_plot = nullptr;
    QComboBox* m_dataset = nullptr;
    QPushButton *m_quick, *m_start, *m_pause, *m_stop, *m_save;
    QProgressBar* m_progress = nullptr;
    QLabel *m_status, *m_runLabel;
    QCheckBox* m_logScale = nullptr;
    QSlider* m_smooth = nullptr;
    QString m_runDir, m_initFrom;
    bool m_startAfterPrepare = false;
    int64_t m_maxIters = 0;
};
