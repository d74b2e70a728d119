// The translation mode's decoding controls: beam width, length penalty (beam search only), maximum length
// as a ratio of the source plus extra tokens, and the KV cache, remembered between sessions. It turns the
// controls into twb::TranslateOptions (`twb translate --beam --length-penalty --max-ratio --max-extra`) and
// nothing else.
#pragma once
#include "twb/translation.h"
#include "ui/sampling/RememberedForm.h"

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;

class TranslationForm : public RememberedForm {
    Q_OBJECT
public:
    explicit TranslationForm(QWidget* parent = nullptr);

    twb::TranslateOptions options() const;
    void setBeamWidth(int w);

private:
    QSpinBox* m_beam;
    QDoubleSpinBox* m_lengthPenalty;
    QDoubleSpinBox* m_ratio;
    QSpinBox* m_extra;
    QCheckBox* m_cache;
};
