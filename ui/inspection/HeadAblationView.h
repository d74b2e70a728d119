// The Attention panel's Head ablation page: switch heads off (their outputs zeroed) and see what they were
// worth: the validation loss with a set of heads off, a table of every head's cost computed in one job
// (progress in the status bar, Cancel keeps the rows so far), and the text generated from one prompt and
// seed with and without the set. The figures come from ModelSession::ablation_table, as `twb ablate`'s;
// for a translation run from Translator's, over its encoder's, decoder's and cross-attention's heads,
// and the text compared is the prompt translated greedily.
// costsReady() hands the costs to the attention grid, where they are a score beside the others.
#pragma once
#include "twb/inspection.h"
#include "ui/widgets/PanelBase.h"

#include <QPointer>
#include <memory>

namespace twb {
class ModelSession;
class Translator;
}  // namespace twb
class Job;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTableWidget;

class HeadAblationView : public PanelBase {
    Q_OBJECT
public:
    explicit HeadAblationView(JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~HeadAblationView() override;

    QTableWidget* table() const { return m_table; }
    const twb::AblationTable& result() const { return m_result; }
    QString withText() const;
    QString withoutText() const;
    void setHeads(const QString& heads);
    void setMaxTokens(int tokens);
    void setPrompt(const QString& prompt);
    /// Writes the table shown: .json, else CSV. False when there is nothing or it cannot be written.
    bool exportNumbers(const QString& path);

public slots:
    /// Another run or checkpoint than before clears the table shown (it was of that one).
    void setRun(const QString& run, const QString& checkpoint);
    /// The loss with the heads typed switched off (and with none).
    void measureSet();
    /// The loss with every head off alone: the cost table.
    void measureEveryHead();
    /// Generates from the prompt with the same seed, with every head and with the set off.
    void compareText();
    void cancel();

signals:
    /// A table was computed (every_head filled for the cost table).
    void costsReady(const twb::AblationTable& table);
    void finished();

protected:
    void busyChanged(bool busy) override;
    /// First shown: the generated texts three lines high, the table the rest (at 175% text it showed two rows).
    void showEvent(QShowEvent* e) override;

private:
    void createControls();
    void layOut();
    void startTable(bool everyHead);
    void showTable(const twb::AblationTable& t);
    /// No table: before the first, another run's, or while a new one is measured.
    void clearTable();
    QString introText() const;
    /// The heads' placeholder, the prompt's and the text boxes' for the run's kind.
    void showKindOfRun();
    bool headsTyped(std::vector<twb::HeadRef>& heads);
    void exportNumbersAsked();
    /// The run and checkpoint looked at: a job's answer is shown only while they are still the same.
    QString lookedAt() const { return m_run + '\n' + m_checkpoint; }

    QLineEdit* m_heads;
    QSpinBox* m_tokens;
    QPushButton* m_measure;
    QPushButton* m_every;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QTableWidget* m_table;
    QLabel* m_summary;
    QLabel* m_runNote;  // the run and checkpoint looked at (the Attention tab's choice)
    QLineEdit* m_prompt;
    QString m_otherPrompt;            // the other kind of run's text (a source sentence, or a prompt)
    bool m_translationShown = false;  // the prompt box holds a translation run's source sentence
    QGroupBox* m_textBox;
    QSplitter* m_split;  // the table above the generated texts: the user moves the line between them
    bool m_splitSized = false;
    QSpinBox* m_seed;
    QSpinBox* m_newTokens;
    QPushButton* m_generate;
    QPlainTextEdit* m_with;
    QPlainTextEdit* m_without;
    QPushButton* m_figure;
    QPushButton* m_numbers;
    QString m_run, m_checkpoint;
    twb::HeadLayout m_layout;  // of the run, once known (encoder_layers > 0: a translation run)
    twb::AblationTable m_result;
    std::shared_ptr<twb::ModelSession> m_session;   // used by one job at a time
    std::shared_ptr<twb::Translator> m_translator;  // the same, for a translation run
    QPointer<Job> m_job;
};
