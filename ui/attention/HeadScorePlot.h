// The Attention panel's "Head scores over training" tab: one curve per head of the chosen score
// (entropy, previous-token, first-token or self weight) against step over a run's probe timeline, with
// a dashed line at the step shown. Also names the scores, for the panel's score chooser.
#pragma once
#include "twb/attention.h"
#include "twb/probe.h"

#include <qcustomplot.h>
#include <QStringList>
#include <vector>

class HeadScorePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit HeadScorePlot(QWidget* parent = nullptr);
    /// The scores in chooser order: 0 entropy, 1 previous token, 2 first token, 3 self.
    static QStringList scoreNames();
    /// The score with that index, per head ([layer * heads + head]).
    static const std::vector<float>& score(const twb::HeadScores& s, int index);
    /// Redraws the curves: scores[i] belongs to timeline.steps[i]. Empty scores clear the plot.
    void setTimeline(const twb::ProbeTimeline& timeline, const std::vector<twb::HeadScores>& scores, int index,
                     qint64 step);
    /// Moves the dashed line to the step shown (the curves stay).
    void setStep(qint64 step);

private:
    /// What the empty plot is for, and how to fill it (a newcomer saw empty axes and a blank legend).
    void showEmptyHint();

    QCPItemStraightLine* m_stepLine = nullptr;  // owned by the plot; deleted with its items
};
