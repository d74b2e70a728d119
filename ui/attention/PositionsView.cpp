#include "ui/attention/PositionsView.h"

#include "ui/attention/Heatmap.h"
#include "ui/widgets/AxisTitle.h"
#include "ui/widgets/ColumnScroll.h"

#include <qcustomplot.h>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

PositionsView::PositionsView(QWidget* parent) : QWidget(parent) {
    m_map = new Heatmap;
    m_freqPlot = new QCustomPlot;
    m_freqPlot->setMaximumHeight(180);
    m_freqPlot->setMinimumHeight(120);  // at 50 px its tick labels ran into each other
    m_freqPlot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_freqPlot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    m_freqPlot->xAxis->setLabel(tr("dimension pair i"));
    setFittedYLabel(m_freqPlot, tr("θ_i (rad/position)"), QStringLiteral("θ_i"));  // "θ_i (rad/posisjon" was cut
    {
        // dimension pairs are whole numbers: no tick at 2.5
        auto pairs = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
        pairs->setTickStep(1);
        pairs->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        m_freqPlot->xAxis->setTicker(pairs);
    }
    m_info = new QLabel;
    m_info->setWordWrap(true);
    auto* load = new QPushButton(tr("Show positions"));
    // The view scrolls rather than squeeze: at 150% text the map was a strip, its colour bar's labels on
    // each other, and the description cut at both ends.
    m_map->setMinimumHeight(12 * fontMetrics().height());
    auto* content = new QWidget;
    auto* col = new QVBoxLayout(content);
    col->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(m_info, 1);
    row->addWidget(load);
    col->addLayout(row);
    col->addWidget(m_map, 3);
    col->addWidget(m_freqPlot, 1);
    auto* scroll = new ColumnScroll(content);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    connect(load, &QPushButton::clicked, this, &PositionsView::loadClicked);
    clear();
}

void PositionsView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange)
        m_map->setMinimumHeight(12 * fontMetrics().height());
}

void PositionsView::clear() {
    m_map->clear();
    m_freqPlot->clearGraphs();
    m_freqPlot->replot();
    m_freqPlot->hide();  // empty axes under an empty map looked broken; shown with a rotary scheme's frequencies
    m_map->hide();       // a grey box before Show positions; shown with the scheme
    m_info->setText(tr("Show positions draws this run's position scheme."));
}

bool PositionsView::isEmpty() const {
    return m_map->rows() == 0;
}

void PositionsView::setTable(const twb::PositionTable& t) {
    QStringList rows, cols;
    for (int64_t i = 0; i < t.rows; ++i)
        rows << QString::number(i);
    for (int64_t i = 0; i < t.cols; ++i)
        cols << QString::number(i);
    // the columns' name by the scheme, in the interface's language (the engine's is English)
    // (short: "dimension pair (rotation frequency falls to the right)" lost its start at 150% text)
    const QString columns = t.kind == twb::Position::Rotary ? tr("dimension pair i") : tr("embedding dimension");
    m_map->setMatrix(static_cast<int>(t.rows), static_cast<int>(t.cols), t.values, rows, cols, tr("position"), columns,
                     -1, 1, true);
    m_map->show();
    switch (t.kind) {
        case twb::Position::Rotary:
            m_info->setText(
                tr("Rotary positions (RoPE): each pair of query/key dimensions i is rotated by "
                   "position·θ_i with θ_i = 10000^(−2i/d). The map shows cos(position·θ_i); "
                   "the plot below the frequencies."));
            break;
        case twb::Position::Sinusoidal:
            m_info->setText(
                tr("Sinusoidal positions (Vaswani et al. 2017): sin on even, cos on odd dimensions, "
                   "wavelengths growing geometrically across the embedding."));
            break;
        case twb::Position::Learned:
            m_info->setText(
                tr("Learned positions: the rows of wpe, the position embedding table the model "
                   "trained (values clipped to −1..1 in colour)."));
            break;
    }
    m_freqPlot->clearGraphs();
    m_freqPlot->setVisible(!t.frequencies.empty());
    if (t.frequencies.empty())
        return;
    auto* g = m_freqPlot->addGraph();
    for (size_t i = 0; i < t.frequencies.size(); ++i)
        g->addData(static_cast<double>(i), t.frequencies[i]);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    m_freqPlot->rescaleAxes();
    m_freqPlot->xAxis->setRange(-0.5, static_cast<double>(t.frequencies.size()) - 0.5);
    m_freqPlot->yAxis->setRange(t.frequencies.back() / 2, t.frequencies.front() * 2);
    m_freqPlot->replot();
}
