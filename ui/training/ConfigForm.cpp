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

    auto group = [&](const QString& title) {
        auto* g = new QGroupBox(title);
        auto* f = new QFormLayout(g);
        v->addWidget(g);
        return f;
    };
    using C = twb::RunConfig;
    auto* model = group(tr("Model"));
    addChoice(model, "model_kind", tr("Model kind"), &C::model_kind,
              tr("Decoder LM: a GPT that continues text (a token-stream dataset). Encoder-decoder: the original "
                 "transformer for translation (a parallel dataset of pairs)"),
              {tr("Decoder LM"), tr("Encoder-decoder")});
    addInt(model, "n_layer", tr("Layers"), &C::n_layer, 1, 128, tr("Transformer blocks (n_layer)"));
    addInt(model, "n_encoder_layer", tr("Encoder layers"), &C::n_encoder_layer, 0, 128,
           tr("Encoder blocks (n_encoder_layer); 0 = Layers"), tr("= layers"));
    addInt(model, "n_decoder_layer", tr("Decoder layers"), &C::n_decoder_layer, 0, 128,
           tr("Decoder blocks (n_decoder_layer), each with self- and cross-attention; 0 = Layers"), tr("= layers"));
    addInt(model, "n_head", tr("Heads"), &C::n_head, 1, 64, tr("Attention heads per block; width must divide by it"));
    addInt(model, "n_embd", tr("Width"), &C::n_embd, 8, 4096, tr("Embedding width n_embd (channels)"));
    addInt(model, "block_size", tr("Context"), &C::block_size, 4, 65536, tr("Context length in tokens (block_size)"));
    addDouble(model, "dropout", tr("Dropout"), &C::dropout, 0, 0.9, 2,
              tr("Dropout on embeddings, attention and residuals"));
    addChoice(model, "position", tr("Positions"), &C::position,
              tr("learned table, fixed sinusoids (Vaswani) or rotary (RoPE on queries and keys)"));
    addBool(model, "bias", tr("Bias"), &C::bias, tr("Biases in linear layers and LayerNorms"));
    addBool(model, "tie_embeddings", tr("Tie embeddings"), &C::tie_embeddings,
            tr("The output layer shares the token embedding matrix"));
    auto* arch = group(tr("Architecture"));
    addInt(arch, "ffn_hidden", tr("Feed-forward width"), &C::ffn_hidden, 0, 1048576,
           tr("Hidden width of each block's MLP (ffn_hidden); 0 = 4 x width"), tr("4 x width"));
    addChoice(arch, "activation", tr("Activation"), &C::activation,
              tr("gelu: exact GELU; gelu_tanh: its tanh approximation (GPT-2's gelu_new); relu"));
    addInt(arch, "head_size", tr("Head size"), &C::head_size, 0, 4096,
           tr("Channels per attention head (head_size); 0 = width / heads. Otherwise attention projects the width "
              "to heads x head size and back"),
           tr("width / heads"));
    addChoice(arch, "norm", tr("Norm"), &C::norm,
              tr("layernorm: (x - mean) / std * weight + bias; rmsnorm: x / rms(x) * weight, no bias"));
    addChoice(arch, "norm_position", tr("Norm position"), &C::norm_position,
              tr("pre: x + f(norm(x)) with a final norm (GPT-2); post: norm(x + f(x)), the original transformer"));
    addDouble(arch, "norm_eps", tr("Norm epsilon"), &C::norm_eps, 1e-10, 0.1, 6,
              tr("Added to the variance (or mean square) in every norm, e.g. 1e-5"));
    addBool(arch, "freeze_embeddings", tr("Freeze embeddings"), &C::freeze_embeddings,
            tr("The token embedding is not trained; with tied embeddings the output layer is frozen too"));
    addPath(arch, "embeddings_from", tr("Embeddings from"), &C::embeddings_from,
            tr("Start the token embedding from word vectors (a word2vec/GloVe/fastText .vec text file, as wide as "
               "the model, matched by token text) or from a run with the same tokenizer and width; tokens not "
               "found keep their random start. With Freeze embeddings they stay as imported"),
            tr("none"));
    auto* optim = group(tr("Optimisation"));
    addInt(optim, "batch_size", tr("Batch size"), &C::batch_size, 1, 4096, tr("Sequences per micro-batch"));
    addInt(optim, "batch_tokens", tr("Tokens per batch"), &C::batch_tokens, 0, 10000000,
           tr("Token budget of a micro-batch of pairs, source + target, padding included (batch_tokens); pairs "
              "of similar length go together. 0 = batch size x context"),
           tr("batch x context"));
    addInt(optim, "gradient_accumulation_steps", tr("Accumulation"), &C::gradient_accumulation_steps, 1, 1024,
           tr("Micro-batches per optimiser step"));
    addDouble(optim, "learning_rate", tr("Learning rate"), &C::learning_rate, 1e-7, 5, 6, tr("Peak learning rate"));
    addInt(optim, "max_iters", tr("Steps"), &C::max_iters, 1, 10000000, tr("Optimiser steps (max_iters)"));
    addDouble(optim, "max_epochs", tr("Epochs"), &C::max_epochs, 0, 100000, 2,
              tr("Passes over the training pairs (max_epochs); when set, training stops after these epochs or "
                 "at Steps, whichever comes first. 0 = Steps decide"));
    static_cast<QDoubleSpinBox*>(m_fields.back().widget)->setSpecialValueText(tr("steps decide"));
    addChoice(optim, "schedule", tr("Schedule"), &C::schedule,
              tr("cosine: warmup then cosine to min LR; inverse_sqrt: Vaswani's schedule peaking at the LR; "
                 "noam: the paper's exactly, the LR a scale: LR x width^-0.5 x min(step^-0.5, step x warmup^-1.5)"));
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
    addInt(ev, "keep_checkpoints", tr("Keep checkpoints"), &C::keep_checkpoints, 1, 100000,
           tr("Most recent checkpoints kept on disk (the best one is always kept as well)"));
    addInt(ev, "bleu_pairs", tr("BLEU pairs"), &C::bleu_pairs, 0, 1000000,
           tr("Validation BLEU at each evaluation, greedy, over the first N validation pairs (bleu_pairs); 0 = off"),
           tr("off"));
    addChoice(ev, "best_by", tr("Keep best by"), &C::best_by,
              tr("The checkpoint kept as the best: lowest validation loss, or highest validation BLEU"),
              {tr("validation loss"), tr("validation BLEU")});
    addInt(ev, "seed", tr("Seed"), nullptr, 0, 2147483647, tr("Random seed"));
    addInt(ev, "threads", tr("Threads"), &C::threads, 0, 256, tr("CPU threads; 0 = all cores"));
    addChoice(ev, "dtype", tr("Precision"), &C::dtype,
              tr("bfloat16: mixed precision matmuls (about 2x faster on CPUs with AVX512-BF16)"));
    // What each model kind does not use is hidden rather than left to confuse: a decoder LM has no
    // encoder, BLEU or token budget; the encoder-decoder trains on pairs (no document sequences) and
    // takes no imported word vectors.
    onlyFor(kDecoderOnly, {"sequences", "embeddings_from"});
    onlyFor(kEncoderDecoderOnly,
            {"n_encoder_layer", "n_decoder_layer", "batch_tokens", "max_epochs", "bleu_pairs", "best_by"});
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

