#include "ui/attention/Heatmap.h"

#include <qcustomplot.h>
#include <QMouseEvent>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace {
/// Integer ticks only, every n-th token labelled: n is the smallest that keeps the labels a font height
/// apart (across their slant on a rotated axis), so they never overlap; hovering names every token.
class TokenTicker : public QCPAxisTicker {
public:
    explicit TokenTicker(QCPAxis* axis) : m_axis(axis) {}
    QStringList labels;

protected:
    double getTickStep(const QCPRange& range) override {
        const bool across = m_axis->orientation() == Qt::Horizontal;
        const double pixels = across ? m_axis->axisRect()->width() : m_axis->axisRect()->height();
        if (pixels <= 0 || range.size() <= 0)
            return std::max(1.0, std::ceil(range.size() / 40));  // not laid out yet
        const double slant = across ? std::sin(std::abs(m_axis->tickLabelRotation()) * M_PI / 180) : 1.0;
        const double need = QFontMetricsF(m_axis->tickLabelFont()).height() * 1.1 / std::max(0.2, slant);
        return std::max(1.0, std::ceil(need / (pixels / range.size())));
    }
    int getSubTickCount(double) override { return 0; }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        const int i = static_cast<int>(std::lround(tick));
        return i >= 0 && i < labels.size() ? labels[i] : QString();
    }
    QVector<double> createTickVector(double step, const QCPRange& range) override {
        QVector<double> v;
        for (double t = std::max(0.0, std::ceil(range.lower / step) * step);
             t <= std::min<double>(range.upper, labels.size() - 1); t += step)
            v << t;
        return v;
    }

private:
    QCPAxis* m_axis;
};
}  // namespace

Heatmap::Heatmap(QWidget* parent) : QWidget(parent) {
    m_plot = new QCustomPlot;
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setNoAntialiasingOnDrag(true);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);
    m_map->setVisible(false);  // nothing to show until the first matrix
    m_scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(0, 1, m_scale);
    m_map->setColorScale(m_scale);
    m_scale->setVisible(false);
    auto* margin = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margin);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margin);
    m_plot->yAxis->setRangeReversed(true);  // first row at the top, as in a matrix
    // Light grey behind the map: masked (NaN) cells show grey, distinct from a weight of 0 (white).
    m_plot->axisRect()->setBackground(QBrush(QColor(232, 232, 232)));
    m_plot->xAxis->setTickLabelRotation(60);
    for (auto* ax : {m_plot->xAxis, m_plot->yAxis}) {
        ax->setTicker(QSharedPointer<QCPAxisTicker>(new TokenTicker(ax)));
        ax->grid()->setVisible(false);
    }
    // The colour scale's labels as many as its height holds (a short map at 150% text drew "1, 0,8 … 0" on
    // each other): one label-height apart at the least, from two (its ends) to six.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        const int room = m_scale->rect().height();
        const int label = QFontMetrics(m_scale->axis()->tickLabelFont()).height();
        if (room > 0 && label > 0)
            m_scale->axis()->ticker()->setTickCount(std::clamp(room / (2 * label), 1, 5));
    });
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    auto* col = new QVBoxLayout(this);
    col->setContentsMargins(0, 0, 0, 0);
    col->addWidget(m_plot);
}

void Heatmap::clear() {
    m_rows = m_cols = 0;
    m_values.clear();
    m_map->data()->clear();
    m_map->setVisible(false);
    m_scale->setVisible(false);
    // Nor the tokens of the map that was shown along its axes.
    static_cast<TokenTicker*>(m_plot->xAxis->ticker().data())->labels.clear();
    static_cast<TokenTicker*>(m_plot->yAxis->ticker().data())->labels.clear();
    m_plot->xAxis->setLabel(QString());
    m_plot->yAxis->setLabel(QString());
    m_plot->replot();
}

