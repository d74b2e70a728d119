#include "ui/training/ConfigForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QVBoxLayout>

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
    m_preset->addItem(tr("Default (4x4x128, rotary)"), "default");
    m_preset->addItem(tr("nanoGPT CPU recipe (4x4x128)"), "nanogpt-cpu");
    m_preset->addItem(tr("Baby GPT (6x6x384, block 256)"), "baby-gpt");
    m_preset->addItem(tr("Tiny, under a minute (3x4x96)"), "tiny");
    m_preset->setToolTip(tr("Fill the form with a known-good configuration"));
    connect(m_preset, &QComboBox::activated, this, [this](int i) { applyPreset(m_preset->itemData(i).toString()); });
    top->addRow(tr("Preset"), m_preset);
    v->addLayout(top);

    auto group = [&](const QString& title) {
        auto* g = new QGroupBox(title);
        auto* f = new QFormLayout(g);
        v->addWidget(g);
        return f;
    };
    using C = twb::RunConfig;
    auto* model = group(tr("Model"));
    addInt(model, "n_layer", tr("Layers"), &C::n_layer, 1, 64, tr("Transformer blocks (n_layer)"));
    addInt(model, "n_head", tr("Heads"), &C::n_head, 1, 64, tr("Attention heads per block; width must divide by it"));
    addInt(model, "n_embd", tr("Width"), &C::n_embd, 8, 4096, tr("Embedding width n_embd (channels)"));
    addInt(model, "block_size", tr("Context"), &C::block_size, 4, 8192, tr("Context length in tokens (block_size)"));
    addDouble(model, "dropout", tr("Dropout"), &C::dropout, 0, 0.9, 2,
              tr("Dropout on embeddings, attention and residuals"));
    addChoice(model, "position", tr("Positions"), &C::position,
              tr("learned table, fixed sinusoids (Vaswani) or rotary (RoPE on queries and keys)"));
    addBool(model, "bias", tr("Bias"), &C::bias, tr("Biases in linear layers and LayerNorms"));
    addBool(model, "tie_embeddings", tr("Tie embeddings"), &C::tie_embeddings,
            tr("The output layer shares the token embedding matrix"));
    auto* optim = group(tr("Optimisation"));
    addInt(optim, "batch_size", tr("Batch size"), &C::batch_size, 1, 4096, tr("Sequences per micro-batch"));
    addInt(optim, "gradient_accumulation_steps", tr("Accumulation"), &C::gradient_accumulation_steps, 1, 1024,
           tr("Micro-batches per optimiser step"));
    addDouble(optim, "learning_rate", tr("Learning rate"), &C::learning_rate, 1e-7, 5, 6, tr("Peak learning rate"));
    addInt(optim, "max_iters", tr("Steps"), &C::max_iters, 0, 10000000, tr("Optimiser steps (max_iters)"));
    addChoice(optim, "schedule", tr("Schedule"), &C::schedule,
              tr("cosine: warmup then cosine to min LR; inverse_sqrt: Vaswani's schedule peaking at the LR"));
    addInt(optim, "warmup_iters", tr("Warmup"), &C::warmup_iters, 0, 1000000, tr("Linear warmup steps"));
    addInt(optim, "lr_decay_iters", tr("Decay steps"), &C::lr_decay_iters, 1, 10000000,
           tr("Cosine reaches min LR here"));
    addDouble(optim, "min_lr", tr("Min LR"), &C::min_lr, 0, 5, 6, tr("Floor of the cosine schedule"));
    addDouble(optim, "weight_decay", tr("Weight decay"), &C::weight_decay, 0, 10, 3,
              tr("AdamW decay on weight matrices"));
    addDouble(optim, "beta2", tr("Adam β2"), &C::beta2, 0, 0.9999, 4, tr("Second-moment decay"));
    addDouble(optim, "grad_clip", tr("Grad clip"), &C::grad_clip, 0, 100, 2, tr("Max global gradient norm; 0 = off"));
    addDouble(optim, "label_smoothing", tr("Label smoothing"), &C::label_smoothing, 0, 0.9, 2, tr("e.g. 0.1"));
    // How batches are cut (documents as sequences).
    addChoice(optim, "sequences", tr("Sequences"), &C::sequences,
              tr("stream: random windows of the token stream (nanoGPT); documents: one <bos> … <eos> document "
                 "per row, padded (needs a dataset prepared with Keep documents)"));
    auto* ev = group(tr("Evaluation and runtime"));
    addInt(ev, "eval_interval", tr("Eval every"), &C::eval_interval, 1, 1000000,
           tr("Steps between evaluations and checkpoints"));
    addInt(ev, "eval_iters", tr("Eval batches"), &C::eval_iters, 1, 100000, tr("Batches per evaluation"));
    addInt(ev, "log_interval", tr("Report every"), &C::log_interval, 1, 100000, tr("Steps between progress reports"));
    addInt(ev, "seed", tr("Seed"), nullptr, 0, 2147483647, tr("Random seed"));
    addInt(ev, "threads", tr("Threads"), &C::threads, 0, 256, tr("CPU threads; 0 = all cores"));
    addChoice(ev, "dtype", tr("Precision"), &C::dtype,
              tr("bfloat16: mixed precision matmuls (about 2x faster on CPUs with AVX512-BF16)"));
    m_summary = new QLabel;
    m_summary->setObjectName("configSummary");
    m_problems = new QLabel;
    m_problems->setObjectName("configProblems");
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet("color: #b00020;");
    v->addWidget(m_summary);
    v->addWidget(m_problems);
    v->addStretch();
    setConfig(twb::preset_config("default"));
}