ConfigForm::Field& ConfigForm::addRow(QFormLayout* f, const char* key, const QString& label, QWidget* w) {
    auto* box = new QWidget;
    auto* col = new QVBoxLayout(box);
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(1);
    col->addWidget(w);
    auto* note = new QLabel;
    note->setObjectName(QString(key) + "_problem");
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
    m_fields.push_back(std::move(field));
    return m_fields.back();
}

void ConfigForm::addInt(QFormLayout* f, const char* key, const QString& label, int twb::RunConfig::*member, int lo,
                        int hi, const QString& tip, const QString& zeroText) {
    auto* w = new QSpinBox;
    w->setObjectName(key);
    // The spin box takes any count a user may type; [lo, hi] is checked by the form and explained beside
    // the field, rather than a typed value being silently cut to the nearest limit.
    w->setRange(member ? std::min(lo, 0) : lo, member ? std::max(hi, 99999999) : hi);
    w->setSpecialValueText(zeroText);  // shown at the minimum (0 = the automatic value) when given
    w->setToolTip(tip);
    w->setGroupSeparatorShown(member != nullptr);  // a seed is a name, not a quantity: no "1,337"
    Field& field = addRow(f, key, label, w);
    connect(w, &QSpinBox::valueChanged, this, [this] { refresh(); });
    field.rangeProblem = [w, lo, hi, label]() -> QString {
        if (w->value() < lo)
            return tr("%1 must be at least %2").arg(label, QLocale().toString(lo));
        if (w->value() > hi)
            return tr("%1 can be at most %2").arg(label, QLocale().toString(hi));
        return {};
    };
    if (!member) {  // the seed is 64-bit in the config; the form offers the 31-bit range
        field.read = [w](twb::RunConfig& c) { c.seed = static_cast<uint64_t>(w->value()); };
        field.write = [w](const twb::RunConfig& c) { w->setValue(static_cast<int>(c.seed & 0x7fffffff)); };
        return;
    }
    field.read = [w, member](twb::RunConfig& c) { c.*member = w->value(); };
    field.write = [w, member](const twb::RunConfig& c) { w->setValue(c.*member); };
}

