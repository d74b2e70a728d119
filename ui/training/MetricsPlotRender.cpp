#include "ui/training/MetricsPlot.h"
#include "ui/widgets/FigureFile.h"

#include <qcustomplot.h>
#include <QFontMetrics>
#include <QSaveFile>
#include <QTextStream>

#include <algorithm>
#include <cmath>

// How the plots are drawn: the axes fitted to the data, the smoothed training curve, the throttled
// replot, and the PNG, SVG and CSV exports.

namespace {
/// Axes that frame the data: a margin so no point sits on the edge, a range around a single point
/// (never below zero for quantities that are never negative), and a neutral frame with no numbers while
/// there is nothing to show.
/// Returns whether the plot's points span more than one x (for the shared step axis).
bool fitAxes(QCustomPlot* p) {
    bool any = false, anyX = false, anyRight = false;
    double x0 = 0, x1 = 0, y0 = 0, y1 = 0, r1 = 0;
    for (int i = 0; i < p->graphCount(); ++i) {
        auto* g = p->graph(i);
        if (!g->visible())
            continue;
        const bool left = g->valueAxis() == p->yAxis;  // a right-axis graph (BLEU) has its own range
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            if (!std::isfinite(it->value) ||
                (left && p->yAxis->scaleType() == QCPAxis::stLogarithmic && it->value <= 0))
                continue;
            x0 = anyX ? std::min(x0, it->key) : it->key;
            x1 = anyX ? std::max(x1, it->key) : it->key;
            anyX = true;
            if (!left) {
                r1 = anyRight ? std::max(r1, it->value) : it->value;
                anyRight = true;
                continue;
            }
            y0 = any ? std::min(y0, it->value) : it->value;
            y1 = any ? std::max(y1, it->value) : it->value;
            any = true;
        }
    }
    // The right axis (BLEU, 0-100) from 0 to a little above its best, shown only while it has points.
    p->yAxis2->setVisible(anyRight);
    p->yAxis2->setRange(0, anyRight ? std::max(1.0, r1 * 1.1) : 1.0);
    p->xAxis->setTickLabels(anyX);
    p->yAxis->setTickLabels(any);
    if (!anyX) {
        p->xAxis->setRange(0, 1);
        p->yAxis->setRange(p->yAxis->scaleType() == QCPAxis::stLogarithmic ? QCPRange(1, 10) : QCPRange(0, 1));
        return false;
    }
    const double xs = x1 > x0 ? x1 - x0 : std::max(1.0, std::abs(x0) * 0.1);
    if (x1 == x0)  // one point (the first evaluation, at step 0): in the middle, not half off the left edge
        p->xAxis->setRange(x0 - 0.5 * xs, x0 + 0.5 * xs);
    else if (x0 >= 0 && x0 <= 0.25 * x1)        // from step 0 like the plots beside it (the learning rate's, logged
        p->xAxis->setRange(0, x1 + 0.03 * xs);  // from step 5, had one tick, 100, and no 0)
    else
        p->xAxis->setRange(std::max(x0 >= 0 ? 0.0 : -1e300, x0 - 0.03 * xs), x1 + 0.03 * xs);
    const bool spans = x1 > x0;
    if (!any)
        return spans;
    if (p->yAxis->scaleType() == QCPAxis::stLogarithmic) {
        p->yAxis->setRange(y0 / 1.1, y1 * 1.1);
        return spans;
    }
    if (y1 == y0 && y0 == 0) {  // nothing but zeros (an accuracy of 0 at step 0): 0 to 1, not 0 to 6e-11
        p->yAxis->setRange(0, 1);
        return spans;
    }
    if (y1 == y0) {  // one value: a span around it ("0.0312 to 0.0316" for a single accuracy read badly)
        p->yAxis->setRange(y0 >= 0 ? 0.0 : 2 * y0, y0 >= 0 ? 2 * y0 : 0.0);
        return spans;
    }
    const double ys = y1 - y0;
    p->yAxis->setRange(y0 >= 0 ? std::max(0.0, y0 - 0.06 * ys) : y0 - 0.06 * ys, y1 + 0.06 * ys);
    return spans;
}

/// The loss plot: as many y ticks as its height holds with room between their labels, up to five; the
/// BLEU axis on its right likewise (at 150% text in a short plot its five labels lay on each other).
void fitTickCount(QCustomPlot* p) {
    const int label = QFontMetrics(p->yAxis->tickLabelFont()).height();
    const int room = p->axisRect()->height() > 0 ? p->axisRect()->height() : p->height() / 2;
    p->yAxis->ticker()->setTickCount(std::clamp(room / (3 * label), 2, 5));
    p->yAxis2->ticker()->setTickCount(std::clamp(room / (3 * label), 1, 5));
}

