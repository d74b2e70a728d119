#include "ui/embeddings/EmbeddingMapPlot.h"

#include "ui/widgets/AxisTitle.h"
#include "ui/widgets/TokenDisplay.h"

#include <QToolTip>

namespace {
QString tokenLabel(const std::string& s) {
    return visibleToken(QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())));
}
}  // namespace

EmbeddingMapPlot::EmbeddingMapPlot(QWidget* parent) : QCustomPlot(parent) {
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    xAxis->setLabel(tr("first principal component"));
    setFittedYLabel(this, tr("second principal component"), tr("component 2"));
    setMouseTracking(true);
    setMinimumSize(300, 240);
    connect(this, &QCustomPlot::afterLayout, this, &EmbeddingMapPlot::spaceLabels);
}

void EmbeddingMapPlot::spaceLabels() {
    QVector<QRectF> taken;
    for (QCPItemText* t : m_labels) {
        // As drawn: right of and above the point, past the padding.
        const QPointF at = t->position->pixelPosition();
        const QFontMetricsF fm(t->font());
        const QRectF box(at.x() + t->padding().left(), at.y() - fm.height() - t->padding().bottom(),
                         fm.horizontalAdvance(t->text()), fm.height());
        const bool clear = std::none_of(taken.begin(), taken.end(), [&](const QRectF& r) { return r.intersects(box); });
        t->setVisible(clear);
        if (clear)
            taken << box;
    }
}

int EmbeddingMapPlot::shownLabels() const {
    return int(std::count_if(m_labels.begin(), m_labels.end(), [](const QCPItemText* t) { return t->visible(); }));
}

void EmbeddingMapPlot::setMap(const twb::EmbeddingMap& map, int labelled) {
    m_map = map;
    m_hover = -1;
    clearGraphs();
    clearItems();
    m_labels.clear();
    auto* g = addGraph();
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(40, 90, 170, 150), QColor(40, 90, 170, 150), 6));
    // A graph sorts its data by key; the hover search works on the map's own points instead.
    QVector<double> xs, ys;
    for (const auto& p : map.points) {
        xs << p.x;
        ys << p.y;
    }
    g->setData(xs, ys);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    for (int i = 0; i < std::min<int>(labelled, static_cast<int>(map.points.size())); ++i) {
        auto* t = new QCPItemText(this);
        t->position->setCoords(map.points[static_cast<size_t>(i)].x, map.points[static_cast<size_t>(i)].y);
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        t->setPadding(QMargins(4, 0, 0, 2));
        t->setFont(f);
        t->setColor(QColor(150, 40, 40));
        t->setText(tokenLabel(map.points[static_cast<size_t>(i)].text));
        m_labels << t;
    }
    if (map.points.empty()) {  // cleared: no share of a variance that is not there, and no stale ranges
        xAxis->setLabel(tr("first principal component"));
        setFittedYLabel(this, tr("second principal component"), tr("component 2"));
        xAxis->setRange(0, 1);
        yAxis->setRange(0, 1);
        replot();
        return;
    }
    xAxis->setLabel(
        tr("first principal component (%1% of the variance)").arg(QLocale().toString(100 * map.explained[0], 'f', 1)));
    const QString share = QLocale().toString(100 * map.explained[1], 'f', 1);
    setFittedYLabel(this, tr("second principal component (%1%)").arg(share), tr("component 2 (%1%)").arg(share));
    rescaleAxes();
    // Room for the labels (drawn right of and above their points) at the edges.
    const QCPRange xr = xAxis->range(), yr = yAxis->range();
    xAxis->setRange(xr.lower - 0.04 * xr.size(), xr.upper + 0.16 * xr.size());
    yAxis->setRange(yr.lower - 0.04 * yr.size(), yr.upper + 0.08 * yr.size());
    replot();
}

int EmbeddingMapPlot::pointAt(const QPointF& pos, double radius) const {
    int best = -1;
    double bestD = radius * radius + 1e-9;  // the first of several points on the same pixel wins
    for (size_t i = 0; i < m_map.points.size(); ++i) {
        const double dx = xAxis->coordToPixel(m_map.points[i].x) - pos.x();
        const double dy = yAxis->coordToPixel(m_map.points[i].y) - pos.y();
        if (dx * dx + dy * dy < bestD) {
            bestD = dx * dx + dy * dy;
            best = static_cast<int>(i);
        }
    }
    return best;
}

QString EmbeddingMapPlot::describe(int i) const {
    if (i < 0 || i >= static_cast<int>(m_map.points.size()))
        return {};
    const auto& p = m_map.points[static_cast<size_t>(i)];
    QString s = tr("%1  (id %2").arg(tokenLabel(p.text)).arg(p.id);
    if (m_map.by_frequency)
        s += tr(", %1 occurrences, rank %2").arg(p.count).arg(i + 1);
    return s + tr(")  at (%1, %2)").arg(QLocale().toString(p.x, 'g', 3), QLocale().toString(p.y, 'g', 3));
}

void EmbeddingMapPlot::mouseMoveEvent(QMouseEvent* e) {
    QCustomPlot::mouseMoveEvent(e);
    const int i = pointAt(e->position());
    if (i == m_hover)
        return;
    m_hover = i;
    const QString text = describe(i);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(e->globalPosition().toPoint(), text, this);
    emit hovered(text);
}
