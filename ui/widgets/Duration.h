// A length of time as the panels show it: "m:ss", or "h:mm:ss" from an hour on.
#pragma once
#include <QString>

inline QString formatDuration(double seconds) {
    const int t = static_cast<int>(seconds + 0.5);
    return t >= 3600
               ? QString("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QChar('0')).arg(t % 60, 2, 10, QChar('0'))
               : QString("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QChar('0'));
}
