// The Datasets panel's "Catalogue" tab: the public corpora of datasets/catalogue.json with size,
// licence and whether they are cached intact (hashing runs off the UI thread), their description, and
// downloading them (a Downloader: progress, resume, sha256) into the workspace cache.
#pragma once
#include "twb/catalogue.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QWidget>
#include <optional>
#include <utility>
#include <vector>

class Downloader;
class Job;
class QFileSystemWatcher;
class QTimer;
class JobsService;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

class CatalogueTab : public QWidget {
    Q_OBJECT
public:
    explicit CatalogueTab(JobsService* jobs, QWidget* parent = nullptr);
    ~CatalogueTab() override;

    /// A catalogue entry ready to import: the preset's options (files cached or local) and its name.
    struct Preset {
        twb::PrepareOptions options;
        QString name;
        /// An entry of translation pairs (Multi30k, Tatoeba): them, for the Translation pairs tab.
        std::optional<twb::ParallelPrepareOptions> pairs;
    };
    /// The chosen entry as a preset; nullopt (and errorChanged) when none is chosen or it is unusable.
    std::optional<Preset> chosenPreset();
    QString status() const;  // of the chosen entry: "downloaded", "not downloaded", ...
    QStringList names() const;

public slots:
    /// Selects an entry by name; an empty name (or a first call) re-reads the catalogue and statuses.
    void select(const QString& name);
    void download();

protected:
    /// Shown again: the statuses are read again (and a file copied into the cache by hand, or deleted, while
    /// the tab is in sight: the cache folders are watched).
    void showEvent(QShowEvent* e) override;

signals:
    /// The error to show; empty when a new download starts.
    void errorChanged(const QString& text);
    void statusMessage(const QString& text);
    void useClicked();

private:
    void showEntry(int row);
    void askForEntry();
    void showProgress(qint64 done, qint64 total, const QString& file);
    void reload();
    /// Use for import is on for a cached or installed entry only.
    void updateUse();
    /// Watches the downloads folder and each entry's cache folder that exists (a folder made later too).
    void watchCache();

    QTableWidget* m_table;
    QLabel* m_info;
    QProgressBar* m_progress;
    QPushButton* m_download;
    QPushButton* m_cancel;
    QPushButton* m_use;
    Downloader* m_downloader;
    std::vector<twb::CatalogueEntry> m_entries;
    QElapsedTimer m_clock;
    bool m_askedForEntry = false;  // "Choose a dataset in the catalogue first." is shown: a choice clears it
    QString m_downloading;         // the entry whose download runs or ran last
    QString m_failed;  // the entry whose download failed, while its error is shown (its files arriving end it)
    JobsService* m_jobs;
    QPointer<Job> m_statusJob;    // statuses (hashing cached files)
    QPointer<Job> m_downloadJob;  // the running download, as the jobs service lists it
    QFileSystemWatcher* m_watcher;
    QTimer* m_rescan;  // a change in the cache: statuses read again once the folder has been quiet a moment
};
