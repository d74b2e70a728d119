// The Sampling console's "Evaluate settings" tab: prompts (typed, one per line, or loaded from a file),
// optional references (one per prompt), a list of decoding settings ("greedy", "temperature=0.8",
// "beam=5", ...), run on the model thread with progress and Cancel, and the table per setting (tokens/s,
// mean log-probability and perplexity of the generated text under the model, distinct-1/2, repetition,
// BLEU, the outputs) exported as Markdown or CSV — `twb generate-eval` in the GUI. A run is listed in the
// jobs service (the status bar) with its progress; its Cancel there cancels it as the tab's own does.
#pragma once
#include "ui/jobs/Job.h"
#include "ui/workers/ModelWorker.h"

#include <QPointer>
#include <QWidget>
#include <atomic>
#include <memory>

class JobsService;
class ModelThread;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QVBoxLayout;
class RunPicker;

class GenerationEvalView : public QWidget {
    Q_OBJECT
public:
    GenerationEvalView(ModelThread* model, RunPicker* picker, JobsService* jobs, QWidget* parent = nullptr);
    ~GenerationEvalView() override;
    void setPrompts(const QString& text);
    void setReferences(const QString& text);
    void setSettings(const QStringList& settings);
    void setMaxTokens(int n);
    QTableWidget* table() const { return m_table; }
    const std::vector<twb::GenerationEvalRow>& rows() const { return m_rows; }
    bool isRunning() const { return m_running; }
    QString markdown() const;
    QString csv() const;

public slots:
    void run();
    void cancel();

signals:
    void evaluateRequested(const GenerationEvalRequest& r);
    void finished();

private:
    void addInputs(QVBoxLayout* v);
    void addControlsAndTable(QVBoxLayout* v);
    void connectButtons();
    void connectWorker();
    void showRows();
    void setRunning(bool on);
    void exportTo(bool markdown);

    ModelThread* m_model;
    RunPicker* m_picker;
    QPlainTextEdit *m_prompts, *m_refs, *m_settings;
    QSpinBox* m_maxTokens;
    QPushButton *m_run, *m_cancel, *m_md, *m_csv;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTableWidget* m_table;
    std::vector<twb::GenerationEvalRow> m_rows;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    quint64 m_id = 0;
    JobsService* m_jobs;
    QPointer<Job> m_job;  // the running evaluation, as the jobs service lists it
    bool m_running = false;
};
