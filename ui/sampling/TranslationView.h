// The Sampling console's translation mode, shown instead of the LM controls when the chosen run is an
// encoder-decoder run: the source text, Translate / Stop, the target streamed token by token with each
// token tinted by its probability (as the LM mode shows samples) and its alternatives on hover and click,
// the decoding controls (TranslationForm), and a Batch tab (TranslationBatchView) that translates a whole
// file. Work runs on the ModelThread's TranslationWorker; Stop sets the request's atomic cancel flag.
// Clicking a translated token also shows, under the output, the source and earlier target tokens it came
// from (TranslationAttributionStrip).
// Branching from an alternative is the LM mode's alone.
#pragma once
#include "ui/widgets/PanelBase.h"
#include "ui/workers/TranslationWorker.h"

#include <QElapsedTimer>
#include <QTimer>
#include <memory>

class ModelThread;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class RunPicker;
class TokenOutputView;
class TranslationAttributionStrip;
class TranslationBatchView;
class TranslationForm;

class TranslationView : public PanelBase {
    Q_OBJECT
public:
    /// jobs: the service the attribution strip's work runs on (the panel's own when null).
    TranslationView(ModelThread* model, RunPicker* picker, JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~TranslationView() override;

    TranslationForm* form() const { return m_form; }
    TranslationBatchView* batch() const { return m_batch; }
    /// Where a clicked translated token came from.
    TranslationAttributionStrip* attribution() const { return m_attribution; }
    /// The tokens of the translation shown, as streamed.
    const QVector<UiToken>& tokens() const { return m_tokens[0]; }
    /// The translation shown (its streamed pieces joined).
    QString outputText() const;
    QString statusText() const;
    void setSource(const QString& text);

public slots:
    void translate();
    void stop();
    void showBatch();

signals:
    void translateRequested(const TranslateRequest& r);

protected:
    void busyChanged(bool busy) override;

private:
    QWidget* buildTranslateTab();
    void render();
    void showAlternatives(int index);

    ModelThread* m_model;
    RunPicker* m_picker;
    TranslationForm* m_form;
    TranslationBatchView* m_batch;
    TranslationAttributionStrip* m_attribution;
    QString m_translatedRun, m_translatedCheckpoint, m_translatedSource;  // what made the translation shown
    QTabWidget* m_tabs;
    QPlainTextEdit* m_source;
    TokenOutputView* m_output;
    QPushButton *m_translate, *m_stop, *m_copy, *m_toBatch;
    QLabel* m_status;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_requestId = 0;
    QVector<QVector<UiToken>> m_tokens{{}};  // one sequence: the translation, as TokenOutputView draws it
    QTimer m_renderTimer;
    QElapsedTimer m_clock;
};
