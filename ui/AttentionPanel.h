// The attention viewer: for a run's checkpoint and any prompt, every layer and head at a glance
// (HeadGrid, with entropy / previous-token / first-token scores) and one view large (a head, a layer's
// mean over heads, or attention rollout) as a labelled heatmap with hover, zoom and pan. The probe
// timeline scrubs through the attention captured at every evaluation of a run, live while it trains,
// with the chosen score of every head plotted against step. A Positions tab shows the positional
// encoding (learned, sinusoidal, or the rotary angles). Capture runs in a ModelWorker thread.
#pragma once
#include "ui/ModelWorker.h"

#include <QThread>
#include <QTimer>
#include <QWidget>

class Heatmap;
class HeadGrid;
class QCheckBox;
class QComboBox;
class QCPItemStraightLine;
class QCustomPlot;
class ErrorLabel;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QScrollArea;
class QSlider;
class QSpinBox;
class QTabWidget;
class RunPicker;

class AttentionPanel : public QWidget {
    Q_OBJECT
public:
    explicit AttentionPanel(QWidget* parent = nullptr);
    ~AttentionPanel() override;

    enum class View { Head, LayerMean, Rollout };
    RunPicker* picker() const { return m_picker; }
    bool isBusy() const { return m_busy; }
    const twb::nn::AttentionCapture& capture() const { return m_cap; }
    const twb::ProbeTimeline& timeline() const { return m_timeline; }
    Heatmap* heatmap() const { return m_heat; }
    Heatmap* positionMap() const { return m_posMap; }
    QCustomPlot* scorePlot() const { return m_scorePlot; }
    QSlider* timelineSlider() const { return m_slider; }
    QString lastError() const;
    /// Step shown: the checkpoint's for a prompt, the slider's in timeline mode.
    qint64 shownStep() const { return m_step; }

    void setPrompt(const QString& text);
    void setView(View v);
    void setScore(int index);  // 0 entropy, 1 previous token, 2 first token, 3 self

    bool exportJson(const QString& path) const;
    bool exportCsv(const QString& path) const;

public slots:
    void setRun(const QString& dir);
    /// Captures the prompt's attention at the chosen checkpoint.
    void showPrompt();
    /// Switches to the run's probe timeline (reloads it).
    void showTimeline();
    void setTimelineIndex(int i);
    void select(int layer, int head);
    void loadPositions();
    /// A run wrote a checkpoint: refresh live views of that run.
    void runUpdated(const QString& run);

signals:
    void statusMessage(const QString& text);
    void captureRequested(const AttentionRequest& r);
    void positionsRequested(const QString& run, const QString& checkpoint);
    void probeRequested(const QString& run);
    void validationRequested(const QString& run);

protected:
    void showEvent(QShowEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void showCapture(const twb::nn::AttentionCapture& cap, const twb::nn::HeadScores& scores, qint64 step);
    void moveStepLine();
    void redraw();
    void redrawScores();
    void setBusy(bool b);
    void showError(const QString& e);
    void exportView();
    void exportData();
    std::vector<float> currentScores() const;

    RunPicker* m_picker;
    QPlainTextEdit* m_prompt;
    QPushButton* m_show;
    QPushButton* m_fromVal;
    QRadioButton* m_modePrompt;
    QRadioButton* m_modeTimeline;
    QComboBox* m_view;
    QComboBox* m_score;
    QSpinBox* m_layerBox;
    QSpinBox* m_headBox;
    HeadGrid* m_grid;
    QScrollArea* m_gridScroll;
    Heatmap* m_heat;
    QLabel* m_hover;
    QLabel* m_info;
    ErrorLabel* m_error;
    QSlider* m_slider;
    QLabel* m_stepLabel;
    QCustomPlot* m_scorePlot;
    QCPItemStraightLine* m_stepLine = nullptr;  // the shown step on the score plot
    Heatmap* m_posMap;
    QCustomPlot* m_freqPlot;
    QLabel* m_posInfo;
    QTabWidget* m_tabs;
    QCheckBox* m_live = nullptr;

    QThread m_thread;
    ModelWorker* m_worker;
    bool m_busy = false;
    twb::nn::AttentionCapture m_cap;
    twb::nn::HeadScores m_scores;  // of m_cap, computed by the worker with the capture
    twb::ProbeTimeline m_timeline;
    std::vector<twb::nn::HeadScores> m_timelineScores;
    qint64 m_step = 0;
    int m_layer = 0, m_head = 0;
    QTimer m_poll;
    qint64 m_probeBytes = -1;
};