/// A plot's title, its short form ("shortTitle") where the plot is narrower than it, shortened with "…"
/// where even that does not fit (a small plot at 150% text in Bokmål: "ideringsnøyaktigl"); its whole
/// text is kept in the plot's "title" property.
void fitTitle(QCustomPlot* p) {
    auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
    const QString whole = p->property("title").toString();
    if (!title || whole.isEmpty())
        return;
    const int room = p->width() - 8;
    const QFontMetrics fm(title->font());
    const QString brief = p->property("shortTitle").toString();
    const QString text = brief.isEmpty() || fm.horizontalAdvance(whole) <= room ? whole : brief;
    title->setText(room > 0 ? fm.elidedText(text, Qt::ElideRight, room) : text);
}

/// The x axis (steps or epochs): as many ticks as its width holds with two labels' width from one to the
/// next, up to five; a half-width plot at 1280x720 had eight on 700 steps, their labels run together. A
/// count of one gives two labels (0 and 500): the small plots at 150% text had three run together.
void fitXTickCount(QCustomPlot* p) {
    const QFontMetrics fm(p->xAxis->tickLabelFont());
    const QCPRange r = p->xAxis->range();
    const int label = fm.horizontalAdvance(QString::number(std::max(std::abs(r.lower), std::abs(r.upper)), 'f', 0)) +
                      2 * fm.averageCharWidth();
    // Room on the right for half the widest label: one at the axis's end (500 on 0..515) ran past the plot's
    // edge, and QCustomPlot does not draw such a label.
    QMargins margins = p->axisRect()->minimumMargins();
    if (const int half = (label - 2 * fm.averageCharWidth()) / 2 + 2; margins.right() != half) {
        margins.setRight(half);
        p->axisRect()->setMinimumMargins(margins);
    }
    const int room = p->axisRect()->width();
    if (room <= 0 || label <= 0)
        return;
    p->xAxis->ticker()->setTickCount(std::clamp(room / (2 * label), 1, 5));
    // Steps: the smallest whole step of 1, 2 or 5 times a power of ten whose ticks are a label and a half
    // apart. A count of one gave a step of the whole range: on 10..100 its ticks (0 and 100) fell outside
    // or on the edge, and a small plot at 150% text labelled no step at all.
    auto fixed = p->xAxis->ticker().dynamicCast<QCPAxisTickerFixed>();
    const double size = r.size();
    if (!fixed || !(size > 0) || !std::isfinite(size))
        return;
    const double least = std::max(1.0, size * 1.5 * label / room);
    const double magnitude = std::pow(10.0, std::floor(std::log10(least)));
    double step = 10 * magnitude;
    for (double m : {1.0, 2.0, 5.0})
        if (m * magnitude >= least) {
            step = m * magnitude;
            break;
        }
    if (step > size) {  // no multiple of it might fall in the range: the largest step that has one
        // (a magnitude down where none of this one does: 500 on 0..800, where a narrow plot asked for 1052
        // and got 2000, labelling 0 alone)
        const double below = std::pow(10.0, std::floor(std::log10(size)));
        for (double m : {5.0, 2.0, 1.0})
            if (m * below <= size) {
                step = m * below;
                break;
            }
    }
    fixed->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    fixed->setTickStep(step);
}

/// A small plot (an axis some 45 pixels tall at 1280x720): the smallest step of 1, 2, 2.5 or 5 times a
/// power of ten whose ticks are a label's height apart (and at most about five), so two or three labels
/// show and none overlaps, whatever the range or zoom. QCustomPlot's tick count alone gives one label
/// there, or overlapping ones.
void fitSmallTicks(QCustomPlot* p) {
    auto fixed = p->yAxis->ticker().dynamicCast<QCPAxisTickerFixed>();
    const double room = p->axisRect()->height(), size = p->yAxis->range().size();
    if (!fixed || room <= 0 || !(size > 0) || !std::isfinite(size))
        return;
    const double label = QFontMetrics(p->yAxis->tickLabelFont()).height();
    const double least = size * std::max(label, room / 5) / room;
    const double magnitude = std::pow(10.0, std::floor(std::log10(least)));
    double step = 10 * magnitude;
    for (double m : {1.0, 2.0, 2.5, 5.0})
        if (m * magnitude >= least) {
            step = m * magnitude;
            break;
        }
    fixed->setTickStep(step);
}