void Heatmap::setMatrix(int rows, int cols, const std::vector<float>& values, const QStringList& rowLabels,
                        const QStringList& colLabels, const QString& rowTitle, const QString& colTitle, double zmin,
                        double zmax, bool diverging) {
    const bool sameShape = rows == m_rows && cols == m_cols;
    m_rows = rows;
    m_cols = cols;
    m_values = values;
    m_rowLabels = rowLabels;
    m_colLabels = colLabels;
    m_rowTitle = rowTitle;
    m_colTitle = colTitle;
    m_map->setVisible(true);
    m_scale->setVisible(true);
    auto* d = m_map->data();
    d->setSize(cols, rows);
    d->setRange(QCPRange(0, std::max(0, cols - 1)), QCPRange(0, std::max(0, rows - 1)));
    float lo = INFINITY, hi = -INFINITY;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const float v = values[static_cast<size_t>(r) * cols + c];
            d->setCell(c, r, v);
            if (!std::isnan(v))
                lo = std::min(lo, v), hi = std::max(hi, v);
        }
    QCPColorGradient g(diverging ? QCPColorGradient::gpPolar : QCPColorGradient::gpThermal);
    if (!diverging) {
        g.clearColorStops();
        g.setColorStopAt(0, QColor(255, 255, 255));
        g.setColorStopAt(0.35, QColor(120, 170, 230));
        g.setColorStopAt(0.7, QColor(40, 70, 170));
        g.setColorStopAt(1, QColor(10, 10, 60));
    }
    g.setNanHandling(QCPColorGradient::nhTransparent);
    m_map->setGradient(g);
    if (zmin == zmax)
        m_map->setDataRange(QCPRange(lo, hi > lo ? hi : lo + 1));
    else
        m_map->setDataRange(QCPRange(zmin, zmax));
    static_cast<TokenTicker*>(m_plot->xAxis->ticker().data())->labels = colLabels;
    static_cast<TokenTicker*>(m_plot->yAxis->ticker().data())->labels = rowLabels;
    m_plot->xAxis->setLabel(colTitle);
    m_plot->yAxis->setLabel(rowTitle);
    if (!sameShape) {
        m_plot->xAxis->setRange(-0.5, cols - 0.5);
        m_plot->yAxis->setRange(-0.5, rows - 0.5);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

float Heatmap::value(int row, int col) const {
    if (row < 0 || col < 0 || row >= m_rows || col >= m_cols)
        return NAN;
    return m_values[static_cast<size_t>(row) * m_cols + col];
}

QString Heatmap::describe(int row, int col) const {
    const float v = value(row, col);
    auto lab = [](const QStringList& l, int i) { return i < l.size() ? "'" + l[i] + "'" : QString(); };
    return tr("%1 %2 (%3) → %4 %5 (%6): %7")
        .arg(m_rowTitle, lab(m_rowLabels, row))
        .arg(row)
        .arg(m_colTitle, lab(m_colLabels, col))
        .arg(col)
        .arg(std::isnan(v) ? tr("masked") : QLocale().toString(v, 'f', 4));
}

bool Heatmap::eventFilter(QObject* o, QEvent* e) {
    if (o == m_plot && e->type() == QEvent::MouseButtonDblClick)
        emit doubleClicked();
    if (o == m_plot && e->type() == QEvent::Leave)
        emit hovered(QString());  // nothing under the mouse: the last cell's read-out stayed as if it were
    if (o == m_plot && e->type() == QEvent::MouseMove && m_rows > 0) {
        const auto* me = static_cast<QMouseEvent*>(e);
        const int c = static_cast<int>(std::lround(m_plot->xAxis->pixelToCoord(me->position().x())));
        const int r = static_cast<int>(std::lround(m_plot->yAxis->pixelToCoord(me->position().y())));
        if (r >= 0 && c >= 0 && r < m_rows && c < m_cols) {
            m_plot->setToolTip(describe(r, c));  // the full tokens, whichever labels are thinned out
            emit hovered(describe(r, c));
        }
    }
    return QWidget::eventFilter(o, e);
}

// Both exports write through a QSaveFile: a failed export never leaves half an image behind.
bool Heatmap::savePng(const QString& path) {
    QSaveFile out(path);
    return out.open(QIODevice::WriteOnly) && m_plot->toPixmap(0, 0, 2.0).save(&out, "PNG") && out.commit();
}

bool Heatmap::saveSvg(const QString& path) {
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return false;
    {
        QSvgGenerator gen;
        gen.setOutputDevice(&out);
        gen.setSize(m_plot->size());
        gen.setViewBox(m_plot->rect());
        QCPPainter painter(&gen);
        m_plot->toPainter(&painter, m_plot->width(), m_plot->height());
        if (!painter.end())
            return false;
    }
    return out.commit();
}
