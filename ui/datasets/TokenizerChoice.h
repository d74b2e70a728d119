// A tokenizer to train, for data whose sequences end with <eos> (translation pairs, chat data): its kind
// (every kind but char, which has no <eos>) beside its vocabulary size (0: automatic), both remembered
// under a settings group. The Translation pairs and Chat data tabs each hold one.
#pragma once
#include "twb/dataset.h"

#include <QWidget>

class QComboBox;
class QSpinBox;

class TokenizerChoice : public QWidget {
    Q_OBJECT
public:
    /// name: the object names' prefix ("parallel": parallelTokenizer, parallelVocab); group: the settings
    /// group ("parallel/tokenizer", "parallel/vocab"); the defaults, the size's step and its tooltip.
    TokenizerChoice(const QString& name, const QString& group, const QString& kind, int vocab, int step,
                    const QString& vocabTip, QWidget* parent = nullptr);
    ~TokenizerChoice() override;  // remembers both

    void set(const QString& kind, int vocab);
    /// The kind and size as prepare takes them.
    twb::TokenizerSpec spec() const;
    QComboBox* kindBox() const { return m_kind; }

private:
    QString m_group;
    QComboBox* m_kind;
    QSpinBox* m_vocab;
};
