#include "ui/training/ConfigForm.h"

#include "ui/widgets/WheelGuard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
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

namespace {
/// A spin box for values across orders of magnitude (learning rates): scientific-looking text.
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
}  // namespace

ConfigForm::ConfigForm(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    auto* top = new QFormLayout;
    m_preset = new QComboBox;
    m_preset->setObjectName("preset");
    m_preset->addItem(tr("Default (4x4x128, rotary)"), "default");
    m_preset->addItem(tr("nanoGPT CPU recipe (4x4x128)"), "nanogpt-cpu");
    m_preset->addItem(tr("Baby GPT (6x6x384, block 256)"), "baby-gpt");
    m_preset->addItem(tr("Tiny, under a minute (3x4x96)"), "tiny");
    m_preset->addItem(tr("Multi30k translation (3+3x256)"), "multi30k");
    m_preset->addItem(tr("Tatoeba translation (2+2x128)"), "tatoeba");
    m_preset->addItem(tr("Custom"), QString());  // shown when the values match no preset
    m_preset->setToolTip(tr("Fill the form with a known-good configuration"));
    connect(m_preset, &QComboBox::activated, this, [this](int i) {
        if (!m_preset->itemData(i).toString().isEmpty())
            applyPreset(m_preset->itemData(i).toString());
    });
    top->addRow(tr("Preset"), m_preset);
    v->addLayout(top);

    // The option table's keys with a label, box by box: evaluation and runtime share the last one.
    std::map<twb::OptionGroup, QFormLayout*> boxes;
    auto group = [&](const QString& title, std::initializer_list<twb::OptionGroup> groups) {
        auto* g = new QGroupBox(title);
        auto* f = new QFormLayout(g);
        v->addWidget(g);
        for (auto k : groups)
            boxes[k] = f;
    };
    using G = twb::OptionGroup;
    group(tr("Model"), {G::Data, G::Model});
    group(tr("Architecture"), {G::Architecture});
    group(tr("Optimisation"), {G::Optimisation});
    group(tr("Evaluation and runtime"), {G::Evaluation, G::Runtime});
    for (const auto& o : twb::config_options())
        if (!o.label.empty())
            addOption(boxes.at(o.group), o);
    // A kind's hidden field must not hold a value the other kind refuses (and nobody can see to fix).
    connect(findChild<QComboBox*>("model_kind"), &QComboBox::activated, this, [this] {
        twb::RunConfig c = config();
        if (c.model_kind == twb::ModelKind::EncoderDecoder)
            c.sequences = twb::Sequences::Stream;
        else
            c.best_by = twb::BestBy::Loss;
        setConfig(c);
    });
    m_summary = new QLabel;
    m_summary->setObjectName("configSummary");
    m_problems = new QLabel;
    m_problems->setObjectName("configProblems");
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet("color: #b00020;");
    v->addWidget(m_summary);
    v->addWidget(m_problems);
    v->addStretch();
    WheelGuard::protect(this);
    setConfig(twb::preset_config("default"));
}

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
int formMinimumOf(const std::string& key, int engineMin) {
    return key == "max_iters" ? 1 : engineMin;
}
}  // namespace

QString ConfigForm::inFormWords(QString text) {
    for (const auto& o : twb::config_options())
        if (!o.label.empty())
            text.replace(QRegularExpression("\\b" + QRegularExpression::escape(QString::fromStdString(o.key)) + "\\b"),
                         QString::fromStdString(o.label));
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
            return addPath(f, o);
        case T::Choice:
            return addChoice(f, o);
    }
}

