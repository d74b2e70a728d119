// The translation mode's "Translate a file" tab: an input file (one source per line), an output file the
// hypotheses are written to (through a temporary renamed at the end, so a cancelled or failed run leaves
// nothing half-written), an optional reference file; progress with an ETA and Cancel; then corpus BLEU
// with its sacreBLEU-style signature and chrF against the references (the engine's twb::corpus_bleu, what
// `twb bleu` prints), and a table of the first rows (source, translation, reference). `twb translate
// --input` then `twb bleu` in the GUI. Runs on the ModelThread's TranslationWorker.
#pragma once
#include "ui/workers/TranslationWorker.h"

#include <QElapsedTimer>
#include <QWidget>
#include <atomic>
#include <memory>

class ModelThread;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class RunPicker;
class TranslationForm;

class TranslationBatchView : public QWidget {
    Q_OBJECT
public:
    TranslationBatchView(ModelThread* model, RunPicker* picker, TranslationForm* form, QWidget* parent = nullptr);
    ~TranslationBatchView() override;  // cancels a run in progress, remembers the files

    void setFiles(const QString& input, const QString& output, const QString& reference = {});
    void setPreviewRows(int n);
    bool isRunning() const { return m_running; }
    QTableWidget* table() const { return m_table; }
    /// The last finished run's result (scored when a reference was given).
    const BatchTranslateResult& result() const { return m_result; }
    QString scoreText() const;
    QString lastError() const { return m_error; }

public slots:
    void run();
    void cancel();

signals:
    void translateFileRequested(const BatchTranslateRequest& r);
    void finished();
    void statusMessage(const QString& text);

private:
    QFormLayout* makeFileRows();
    QHBoxLayout* makeButtons();
    void makeScoreAndTable();
    void connectWorker();
    void setRunning(bool on);
    void fail(const QString& error);
    /// What is wrong with the files chosen (input, output, reference), or empty: checked before translating.
    static QString filesProblem(const QString& in, const QString& out, const QString& ref);
    void showResult();

    ModelThread* m_model;
    RunPicker* m_picker;
    TranslationForm* m_form;
    QLineEdit *m_input, *m_output, *m_reference;
    QSpinBox* m_rows;
    QPushButton *m_run, *m_cancel;
    QProgressBar* m_progress;
    QLabel *m_eta, *m_score;
    QTableWidget* m_table;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    quint64 m_id = 0;
    bool m_running = false;
    BatchTranslateResult m_result;
    QStringList m_written;  // the outputs this view wrote (replaced again without asking)
    QString m_error;
    QElapsedTimer m_clock;
};
