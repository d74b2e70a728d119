// Asks what "compare tokenizers" prepares: the text file(s), and which tokenizers (char, and BPE at
// the vocabulary sizes typed, e.g. "500, 2000"). Remembers the choices. Only collects them.
#pragma once
#include "twb/dataset.h"

#include <QDialog>

class QCheckBox;
class QLineEdit;

class CompareTokenizersDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareTokenizersDialog(QWidget* parent = nullptr);
    QStringList inputs() const;
    std::vector<twb::TokenizerSpec> tokenizers() const;

private:
    QLineEdit* m_inputs = nullptr;
    QCheckBox* m_char = nullptr;
    QLineEdit* m_bpe = nullptr;
};
