// A status line of parts joined by " · " ("300 tokens · 4759.2 tok/s · step 300") that wraps only between
// its parts: inside a part the spaces are non-breaking, so a number never stands on a line without its unit.
#pragma once
#include <QString>
#include <QStringList>

inline QString statusLine(const QString& text) {
    const QString separator = QStringLiteral(" \u00B7 ");
    QStringList parts = text.split(separator);
    for (QString& p : parts)
        p.replace(QChar(' '), QChar(0x00A0));
    return parts.join(separator);
}
