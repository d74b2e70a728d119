// The layout the Sampling console's two modes share (LM generation and translation): an input box above
// the output, the output a token view beside the alternatives the model weighed, then a row of buttons
// with a status text, then the error line.
#pragma once
#include <initializer_list>

class QHBoxLayout;
class QLabel;
class QListWidget;
class QPushButton;
class QString;
class QWidget;

namespace console_layout {
/// A console button: its text, object name (may be null), tooltip, and whether it starts enabled.
QPushButton* button(const QString& text, const char* name, const QString& tip, bool enabled = true);
/// The token view and, beside it, the alternatives list under its title (3 : 1).
QWidget* outputWithAlternatives(QWidget* view, QLabel* title, QListWidget* alternatives);
/// The buttons left to right, then the status text at the right end.
QHBoxLayout* buttonRow(std::initializer_list<QWidget*> buttons, QWidget* status);
/// The input above the output (1 : outputStretch), the buttons below, the error line last.
QWidget* tab(QWidget* input, QWidget* output, QHBoxLayout* buttons, QWidget* error, int outputStretch);
}  // namespace console_layout
