// The Sampling panel's decoding controls: presets, temperature (slider and box), top-k, top-p, length,
// repetition penalty, beam width, seed, samples, KV cache and decode weights, remembered between sessions. It turns
// the controls into twb::SamplingOptions and nothing else.
#pragma once
#include "twb/generation.h"
#include "ui/sampling/RememberedForm.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSlider;
class QSpinBox;

class DecodingForm : public RememberedForm {
    Q_OBJECT
public:
    explicit DecodingForm(QWidget* parent = nullptr);

    /// The options the controls say; a random seed is drawn here when "random" is ticked.
    twb::SamplingOptions options() const;
    int maxNewTokens() const;
    void setTemperature(double t);
    void setMaxTokens(int n);
    void setSeed(qint64 seed);  // -1 = random
    void setSamples(int n);

private:
    void connectControls();
    void layOut();
    void applyPreset(int index);
    /// Shows the preset the values are, or Custom (a fresh start's values are the Default preset).
    void showMatchingPreset();

    QComboBox* m_preset;
    QSlider* m_tempSlider;
    QDoubleSpinBox* m_temp;
    QSpinBox* m_topK;
    QDoubleSpinBox* m_topP;
    QSpinBox* m_maxNew;
    QDoubleSpinBox* m_repPen;
    QSpinBox* m_noRepeat = nullptr;  // no_repeat_ngram: 0 = off
    QLineEdit* m_stops = nullptr;    // stop strings, separated by |, \n for a newline
    QSpinBox* m_beam;
    QSpinBox* m_seed;
    QCheckBox* m_randomSeed;
    QSpinBox* m_samples;
    QCheckBox* m_cache;
    QComboBox* m_weights;  // decode_weights: auto, float32, bfloat16
};
