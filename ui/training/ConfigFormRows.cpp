#include "ui/training/ConfigForm.h"
#include "ui/widgets/ElidingComboBox.h"
#include "ui/widgets/SciSpinBox.h"

#include "twb/devices.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <climits>
#include <cmath>
#include <map>

// The form's rows from the option table: one row per key, its widget by the key's type.

namespace {
// What the form chooses on top of the table: how a number is shown, the words of a choice's items, and
// limits stricter than the engine's (a run of 0 steps would only evaluate).
int decimalsOf(const std::string& key) {
    static const std::map<std::string, int> d = {
        {"learning_rate", 6}, {"min_lr", 6}, {"norm_eps", 6}, {"weight_decay", 3}, {"beta2", 4}};
    const auto it = d.find(key);
    return it == d.end() ? 2 : it->second;
}
QStringList itemLabelsOf(const std::string& key) {
    if (key == "model_kind")
        return {ConfigForm::tr("Decoder LM"), ConfigForm::tr("Encoder-decoder")};
    if (key == "best_by")
        return {ConfigForm::tr("validation loss"), ConfigForm::tr("validation BLEU")};
    return {};
}
/// A text of the option table (a label, a help text, what 0 stands for) in the interface's language: the
/// engine's English is the source text of the "ConfigOptions" context (resources/translations/
/// config_options_strings.h lists them for lupdate).
QString optionText(const std::string& text) {
    return text.empty() ? QString() : QCoreApplication::translate("ConfigOptions", text.c_str());
}
int formMinimumOf(const std::string& key, int engineMin) {
    return key == "max_iters" ? 1 : engineMin;
}
}  // namespace

QString ConfigForm::inFormWords(QString text) {
    for (const auto& o : twb::config_options())
        if (!o.label.empty())
            text.replace(QRegularExpression("\\b" + QRegularExpression::escape(QString::fromStdString(o.key)) + "\\b"),
                         optionText(o.label));
    return text;
}

void ConfigForm::addOption(QFormLayout* f, const twb::ConfigOption& o) {
    using T = twb::OptionType;
    switch (o.type) {
        case T::Integer:
            return addInt(f, o);
        case T::Unsigned:
            return addSeed(f, o);
        case T::Number:
            return addDouble(f, o);
        case T::Bool:
            return addBool(f, o);
        case T::Text:
            return o.key == "device" ? addDevice(f, o) : addPath(f, o);
        case T::Choice:
            return addChoice(f, o);
    }
}

ConfigForm::Field& ConfigForm::addRow(QFormLayout* f, const twb::ConfigOption& o, QWidget* w) {
    const QString key = QString::fromStdString(o.key), label = optionText(o.label);
    QString tip = optionText(o.help) + " (" + key + ")";
    if (!o.range_text().empty())
        tip += "; " + inFormWords(QString::fromStdString(o.range_text()));
    w->setObjectName(key);
    w->setToolTip(tip);
    auto* box = new QWidget;
    auto* col = new QVBoxLayout(box);
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(1);
    col->addWidget(w->parentWidget() ? w->parentWidget() : w);
    auto* note = new QLabel;
    note->setObjectName(key + "_problem");
    note->setWordWrap(true);
    note->setStyleSheet("color: #b00020;");
    note->hide();
    col->addWidget(note);
    f->addRow(label, box);
    Field field;
    field.form = f;
    field.row = box;
    field.key = key;
    field.label = label;
    field.widget = w;
    field.note = note;
    field.kinds = o.families == twb::OptionFamilies::Decoder          ? kDecoderOnly
                  : o.families == twb::OptionFamilies::EncoderDecoder ? kEncoderDecoderOnly
                                                                      : kBothKinds;
    // Every field reads and writes the config through the table, as a config file would.
    m_fields.push_back(std::move(field));
    return m_fields.back();
}

