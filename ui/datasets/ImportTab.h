// The Datasets panel's "Import & clean" tab: the source files and folders, their format (text, JSON
// lines, CSV/TSV column, parallel pair, records), the cleaning options, and a live before/after
// preview of the first documents (computed by the engine off the UI thread, diffed with TextDiff).
#pragma once
#include "twb/dataset.h"
#include "ui/datasets/TextDiff.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <utility>
#include <vector>

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSplitter;
class QTextBrowser;

/// The cleaning preview, raw and cleaned, with its diff (computed off the UI thread).
struct CleaningPreviewResult {
    QString error, after, info;
    TextDiff diff;
};

class Job;
class QPushButton;
class JobsService;

class ImportTab : public QWidget {
    Q_OBJECT
public:
    explicit ImportTab(JobsService* jobs, QWidget* parent = nullptr);
    ~ImportTab() override;

    void addSources(const QStringList& paths);
    void clearSources();
    QStringList sources() const;
    void setFormat(const QString& format);  // text | jsonl | csv | tsv | parallel | records
    void setRecordSeparator(const QString& separator);
    void setCleaning(const QString& option, bool on);
    /// The corpus and cleaning as the engine takes them; throws twb::ConfigError on a bad choice.
    twb::CorpusSpec corpus() const;
    twb::CleaningOptions cleaning() const;
    /// An engine message in this panel's terms: its advice to run `twb prepare --replace-invalid-utf8`
    /// names this tab's "Replace invalid bytes" choice instead (the GUI has no such command line).
    static QString inPanelTerms(const QString& engineError);

    /// The preview beside the controls (else under them: the tab too narrow for both).
    bool previewBesideControls() const;
    bool previewPending() const { return m_previewPending; }
    /// Before and after side by side, or one above the other where they would be narrow.
    Qt::Orientation previewOrientation() const;
    QString previewAfter() const { return m_previewAfterText; }
    int previewChangedChars() const { return m_previewChanged; }

public slots:
    void refreshPreview();
    /// Refreshes the preview shortly (settings changing in a row give one preview).
    void schedulePreview();

signals:
    /// The error to show for the preview; empty when the preview worked.
    void errorChanged(const QString& text);
    void sourcesChanged();

protected:
    /// Before and after side by side where each has room for about 30 characters, else stacked (at 150% text
    /// each was some 125 px wide); the controls and the preview side by side where both have their least
    /// width, else the preview under the controls (at 175% text in Bokmål the two ran into each other).
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void fitSourcesHeight();
    /// The buttons' and fields' signals; every change schedules a preview.
    void connectControls(QPushButton* addFiles, QPushButton* addFolder, QPushButton* remove);
    void updateFormatFields();
    void showPreview(const CleaningPreviewResult& r);

    QListWidget* m_sources;
    QComboBox* m_format;
    QLineEdit* m_field;
    QLineEdit* m_column;
    QLineEdit* m_separator;
    QCheckBox* m_replaceInvalid;  // bytes that are not UTF-8 become U+FFFD (else the file is refused)
    std::vector<std::pair<std::string, QCheckBox*>> m_clean;
    QTextBrowser* m_before;
    QTextBrowser* m_after;
    QSplitter* m_previews;
    QBoxLayout* m_columns;  // the controls, then the preview: beside each other or stacked
    QLabel* m_previewInfo;
    QTimer m_previewTimer;
    JobsService* m_jobs;
    QPointer<Job> m_previewJob;
    bool m_previewPending = false;
    QString m_previewAfterText;
    int m_previewChanged = 0;
};
