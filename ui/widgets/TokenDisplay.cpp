#include "ui/widgets/TokenDisplay.h"

QString visibleToken(const QString& s) {
    QString t = s;
    t.replace(' ', QChar(0x2423)).replace('\n', QChar(0x21B5)).replace('\t', QChar(0x2192)).replace('\r', "\\r");
    return t.isEmpty() ? QStringLiteral("∅") : t;
}

QString tokenHtml(const QString& s) {
    return s.toHtmlEscaped()
        .replace('\n', QStringLiteral("<span style=\"color:#999\">↵</span><br>"))
        .replace('\t', QStringLiteral("<span style=\"color:#999\">→</span>"));
}
