#include "ui/sampling/RememberedForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>

#include <algorithm>

RememberedForm::RememberedForm(const QString& title, const QString& prefix, QWidget* parent)
    : QGroupBox(title, parent), m_prefix(prefix) {}

RememberedForm::~RememberedForm() {
    QSettings st;
    for (const auto& [key, value] : m_remembered)
        st.setValue(key, value());
}

QSpinBox* RememberedForm::spinBox(const char* name, int lo, int hi, const QString& tip) {
    auto* b = new QSpinBox;
    b->setObjectName(name);
    b->setRange(lo, hi);
    b->setToolTip(tip);
    return b;
}

QDoubleSpinBox* RememberedForm::doubleSpinBox(const char* name, double lo, double hi, double step, const QString& tip) {
    auto* b = new QDoubleSpinBox;
    b->setObjectName(name);
    b->setRange(lo, hi);
    b->setSingleStep(step);
    b->setToolTip(tip);
    return b;
}

QVariant RememberedForm::stored(const char* key, const QVariant& def) const {
    return QSettings().value(m_prefix + "/" + key, def);
}

void RememberedForm::onClose(const char* key, std::function<QVariant()> value) {
    m_remembered.emplace_back(m_prefix + "/" + key, std::move(value));
}

void RememberedForm::remember(QSpinBox* box, const char* key, int def) {
    box->setValue(stored(key, def).toInt());
    onClose(key, [box] { return box->value(); });
}

void RememberedForm::remember(QDoubleSpinBox* box, const char* key, double def) {
    box->setValue(stored(key, def).toDouble());
    onClose(key, [box] { return box->value(); });
}

void RememberedForm::remember(QCheckBox* box, const char* key, bool def) {
    box->setChecked(stored(key, def).toBool());
    onClose(key, [box] { return box->isChecked(); });
}

void RememberedForm::remember(QLineEdit* edit, const char* key) {
    edit->setText(stored(key, QString()).toString());
    onClose(key, [edit] { return edit->text(); });
}

void RememberedForm::remember(QComboBox* box, const char* key, const QVariant& def) {
    box->setCurrentIndex(std::max(0, box->findData(stored(key, def))));
    onClose(key, [box] { return box->currentData(); });
}
