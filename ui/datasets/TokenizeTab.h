// The Datasets panel's "Tokenize & prepare" tab: tokenizer A (the one prepared) and B (to compare),
// validation share, split and dataset name; and what tokenizing showed: statistics, the token-length
// histogram (A and B overlaid), the first tokens with their boundaries and ids, the vocabulary with
// search and counts, and A against B. The panel runs the jobs; this tab shows their results.
#pragma once
#include "twb/dataset.h"
#include "twb/tokenizer.h"

#include <QStringList>
#include <QWidget>

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QCPBars;
class QCustomPlot;
class QDoubleSpinBox;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTextBrowser;

/// What tokenizing a corpus showed (twb::TokenizerInspection with Qt strings and a label).
struct TokenizerAnalysis {
    QString label;  // "char", "bpe 2000"
    twb::DatasetStats stats;
    uint64_t trainTokens = 0, valTokens = 0;
    std::vector<uint64_t> counts;     // per id, over train + val
    QStringList tokenTexts;           // per id
    std::vector<int32_t> previewIds;  // the first tokens of the training split
};

class TokenizeTab : public QWidget {
    Q_OBJECT
public:
    explicit TokenizeTab(QWidget* parent = nullptr);
    ~TokenizeTab() override;  // remembers the tokenizer choices

    /// Tokenizer A (0, the one prepared) or B (1, compared).
    twb::TokenizerSpec tokenizerSpec(int which) const;
    /// "char", "bpe 400": how a tokenizer spec is named in the views.
    static QString label(const twb::TokenizerSpec& spec);
    void setTokenizer(int which, const QString& kind, int vocab = 0);
    QString datasetName() const;
    void setDatasetName(const QString& name);
    double valFraction() const;
    void setValFraction(double f);
    QString split() const;  // "tail" | "shuffle"
    /// A prepared dataset or run whose tokenizer encodes the corpus ("" = train tokenizer A).
    QString tokenizerFrom() const;
    void setTokenizerFrom(const QString& dir);
    /// Keep document boundaries (twb prepare --documents).
    bool documents() const;
    void setDocuments(bool on);

    /// Forgets the analyses shown (the sources changed): statistics, histogram, tokens, vocabulary.
    void clearAnalysis();
    void setAnalysis(int which, const TokenizerAnalysis& analysis);
    /// The merge view's inputs: a bytebpe dataset or run, and the sample text to merge.
    QString mergesSource() const;
    void setMergesSource(const QString& dir);
    QString mergesSample() const;
    /// Shows a bytebpe tokenizer's first and last merges and the sample merged step by step.
    void setMerges(const twb::BpeMergeInspection& merges);
    const TokenizerAnalysis& analysis(int which) const { return which == 0 ? m_a : m_b; }
    QTableWidget* compareTable() const { return m_compareTable; }
    QTableWidget* vocabTable() const { return m_vocab; }
    QCustomPlot* histogram() const { return m_hist; }
    /// The options beside the inspector, or above it where the tab is narrower than both need (150% text
    /// in Bokmål: the inspector lay over the options).
    bool optionsBesideInspector() const;

signals:
    void tokenizeClicked();
    void compareClicked();
    void prepareClicked();
    void mergesClicked();

protected:
    /// The histogram resized (the panel's layout settling, larger text): its legend placed again.
    bool eventFilter(QObject* watched, QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void fitReuseField();
    QBoxLayout* m_columns = nullptr;  // the options and the inspector
    QWidget* m_options = nullptr;
    QWidget* m_inspector = nullptr;
    // TokenizeTabLayout.cpp: the constructor's steps and the inspector's views
    void makeTokenizerChoices();
    QPushButton* makeOptions();
    QGridLayout* makeButtons();
    void layOut(QPushButton* chooseFrom, QGridLayout* buttons);
    void restoreChoices();
    QWidget* buildInspector();
    QWidget* buildMerges();
    void showStats();
    void showVocabulary();
    void showHistogram(int which);
    /// Puts the histogram's legend in the top corner where it covers no bar (growing the count axis when
    /// neither corner is free), each entry's note on a line of its own where the plot is narrower than it.
    void placeLegend();
    void showCompare();
    void renderTokenPreview();
    void filterVocab(const QString& text);

    QComboBox* m_kind[2];
    QSpinBox* m_vocabSize[2];
    QDoubleSpinBox* m_valFraction;
    QComboBox* m_split;
    QLineEdit* m_name;
    QLineEdit* m_tokenizerFrom;
    QCheckBox* m_documents;
    QLabel* m_stats;
    QCustomPlot* m_hist;
    QCPBars* m_bars[2] = {nullptr, nullptr};  // A and B token-length histograms
    QTextBrowser* m_tokPreview;
    QLineEdit* m_vocabSearch;
    QTableWidget* m_vocab;
    QTableWidget* m_compareTable;
    QLineEdit* m_mergesSource;
    QLineEdit* m_mergesSample;
    QTextBrowser* m_merges;
    TokenizerAnalysis m_a, m_b;
};
