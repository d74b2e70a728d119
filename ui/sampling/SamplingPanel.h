// The sampling console: prompt, decoding controls and presets, streamed output with every token
// tinted by its probability, alternatives on hover and click, branching from any token (with a way
// back), checkpoint comparison as a table exportable to Markdown (CompareView), and the run's prompt
// history (HistoryView). An encoder-decoder run switches the console to its translation mode
// (TranslationView: source in, target streamed, a file translated and scored), another run back. The Chat tab
// (ChatView) holds turns with an instruction-tuned run in the chat template. Generation runs in a
// ModelWorker on a ModelThread, shared with the Attention panel when the main window hands one in; Stop sets the
// request's atomic cancel flag.
#pragma once
#include "ui/widgets/PanelBase.h"
#include "ui/workers/ModelWorker.h"

#include <QElapsedTimer>
#include <QSet>
#include <QTimer>
#include <memory>

class AttributionStrip;
class ChatView;
class CompareView;
class DecodingForm;
class GenerationEvalView;
class HistoryView;
class ModelThread;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTabWidget;
class QToolButton;
class QStackedWidget;
class RunPicker;
class TokenOutputView;
class TranslationView;

class SamplingPanel : public PanelBase {
    Q_OBJECT
public:
    /// model: the thread that runs checkpoints, shared with other panels; null = the panel makes its own.
    /// model: the shared model thread, jobs: the main window's service (each made for the panel when null).
    explicit SamplingPanel(ModelThread* model = nullptr, JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~SamplingPanel() override;

    /// What the output shows: the context it continues and the tokens of each sample.
    struct Output {
        std::vector<int32_t> promptIds;
        QString promptText;
        QVector<QVector<UiToken>> samples;  // the tokens as streamed, per sample
        QString label;                      // "generated" or "branch at token 12"
        double temperature = 1;             // the tokens' probabilities are at this temperature (0 = greedy)
        int topK = 0;                       // and the sampler drew from these (0, 1: all)
        double topP = 1;
        QString status;           // its line under the output ("89 tokens · 679.8 tok/s · ...")
        QString run, checkpoint;  // what generated it: branching and attribution ask the same
    };

    RunPicker* picker() const { return m_picker; }
    const Output& output() const { return m_out; }
    /// What a clicked token was predicted from (shown under the output).
    AttributionStrip* attribution() const { return m_attribution; }
    int branchDepth() const { return static_cast<int>(m_back.size()); }
    QTableWidget* compareTable() const;
    HistoryView* history() const { return m_history; }
    GenerationEvalView* evaluation() const { return m_evaluation; }
    /// The Chat tab: turns with an instruction-tuned run (twb/chat.h).
    ChatView* chat() const { return m_chat; }
    /// The translation mode's page, shown instead of the LM controls for an encoder-decoder run.
    TranslationView* translation() const { return m_translation; }
    bool isTranslationMode() const;
    /// Output text of one sample (decoded pieces joined).
    QString outputText(int sample = 0) const;
    QString compareMarkdown() const;

    /// The Decoding column shown, or folded away by the arrow on its title's line (its settings still apply):
    /// at 1280x720 with 175% text it took half the width and left the output five words a line. Remembered.
    void setDecodingShown(bool shown);
    bool decodingShown() const;

    void setPrompt(const QString& text);
    void setTemperature(double t);
    void setMaxTokens(int n);
    void setSeed(qint64 seed);  // -1 = random
    void setSamples(int n);
    /// Checks the checkpoints (steps) to compare and sets the temperatures (one row each).
    void setCompare(const QList<qint64>& steps, const QVector<double>& temperatures);
    /// The comparison's judge run ("" = none).
    void setCompareJudge(const QString& run);

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
    /// Re-reads the run's history (RUN/samples.jsonl).
    void refreshHistory();

signals:
    void generateRequested(const GenerateRequest& r);
    void compareRequested(const CompareRequest& r);
    void historyRequested(quint64 id, const QString& run);

protected:
    void busyChanged(bool busy) override;
    /// The Decoding form resized: its fold arrow to the end of its title's line.
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    // SamplingPanelLayout.cpp, with the constructor: connectWorker, connectControls, buildGenerateTab
    void connectWorker(ModelWorker* worker);
    /// The buttons, shortcuts and views' signals.
    void connectControls();
    /// Shows the translation mode for an encoder-decoder run, the LM mode for any other.
    void updateMode();
    QWidget* buildGenerateTab();
    void startRequest(const GenerateRequest& r);
    void render();
    /// Each output's tokens cut to the text the generation kept: a stop string ends it before the stop, whose
    /// first tokens were shown as they came (the history kept "Ais a " and the view showed "Ais a th").
    void keepOnly(const QStringList& kept);
    static QString noRunText();
    void showAlternatives(int sample, int index);
    /// Another run was chosen: the output, its branches, figures and error were the last run's. A generation
    /// still running for it is stopped and its tokens no longer shown.
    void leaveOutput();
    /// True (and forgets it) when id is a request of this panel that has now ended.
    bool finished(quint64 id) { return m_pending.remove(id); }

    RunPicker* m_picker;
    DecodingForm* m_decoding;
    QToolButton* m_decodingFold;    // on the Decoding title's line: folds the column away
    QToolButton* m_decodingUnfold;  // left of the tabs while it is folded: brings it back
    QPlainTextEdit* m_prompt;
    TokenOutputView* m_output;        // the tokens of m_out, their alternatives
    AttributionStrip* m_attribution;  // where a clicked token came from
    QPushButton* m_generate;
    QPushButton* m_stop;
    QPushButton* m_back_;
    QPushButton* m_copy;
    QLabel* m_status;
    QTabWidget* m_tabs;
    CompareView* m_compare;
    HistoryView* m_history;
    GenerationEvalView* m_evaluation = nullptr;
    ChatView* m_chat = nullptr;
    QStackedWidget* m_modes;
    QWidget* m_lmPage;
    TranslationView* m_translation;

    std::unique_ptr<ModelThread> m_ownModel;  // only when no shared thread was given
    ModelThread* m_model;
    QSet<quint64> m_pending;  // requests sent and not yet answered
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_requestId = 0;         // the generation whose tokens are shown
    quint64 m_leftId = 0;            // a generation stopped by a change of run, not yet ended
    QString m_shownRun;              // the run the output and error belong to
    quint64 m_historyId = 0;         // the newest history request
    bool m_generationError = false;  // the red line is a generation's failure: editing the prompt clears it
    Output m_out;
    QVector<Output> m_back;
    QTimer m_renderTimer;
    QElapsedTimer m_clock;
    qint64 m_streamed = 0;
};
