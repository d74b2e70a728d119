// The sweep's two plots: the validation loss curves of every cell overlaid (one colour per cell, the
// running cell's curve growing live, with its training loss as a thin line of its colour until it ends) and the final
// validation loss against one swept parameter, on a log axis when its values are positive and span a factor of 10 or
// more, or are rates (learning_rate, min_lr, weight_decay) whatever their span; either axis spans the cells' own
// values.
#pragma once
#include "twb/experiments.h"
#include "twb/training.h"

#include <QWidget>
#include <map>

class QComboBox;
class QCustomPlot;
class QCPGraph;

class SweepPlots : public QWidget {
    Q_OBJECT
public:
    explicit SweepPlots(QWidget* parent = nullptr);
    /// Shows the finished cells' curves (from their metrics.csv) and the final-loss plot.
    /// The runs' curves; the final-loss plot's key chooser offers the swept keys (the sweep's axes, given
    /// while only one cell has finished) and every key that differs among the runs.
    void setRuns(const std::vector<twb::RunSummary>& runs, const QStringList& swept = {});
    /// The running cell's evaluation, added to its curve at once.
    void addEval(const QString& runDir, const twb::EvalReport& e);
    /// The running cell's training loss, a thin line of its colour (a cell between evaluations showed
    /// nothing moving); another cell's step starts the line again, endTraining removes it.
    void addStep(const QString& runDir, const twb::StepReport& r);
    void endTraining();
    /// The training line's points (empty when no cell runs).
    int trainingPoints() const { return int(m_trainingKeys.size()); }
    int curveCount() const;
    bool parameterAxisIsLog() const;
    QCustomPlot* curvesPlot() const { return m_curves; }
    QCustomPlot* parameterPlot() const { return m_param; }

private:
    QCPGraph* curve(const QString& runDir);
    void refreshParameterPlot();
    /// The curves' axes: steps from 0, the losses with a margin.
    void fitCurves();

    QCustomPlot* m_curves = nullptr;
    QCustomPlot* m_param = nullptr;
    QComboBox* m_key = nullptr;
    std::map<QString, QCPGraph*> m_graphs;
    std::vector<twb::RunSummary> m_runs;
    QStringList m_swept;             // the sweep's axes, which name a running cell's curve as a finished one's
    QCPGraph* m_training = nullptr;  // the running cell's training loss (rebuilt with the curves)
    QString m_trainingRun;
    QVector<double> m_trainingKeys, m_trainingLosses;
    void showTraining();
    bool m_log = false;
};
