// A spin box for values across orders of magnitude (learning rates): the value in four significant digits
// ("1e-07", "0.0003"), any number typed in either spelling, and the arrows doubling or halving it. The
// config form's learning rates and the range finder's bounds use it. It is wide enough for any value in that form:
// Qt sizes a spin box by the text of its bounds ("1e-09", "10"), and "0.0011" was cut to ".0011" at 150% text.
#pragma once
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QLocale>
#include <algorithm>
#include <cmath>
#include <optional>

class SciSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    /// With the interface's decimal point ("0,0003" in Bokmål, as the form's other numbers); the exponent as
    /// `--set` writes it ("1e-07": Bokmål's own form is "1E−07", with a minus sign no keyboard has).
    QString textFromValue(double v) const override {
        return QString::number(v, 'g', 4).replace('.', locale().decimalPoint());
    }
    /// Either spelling: the interface's ("0,0003") or the one `--set` takes ("0.0003", "3e-4").
    double valueFromText(const QString& t) const override { return parsed(t).value_or(0.0); }
    QValidator::State validate(QString& t, int&) const override {
        const QString s = t.trimmed();
        if (parsed(s))
            return QValidator::Acceptable;
        return s.isEmpty() || s.endsWith('e', Qt::CaseInsensitive) || s.endsWith('-') || s.endsWith('.') ||
                       s.endsWith(locale().decimalPoint())
                   ? QValidator::Intermediate
                   : QValidator::Invalid;
    }
    void stepBy(int steps) override { setValue(value() * std::pow(2.0, steps)); }
    QSize sizeHint() const override { return widened(QDoubleSpinBox::sizeHint()); }
    QSize minimumSizeHint() const override { return widened(QDoubleSpinBox::minimumSizeHint()); }

private:
    std::optional<double> parsed(const QString& text) const {
        bool ok = false;
        const QString t = text.trimmed();
        double v = QLocale::c().toDouble(QString(t).replace(locale().decimalPoint(), "."), &ok);
        if (!ok) {
            QLocale l = locale();  // Bokmål's own "1E−07", pasted
            l.setNumberOptions(QLocale::RejectGroupSeparator);
            v = l.toDouble(t, &ok);
        }
        return ok ? std::optional<double>(v) : std::nullopt;
    }
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
