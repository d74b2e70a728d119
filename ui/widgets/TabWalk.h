// How Tab walks the window. A text field's own handling types a tab into the text and a table's walks
// every cell (and wraps back to the first), so from either the keyboard could not leave; apply() makes
// Tab move on from both. stop() finds where Tab would land, for widgets that walk their own parts.
#pragma once
#include <functional>

class QWidget;

class TabWalk {
public:
    /// Under root (what is there now): every text field passes Tab on, every table is one stop.
    static void apply(QWidget* root);
    /// Whether Tab can stop at w: it takes Tab, is enabled, and is shown (or would be with its window).
    static bool canStop(const QWidget* w);
    /// The first widget after (or before) from in the focus chain that Tab can stop at and that wanted
    /// accepts; nullptr when the chain comes back to from first.
    static QWidget* stop(QWidget* from, bool forward, const std::function<bool(const QWidget*)>& wanted);
};
