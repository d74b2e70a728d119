#include "ui/sampling/DecodingForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRandomGenerator>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>

namespace {
struct Preset {
    const char* name;
    double temperature, top_p, rep;
    int top_k;
};
const Preset kPresets[] = {{"Custom", -1, 0, 0, 0},
                           {"Precise (greedy)", 0.0, 1.0, 1.0, 0},
                           {"Balanced", 0.8, 1.0, 1.0, 40},
                           {"Creative", 1.1, 0.95, 1.1, 0}};
}  // namespace

DecodingForm::DecodingForm(QWidget* parent) : QGroupBox(tr("Decoding"), parent) {
    QSettings st;
    m_preset = new QComboBox;
    for (const auto& p : kPresets)
        m_preset->addItem(tr(p.name));
    m_tempSlider = new QSlider(Qt::Horizontal);
    m_tempSlider->setRange(0, 200);
    m_temp = new QDoubleSpinBox;
    m_temp->setObjectName("temperature");
    m_temp->setRange(0, 2);
    m_temp->setSingleStep(0.05);
    m_temp->setToolTip(tr("0 = greedy (always the most probable token); higher = more varied, less coherent"));
    m_topK = new QSpinBox;
    m_topK->setRange(0, 100000);
    m_topK->setSpecialValueText(tr("off"));
    m_topK->setToolTip(tr("Sample only among the k most probable tokens (0 = off)"));
    m_topP = new QDoubleSpinBox;
    m_topP->setRange(0.01, 1.0);
    m_topP->setSingleStep(0.05);
    m_topP->setToolTip(tr("Nucleus sampling: the smallest set of tokens whose probabilities reach p (1 = off)"));
    m_maxNew = new QSpinBox;
    m_maxNew->setObjectName("maxNewTokens");
    m_maxNew->setRange(1, 100000);
    m_repPen = new QDoubleSpinBox;
    m_repPen->setRange(1.0, 3.0);
    m_repPen->setSingleStep(0.05);
    m_repPen->setToolTip(tr("> 1 makes tokens already in the text less likely"));
    m_noRepeat = new QSpinBox;
    m_noRepeat->setObjectName("noRepeatNgram");
    m_noRepeat->setRange(0, 16);
    m_noRepeat->setSpecialValueText(tr("off"));
    m_noRepeat->setToolTip(tr("Never repeat an n-gram of this many tokens (twb sample --no-repeat-ngram); 0 = off"));
    m_stops = new QLineEdit;
    m_stops->setObjectName("stopStrings");
    m_stops->setPlaceholderText(tr("e.g. \\n\\n | THE END"));
    m_stops->setToolTip(
        tr("Generation ends when the text produces one of these strings (twb sample --stop); "
           "separate several with |, write a newline as \\n"));
    m_beam = new QSpinBox;
    m_beam->setObjectName("beamWidth");
    m_beam->setRange(1, 16);
    m_beam->setToolTip(tr("> 1 = beam search: deterministic, keeps this many candidate continuations"));
    m_seed = new QSpinBox;
    m_seed->setRange(0, 2147483647);
    m_randomSeed = new QCheckBox(tr("random"));
    m_samples = new QSpinBox;
    m_samples->setRange(1, 16);
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

    m_temp->setValue(st.value("sampling/temperature", 0.8).toDouble());
    m_tempSlider->setValue(qRound(m_temp->value() * 100));
    m_topK->setValue(st.value("sampling/topK", 0).toInt());
    m_topP->setValue(st.value("sampling/topP", 1.0).toDouble());
    m_maxNew->setValue(st.value("sampling/maxNew", 300).toInt());
    m_repPen->setValue(st.value("sampling/repetition", 1.0).toDouble());
    m_noRepeat->setValue(st.value("sampling/noRepeatNgram", 0).toInt());
    m_stops->setText(st.value("sampling/stopStrings").toString());
    m_beam->setValue(1);
    m_seed->setValue(st.value("sampling/seed", 1337).toInt());
    m_randomSeed->setChecked(st.value("sampling/randomSeed", false).toBool());
    m_samples->setValue(1);
    m_cache->setChecked(true);
    m_weights->setCurrentIndex(std::max(0, m_weights->findData(st.value("sampling/decodeWeights", "auto"))));

    connect(m_tempSlider, &QSlider::valueChanged, this, [this](int v) {
        if (qRound(m_temp->value() * 100) != v)
            m_temp->setValue(v / 100.0);
    });
    connect(m_temp, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        QSignalBlocker b(m_tempSlider);
        m_tempSlider->setValue(qRound(v * 100));
    });
    connect(m_preset, &QComboBox::activated, this, &DecodingForm::applyPreset);
    connect(m_randomSeed, &QCheckBox::toggled, m_seed, &QWidget::setDisabled);
    m_seed->setDisabled(m_randomSeed->isChecked());

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
    form->addRow(QString(), m_cache);
    form->addRow(tr("Decode weights"), m_weights);
}

DecodingForm::~DecodingForm() {
    QSettings st;
    st.setValue("sampling/temperature", m_temp->value());
    st.setValue("sampling/topK", m_topK->value());
    st.setValue("sampling/topP", m_topP->value());
    st.setValue("sampling/maxNew", m_maxNew->value());
    st.setValue("sampling/repetition", m_repPen->value());
    st.setValue("sampling/noRepeatNgram", m_noRepeat->value());
    st.setValue("sampling/stopStrings", m_stops->text());
    st.setValue("sampling/seed", m_seed->value());
    st.setValue("sampling/randomSeed", m_randomSeed->isChecked());
    st.setValue("sampling/decodeWeights", m_weights->currentData());
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
