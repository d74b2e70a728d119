// A spin box for values across orders of magnitude (learning rates): the value in four significant digits
// ("1e-07", "0.0003"), any number typed in either spelling, and the arrows doubling or halving it. The
// config form's learning rates and the range finder's bounds use it.
#pragma once
#include <QDoubleSpinBox>
#include <cmath>

class SciSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double v) const override { return QString::number(v, 'g', 4); }
    double valueFromText(const QString& t) const override { return t.toDouble(); }
    QValidator::State validate(QString& t, int&) const override {
        bool ok = false;
        t.toDouble(&ok);
        return ok || t.isEmpty() || t.endsWith('e') || t.endsWith('-') ? QValidator::Acceptable : QValidator::Invalid;
    }
    void stepBy(int steps) override { setValue(value() * std::pow(2.0, steps)); }
};