/// The small plots' ticks, thousands and millions written short ("500k", "1.5M"): QCustomPlot's own labels
/// read "1.5E+06" on the throughput plot of a GPU run.
class ShortTicker : public QCPAxisTickerFixed {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar format, int precision) override {
        const double a = std::abs(tick);
        if (a >= 1e6)
            return locale.toString(tick / 1e6, 'g', 3) + "M";
        if (a >= 1e4)
            return locale.toString(tick / 1e3, 'g', 3) + "k";
        return QCPAxisTickerFixed::getTickLabel(tick, locale, format, precision);
    }
};

/// Widens a small plot's fitted range to whole steps, so a label stands at each end: two at least, where
/// a range of 0.11 to 0.29 would show 0.2 alone. (Ticks are k x step, as the ticker computes them.)
void roundRangeToTicks(QCustomPlot* p) {
    auto fixed = p->yAxis->ticker().dynamicCast<QCPAxisTickerFixed>();
    if (!fixed || !p->yAxis->tickLabels() || fixed->tickStep() <= 0)
        return;  // nothing plotted yet
    const double step = fixed->tickStep();
    const QCPRange r = p->yAxis->range();
    p->yAxis->setRange(std::floor(r.lower / step + 1e-9) * step, std::ceil(r.upper / step - 1e-9) * step);
}
}  // namespace

void MetricsPlot::useSmallTicks(QCustomPlot* p) {
    auto ticker = QSharedPointer<ShortTicker>::create();
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    p->yAxis->setTicker(ticker);
    // Zooming and panning change the range between our replots: the step follows at once.
    connect(p->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), p, [p] { fitSmallTicks(p); });
}

void MetricsPlot::followXRange(QCustomPlot* p) {
    connect(p->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), p, [p] { fitXTickCount(p); });
}

void MetricsPlot::fitLossLabel() {
    const QString whole = m_bpc ? tr("bits per character") : tr("cross-entropy (nats)");
    const QString brief = m_bpc ? tr("bits/char") : tr("nats");
    const int room = m_loss->axisRect()->height();
    const bool fits = room <= 0 || QFontMetrics(m_loss->yAxis->labelFont()).horizontalAdvance(whole) <= room;
    m_loss->yAxis->setLabel(fits ? whole : brief);
}

void MetricsPlot::rebuildSmoothed() {
    m_trainSmooth->data()->clear();
    double s = 0;
    for (size_t i = 0; i < m_losses.size(); ++i) {
        s = i == 0 ? m_losses[i] : m_alpha * s + (1 - m_alpha) * m_losses[i];
        m_trainSmooth->addData(m_steps[i], s);
    }
    markDirty();
}

void MetricsPlot::fitSmallPlots() {
    // Under the loss plot's axis: its title, legend and x axis, measured where it has been laid out.
    const int line = QFontMetrics(m_loss->yAxis->tickLabelFont()).height();
    const int around = m_loss->axisRect()->height() > 0 ? m_loss->height() - m_loss->axisRect()->height() : 8 * line;
    const int row = std::max(m_acc->minimumHeight(), height() / 4) + std::max(0, m_grid->verticalSpacing());
    const bool room = height() - row - around >= 6 * line;
    if (room == showsSmallPlots())
        return;
    placeSmallPlots(room);
    if (!room)
        showOnePlot();
}

void MetricsPlot::placeSmallPlots(bool row) {
    m_tabs->setVisible(!row);
    const QList<QCustomPlot*> small{m_acc, m_lr, m_speed};
    for (int i = 0; i < small.size(); ++i) {
        m_grid->removeWidget(small[i]);
        row ? m_grid->addWidget(small[i], 2, i) : m_grid->addWidget(small[i], 1, 0, 1, 3);
        small[i]->setVisible(row);
    }
    m_loss->setVisible(true);
    updateAxisLabels();  // titled where each stands alone
    m_grid->setRowStretch(1, 3);
    m_grid->setRowStretch(2, row ? 1 : 0);
}

void MetricsPlot::showOnePlot() {
    const QList<QCustomPlot*> all{m_loss, m_acc, m_lr, m_speed};
    for (int i = 0; i < all.size(); ++i)
        all[i]->setVisible(i == m_tabs->currentIndex());
    markDirty();
}

bool MetricsPlot::showsSmallPlots() const {
    return m_tabs->isHidden();
}

void MetricsPlot::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    fitSmallPlots();
    markDirty();
}