void ConfigForm::addDouble(QFormLayout* f, const char* key, const QString& label, double twb::RunConfig::*member,
                           double lo, double hi, int decimals, const QString& tip) {
    QDoubleSpinBox* w = decimals >= 6 ? new SciSpinBox : new QDoubleSpinBox;
    w->setObjectName(key);
    w->setDecimals(decimals >= 6 ? 10 : decimals);
    w->setRange(lo, hi);
    w->setSingleStep(decimals >= 6 ? 1 : std::pow(10.0, -decimals));
    w->setToolTip(tip);
    Field& field = addRow(f, key, label, w);
    connect(w, &QDoubleSpinBox::valueChanged, this, [this] { refresh(); });
    field.read = [w, member](twb::RunConfig& c) { c.*member = w->value(); };
    field.write = [w, member](const twb::RunConfig& c) { w->setValue(c.*member); };
}

template <class E>
void ConfigForm::addChoice(QFormLayout* f, const char* key, const QString& label, E twb::RunConfig::*member,
                           const QString& tip, const QStringList& itemLabels) {
    auto* w = new QComboBox;
    w->setObjectName(key);
    // The engine's name is the item's data; the text is the label given for it, or the name itself.
    int i = 0;
    for (const auto& name : twb::choice_names<E>()) {
        const QString n = QString::fromStdString(name);
        w->addItem(i < itemLabels.size() ? itemLabels[i] : n, n);
        ++i;
    }
    w->setToolTip(tip);
    Field& field = addRow(f, key, label, w);
    connect(w, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    field.read = [w, member, key](twb::RunConfig& c) {
        c.*member = twb::parse_choice<E>(w->currentData().toString().toStdString(), key);
    };
    field.write = [w, member](const twb::RunConfig& c) {
        w->setCurrentIndex(w->findData(QString::fromStdString(twb::to_string(c.*member))));
    };
}

void ConfigForm::addBool(QFormLayout* f, const char* key, const QString& label, bool twb::RunConfig::*member,
                         const QString& tip) {
    auto* w = new QCheckBox;
    w->setObjectName(key);
    w->setToolTip(tip);
    Field& field = addRow(f, key, label, w);
    connect(w, &QCheckBox::toggled, this, [this] { refresh(); });
    field.read = [w, member](twb::RunConfig& c) { c.*member = w->isChecked(); };
    field.write = [w, member](const twb::RunConfig& c) { w->setChecked(c.*member); };
}

void ConfigForm::addPath(QFormLayout* f, const char* key, const QString& label, std::string twb::RunConfig::*member,
                         const QString& tip, const QString& placeholder) {
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    auto* w = new QLineEdit;
    w->setObjectName(key);
    w->setPlaceholderText(placeholder);
    w->setToolTip(tip);
    w->setClearButtonEnabled(true);
    auto* browse = new QToolButton;
    browse->setObjectName(QString(key) + "_browse");
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
    Field& field = addRow(f, key, label, box);
    field.widget = w;
    connect(w, &QLineEdit::textChanged, this, [this] { refresh(); });
    field.rangeProblem = [w, label]() -> QString {
        const QString p = w->text().trimmed();
        if (!p.isEmpty() && !QFileInfo::exists(p))
            return tr("%1: %2 does not exist").arg(label, p);
        return {};
    };
    field.read = [w, member](twb::RunConfig& c) { c.*member = w->text().trimmed().toStdString(); };
    field.write = [w, member](const twb::RunConfig& c) { w->setText(QString::fromStdString(c.*member)); };
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

void ConfigForm::onlyFor(int kinds, std::initializer_list<const char*> keys) {
    for (const char* k : keys)
        for (auto& f : m_fields)
            if (f.key == k)
                f.kinds = kinds;
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
