#include "ui/sampling/DecodingForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRandomGenerator>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace {
struct Preset {
    const char* name;
    double temperature, top_p, rep;
    int top_k;
};
const Preset kPresets[] = {{QT_TRANSLATE_NOOP("DecodingForm", "Custom"), -1, 0, 0, 0},
                           {QT_TRANSLATE_NOOP("DecodingForm", "Default (as twb sample)"), 0.8, 1.0, 1.0, 0},
                           {QT_TRANSLATE_NOOP("DecodingForm", "Precise (greedy)"), 0.0, 1.0, 1.0, 0},
                           {QT_TRANSLATE_NOOP("DecodingForm", "Balanced"), 0.8, 1.0, 1.0, 40},
                           {QT_TRANSLATE_NOOP("DecodingForm", "Creative"), 1.1, 0.95, 1.1, 0}};
}  // namespace

DecodingForm::DecodingForm(QWidget* parent) : RememberedForm(tr("Decoding"), "sampling", parent) {
    m_preset = new QComboBox;
    m_preset->setObjectName("decodingPreset");
    for (const auto& p : kPresets)
        m_preset->addItem(tr(p.name));
    m_tempSlider = new QSlider(Qt::Horizontal);
    m_tempSlider->setRange(0, 200);
    m_temp = doubleSpinBox("temperature", 0, 2, 0.05,
                           tr("0 = greedy (always the most probable token); higher = more varied, less coherent"));
    m_topK = spinBox("topK", 0, 100000, tr("Sample only among the k most probable tokens (0 = off)"));
    m_topK->setSpecialValueText(tr("off"));
    m_topP = doubleSpinBox("", 0.01, 1.0, 0.05,
                           tr("Nucleus sampling: the smallest set of tokens whose probabilities reach p (1 = off)"));
    m_maxNew = spinBox("maxNewTokens", 1, 100000);
    m_repPen = doubleSpinBox("", 1.0, 3.0, 0.05, tr("> 1 makes tokens already in the text less likely"));
    m_noRepeat = spinBox("noRepeatNgram", 0, 16,
                         tr("Never repeat an n-gram of this many tokens (twb sample --no-repeat-ngram); 0 = off"));
    m_noRepeat->setSpecialValueText(tr("off"));
    m_stops = new QLineEdit;
    m_stops->setObjectName("stopStrings");
    m_stops->setPlaceholderText(tr("e.g. \\n\\n | THE END"));
    m_stops->setToolTip(
        tr("Generation ends when the text produces one of these strings (twb sample --stop); "
           "separate several with |, write a newline as \\n"));
    m_beam =
        spinBox("beamWidth", 1, 16, tr("> 1 = beam search: deterministic, keeps this many candidate continuations"));
    m_beam->setSpecialValueText(tr("off"));  // 1: no beam search, the sampling above decides
    m_seed = spinBox("", 0, 2147483647);
    m_randomSeed = new QCheckBox(tr("random"));
    m_samples = spinBox("", 1, 16);
    m_cache = new QCheckBox(tr("KV cache"));
    m_cache->setToolTip(tr("Reuse keys and values of earlier tokens: same text, many times faster"));
    m_weights = new QComboBox;
    m_weights->setObjectName("decodeWeights");
    for (auto w : {twb::DecodeWeights::Auto, twb::DecodeWeights::Float32, twb::DecodeWeights::BFloat16})
        m_weights->addItem(twb::to_string(w), twb::to_string(w));
    m_weights->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);  // the console stays narrow
    m_weights->setMinimumContentsLength(8);
    m_weights->setToolTip(
        tr("Weights one sample streams per token on the CPU (twb sample --decode-weights): auto = bfloat16 where "
           "the CPU has AVX2, else float32; bfloat16 halves the "
           "bytes read and runs the fast decoder; float32 gives libtorch's exact float32 tokens. Batches, beams "
           "and GPUs always use libtorch."));

    remember(m_temp, "temperature", 0.8);
    m_tempSlider->setValue(qRound(m_temp->value() * 100));
    remember(m_topK, "topK", 0);
    remember(m_topP, "topP", 1.0);
    remember(m_maxNew, "maxNew", 300);
    remember(m_repPen, "repetition", 1.0);
    remember(m_noRepeat, "noRepeatNgram", 0);
    remember(m_stops, "stopStrings");
    m_beam->setValue(1);  // beam width, samples and the cache start afresh each session
    remember(m_seed, "seed", 1337);
    remember(m_randomSeed, "randomSeed", false);
    m_samples->setValue(1);
    m_cache->setChecked(true);
    remember(m_weights, "decodeWeights", "auto");
    connectControls();
    layOut();
}

