// A row of buttons whose titles fit it: every button's whole title where they all fit the row, or else the
// short ones given (at 175% text the Runs panel's row read "xport to TensorBoar", its buttons squeezed below
// their titles). Chosen again whenever the row is resized or its font changes.
#pragma once
#include <QList>
#include <QPair>
#include <QString>

class QAbstractButton;
class QWidget;

/// row: the widget whose layout holds the buttons; brief: the buttons to shorten, each with its short title.
void fitButtonTitles(QWidget* row, const QList<QPair<QAbstractButton*, QString>>& brief);
