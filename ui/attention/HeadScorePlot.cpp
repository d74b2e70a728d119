#include "ui/attention/HeadScorePlot.h"
#include "ui/widgets/TextScale.h"

#include <iterator>

namespace {
// a head's dash within its layer's hue
constexpr Qt::PenStyle kHeadDashes[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
}  // namespace

HeadScorePlot::HeadScorePlot(QWidget* parent) : QCustomPlot(parent) {
    xAxis->setLabel(tr("step"));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    legend->setVisible(false);  // until there are curves
    legend->setFont(TextScale::sized(font(), 7));
    // The legend stands right of the curves, not on them (inside the axes it hid a third of a 3x4 model's).
    // It sits at the top of its column, over a spacer that takes the rest (alone in the column, its entries
    // spread over the whole height, and an empty legend capped the curves' height).
    axisRect()->insetLayout()->take(legend);
    auto* column = new QCPLayoutGrid;
    plotLayout()->addElement(0, 1, column);
    plotLayout()->setColumnStretchFactor(1, 0.001);
    column->addElement(0, 0, legend);
    column->addElement(1, 0, new QCPLayoutElement(this));
    column->setRowStretchFactor(0, 0.001);
    // A rectangle's outline is drawn a pixel right of its last column: at the plot's edge the legend's right side
    // was not drawn
    column->setMargins(QMargins(0, 0, 3, 0));
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    showEmptyHint();
}

void HeadScorePlot::showEmptyHint() {
    auto* hint = new QCPItemText(this);
    hint->position->setType(QCPItemPosition::ptAxisRectRatio);
    hint->position->setCoords(0.5, 0.4);
    hint->setText(
        tr("Choose Probe timeline (left of the prompt) to follow each head's score over training:\n"
           "a run records its attention to the probe text at every evaluation."));
    hint->setFont(TextScale::sized(font(), 9));
    hint->setColor(Qt::darkGray);
}

QStringList HeadScorePlot::scoreNames() {
    return {tr("entropy (1 = uniform)"), tr("previous-token weight"), tr("first-token weight"), tr("self weight")};
}

const std::vector<float>& HeadScorePlot::score(const twb::HeadScores& s, int index) {
    switch (index) {
        case 1:
            return s.previous;
        case 2:
            return s.first;
        case 3:
            return s.diagonal;
        default:
            return s.entropy;
    }
}

void HeadScorePlot::setTimeline(const twb::ProbeTimeline& timeline, const std::vector<twb::HeadScores>& scores,
                                int index, qint64 step) {
    clearGraphs();
    clearItems();
    m_stepLine = nullptr;  // deleted with the items
    yAxis->setLabel(scoreNames().value(index));
    if (scores.empty()) {
        showEmptyHint();
        legend->setVisible(false);
        replot();
        return;
    }
    const int L = static_cast<int>(timeline.layers), H = static_cast<int>(timeline.heads);
    for (int l = 0; l < L; ++l)
        for (int h = 0; h < H; ++h) {
            auto* g = addGraph();
            g->setName(tr("L%1 H%2").arg(l).arg(h));
            // a hue per layer, a dash per head: a layer's heads in shades of one hue read as one colour
            g->setPen(
                QPen(QColor::fromHsvF(static_cast<double>(l) / std::max(1, L), 0.8, 0.45 + 0.4 * h / std::max(1, H)),
                     1.5, kHeadDashes[h % std::size(kHeadDashes)]));
            for (size_t i = 0; i < scores.size(); ++i)
                g->addData(static_cast<double>(timeline.steps[i]),
                           score(scores[i], index)[static_cast<size_t>(l * H + h)]);
        }
    m_stepLine = new QCPItemStraightLine(this);
    m_stepLine->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    m_stepLine->point1->setCoords(static_cast<double>(step), 0);
    m_stepLine->point2->setCoords(static_cast<double>(step), 1);
    rescaleAxes();
    yAxis->setRange(0, 1.02);
    legend->setVisible(L * H <= 24);
    // One column while the entries fit the height, else a column per layer.
    const int rowHeight = QFontMetrics(legend->font()).height() + legend->rowSpacing() + 2;
    legend->setWrap(L * H * rowHeight <= height() - 40 ? 0 : H);
    replot();
}

void HeadScorePlot::setStep(qint64 step) {
    if (!m_stepLine)
        return;
    m_stepLine->point1->setCoords(static_cast<double>(step), 0);
    m_stepLine->point2->setCoords(static_cast<double>(step), 1);
    replot(QCustomPlot::rpQueuedReplot);
}