void ConfigForm::addInt(QFormLayout* f, const twb::ConfigOption& o) {
    auto* w = new QSpinBox;
    // The spin box takes any count a user may type; [lo, hi] is checked by the form and explained beside
    // the field, rather than a typed value being silently cut to the nearest limit.
    const int lo = formMinimumOf(o.key, o.min ? static_cast<int>(o.min->value) + (o.min->open ? 1 : 0) : 0);
    const int hi = o.max ? static_cast<int>(o.max->value) - (o.max->open ? 1 : 0) : INT_MAX;
    w->setRange(std::min(lo, 0), std::max(hi, 99999999));
    if (!o.zero.empty())
        w->setSpecialValueText(inFormWords(optionText(o.zero)));  // shown at 0, the automatic value
    w->setGroupSeparatorShown(true);
    Field& field = addRow(f, o, w);
    connect(w, &QSpinBox::valueChanged, this, [this, w] { edited(w); });
    const QString label = field.label;
    field.rangeProblem = [w, lo, hi, label]() -> QString {
        if (w->value() < lo)
            return tr("%1 must be at least %2").arg(label, QLocale().toString(lo));
        if (w->value() > hi)
            return tr("%1 can be at most %2").arg(label, QLocale().toString(hi));
        return {};
    };
    field.read = [w, &o](twb::RunConfig& c) { o.read(c, w->value(), "form"); };
    field.write = [w, &o](const twb::RunConfig& c) { w->setValue(o.value(c).get<int>()); };
}

void ConfigForm::addSeed(QFormLayout* f, const twb::ConfigOption& o) {
    auto* w = new QSpinBox;
    w->setRange(0, 2147483647);
    w->setGroupSeparatorShown(false);  // a seed is a name, not a quantity: no "1,337"
    Field& field = addRow(f, o, w);
    connect(w, &QSpinBox::valueChanged, this, [this, w] { edited(w); });
    field.read = [w, &o](twb::RunConfig& c) { o.read(c, static_cast<uint64_t>(w->value()), "form"); };
    field.write = [w, &o](const twb::RunConfig& c) {
        w->setValue(static_cast<int>(o.value(c).get<uint64_t>() & 0x7fffffff));
    };
}

void ConfigForm::addDouble(QFormLayout* f, const twb::ConfigOption& o) {
    const int decimals = decimalsOf(o.key);
    QDoubleSpinBox* w = decimals >= 6 ? new SciSpinBox : new QDoubleSpinBox;
    w->setDecimals(decimals >= 6 ? 10 : decimals);
    // Open ends are reachable here; validate() says why such a value is refused.
    w->setRange(o.min ? o.min->value : -1e9, o.max ? o.max->value : 1e9);
    w->setSingleStep(decimals >= 6 ? 1 : std::pow(10.0, -decimals));
    if (!o.zero.empty())
        w->setSpecialValueText(inFormWords(optionText(o.zero)));
    Field& field = addRow(f, o, w);
    connect(w, &QDoubleSpinBox::valueChanged, this, [this, w] { edited(w); });
    field.read = [w, &o](twb::RunConfig& c) { o.read(c, w->value(), "form"); };
    field.write = [w, &o](const twb::RunConfig& c) { w->setValue(o.value(c).get<double>()); };
}

void ConfigForm::addChoice(QFormLayout* f, const twb::ConfigOption& o) {
    auto* w = new QComboBox;
    // The engine's name is the item's data; the text is the form's words for it, or the name in the
    // interface's language ("cosinus" in Bokmål; the English is the spelling itself), with the spelling
    // `--set` takes on hover where the two differ.
    const QStringList itemLabels = itemLabelsOf(o.key);
    int i = 0;
    for (const auto& name : o.choices) {
        const QString n = QString::fromStdString(name);
        const QString text =
            i < itemLabels.size() ? itemLabels[i] : QCoreApplication::translate("ConfigChoices", name.c_str());
        w->addItem(text, n);
        if (text != n)
            w->setItemData(w->count() - 1, QString::fromStdString(o.key) + "=" + n, Qt::ToolTipRole);
        ++i;
    }
    Field& field = addRow(f, o, w);
    connect(w, &QComboBox::currentIndexChanged, this, [this, w] { edited(w); });
    field.read = [w, &o](twb::RunConfig& c) { o.read(c, w->currentData().toString().toStdString(), "form"); };
    field.write = [w, &o](const twb::RunConfig& c) {
        w->setCurrentIndex(w->findData(QString::fromStdString(o.value(c).get<std::string>())));
    };
}