void MetricsPlot::replotIfDirty() {
    if (!m_dirty)
        return;
    m_dirty = false;
    fitSmallPlots();  // the legend's rows may have changed what the loss plot needs around its axis
    // The BLEU entry is in the legend only for a run that has BLEU (an encoder-decoder's).
    if (m_bleu->data()->isEmpty() == m_loss->legend->hasItemWithPlottable(m_bleu))
        m_bleu->data()->isEmpty() ? m_bleu->removeFromLegend() : m_bleu->addToLegend();
    fitLossLabel();
    // One step axis for the four: each fitted to its own points, then all to the widest (the accuracy's
    // ended at the last evaluation, 100, while the loss and the learning rate ran on to 170).
    QCPRange x;
    bool anyX = false;
    for (auto* p : {m_loss, m_acc, m_lr, m_speed}) {
        fitTitle(p);
        if (!fitAxes(p))  // nothing plotted, or one point: it takes the others' range below
            continue;
        const QCPRange r = p->xAxis->range();
        x = anyX ? QCPRange(std::min(x.lower, r.lower), std::max(x.upper, r.upper)) : r;
        anyX = true;
    }
    for (auto* p : {m_loss, m_acc, m_lr, m_speed}) {
        if (anyX && p->xAxis->tickLabels())
            p->xAxis->setRange(x);
        fitXTickCount(p);
        if (p == m_loss)
            fitTickCount(p);
        else {
            fitSmallTicks(p);  // the axis rect's height may have changed since the range did
            roundRangeToTicks(p);
        }
        if (p == m_loss)
            placeBaselines();
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

void MetricsPlot::placeBaselines() {
    // The reference lines stay in view (values are positive: a margin by ratio suits both scales).
    for (const auto& b : m_baselines) {
        const QCPRange r = m_loss->yAxis->range();
        if (b.second < r.lower && b.second > 0)
            m_loss->yAxis->setRangeLower(b.second * 0.96);
        if (b.second > r.upper)
            m_loss->yAxis->setRangeUpper(b.second * 1.04);
    }
}

void MetricsPlot::placeBaselineLabels() {
    // Each label stands above its line where it fits: below the plot's top and clear of the label above it;
    // else under its line, pushed down below that label where the lines are closer than a label is tall
    // (unigram's and bigram's overlapped). A label above the top was cut in half, and growing the range to
    // make room for it (a label's height in a short plot at larger text) raised the axis to 10000.
    std::vector<size_t> order(m_baselines.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [this](size_t a, size_t b) {
        return m_baselines[static_cast<int>(a)].second > m_baselines[static_cast<int>(b)].second;
    });
    // Where the plot is too short for that, the label goes left of the one placed before, on its row.
    const QRect area = m_loss->axisRect()->rect();
    double taken = area.top();                // the lowest pixel of the labels placed so far
    double right = 0.99, lastY = area.top();  // the last label's left end (a ratio of the width) and its place
    for (size_t i : order) {
        if (2 * i + 1 >= m_baselineItems.size())
            break;
        auto* label = static_cast<QCPItemText*>(m_baselineItems[2 * i + 1]);
        const double value = m_baselines[static_cast<int>(i)].second;
        const double y = m_loss->yAxis->coordToPixel(value);
        const QFontMetrics fm(label->font());
        const double h = fm.height() + 2, w = (fm.horizontalAdvance(label->text()) + 12.0) / std::max(1, area.width());
        if (y - h >= taken) {
            label->position->setCoords(0.99, value);
            label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
            taken = y;
            lastY = y - h;
            right = 0.99 - w;
        } else if (const double top = std::max(y, taken); top + h <= area.bottom()) {
            label->position->setCoords(0.99, m_loss->yAxis->pixelToCoord(top));
            label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
            taken = top + h;
            lastY = top;
            right = 0.99 - w;
        } else {
            label->position->setCoords(right, m_loss->yAxis->pixelToCoord(lastY));
            label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
            right -= w;
        }
    }
}

bool MetricsPlot::savePng(const QString& path) {
    return saveFigure(this, path);  // through a temporary renamed at the end, like every export
}

bool MetricsPlot::saveSvg(const QString& path) {
    return saveFigure(this, path);
}

bool MetricsPlot::saveCsv(const QString& path) const {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    QTextStream out(&f);
    auto num = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 7); };
    out << "step,kind,train_loss,val_loss,val_accuracy,lr,tokens_per_s,val_bleu,epoch\n";
    for (const auto& r : m_rows)
        out << r.step << ',' << QString::fromStdString(r.kind) << ',' << num(r.train_loss) << ',' << num(r.val_loss)
            << ',' << num(r.val_accuracy) << ',' << num(r.lr) << ',' << num(r.tokens_per_s) << ',' << num(r.val_bleu)
            << ',' << num(r.epoch) << '\n';
    out.flush();
    return f.commit();
}
