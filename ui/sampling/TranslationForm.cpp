#include "ui/sampling/TranslationForm.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

TranslationForm::TranslationForm(QWidget* parent) : RememberedForm(tr("Translation"), "translation", parent) {
    const twb::TranslateOptions defaults;
    m_beam = spinBox("translationBeam", 1, 16,
                     tr("1 = greedy: each token streamed as it is chosen. > 1 = beam search: keeps this many "
                        "candidate translations and shows the best one when the search ends (twb translate --beam)"));
    m_lengthPenalty = doubleSpinBox("lengthPenalty", 0, 3, 0.1);
    m_ratio = doubleSpinBox("maxLengthRatio", 0.1, 10, 0.1,
                            tr("A translation stops after this many tokens per source token, plus the extra tokens "
                               "(twb translate --max-ratio); never past the model's block_size"));
    m_extra = spinBox("maxLengthExtra", 0, 1000, tr("Tokens allowed beyond the ratio (twb translate --max-extra)"));
    m_cache = new QCheckBox(tr("KV cache"));
    m_cache->setToolTip(tr("Reuse the decoder's keys and values of earlier tokens: same translation, faster"));

    remember(m_beam, "beam", defaults.beam_width);
    remember(m_lengthPenalty, "lengthPenalty", defaults.length_penalty);
    remember(m_ratio, "maxRatio", defaults.max_length_ratio);
    remember(m_extra, "maxExtra", defaults.max_length_extra);
    remember(m_cache, "kvCache", true);
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
    form->addRow(m_cache);  // the whole row: in the field column "KV-hurtigbuffer" read "KV-hu" at 150%
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
