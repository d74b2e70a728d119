// A spin box for values across orders of magnitude (learning rates): the value in four significant digits
// ("1e-07", "0.0003"), any number typed in either spelling, and the arrows doubling or halving it. The
// config form's learning rates and the range finder's bounds use it. It is wide enough for any value in that form:
// Qt sizes a spin box by the text of its bounds ("1e-09", "10"), and "0.0011" was cut to ".0011" at 150% text.
#pragma once
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <algorithm>
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
    QSize sizeHint() const override { return widened(QDoubleSpinBox::sizeHint()); }
    QSize minimumSizeHint() const override { return widened(QDoubleSpinBox::minimumSizeHint()); }

private:
    /// Room for the longest text four significant digits make ("0.0001234", "1.234e-05"), where the bounds' is shorter.
    QSize widened(QSize s) const {
        const QFontMetrics fm = fontMetrics();
        const int bounds =
            std::max(fm.horizontalAdvance(textFromValue(minimum())), fm.horizontalAdvance(textFromValue(maximum())));
        const int widest =
            fm.horizontalAdvance(minimum() < 0 ? QStringLiteral("-0.0001234") : QStringLiteral("0.0001234"));
        s.rwidth() += std::max(0, widest - bounds);
        return s;
    }
};
