// The Datasets panel: import files and folders (dialogs or drag-and-drop) in any supported format,
// clean with a live before/after preview, tokenize and inspect (statistics, token-length histogram,
// tokenized preview with boundaries and ids, vocabulary with search, two tokenizers side by side),
// prepare exactly what `twb prepare` writes, manage prepared datasets, download catalogue corpora
// (progress, resume, sha256) and generate synthetic tasks. Long jobs run off the UI thread with
// progress and Cancel; a bad file gives a message here and changes nothing.
#pragma once
#include "engine/data/catalogue.h"
#include "engine/data/prepare.h"
#include "ui/TextDiff.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>
#include <atomic>
#include <memory>

class Downloader;
class QCheckBox;
class QComboBox;
class QCPBars;
class QCustomPlot;
class QDoubleSpinBox;
class ErrorLabel;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

/// What tokenizing a corpus showed (computed off the UI thread).
struct TokenizerAnalysis {
    QString label;  // "char", "bpe 2000"
    twb::DatasetStats stats;
    uint64_t trainTokens = 0, valTokens = 0;
    std::vector<uint64_t> counts;     // per id, over train + val
    QStringList tokenTexts;           // per id
    std::vector<int32_t> previewIds;  // the first tokens of the training split
};

/// What a tokenize-and-inspect or prepare job hands back to the UI thread.
struct DatasetJob {
    int which = -1;              // the analysis it fills: A (0) or B (1); -1 = a prepare job
    QString error;               // empty on success
    QString dir;                 // prepare: the dataset written
    TokenizerAnalysis analysis;  // analysis jobs
};

/// The cleaning preview, raw and cleaned, with its diff (computed off the UI thread).
struct CleaningPreviewResult {
    QString error, after, info;
    TextDiff diff;
};

class DatasetsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DatasetsPanel(QWidget* parent = nullptr);
    ~DatasetsPanel() override;

    // Driving the panel (tests, other panels).
    void addSources(const QStringList& paths);
    void clearSources();
    QStringList sources() const;
    void setFormat(const QString& format);  // text | jsonl | csv | tsv | parallel | records
    void setCleaning(const QString& option, bool on);
    void setTokenizer(const QString& kind, int vocab = 0);
    void setCompareTokenizer(const QString& kind, int vocab = 0);
    void setDatasetName(const QString& name);
    void setValFraction(double f);
    /// Current options as prepare_dataset takes them (out = the workspace's datasets/NAME).
    twb::PrepareOptions options() const;

    bool isBusy() const { return m_busy; }
    bool previewPending() const { return m_previewPending; }
    QString lastError() const;
    QString previewAfter() const { return m_previewAfterText; }
    int previewChangedChars() const { return m_previewChanged; }
    const TokenizerAnalysis& analysis(int which = 0) const { return which == 0 ? m_a : m_b; }
    QTableWidget* compareTable() const { return m_compareTable; }
    QTableWidget* vocabTable() const { return m_vocab; }
    QCustomPlot* histogram() const { return m_hist; }
    QListWidget* preparedList() const { return m_prepared; }
    QString catalogueStatus() const;
    QStringList catalogueNames() const;

public slots:
    void refreshPreview();
    void tokenize();
    void compare();
    void prepare();
    void cancel();
    void refreshPrepared();
    /// Deletes a prepared dataset folder (asks first unless confirm is false).
    bool deletePrepared(const QString& dir, bool confirm = true);
    void selectCatalogue(const QString& name);
    void download();
    /// Puts the chosen catalogue entry's (cached or local) files into the import settings.
    bool useCatalogueEntry();
    /// Writes a synthetic task to the workspace and imports it.
    QString generateSynthetic();

signals:
    void statusMessage(const QString& text);
    void datasetPrepared(const QString& dir);
    void useForTraining(const QString& dir);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void runAnalysis(int which);
    void showAnalysis(int which);
    void showCompare();
    void renderTokenPreview();
    void filterVocab(const QString& text);
    void setBusy(bool busy, const QString& what = {});
    void showError(const QString& text);
    void schedulePreview();
    void updateFormatFields();
    std::shared_ptr<std::atomic<bool>> newCancel();
    /// Checks a job can start and gathers its options; false (with the message shown) when not.
    bool jobOptions(twb::PrepareOptions& o);
    twb::PrepareProgressFn progressFn(std::shared_ptr<std::atomic<bool>> cancel);
    void showProgress(const QString& stage, uint64_t done, uint64_t total);
    twb::TokenizerSpec tokenizerSpec(int which) const;

    // Import
    QListWidget* m_sources;
    QComboBox* m_format;
    QLineEdit* m_field;
    QLineEdit* m_column;
    QLineEdit* m_separator;
    std::vector<std::pair<std::string, QCheckBox*>> m_clean;
    QTextBrowser* m_before;
    QTextBrowser* m_after;
    QLabel* m_previewInfo;
    // Tokenize
    QComboBox* m_tokKind;
    QSpinBox* m_vocabSize;
    QComboBox* m_tokKindB;
    QSpinBox* m_vocabSizeB;
    QDoubleSpinBox* m_valFraction;
    QComboBox* m_split;
    QLineEdit* m_name;
    QLabel* m_stats;
    QCustomPlot* m_hist;
    QCPBars* m_bars[2] = {nullptr, nullptr};  // A and B token-length histograms
    QTextBrowser* m_tokPreview;
    QLineEdit* m_vocabSearch;
    QTableWidget* m_vocab;
    QTableWidget* m_compareTable;
    // Prepared
    QListWidget* m_prepared;
    QLabel* m_preparedInfo;
    // Catalogue
    QTableWidget* m_catalogue;
    QLabel* m_catInfo;
    QProgressBar* m_dlProgress;
    QPushButton* m_dlButton;
    QPushButton* m_dlCancel;
    Downloader* m_downloader;
    std::vector<twb::CatalogueEntry> m_entries;
    QElapsedTimer m_dlClock;
    // Synthetic
    QComboBox* m_synTask;
    QSpinBox* m_synExamples;
    QSpinBox* m_synDigits;
    QCheckBox* m_synReversed;
    QSpinBox* m_synMinLen;
    QSpinBox* m_synMaxLen;
    QSpinBox* m_synSeed;
    // Jobs
    QTabWidget* m_tabs;
    QProgressBar* m_progress;
    QLabel* m_stage;
    QPushButton* m_cancel;
    ErrorLabel* m_error;
    bool m_busy = false;
    bool m_previewPending = false;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    QElapsedTimer m_jobClock;
    QTimer m_previewTimer;
    QFutureWatcher<CleaningPreviewResult> m_previewWatch;
    QFutureWatcher<DatasetJob> m_jobWatch;
    QFutureWatcher<QStringList> m_statusWatch;  // catalogue statuses (hashing cached files)
    QString m_previewAfterText;
    int m_previewChanged = 0;
    TokenizerAnalysis m_a, m_b;
};
