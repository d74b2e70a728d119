#include "ui/datasets/TokenizerChoice.h"

#include "twb/choices.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QSettings>
#include <QSpinBox>

TokenizerChoice::TokenizerChoice(const QString& name, const QString& group, const QString& kind, int vocab, int step,
                                 const QString& vocabTip, QWidget* parent)
    : QWidget(parent), m_group(group) {
    m_kind = new QComboBox;
    m_kind->setObjectName(name + "Tokenizer");
    for (const auto& k : twb::choice_names<twb::TokenizerKind>())
        if (k != twb::to_string(twb::TokenizerKind::Char))
            m_kind->addItem(QString::fromStdString(k));
    m_vocab = new QSpinBox;
    m_vocab->setObjectName(name + "Vocab");
    m_vocab->setRange(0, 1000000);
    m_vocab->setSingleStep(step);
    m_vocab->setSpecialValueText(tr("automatic"));
    m_vocab->setToolTip(vocabTip);
    const QSettings s;
    set(s.value(group + "/tokenizer", kind).toString(), s.value(group + "/vocab", vocab).toInt());
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_kind);
    row->addWidget(m_vocab, 1);
}

TokenizerChoice::~TokenizerChoice() {
    QSettings s;
    s.setValue(m_group + "/tokenizer", m_kind->currentText());
    s.setValue(m_group + "/vocab", m_vocab->value());
}

void TokenizerChoice::set(const QString& kind, int vocab) {
    m_kind->setCurrentText(kind);
    m_vocab->setValue(vocab);
}

twb::TokenizerSpec TokenizerChoice::spec() const {
    twb::TokenizerSpec t;
    t.kind = twb::parse_choice<twb::TokenizerKind>(m_kind->currentText().toStdString(), "tokenizer");
    t.vocab_size = m_vocab->value();
    return t;
}
