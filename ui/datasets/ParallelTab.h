// The Datasets panel's "Translation pairs" tab: a parallel dataset for an encoder-decoder, as
// `twb prepare --source/--target` or `--pairs` makes it. Two line-aligned files or one TSV file with the
// two columns; optional official validation and test files; languages, tokenizer and vocabulary, held-out
// shares and the length filter; and, after preparing, the pair counts and per-side token lengths. It
// gathers options and shows results; the panel runs prepare_parallel off the UI thread.
#pragma once
#include "twb/dataset.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class TokenizerChoice;

class ParallelTab : public QWidget {
    Q_OBJECT
public:
    explicit ParallelTab(QWidget* parent = nullptr);
    ~ParallelTab() override;  // remembers the tokenizer, languages and mode

    /// The options prepare_parallel takes, written to datasetsDir/NAME. Throws twb::ConfigError naming
    /// what is missing (no source file, no TSV, no name).
    twb::ParallelPrepareOptions options(const QString& datasetsDir) const;

    // Driving the tab (tests, the catalogue).
    void setFiles(const QString& source, const QString& target);
    void setPairsFile(const QString& tsv, int sourceColumn, int targetColumn);
    void setValidationFiles(const QString& source, const QString& target);
    void setTestFiles(const QString& source, const QString& target);
    void setLanguages(const QString& source, const QString& target);
    void setTokenizer(const QString& kind, int vocab);
    void setDatasetName(const QString& name);
    void setFractions(double val, double test);
    /// Shows what a finished preparation made.
    void setResult(const twb::ParallelPrepareResult& r);
    QString resultText() const;
    /// Forgets the last dataset's summary (a new preparation starts: it is no word on that one).
    void clearResult();

signals:
    void prepareClicked();
    /// The mode or a file was changed: an error about the files before no longer speaks of them.
    void filesChanged();

protected:
    void changeEvent(QEvent* e) override;  // a new text size: the fields' least widths again

private:
    /// The least widths of the fields: a file's name, the placeholders, the mode's text.
    void fitFields();
    /// The "Pairs" group: the mode, the files or TSV (with its columns), the official splits.
    QGroupBox* buildFiles();
    void addColumns(QFormLayout* form);
    /// The label column as wide as its widest label in either mode, so the fields stay put when it changes.
    void alignLabels(QFormLayout* form);
    /// The "Preparation" group: languages, tokenizer, held-out shares, filters, name and Prepare.
    QGroupBox* buildPreparation();
    void addFilters(QFormLayout* form);
    /// A file field with a Browse button, added as a row of f; returns the line edit.
    QLineEdit* addFile(QFormLayout* f, const QString& name, const QString& label, const QString& tip);
    void updateMode();

    QComboBox* m_mode;
    QLineEdit *m_source, *m_target, *m_pairs;
    QSpinBox *m_sourceColumn, *m_targetColumn;
    QLineEdit *m_valSource, *m_valTarget, *m_valPairs;
    QLineEdit *m_testSource, *m_testTarget, *m_testPairs;
    QLineEdit *m_sourceLang, *m_targetLang;
    TokenizerChoice* m_tokenizer;
    QDoubleSpinBox *m_valFraction, *m_testFraction;
    QSpinBox* m_maxTokens;
    QDoubleSpinBox* m_maxRatio;
    QCheckBox* m_separateVocab;
    QLineEdit* m_name;
    QLabel* m_result;
    std::vector<std::pair<QFormLayout*, QWidget*>> m_filesRows, m_pairsRows;  // shown per mode
};
