#include "ui/training/ConfigForm.h"
#include "twb/schedule.h"
#include "ui/training/ConfigProblemText.h"

#include "ui/widgets/WheelGuard.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSet>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

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
    // The parameter count, the memory estimate and what is wrong, at the top: they follow the edits of the
    // fields below, and at the form's end they were four screens away from Layers and Width.
    m_summary = new QLabel;
    m_summary->setObjectName("configSummary");
    m_summary->setWordWrap(true);  // at a larger text size (View → Larger text) it wraps, not widens the form
    m_problems = new QLabel;
    m_problems->setObjectName("configProblems");
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet("color: #b00020;");
    m_problems->setTextFormat(Qt::RichText);
    m_problems->setTextInteractionFlags(Qt::LinksAccessibleByMouse |
                                        Qt::LinksAccessibleByKeyboard);  // Tab reaches each field's link
    m_problems->hide();
    connect(m_problems, &QLabel::linkActivated, this, &ConfigForm::showField);
    v->addWidget(m_summary);
    v->addWidget(m_problems);

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
    v->addStretch();
    // Decay steps follow Steps while the two are equal (nanoGPT's recipes decay over the whole run): "train
    // longer" set Steps to 3,000 and left the learning rate at its minimum after step 500. Not for a run
    // that has trained (setDecayFollowsSteps): continuing it keeps its schedule, past its end at min_lr.
    auto* steps = findChild<QSpinBox*>("max_iters");
    auto* decay = findChild<QSpinBox*>("lr_decay_iters");
    connect(steps, &QSpinBox::valueChanged, this, [this, decay, before = steps->value()](int now) mutable {
        if (!m_loading && m_decayFollowsSteps && decay->value() == before)
            decay->setValue(now);
        before = now;
    });
    // A choice as wide as its longest item (the device's "Automatic (a CUDA GPU if …)") set the form's
    // width, and at a larger text size (View → Larger text) the form ran under the plots: the boxes may
    // be narrower than their items and shorten them; the open list shows them whole.
    for (auto* box : findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
    }
    WheelGuard::protect(this);
    setConfig(twb::preset_config("default"));
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

namespace {
/// The machine's settings, not a recipe's: a preset chosen keeps them, and they are no part of what it is ("Tiny"
/// read "Custom" once Threads was 1, and choosing Tiny again set it back to all cores).
bool isMachineSetting(const QString& key) {
    return key == "threads" || key == "device";
}
}  // namespace

bool ConfigForm::matchesPreset(const nlohmann::json& mine, const QString& name) const {
    const nlohmann::json theirs = twb::preset_config(name.toStdString());
    for (const auto& f : m_fields)
        if (!isMachineSetting(f.key) &&
            mine.value(f.key.toStdString(), nlohmann::json()) != theirs.value(f.key.toStdString(), nlohmann::json()))
            return false;
    return true;
}

