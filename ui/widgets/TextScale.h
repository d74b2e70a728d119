// The interface's text size, for a projector or a small screen (View → Larger text / Smaller text /
// Normal text size, Ctrl++ / Ctrl+- / Ctrl+0): the application's font scaled by a percentage of the
// platform's own, remembered in the settings and applied at once, without a restart. Widgets follow the
// application's font by themselves; the plots (QCustomPlot) keep the fonts they were made with, so each
// plot's axes, legends and labels are scaled by the change as well.
#pragma once
#include <QFont>

namespace TextScale {

/// The remembered size (100 when none, or not one of the sizes apply() offers).
int saved();
/// The size in force now.
int current();
/// Sets the application's font to percent of the platform's (the nearest of 80, 90, 100, 110, 125, 150,
/// 175, 200, 250), scales every plot's fonts by the change, and remembers it. Returns the size set.
int apply(int percent);
/// The next step up or down from current(); current() itself at either end.
int larger();
int smaller();
/// f at points at 100%, scaled by current() (a plot's small legend keeps its size relative to the text).
QFont sized(QFont f, double points);

}  // namespace TextScale
