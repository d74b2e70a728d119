#include "ui/widgets/TokenDisplay.h"

#include <QColor>
#include <algorithm>
#include <cmath>

QString visibleToken(const QString& s) {
    // A byte-fallback piece of an ASCII character ("<0x58>") stands for that character: show "X".
    // Bytes of a longer UTF-8 sequence mean nothing alone and keep their <0xE2> spelling.
    if (s.size() == 6 && s.startsWith(QLatin1String("<0x")) && s.endsWith('>')) {
        bool ok = false;
        const int byte = s.mid(3, 2).toInt(&ok, 16);
        if (ok && byte >= 0x09 && byte < 0x7f)
            return visibleToken(QString(QChar(byte)));
    }
    QString t = s;
    t.replace(' ', QChar(0x2423)).replace('\n', QChar(0x21B5)).replace('\t', QChar(0x2192)).replace('\r', "\\r");
    return t.isEmpty() ? QStringLiteral("∅") : t;
}

QString tokenHtml(const QString& s) {
    return s.toHtmlEscaped()
        .replace('\n', QStringLiteral("<span style=\"color:#999\">↵</span><br>"))
        .replace('\t', QStringLiteral("<span style=\"color:#999\">→</span>"));
}

QString attributionTint(double s) {
    const double m = std::sqrt(std::min(1.0, std::abs(s)));
    return (s >= 0 ? QColor::fromRgbF(1 - 0.75 * m, 1 - 0.45 * m, 1.0)
                   : QColor::fromRgbF(1.0, 1 - 0.6 * m, 1 - 0.6 * m))
        .name();
}

QString probabilityTint(double p) {
    if (std::isnan(p))
        return QStringLiteral("#eeeeee");
    return QColor::fromHsvF(std::clamp(p, 0.0, 1.0) * 0.33, 0.28, 1.0).name();
}