void ConfigForm::selectMatchingPreset() {
    // The preset chooser names the preset whose values the form shows, or "Custom".
    const nlohmann::json mine = config();
    for (int i = 0; i < m_preset->count(); ++i) {
        const QString name = m_preset->itemData(i).toString();
        if (!name.isEmpty() && matchesPreset(mine, name)) {
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
    const twb::RunConfig now = config();
    c.threads = now.threads;  // isMachineSetting: kept (the Quick start trained on every core with Threads at 1)
    c.device = now.device;
    c.data_dir = m_base.data_dir;
    if (m_documentsOnly)
        c.sequences = twb::Sequences::Documents;
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
        // the form says the same in the interface's language with its labels, under each field the problem names.
        const QString english = QString::fromStdString(s);
        Problem p{configProblemText(english), {}};
        for (const auto& f : m_fields) {
            const QRegularExpression word("\\b" + QRegularExpression::escape(f.key) + "\\b");
            if (english.contains(word)) {
                // "(or set head_size to ...)" names a way out, not a field at fault
                const bool remedy = english.contains(QRegularExpression("\\bset " + QRegularExpression::escape(f.key)));
                p.text.replace(word, f.label);
                if (!remedy)
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

void ConfigForm::edited(QWidget* w) {
    m_edited = w->objectName();
    refresh();
}

void ConfigForm::showField(const QString& key) {
    auto* w = findChild<QWidget*>(key);
    if (!w)
        return;
    for (QWidget* up = parentWidget(); up; up = up->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(up)) {
            area->ensureWidgetVisible(w);
            break;
        }
    w->setFocus(Qt::OtherFocusReason);
}

void ConfigForm::refresh() {
    if (m_loading)
        return;
    updateKindRows();
    const auto c = config();
    const auto p = fieldProblems();
    // A problem is explained once, under one field it names: the one changed last if it names that, else
    // the first; every field it names is marked. The line at the form's top links to those fields (the
    // form scrolls) and says in full only what no field names.
    QStringList loose;
    QSet<QString> marked;  // the keys of the fields some problem names
    for (const auto& q : p) {
        if (q.where.empty())
            loose << q.text.toHtmlEscaped();
        for (const auto& key : q.where)
            marked.insert(key);
    }
    for (const auto& f : m_fields) {
        QStringList mine;
        const bool named = marked.contains(f.key);
        for (const auto& q : p)
            if (q.where.contains(f.key)) {
                const QString home = q.where.contains(m_edited) ? m_edited : q.where.front();
                if (home == f.key)
                    mine << q.text;
            }
        f.note->setText(mine.join("\n"));
        f.note->setVisible(!mine.isEmpty());
        if (f.widget->property("invalid").toBool() != named) {
            f.widget->setProperty("invalid", named);
            f.widget->setStyleSheet(named ? "background-color: #ffe3e3;" : QString());
        }
    }
    QStringList anchors;
    for (const auto& f : m_fields)
        if (marked.contains(f.key))
            anchors << QString("<a href=\"%1\">%2</a>").arg(f.key, f.label.toHtmlEscaped());
    if (!anchors.empty())
        loose << tr("Check: %1").arg(anchors.join(", "));
    m_problems->setText(loose.join("<br>"));
    m_problems->setVisible(!loose.empty());
    // An edit away from the preset's values makes the form "Custom"; values back at exactly a preset's
    // name it again. A preset chosen stays chosen while the form holds its values (two presets may agree).
    if (!m_loading &&
        (m_preset->currentData().toString().isEmpty() || !matchesPreset(c, m_preset->currentData().toString())))
        selectMatchingPreset();
    if (m_vocab > 0 && p.empty()) {
        const QLocale loc;
        const auto parts = c.parameter_parts();
        auto n = [&](int64_t v) { return loc.toString(static_cast<qlonglong>(v)); };
        // Two sentences: "…while training" and the next line's "embeddings…" read as one ("while training
        // embeddings") where the first wrapped.
        m_summary->setText(tr("%1 parameters, about %2 MB while training.\n"
                              "By part: embeddings %3, attention %4, feed-forward %5, norms %6%7.")
                               .arg(n(c.parameter_count()))
                               .arg(c.estimated_memory_bytes() / 1e6, 0, 'f', 0)
                               .arg(n(parts.embeddings), n(parts.attention), n(parts.feed_forward), n(parts.norms),
                                    parts.lm_head ? tr(", output layer %1").arg(n(parts.lm_head)) : QString()));
        // A cosine that ends well before the last step (a run's "Train more", carried into a new run) or well
        // after it is said: the steps after it train at the minimum rate, or the run never gets there
        if (const QString note = decayNote(c); !note.isEmpty())
            m_summary->setText(m_summary->text() + "\n" + note);
    } else {
        m_summary->setText(m_vocab > 0 ? QString() : tr("Choose a dataset to see the parameter count"));
    }
    emit changed();
}

QString ConfigForm::decayNote(const twb::RunConfig& c) {
    const int gap = c.lr_decay_iters - c.max_iters;
    if (c.schedule != twb::Schedule::Cosine || std::abs(gap) < std::max(1, c.max_iters / 10))
        return {};
    const QLocale loc;  // numbers as the form writes them ("0,0003" in Bokmål)
    if (gap < 0)
        return tr("The learning rate reaches its minimum at step %1 of %2 (Decay steps): the last %3 steps train at "
                  "%4.")
            .arg(loc.toString(c.lr_decay_iters), loc.toString(c.max_iters), loc.toString(-gap))
            .arg(loc.toString(c.min_lr, 'g', 3));
    // Decay steps past Steps: the cosine is cut off before its minimum, which nothing said either
    return tr("Training ends at step %1 of the cosine's %2 (Decay steps): the learning rate is still %3 there, not "
              "its minimum %4.")
        .arg(loc.toString(c.max_iters), loc.toString(c.lr_decay_iters))
        .arg(loc.toString(twb::learning_rate_at(c, c.max_iters - 1), 'g', 3), loc.toString(c.min_lr, 'g', 3));
}