void ConfigForm::addInt(QFormLayout* f, const char* key, const QString& label, int twb::RunConfig::*member, int lo,
                        int hi, const QString& tip) {
    auto* w = new QSpinBox;
    w->setObjectName(key);
    w->setRange(lo, hi);
    w->setToolTip(tip);
    w->setGroupSeparatorShown(true);
    f->addRow(label, w);
    connect(w, &QSpinBox::valueChanged, this, [this] { refresh(); });
    if (!member) {  // the seed is 64-bit in the config; the form offers the 31-bit range
        m_fields.push_back({[w](twb::RunConfig& c) { c.seed = static_cast<uint64_t>(w->value()); },
                            [w](const twb::RunConfig& c) { w->setValue(static_cast<int>(c.seed & 0x7fffffff)); }});
        return;
    }
    m_fields.push_back({[w, member](twb::RunConfig& c) { c.*member = w->value(); },
                        [w, member](const twb::RunConfig& c) { w->setValue(c.*member); }});
}

void ConfigForm::addDouble(QFormLayout* f, const char* key, const QString& label, double twb::RunConfig::*member,
                           double lo, double hi, int decimals, const QString& tip) {
    QDoubleSpinBox* w = decimals >= 6 ? new SciSpinBox : new QDoubleSpinBox;
    w->setObjectName(key);
    w->setDecimals(decimals >= 6 ? 10 : decimals);
    w->setRange(lo, hi);
    w->setSingleStep(decimals >= 6 ? 1 : std::pow(10.0, -decimals));
    w->setToolTip(tip);
    f->addRow(label, w);
    connect(w, &QDoubleSpinBox::valueChanged, this, [this] { refresh(); });
    m_fields.push_back({[w, member](twb::RunConfig& c) { c.*member = w->value(); },
                        [w, member](const twb::RunConfig& c) { w->setValue(c.*member); }});
}

template <class E>
void ConfigForm::addChoice(QFormLayout* f, const char* key, const QString& label, E twb::RunConfig::*member,
                           const QString& tip) {
    auto* w = new QComboBox;
    w->setObjectName(key);
    for (const auto& name : twb::choice_names<E>())
        w->addItem(QString::fromStdString(name));
    w->setToolTip(tip);
    f->addRow(label, w);
    connect(w, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    m_fields.push_back(
        {[w, member, key](twb::RunConfig& c) { c.*member = twb::parse_choice<E>(w->currentText().toStdString(), key); },
         [w, member](const twb::RunConfig& c) {
             w->setCurrentText(QString::fromStdString(twb::to_string(c.*member)));
         }});
}

void ConfigForm::addBool(QFormLayout* f, const char* key, const QString& label, bool twb::RunConfig::*member,
                         const QString& tip) {
    auto* w = new QCheckBox;
    w->setObjectName(key);
    w->setToolTip(tip);
    f->addRow(label, w);
    connect(w, &QCheckBox::toggled, this, [this] { refresh(); });
    m_fields.push_back({[w, member](twb::RunConfig& c) { c.*member = w->isChecked(); },
                        [w, member](const twb::RunConfig& c) { w->setChecked(c.*member); }});
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
    refresh();
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

std::vector<std::string> ConfigForm::problems() const {
    return config().validate();
}

void ConfigForm::refresh() {
    if (m_loading)
        return;
    const auto c = config();
    const auto p = c.validate();
    QString text;
    for (auto& s : p)
        text += QString::fromStdString(s) + "\n";
    m_problems->setText(text.trimmed());
    if (m_vocab > 0 && p.empty()) {
        const QLocale loc;
        m_summary->setText(tr("%1 parameters, about %2 MB while training")
                               .arg(loc.toString(static_cast<qlonglong>(c.parameter_count())))
                               .arg(c.estimated_memory_bytes() / 1e6, 0, 'f', 0));
    } else {
        m_summary->setText(m_vocab > 0 ? QString() : tr("Choose a dataset to see the parameter count"));
    }
    emit changed();
}
