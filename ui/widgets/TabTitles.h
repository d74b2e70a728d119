// A tab bar's titles that fit it: every tab's whole title where they all fit the bar, or else every tab's
// short title (at 150% text the Datasets panel's six read "Import & cl…", "Catalo…", "Chat d…"). The whole
// title stays in each tab's tooltip. Chosen again whenever the tabs are resized or their font changes.
#pragma once
#include <QStringList>

class QTabWidget;

/// `brief` holds a short title for each tab, in order (an empty one keeps that tab's whole title).
void fitTabTitles(QTabWidget* tabs, const QStringList& brief);
