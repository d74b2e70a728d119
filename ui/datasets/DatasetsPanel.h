// The Datasets panel: the prepared datasets beside four tabs, each its own class: import files and
// folders (dialogs or drag-and-drop) and clean them with a live preview (ImportTab); tokenize and
// inspect with two tokenizers side by side, and prepare exactly what `twb prepare` writes
// (TokenizeTab); download catalogue corpora (CatalogueTab); generate synthetic tasks (SyntheticTab);
// prepare translation pairs for an encoder-decoder (ParallelTab, the engine's prepare_parallel); prepare
// instruction data for a chat finetune (ChatTab, the engine's prepare_chat).
// The panel composes them and runs the long jobs (the engine's inspect_tokenization and
// prepare_dataset, through DatasetPreparation) on the jobs service with progress and Cancel; a bad file
// gives a message here and changes nothing.
#pragma once
#include "twb/dataset.h"
#include "ui/datasets/TokenizeTab.h"
#include "ui/widgets/PanelBase.h"

#include <QElapsedTimer>
#include <QPointer>

class CatalogueTab;
class ChatTab;
class ImportTab;
class Job;
class ParallelTab;
class PreparedDatasets;
class QCustomPlot;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableWidget;
class SyntheticTab;

class DatasetsPanel : public PanelBase {
    Q_OBJECT
public:
    explicit DatasetsPanel(JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~DatasetsPanel() override;

    // Driving the panel (tests, other panels).
    void addSources(const QStringList& paths);
    void clearSources();
    QStringList sources() const;
    QString datasetName() const;
    void setFormat(const QString& format);  // text | jsonl | csv | tsv | parallel | records
    void setCleaning(const QString& option, bool on);
    void setTokenizer(const QString& kind, int vocab = 0);
    void setCompareTokenizer(const QString& kind, int vocab = 0);
    void setDatasetName(const QString& name);
    void setValFraction(double f);
    /// Current options as prepare_dataset takes them (out = the workspace's datasets/NAME).
    twb::PrepareOptions options() const;

    bool previewPending() const;
    QString previewAfter() const;
    int previewChangedChars() const;
    const TokenizerAnalysis& analysis(int which = 0) const;
    QTableWidget* compareTable() const;
    QTableWidget* vocabTable() const;
    QCustomPlot* histogram() const;
    QListWidget* preparedList() const;
    QString catalogueStatus() const;
    ParallelTab* parallelTab() const { return m_parallel; }
    ChatTab* chatTab() const { return m_chat; }
    QStringList catalogueNames() const;

public slots:
    void refreshPreview();
    void tokenize();
    void compare();
    void prepare();
    /// Prepares the Translation pairs tab's parallel dataset (prepare_parallel) off the UI thread.
    void prepareParallel();
    /// Prepares the Chat data tab's instruction data (prepare_chat) off the UI thread.
    void prepareChat();
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
    void datasetPrepared(const QString& dir);
    void useForTraining(const QString& dir);
    /// Finetune the run `run` on the dataset `dir` (the Chat data tab's Finetune button).
    void finetuneRequested(const QString& run, const QString& dir);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void busyChanged(bool busy) override;

private:
    void connectTabs();
    void runAnalysis(int which);  // 0: tokenizer A, 1: B, 2: A then B
    void showMerges();
    /// A tab's preparation: its options (a ConfigError from the tab shown), the question before replacing
    /// a folder, then prepare(options, ctx) as a job; shown(result, options) once the dataset is written.
    template <class GetOptions, class Prepare, class Shown>
    void prepareFromTab(const QString& title, const QString& stage, GetOptions getOptions, Prepare prepare,
                        Shown shown);
    /// A prepare job wrote the dataset `dir`.
    void prepared(const QString& dir, bool bytebpe);
    /// Checks a job can start and gathers its options; false (with the message shown) when not.
    bool jobOptions(twb::PrepareOptions& o);
    /// Shows the job's progress and Cancel in the panel until it ends; cancelText is its message then.
    void watchJob(Job* job, const QString& what, const QString& cancelText = {});
    /// Asks before replacing an existing dataset folder; false when the user declined.
    bool confirmReplace(const std::filesystem::path& out);
    void showProgress(double fraction, const QString& stage);

    ImportTab* m_import;
    TokenizeTab* m_tokenize;
    CatalogueTab* m_catalogue;
    SyntheticTab* m_synthetic;
    ParallelTab* m_parallel;
    ChatTab* m_chat;
    PreparedDatasets* m_prepared;
    QTabWidget* m_tabs;
    QProgressBar* m_progress;
    QLabel* m_stage;
    QPushButton* m_cancel;
    QElapsedTimer m_jobClock;  // since the stage shown began: the fraction is the stage's, and so is the time left
    QString m_clockStage;
    QPointer<Job> m_job;
    QString m_sourcesError;   // what the Import tab's preview found wrong with the sources (empty: nothing)
    QString m_suggestedName;  // the name the first file gave, replaced while the user has not typed another
};