void DecodingForm::connectControls() {
    connect(m_tempSlider, &QSlider::valueChanged, this, [this](int v) {
        if (qRound(m_temp->value() * 100) != v)
            m_temp->setValue(v / 100.0);
    });
    connect(m_temp, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        QSignalBlocker b(m_tempSlider);
        m_tempSlider->setValue(qRound(v * 100));
    });
    connect(m_preset, &QComboBox::activated, this, &DecodingForm::applyPreset);
    for (auto* box : {m_temp, m_topP, m_repPen})
        connect(box, &QDoubleSpinBox::valueChanged, this, &DecodingForm::showMatchingPreset);
    connect(m_topK, &QSpinBox::valueChanged, this, &DecodingForm::showMatchingPreset);
    showMatchingPreset();
    connect(m_randomSeed, &QCheckBox::toggled, m_seed, &QWidget::setDisabled);
    m_seed->setDisabled(m_randomSeed->isChecked());
}

void DecodingForm::layOut() {
    auto* form = new QFormLayout(this);
    form->addRow(tr("Preset"), m_preset);
    auto* tempRow = new QHBoxLayout;
    tempRow->addWidget(m_tempSlider, 1);
    tempRow->addWidget(m_temp);
    form->addRow(tr("Temperature"), tempRow);
    form->addRow(tr("Top-k"), m_topK);
    form->addRow(tr("Top-p"), m_topP);
    form->addRow(tr("Max new tokens"), m_maxNew);
    form->addRow(tr("Repetition penalty"), m_repPen);
    form->addRow(tr("No repeat n-gram"), m_noRepeat);
    form->addRow(tr("Stop at"), m_stops);
    form->addRow(tr("Beam width"), m_beam);
    auto* seedRow = new QHBoxLayout;
    seedRow->addWidget(m_seed, 1);
    seedRow->addWidget(m_randomSeed);
    form->addRow(tr("Seed"), seedRow);
    form->addRow(tr("Samples"), m_samples);
    form->addRow(m_cache);  // the whole row, as in the translation form (cut in the field column at 150%)
    form->addRow(tr("Decode weights"), m_weights);
}

void DecodingForm::setTemperature(double t) {
    m_temp->setValue(t);
}
void DecodingForm::setMaxTokens(int n) {
    m_maxNew->setValue(n);
}
int DecodingForm::maxNewTokens() const {
    return m_maxNew->value();
}
void DecodingForm::setSamples(int n) {
    m_samples->setValue(n);
}
void DecodingForm::setSeed(qint64 seed) {
    m_randomSeed->setChecked(seed < 0);
    if (seed >= 0)
        m_seed->setValue(static_cast<int>(seed));
}

void DecodingForm::applyPreset(int index) {
    if (index <= 0 || index >= static_cast<int>(std::size(kPresets)))
        return;
    const auto& p = kPresets[index];
    m_temp->setValue(p.temperature);
    m_topP->setValue(p.top_p);
    m_topK->setValue(p.top_k);
    m_repPen->setValue(p.rep);
    m_beam->setValue(1);
}

void DecodingForm::showMatchingPreset() {
    int match = 0;
    for (int i = 1; i < static_cast<int>(std::size(kPresets)); ++i) {
        const auto& p = kPresets[i];
        const auto same = [](double a, double b) { return std::abs(a - b) < 1e-9; };
        if (same(m_temp->value(), p.temperature) && same(m_topP->value(), p.top_p) && same(m_repPen->value(), p.rep) &&
            m_topK->value() == p.top_k)
            match = i;
    }
    m_preset->setCurrentIndex(match);
}

twb::SamplingOptions DecodingForm::options() const {
    twb::SamplingOptions o;
    o.temperature = m_temp->value();
    o.top_k = m_topK->value();
    o.top_p = m_topP->value();
    o.max_new_tokens = m_maxNew->value();
    o.repetition_penalty = m_repPen->value();
    o.no_repeat_ngram = m_noRepeat->value();
    for (QString stop : m_stops->text().split('|')) {
        stop = stop.trimmed()
                   .replace(QLatin1String("\\n"), QLatin1String("\n"))
                   .replace(QLatin1String("\\t"), QLatin1String("\t"));
        if (!stop.isEmpty())
            o.stop_strings.push_back(stop.toStdString());
    }
    o.beam_width = m_beam->value();
    o.num_samples = m_beam->value() > 1 ? 1 : m_samples->value();
    o.seed = m_randomSeed->isChecked() ? static_cast<int64_t>(QRandomGenerator::global()->bounded(1 << 30))
                                       : m_seed->value();
    o.use_kv_cache = m_cache->isChecked();
    o.alternatives = 8;
    o.decode_weights = twb::parse_decode_weights(m_weights->currentData().toString().toStdString());
    return o;
}
