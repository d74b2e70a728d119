// Two columns of a tab side by side where its width holds both at their least, else one above the other: the
// Datasets panel's Tokenize options and inspector, and Import's controls and preview (at 150% and 175% text
// the second of each lay over the first, each laid out below its least width).
#pragma once
#include <QBoxLayout>

/// LeftToRight where width holds every item of columns at its least width, with the spacing between them
/// and the layout's margins; else TopToBottom.
QBoxLayout::Direction besideOrStacked(const QBoxLayout* columns, int width);
