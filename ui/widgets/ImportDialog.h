// File → Import model…: a pretrained model in the Hugging Face layout becomes a run in the workspace, as
// `twb import --hf` does: a GPT-2-family folder (config.json, model.safetensors, vocab.json + merges.txt or
// tokenizer.json) a language-model run, a Marian translation model (source.spm, target.spm, vocab.json)
// an encoder-decoder run. Choose the folder (the last one's parent remembered) and the run's name (the
// folder's, made unique among the runs); the import runs as a job on the main window's JobsService (listed
// in the status bar, the engine's stages as its text) with a busy bar, and the dialog ends with a line
// saying what was imported; imported() hands the run to the main window, which opens it.
#pragma once
#include "ui/widgets/JobDialog.h"

class ErrorLabel;
class JobsService;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

class ImportDialog : public JobDialog {
    Q_OBJECT
public:
    /// jobs: the service the import runs on (the dialog makes its own when null).
    explicit ImportDialog(JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~ImportDialog() override;

    QLineEdit* folderEdit() const { return m_folder; }
    QLineEdit* nameEdit() const { return m_name; }
    QString status() const;
    QString error() const;
    /// Sets the Hugging Face folder and suggests a run name from it.
    void setFolder(const QString& dir);
    /// The run folder an import now would write: the workspace's runs folder and the name.
    QString runFolder() const;

public slots:
    /// Checks the folder and the name, then starts the import.
    void startImport();

signals:
    void imported(const QString& run);
    void failed(const QString& error);

private:
    void build();
    void browse();
    void setBusy(bool busy);
    /// The reason the folder and name cannot be imported now, or "".
    QString blocker() const;
    void importEnded(const QString& run, const QString& summary, const QString& error);
    /// The error line, the dialog grown to show it whole.
    void showError(const QString& error);

    JobsService* m_jobs;
    QLineEdit *m_folder, *m_name;
    QLabel* m_status;
    QProgressBar* m_progress;
    ErrorLabel* m_error;
    QPushButton *m_import, *m_browse;
    QDialogButtonBox* m_buttons;
};
