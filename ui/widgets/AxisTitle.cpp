#include "ui/widgets/AxisTitle.h"

#include <qcustomplot.h>
#include <QFontMetrics>

void setFittedYLabel(QCustomPlot* p, const QString& full, const QString& brief) {
    p->setProperty("yFull", full);
    p->setProperty("yBrief", brief);
    // The title's length changes no margin (it runs along the axis), so no second layout is needed
    auto fit = [p] {
        const QString whole = p->property("yFull").toString();
        const int room = p->axisRect()->height();
        const bool fits = room <= 0 || QFontMetrics(p->yAxis->labelFont()).horizontalAdvance(whole) <= room;
        p->yAxis->setLabel(fits ? whole : p->property("yBrief").toString());
    };
    fit();
    if (!p->property("yFitted").toBool()) {
        p->setProperty("yFitted", true);
        QObject::connect(p, &QCustomPlot::afterLayout, p, fit);
    }
}