void ConfigForm::addDevice(QFormLayout* f, const twb::ConfigOption& o) {
    auto* w = new ElidingComboBox;  // "Automatic (GPU if us" at 150% text: "Automatic" where it does not fit
    for (const auto& d : twb::compute_devices()) {
        const QString spelling = QString::fromStdString(d.spelling), name = QString::fromStdString(d.name);
        QString text = d.spelling == "auto"  ? tr("Automatic (GPU if usable)")
                       : d.spelling == "cpu" ? tr("CPU")
                                             : spelling;
        if (!name.isEmpty())
            text += " — " + name;
        if (d.memory > 0)
            text += tr(", %1 GiB").arg(double(d.memory) / (1024.0 * 1024.0 * 1024.0), 0, 'f', 1);
        w->addItem(text, spelling);
        w->setItemData(w->count() - 1,
                       d.spelling == "auto"  ? tr("Automatic")
                       : d.spelling == "cpu" ? tr("CPU")
                                             : spelling,
                       ElidingComboBox::ShortTextRole);
        if (d.spelling == "auto")  // the short name in the box, the whole rule on hover
            w->setItemData(w->count() - 1, tr("A CUDA GPU if one is usable, else the CPU"), Qt::ToolTipRole);
    }
    Field& field = addRow(f, o, w);
    w->setHelp(w->toolTip());  // the option's help, then the entry chosen, whole
    connect(w, &QComboBox::currentIndexChanged, this, [this, w] { edited(w); });
    field.read = [w, &o](twb::RunConfig& c) { o.read(c, w->currentData().toString().toStdString(), "form"); };
    field.write = [w, &o](const twb::RunConfig& c) {
        const QString value = QString::fromStdString(o.value(c).get<std::string>());
        if (w->findData(value) < 0)  // a config from another machine: keep its device, say it is not here
            w->addItem(value == "cuda" ? tr("cuda (the first CUDA GPU)") : tr("%1 (not on this machine)").arg(value),
                       value);
        w->setCurrentIndex(w->findData(value));
    };
}

void ConfigForm::addBool(QFormLayout* f, const twb::ConfigOption& o) {
    auto* w = new QCheckBox;
    Field& field = addRow(f, o, w);
    connect(w, &QCheckBox::toggled, this, [this, w] { edited(w); });
    field.read = [w, &o](twb::RunConfig& c) { o.read(c, w->isChecked(), "form"); };
    field.write = [w, &o](const twb::RunConfig& c) { w->setChecked(o.value(c).get<bool>()); };
}

void ConfigForm::addPath(QFormLayout* f, const twb::ConfigOption& o) {
    // The one text key the form shows is a file: embeddings_from's word vectors.
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    auto* w = new QLineEdit(box);
    w->setPlaceholderText(tr("none"));
    w->setClearButtonEnabled(true);
    auto* browse = new QToolButton(box);
    const QString key = QString::fromStdString(o.key);
    browse->setObjectName(key + "_browse");
    browse->setText(tr("Browse…"));
    browse->setToolTip(tr("Choose a word-vectors file"));
    row->addWidget(w, 1);
    row->addWidget(browse);
    connect(browse, &QToolButton::clicked, this, [this, w, key] {
        QSettings settings;
        const QString settingsKey = QString("configForm/%1Dir").arg(key);
        const QString file =
            QFileDialog::getOpenFileName(this, tr("Word vectors"), settings.value(settingsKey).toString(),
                                         tr("Word vectors (*.vec *.txt);;All files (*)"));
        if (file.isEmpty())
            return;
        settings.setValue(settingsKey, QFileInfo(file).absolutePath());
        w->setText(file);
    });
    Field& field = addRow(f, o, w);  // the row holds w's parent, the box with the button
    connect(w, &QLineEdit::textChanged, this, [this, w] { edited(w); });
    const QString label = field.label;
    field.rangeProblem = [w, label]() -> QString {
        const QString p = w->text().trimmed();
        if (!p.isEmpty() && !QFileInfo::exists(p))
            return tr("%1: %2 does not exist").arg(label, p);
        return {};
    };
    field.read = [w, &o](twb::RunConfig& c) { o.read(c, w->text().trimmed().toStdString(), "form"); };
    field.write = [w, &o](const twb::RunConfig& c) {
        w->setText(QString::fromStdString(o.value(c).get<std::string>()));
    };
}
