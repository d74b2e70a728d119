// What the Sampling console's two decoding forms (DecodingForm, TranslationForm) share: a group box whose
// controls are made in one line each and keep their values between sessions (QSettings keys under a prefix,
// read when the control is bound, written when the form goes). It knows no decoding option itself.
#pragma once
#include <QGroupBox>
#include <QVariant>
#include <functional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSettings;
class QSpinBox;

class RememberedForm : public QGroupBox {
    Q_OBJECT
protected:
    /// prefix: the settings group, e.g. "sampling" (keys "sampling/temperature", ...).
    RememberedForm(const QString& title, const QString& prefix, QWidget* parent = nullptr);
    ~RememberedForm() override;  // writes every remembered control

    /// A spin box with an object name (for tests and styles; may be empty), its range and tooltip.
    static QSpinBox* spinBox(const char* name, int lo, int hi, const QString& tip = {});
    static QDoubleSpinBox* doubleSpinBox(const char* name, double lo, double hi, double step, const QString& tip = {});
    /// The value from the settings key (def when none) now; back into it when the form goes.
    void remember(QSpinBox* box, const char* key, int def);
    void remember(QDoubleSpinBox* box, const char* key, double def);
    void remember(QCheckBox* box, const char* key, bool def);
    void remember(QLineEdit* edit, const char* key);
    /// A combo box remembers its current item's data.
    void remember(QComboBox* box, const char* key, const QVariant& def);

private:
    QVariant stored(const char* key, const QVariant& def) const;
    void onClose(const char* key, std::function<QVariant()> value);

    QString m_prefix;
    std::vector<std::pair<QString, std::function<QVariant()>>> m_remembered;
};
