#include "ui/sampling/TranslationForm.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSettings>
#include <QSpinBox>

TranslationForm::TranslationForm(QWidget* parent) : QGroupBox(tr("Translation"), parent) {
    const twb::TranslateOptions defaults;
    QSettings st;
    m_beam = new QSpinBox;
    m_beam->setObjectName("translationBeam");
    m_beam->setRange(1, 16);
    m_beam->setToolTip(
        tr("1 = greedy: each token streamed as it is chosen. > 1 = beam search: keeps this many "
           "candidate translations and shows the best one when the search ends (twb translate --beam)"));
    m_lengthPenalty = new QDoubleSpinBox;
    m_lengthPenalty->setObjectName("lengthPenalty");
    m_lengthPenalty->setRange(0, 3);
    m_lengthPenalty->setSingleStep(0.1);
    m_ratio = new QDoubleSpinBox;
    m_ratio->setObjectName("maxLengthRatio");
    m_ratio->setRange(0.1, 10);
    m_ratio->setSingleStep(0.1);
    m_ratio->setToolTip(
        tr("A translation stops after this many tokens per source token, plus the extra tokens "
           "(twb translate --max-ratio); never past the model's block_size"));
    m_extra = new QSpinBox;
    m_extra->setObjectName("maxLengthExtra");
    m_extra->setRange(0, 1000);
    m_extra->setToolTip(tr("Tokens allowed beyond the ratio (twb translate --max-extra)"));
    m_cache = new QCheckBox(tr("KV cache"));
    m_cache->setToolTip(tr("Reuse the decoder's keys and values of earlier tokens: same translation, faster"));

    m_beam->setValue(st.value("translation/beam", defaults.beam_width).toInt());
    m_lengthPenalty->setValue(st.value("translation/lengthPenalty", defaults.length_penalty).toDouble());
    m_ratio->setValue(st.value("translation/maxRatio", defaults.max_length_ratio).toDouble());
    m_extra->setValue(st.value("translation/maxExtra", defaults.max_length_extra).toInt());
    m_cache->setChecked(st.value("translation/kvCache", true).toBool());
    auto beamOnly = [this](int w) {
        m_lengthPenalty->setEnabled(w > 1);
        m_lengthPenalty->setToolTip(
            w > 1 ? tr("Beam score = log-probability / length^this: higher favours longer translations "
                       "(twb translate --length-penalty)")
                  : tr("Used by beam search only: set the beam width above 1"));
    };
    connect(m_beam, &QSpinBox::valueChanged, this, beamOnly);
    beamOnly(m_beam->value());

    auto* form = new QFormLayout(this);
    form->addRow(tr("Beam width"), m_beam);
    form->addRow(tr("Length penalty"), m_lengthPenalty);
    form->addRow(tr("Max length ratio"), m_ratio);
    form->addRow(tr("Extra tokens"), m_extra);
    form->addRow(QString(), m_cache);
}

TranslationForm::~TranslationForm() {
    QSettings st;
    st.setValue("translation/beam", m_beam->value());
    st.setValue("translation/lengthPenalty", m_lengthPenalty->value());
    st.setValue("translation/maxRatio", m_ratio->value());
    st.setValue("translation/maxExtra", m_extra->value());
    st.setValue("translation/kvCache", m_cache->isChecked());
}

void TranslationForm::setBeamWidth(int w) {
    m_beam->setValue(w);
}

twb::TranslateOptions TranslationForm::options() const {
    twb::TranslateOptions o;
    o.beam_width = m_beam->value();
    o.length_penalty = m_lengthPenalty->value();
    o.max_length_ratio = m_ratio->value();
    o.max_length_extra = m_extra->value();
    o.use_kv_cache = m_cache->isChecked();
    return o;
}
