// Live training curves (QCustomPlot): loss (train and val, log-scale toggle, smoothing), validation
// accuracy, learning rate and tokens/s. Points are appended as they arrive; a ~25 Hz timer replots only
// when something changed. Zoom and pan with the mouse, hover read-out, PNG/SVG/CSV export, and other
// runs' validation loss overlaid for comparison, in nats per token or bits per character. An
// encoder-decoder run's validation BLEU on its own axis at the loss plot's right, and the x-axis in steps
// or in epochs.
#pragma once
#include "twb/metrics.h"
#include "twb/training.h"

#include <QTimer>
#include <QWidget>

class QCustomPlot;
class QGridLayout;
class QTabBar;
class QCPGraph;
class QCPAbstractItem;
class QCPItemText;
class QCPTextElement;

class MetricsPlot : public QWidget {
    Q_OBJECT
public:
    explicit MetricsPlot(QWidget* parent = nullptr);
    void clear();
    void addStep(const twb::StepReport& r);
    void addEval(const twb::EvalReport& r);
    /// Shows a finished run's metrics.csv rows (replaces what is shown).
    void loadRows(const std::vector<twb::MetricsRow>& rows);
    /// Overlays another run's validation loss on the loss plot.
    void addComparison(const QString& name, const std::vector<twb::MetricsRow>& rows);
    void clearComparisons();
    /// Horizontal reference lines on the loss plot (a dataset's uniform, unigram and bigram validation
    /// losses), labelled; an empty list removes them. The loss axis widens to show them.
    void setBaselines(const QVector<QPair<QString, double>>& lines);
    int baselineCount() const { return int(m_baselines.size()); }
    void setLogScale(bool on);
    void setSmoothing(double alpha);  // 0 = raw, up to 0.99 (EMA of the train loss shown)
    /// Shows the validation loss (this run's and the compared runs') in bits per character instead of
    /// nats per token: the unit in which runs with different tokenizers compare. The training loss has
    /// no per-character figure and is hidden meanwhile.
    void setBitsPerChar(bool on);
    bool bitsPerChar() const { return m_bpc; }
    /// The x-axis in epochs (passes over the training pairs) instead of steps, for the rows that carry an
    /// epoch (an encoder-decoder run's); other rows stay at their step.
    void setEpochAxis(bool on);
    bool epochAxis() const { return m_epochAxis; }
    /// Whether the x-axis shows epochs now (asked for, and the rows have them).
    bool showingEpochs() const { return m_epochAxis && m_hasEpochs; }
    /// The validation BLEU points (x in the axis's unit, BLEU 0-100), for tests.
    int bleuPoints() const;
    QPointF bleuPoint(int i) const;
    /// The points of a comparison graph (index in the order added), for tests.
    int comparisonPoints(int index) const;
    double comparisonValue(int index, int point) const;
    /// The run's name in the loss plot's title (and so in exported images); empty leaves "Loss".
    void setRunName(const QString& name);
    QString runName() const;
    bool savePng(const QString& path);
    bool saveSvg(const QString& path);
    bool saveCsv(const QString& path) const;
    int trainPoints() const;
    int evalPoints() const;
    QCustomPlot* lossPlot() const { return m_loss; }
    /// Whether the small plots (accuracy, learning rate, throughput) have room under the loss plot now;
    /// where they have not, tabs choose the one plot shown.
    bool showsSmallPlots() const;
    QTabBar* plotTabs() const { return m_tabs; }

signals:
    /// A plot was double-clicked (the Training panel enlarges them).
    void doubleClicked();

protected:
    void resizeEvent(QResizeEvent* e) override;  // the y ticks follow the plots' height

private:
    void nameOwnValidation();
    /// Arms a single-shot replot within ~40 ms; no timer runs while nothing changes, so an idle window
    /// never wakes the UI thread (on 2 cores every wake-up takes time from the training threads).
    void markDirty() {
        m_dirty = true;
        if (!m_timer.isActive())
            m_timer.start();
    }
    // MetricsPlotRender.cpp, with the exports
    void replotIfDirty();
    /// The baselines' lines kept in view (before a replot's layout).
    void placeBaselines();
    /// Each baseline label above its line or, where that is cut by the top or by the label above, under it
    /// (after the replot's layout, for the axis rect it draws into).
    void placeBaselineLabels();
    /// The loss axis's label, short ("nats") where the plot is too short for the whole one: at 150% text
    /// with the resume banner shown, "cross-entropy (nats)" lost its end.
    void fitLossLabel();
    /// The small plots' row shown only where the loss plot keeps an axis of some lines' height beside it: at
    /// 1280x720 and 150% text the loss plot's axis was a strip of 30 px under its title and legend. Where it
    /// does not, one plot at a time takes the whole height, chosen by tabs.
    void fitSmallPlots();
    /// The small plots in a row under the loss plot (`row`), or each over the whole of it (one shown at a time).
    void placeSmallPlots(bool row);
    /// Shows the plot the tabs choose, alone.
    void showOnePlot();
    void rebuildSmoothed();
    void fillValidation();
    /// The x of a row: its epoch when the axis shows epochs and the row has one, else its step.
    double xOf(const twb::MetricsRow& row) const;
    void plotStep(const twb::MetricsRow& row);
    void plotEval(const twb::MetricsRow& row);
    /// Redraws every graph from the rows (after the x-axis unit changed).
    void replotRows();
    void updateAxisLabels();
    QCustomPlot* makePlot(const QString& title, const QString& yLabel, const QString& shortTitle = {});
    /// A small plot's y ticks: a step fitted to its height and range, also while zooming (MetricsPlotRender.cpp).
    void useSmallTicks(QCustomPlot* p);
    /// The x axis's ticks fitted to its width and range, also while zooming and panning.
    void followXRange(QCustomPlot* p);
    QCustomPlot *m_loss, *m_acc, *m_lr, *m_speed;
    QGridLayout* m_grid;
    QTabBar* m_tabs;    // the plot shown, where there is room for one only
    QString m_runName;  // the run whose curves these are (its validation's name beside compared runs)
    QCPGraph *m_train, *m_trainSmooth, *m_val, *m_accGraph, *m_lrGraph, *m_speedGraph;
    QCPGraph* m_bleu = nullptr;  // on the loss plot's right axis (yAxis2)
    bool m_epochAxis = false;
    bool m_hasEpochs = false;
    std::vector<QCPGraph*> m_compare;
    std::vector<std::vector<twb::MetricsRow>> m_compareRows;
    bool m_bpc = false;
    QCPTextElement* m_bpcNote = nullptr;  // why the training curves are gone in bits per character
    QVector<QPair<QString, double>> m_baselines;
    std::vector<QCPAbstractItem*> m_baselineItems;
    std::vector<double> m_steps, m_losses;
    std::vector<twb::MetricsRow> m_rows;  // everything shown, for CSV export
    double m_alpha = 0.0;
    bool m_dirty = false;
    QTimer m_timer;
};
