// The question before something is deleted or replaced for good: a warning with the action named on its
// button ("Delete", "Replace") and Cancel, which Enter chooses (a Yes/No question with Yes focused deleted a
// dataset on Enter), and "This cannot be undone." under the text.
#pragma once
#include <QString>

class QWidget;

/// True when the person chose the action.
bool confirmDelete(QWidget* parent, const QString& title, const QString& text, const QString& action);