ConfigForm::Field& ConfigForm::addRow(QFormLayout* f, const twb::ConfigOption& o, QWidget* w) {
    const QString key = QString::fromStdString(o.key), label = QString::fromStdString(o.label);
    QString tip = QString::fromStdString(o.help) + " (" + key + ")";
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
        w->setSpecialValueText(inFormWords(QString::fromStdString(o.zero)));  // shown at 0, the automatic value
    w->setGroupSeparatorShown(true);
    Field& field = addRow(f, o, w);
    connect(w, &QSpinBox::valueChanged, this, [this] { refresh(); });
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
    connect(w, &QSpinBox::valueChanged, this, [this] { refresh(); });
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
        w->setSpecialValueText(inFormWords(QString::fromStdString(o.zero)));
    Field& field = addRow(f, o, w);
    connect(w, &QDoubleSpinBox::valueChanged, this, [this] { refresh(); });
    field.read = [w, &o](twb::RunConfig& c) { o.read(c, w->value(), "form"); };
    field.write = [w, &o](const twb::RunConfig& c) { w->setValue(o.value(c).get<double>()); };
}

void ConfigForm::addChoice(QFormLayout* f, const twb::ConfigOption& o) {
    auto* w = new QComboBox;
    // The engine's name is the item's data; the text is the form's words for it, or the name itself.
    const QStringList itemLabels = itemLabelsOf(o.key);
    int i = 0;
    for (const auto& name : o.choices) {
        const QString n = QString::fromStdString(name);
        w->addItem(i < itemLabels.size() ? itemLabels[i] : n, n);
        ++i;
    }
    Field& field = addRow(f, o, w);
    connect(w, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    field.read = [w, &o](twb::RunConfig& c) { o.read(c, w->currentData().toString().toStdString(), "form"); };
    field.write = [w, &o](const twb::RunConfig& c) {
        w->setCurrentIndex(w->findData(QString::fromStdString(o.value(c).get<std::string>())));
    };
}

void ConfigForm::addBool(QFormLayout* f, const twb::ConfigOption& o) {
    auto* w = new QCheckBox;
    Field& field = addRow(f, o, w);
    connect(w, &QCheckBox::toggled, this, [this] { refresh(); });
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
    connect(w, &QLineEdit::textChanged, this, [this] { refresh(); });
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

twb::RunConfig ConfigForm::config() const {
    twb::RunConfig c = m_base;
    for (auto& f : m_fields)
        f.read(c);
    c.vocab_size = m_vocab;
    return c;
}

void ConfigForm::setConfig(const twb::RunConfig& c) {
    m_loading = true;
    m_base = c;
    for (auto& f : m_fields)
        f.write(c);
    m_loading = false;
    selectMatchingPreset();
    refresh();
}

void ConfigForm::selectMatchingPreset() {
    // The preset chooser names the preset whose values the form shows, or "Custom".
    const nlohmann::json mine = config();
    for (int i = 0; i < m_preset->count(); ++i) {
        const QString name = m_preset->itemData(i).toString();
        if (name.isEmpty())
            continue;
        const nlohmann::json theirs = twb::preset_config(name.toStdString());
        bool same = true;
        for (const auto& f : m_fields)
            same = same && mine.value(f.key.toStdString(), nlohmann::json()) ==
                               theirs.value(f.key.toStdString(), nlohmann::json());
        if (same) {
            m_preset->setCurrentIndex(i);
            return;
        }
    }
    m_preset->setCurrentIndex(m_preset->findData(QString()));
}

void ConfigForm::setVocabSize(int v) {
    m_vocab = v;
    refresh();
}

void ConfigForm::applyPreset(const QString& name) {
    auto c = twb::preset_config(name.toStdString());
    c.data_dir = m_base.data_dir;
    setConfig(c);
    const int i = m_preset->findData(name);
    if (i >= 0)
        m_preset->setCurrentIndex(i);
}

std::vector<ConfigForm::Problem> ConfigForm::fieldProblems() const {
    std::vector<Problem> out;
    for (const auto& f : m_fields)
        if (f.rangeProblem)
            if (const QString p = f.rangeProblem(); !p.isEmpty())
                out.push_back({p, {f.key}});
    if (!out.empty())
        return out;  // the engine's checks assume values inside the form's limits
    for (const auto& s : config().validate()) {
        // The engine speaks in config keys ("lr_decay_iters (500) must be larger than warmup_iters (99999)");
        // the form says the same with its labels, under each field the problem names.
        Problem p{QString::fromStdString(s), {}};
        for (const auto& f : m_fields) {
            const QRegularExpression word("\\b" + QRegularExpression::escape(f.key) + "\\b");
            if (p.text.contains(word)) {
                p.text.replace(word, f.label);
                p.where << f.key;
            }
        }
        if (!p.text.isEmpty())
            p.text[0] = p.text[0].toUpper();
        out.push_back(p);
    }
    return out;
}

std::vector<std::string> ConfigForm::problems() const {
    std::vector<std::string> out;
    for (const auto& p : fieldProblems())
        out.push_back(p.text.toStdString());
    return out;
}

QString ConfigForm::problemSummary() const {
    const auto p = fieldProblems();
    return p.empty() ? QString() : p.front().text;
}

twb::ModelKind ConfigForm::modelKind() const {
    const auto* w = findChild<QComboBox*>("model_kind");
    return twb::parse_choice<twb::ModelKind>(w->currentData().toString().toStdString(), "model_kind");
}

void ConfigForm::setModelKind(twb::ModelKind kind) {
    if (kind == modelKind())
        return;
    twb::RunConfig c = config();
    c.model_kind = kind;
    if (kind == twb::ModelKind::EncoderDecoder)
        c.sequences = twb::Sequences::Stream;  // pairs are the sequences; the hidden field must not object
    else
        c.best_by = twb::BestBy::Loss;  // a decoder LM has no BLEU
    setConfig(c);
}

bool ConfigForm::isFieldShown(const QString& key) const {
    for (const auto& f : m_fields)
        if (f.key == key)
            return f.form->isRowVisible(f.row);
    return false;
}

void ConfigForm::updateKindRows() {
    const int mine = modelKind() == twb::ModelKind::EncoderDecoder ? kEncoderDecoderOnly : kDecoderOnly;
    for (const auto& f : m_fields)
        if (f.form->isRowVisible(f.row) != bool(f.kinds & mine))
            f.form->setRowVisible(f.row, f.kinds & mine);
}

void ConfigForm::refresh() {
    if (m_loading)
        return;
    updateKindRows();
    const auto c = config();
    const auto p = fieldProblems();
    QString text;
    for (const auto& f : m_fields) {
        QStringList mine;
        for (const auto& q : p)
            if (q.where.contains(f.key))
                mine << q.text;
        f.note->setText(mine.join("\n"));
        f.note->setVisible(!mine.isEmpty());
        const bool invalid = !mine.isEmpty();
        if (f.widget->property("invalid").toBool() != invalid) {
            f.widget->setProperty("invalid", invalid);
            f.widget->setStyleSheet(invalid ? "background-color: #ffe3e3;" : QString());
        }
    }
    for (const auto& q : p)
        text += q.text + "\n";
    m_problems->setText(text.trimmed());
    if (!m_loading && !m_preset->currentData().toString().isEmpty()) {
        // an edit away from the preset's values makes the form "Custom"
        const nlohmann::json theirs = twb::preset_config(m_preset->currentData().toString().toStdString());
        const nlohmann::json mine = c;
        for (const auto& f : m_fields)
            if (mine.value(f.key.toStdString(), nlohmann::json()) !=
                theirs.value(f.key.toStdString(), nlohmann::json())) {
                m_preset->setCurrentIndex(m_preset->findData(QString()));
                break;
            }
    }
    if (m_vocab > 0 && p.empty()) {
        const QLocale loc;
        const auto parts = c.parameter_parts();
        auto n = [&](int64_t v) { return loc.toString(static_cast<qlonglong>(v)); };
        m_summary->setText(tr("%1 parameters, about %2 MB while training\n"
                              "embeddings %3, attention %4, feed-forward %5, norms %6%7")
                               .arg(n(c.parameter_count()))
                               .arg(c.estimated_memory_bytes() / 1e6, 0, 'f', 0)
                               .arg(n(parts.embeddings), n(parts.attention), n(parts.feed_forward), n(parts.norms),
                                    parts.lm_head ? tr(", output layer %1").arg(n(parts.lm_head)) : QString()));
    } else {
        m_summary->setText(m_vocab > 0 ? QString() : tr("Choose a dataset to see the parameter count"));
    }
    emit changed();
}
