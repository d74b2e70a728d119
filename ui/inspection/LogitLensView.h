// The Attention panel's Logit lens page: for a prompt, what each stage of the model (the embedding, then
// each block) already predicts at every position (LensGrid), computed as `twb lens` does
// (ModelSession::logit_lens) in a job off the UI thread. For a translation run the prompt is the source
// sentence and the lens looks through the decoder over the model's translation (Translator::logit_lens). Exports the
// figure (PNG/SVG) and the numbers (CSV/JSON, the engine's lens formats).
#pragma once
#include "ui/widgets/PanelBase.h"

#include <QPointer>
#include <memory>

namespace twb {
class ModelSession;
class Translator;
}  // namespace twb
class Job;
class LensGrid;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

class LogitLensView : public PanelBase {
    Q_OBJECT
public:
    explicit LogitLensView(JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~LogitLensView() override;

    LensGrid* grid() const { return m_grid; }
    void setPrompt(const QString& text);
    /// Writes the numbers shown: .json, else CSV. False when there is nothing or the file cannot be written.
    bool exportNumbers(const QString& path);

public slots:
    /// The run and checkpoint the page reads; another than before clears the lens shown (it was of that one).
    void setRun(const QString& run, const QString& checkpoint);
    /// Computes the lens of the prompt.
    void show();

signals:
    void shown();

protected:
    void busyChanged(bool busy) override;

private:
    void exportNumbersAsked();

    QLineEdit* m_prompt;
    QSpinBox* m_top;
    QPushButton* m_show;
    QPushButton* m_figure;
    QPushButton* m_numbers;
    LensGrid* m_grid;
    QLabel* m_info;
    QLabel* m_cropNote;  // "The text has 95 tokens; the lens shows the last 64", when it does
    QLabel* m_runNote;   // the run and checkpoint looked at (the Attention tab's choice)
    QString m_run, m_checkpoint;
    std::shared_ptr<twb::ModelSession> m_session;   // used by one job at a time
    std::shared_ptr<twb::Translator> m_translator;  // an encoder-decoder run's decoder lens
    QPointer<Job> m_job;
};
