// Run + checkpoint chooser shared by the Attention and Sampling panels: the workspace's runs (plus
// any folder opened by hand in any of them, which also joins File → Recent runs, and the run the
// Training panel has open) and, for the chosen run, "best", "last" and every checkpoint step.
#pragma once
#include <QWidget>

class ElidingComboBox;
class QComboBox;

class RunPicker : public QWidget {
    Q_OBJECT
public:
    explicit RunPicker(QWidget* parent = nullptr);
    QString run() const;
    /// "best", "last" or a step number, as the engine's find_checkpoint takes it.
    QString checkpoint() const;
    /// Steps of the chosen run's checkpoints, ascending.
    QList<qint64> steps() const;

public slots:
    /// Re-reads the workspace's runs and the chosen run's checkpoints, keeping the selection.
    void refresh();
    /// Selects a run folder (adding it to the list when it is outside the workspace).
    void setRun(const QString& dir);
    void setCheckpoint(const QString& which);

signals:
    void changed();

protected:
    /// Re-reads the chosen run's checkpoints: a run picked when training started had none yet.
    void showEvent(QShowEvent* e) override;

private:
    void fillCheckpoints();
    /// Runs that read alike ("lr · fortunes" in the workspace and in a folder opened by hand) get their
    /// folder's place after the name.
    void tellApart();
    ElidingComboBox* m_run;
    QComboBox* m_ck;
    qsizetype m_seenOpened = 0;  // how many runs opened by hand (in any picker) the list has taken in
};
