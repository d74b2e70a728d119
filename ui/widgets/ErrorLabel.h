// The red, wrapping, selectable line where a panel says what went wrong and what to do. Holds the
// current error (empty when none), so panels and their tests read it back from one place.
#pragma once
#include <QLabel>

class ErrorLabel : public QLabel {
    Q_OBJECT
public:
    explicit ErrorLabel(QWidget* parent = nullptr);
    QString error() const { return text(); }
};
