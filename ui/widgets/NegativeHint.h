// Says why a typed minus went nowhere. A spin box whose smallest value is 0 or more drops a "-" typed as the
// number's sign without a word ("-5" typed into Steps became "5"); this filter, installed on the
// application, shows a tooltip at the field naming the range it takes. A minus anywhere else in the text
// (an exponent's, "1e-4" in a learning rate) is left alone, and so is a field that takes negative numbers.
#pragma once
#include <QObject>

class QAbstractSpinBox;

class NegativeHint : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    /// The sentence shown for that field ("This field takes no negative numbers: 0 to 100000.").
    static QString textFor(const QAbstractSpinBox* field);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};
