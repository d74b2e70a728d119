// File → Export model…: a run's checkpoint written in another tool's format (ui/widgets/ExportFormats'
// list: GGUF f32 and f16, the Hugging Face folder (GPT-2, or Marian for a translation run), plain safetensors). Choose
// the run (the open one preselected) and checkpoint, the format and the output file (its folder and the format
// remembered); formats the run's architecture or tokenizer cannot hold are listed disabled, their reason in the tooltip
// and in a line of the dialog. The check and the export run as jobs on the main window's JobsService (the export listed
// in the status bar); a busy bar shows while it writes, and the dialog ends with a line naming the file written.
#pragma once
#include "ui/widgets/JobDialog.h"

class ErrorLabel;
class QDialogButtonBox;
class Job;
class JobsService;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class RunPicker;

class ExportDialog : public JobDialog {
    Q_OBJECT
public:
    /// jobs: the service the check and the export run on (the dialog makes its own when null).
    explicit ExportDialog(const QString& run, JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~ExportDialog() override;

    RunPicker* picker() const { return m_picker; }
    QComboBox* formatBox() const { return m_format; }
    QLineEdit* outputEdit() const { return m_out; }
    /// Why formats are unavailable for the chosen run ("" when all are usable).
    QString reasons() const;
    QString status() const;
    QString error() const;
    /// Selects a format by id ("gguf-f16"); false when there is none or it is disabled for this run.
    bool selectFormat(const QString& id);

public slots:
    /// Starts the export of the chosen run, checkpoint and format to the output path.
    void startExport();

signals:
    /// Which formats the chosen run can use is known (after each change of run or checkpoint).
    void checked();
    void exported(const QString& file);
    void failed(const QString& error);

private:
    void recheck();
    void applyReasons(const QStringList& reasons);
    void suggestOutput();
    void browse();
    void setBusy(bool busy);

    /// The widgets and their layout (the constructor's first half).
    void build();
    void connectControls();
    void exportEnded(quint64 id, const QString& file, const QString& summary, const QString& error);

    JobsService* m_jobs;
    RunPicker* m_picker;
    QComboBox* m_format;
    QLabel* m_reasons;
    QLineEdit* m_out;
    QProgressBar* m_progress;
    QLabel* m_status;
    ErrorLabel* m_error;
    QPushButton *m_export, *m_browse;
    QDialogButtonBox* m_buttons;
    quint64 m_lastId = 0, m_checkId = 0, m_exportId = 0;
};
