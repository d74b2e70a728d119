// The sampling console: prompt, decoding controls and presets, streamed output with every token
// tinted by its probability, alternatives on hover and click, branching from any token (with a way
// back), checkpoint comparison as a table exportable to Markdown, and the run's prompt history.
// Generation runs in a ModelWorker on its own thread; Stop sets the worker's atomic cancel flag.
#pragma once
#include "ui/ModelWorker.h"

#include <QElapsedTimer>
#include <QThread>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class ErrorLabel;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QTextBrowser;
class RunPicker;

class SamplingPanel : public QWidget {
    Q_OBJECT
public:
    explicit SamplingPanel(QWidget* parent = nullptr);
    ~SamplingPanel() override;

    /// What the output shows: the context it continues and the tokens of each sample.
    struct Output {
        std::vector<int32_t> promptIds;
        QString promptText;
        QVector<QVector<UiToken>> samples;  // the tokens as streamed, per sample
        QString label;  // "generated" or "branch at token 12"
    };

    bool isBusy() const { return m_busy; }
    RunPicker* picker() const { return m_picker; }
    const Output& output() const { return m_out; }
    int branchDepth() const { return static_cast<int>(m_back.size()); }
    QTableWidget* compareTable() const { return m_table; }
    /// Output text of one sample (decoded pieces joined).
    QString outputText(int sample = 0) const;
    QString compareMarkdown() const;
    QString lastError() const;

    void setPrompt(const QString& text);
    void setTemperature(double t);
    void setMaxTokens(int n);
    void setSeed(qint64 seed);  // -1 = random
    void setSamples(int n);
    /// Checks the checkpoints (steps) to compare and sets the temperatures (one row each).
    void setCompare(const QList<qint64>& steps, const QVector<double>& temperatures);

public slots:
    void setRun(const QString& dir);
    void generate();
    void stop();
    /// Continues sample 0 from token index with alternative alt in place of the token generated there.
    void branch(int index, int alt);
    /// Returns to the output before the last branch.
    void back();
    void runCompare();
    void exportMarkdown();

signals:
    void statusMessage(const QString& text);
    void generateRequested(const GenerateRequest& r);
    void compareRequested(const CompareRequest& r);
    void historyRequested(const QString& run);

private:
    twb::nn::SamplingOptions options() const;
    void applyPreset(int index);
    void setBusy(bool busy);
    void render();
    void showAlternatives(int sample, int index);
    void fillCompareChoices();
    void showError(const QString& text);

    RunPicker* m_picker;
    QComboBox* m_preset;
    QSlider* m_tempSlider;
    QDoubleSpinBox* m_temp;
    QSpinBox* m_topK;
    QDoubleSpinBox* m_topP;
    QSpinBox* m_maxNew;
    QDoubleSpinBox* m_repPen;
    QSpinBox* m_beam;
    QSpinBox* m_seed;
    QCheckBox* m_randomSeed;
    QSpinBox* m_samples;
    QCheckBox* m_cache;
    QPlainTextEdit* m_prompt;
    QTextBrowser* m_view;
    QListWidget* m_alts;
    QLabel* m_altTitle;
    QPushButton* m_generate;
    QPushButton* m_stop;
    QPushButton* m_back_;
    QLabel* m_status;
    ErrorLabel* m_error;
    QTabWidget* m_tabs;
    QListWidget* m_ckList;
    QLineEdit* m_temps;
    QPushButton* m_compareBtn;
    QTableWidget* m_table;
    QListWidget* m_history;
    QPlainTextEdit* m_historyText;

    QThread m_thread;
    ModelWorker* m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_busy = false;
    quint64 m_requestId = 0;
    Output m_out;
    QVector<Output> m_back;
    int m_selSample = -1, m_selIndex = -1;
    QTimer m_renderTimer;
    QElapsedTimer m_clock;
    qint64 m_streamed = 0;
    QJsonArray m_historyEntries;
};
