// TextScale: the application's font as a percentage of the platform's, and the plots scaled with it.
#include "ui/widgets/TextScale.h"

#include <qcustomplot.h>
#include <QApplication>
#include <QComboBox>
#include <QSettings>
#include <QTimer>
#include <QWidget>
#include <algorithm>
#include <cmath>

namespace TextScale {
namespace {

const char* const kKey = "view/textScale";
int g_current = 100;

const QList<int>& steps() {
    static const QList<int> s{80, 90, 100, 110, 125, 150, 175, 200, 250};
    return s;
}

// The platform's font, taken before the first change.
const QFont& baseFont() {
    static const QFont base = QApplication::font();
    return base;
}

int nearestStep(int percent) {
    const auto& s = steps();
    return *std::min_element(s.begin(), s.end(),
                             [&](int a, int b) { return std::abs(a - percent) < std::abs(b - percent); });
}

/// f with its size times factor, whether f has a point or a pixel size.
QFont scaled(QFont f, double factor) {
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * factor);
    else if (f.pixelSize() > 0)
        f.setPixelSize(std::max(1, static_cast<int>(std::lround(f.pixelSize() * factor))));
    return f;
}

void scaleAxis(QCPAxis* axis, double factor) {
    axis->setTickLabelFont(scaled(axis->tickLabelFont(), factor));
    axis->setSelectedTickLabelFont(scaled(axis->selectedTickLabelFont(), factor));
    axis->setLabelFont(scaled(axis->labelFont(), factor));
    axis->setSelectedLabelFont(scaled(axis->selectedLabelFont(), factor));
}

/// Every font of plot (axes, colour scales, legends, text items and titles) times factor; replots.
void scalePlot(QCustomPlot* plot, double factor) {
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes())
            scaleAxis(axis, factor);
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (auto* legend = qobject_cast<QCPLegend*>(e))
            legend->setFont(scaled(legend->font(), factor));  // QCPLegend sets its items' fonts too
        else if (auto* title = qobject_cast<QCPTextElement*>(e))
            title->setFont(scaled(title->font(), factor));
        else if (auto* colors = qobject_cast<QCPColorScale*>(e))  // its axis is not among axisRects()
            scaleAxis(colors->axis(), factor);
    }
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)))
            text->setFont(scaled(text->font(), factor));
    if (plot->testAttribute(Qt::WA_SetFont))  // else the widget follows the application's font itself
        plot->setFont(scaled(plot->font(), factor));
    plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace

int saved() {
    const int v = QSettings().value(kKey, 100).toInt();
    return steps().contains(v) ? v : 100;
}

int current() {
    return g_current;
}

QFont sized(QFont f, double points) {
    f.setPointSizeF(points * g_current / 100.0);
    return f;
}

int apply(int percent) {
    const int to = nearestStep(percent);
    const double factor = static_cast<double>(to) / g_current;
    if (to != g_current) {
        QApplication::setFont(scaled(baseFont(), to / 100.0));
        for (QWidget* w : QApplication::allWidgets()) {
            if (!w->styleSheet().isEmpty())  // it took its font when it was polished: polish it again
                w->setStyleSheet(w->styleSheet());
            if (auto* plot = qobject_cast<QCustomPlot*>(w))
                scalePlot(plot, factor);
        }
        // A combo box forgets its cached size hint on a font change but keeps its minimum size hint, so
        // after 250% → 100% the boxes stayed tall. A style change clears both: sent once the new fonts
        // (posted events) have arrived.
        QTimer::singleShot(0, qApp, [] {
            for (QWidget* w : QApplication::allWidgets())
                if (auto* box = qobject_cast<QComboBox*>(w)) {
                    QEvent style(QEvent::StyleChange);
                    QApplication::sendEvent(box, &style);
                    box->updateGeometry();
                }
        });
        g_current = to;
    }
    QSettings().setValue(kKey, to);
    return to;
}

int larger() {
    const auto& s = steps();
    const auto it = std::upper_bound(s.begin(), s.end(), g_current);
    return it == s.end() ? g_current : *it;
}

int smaller() {
    const auto& s = steps();
    const auto it = std::lower_bound(s.begin(), s.end(), g_current);
    return it == s.begin() ? g_current : *(it - 1);
}

}  // namespace TextScale
