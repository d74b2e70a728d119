// The Sampling panel's "Compare checkpoints" tab: which columns (checkpoints of the run, or the best of
// other runs) and which temperatures (rows) to compare, and the table the worker fills cell by cell,
// exportable as Markdown. A judge run (none by default, remembered) scores every generated text: its
// perplexity under that run, the prompt as context (seed report 001's method), shown in the cell and
// exported with it. It holds no model: the panel sends the request and routes the cells here.
#pragma once
#include <QPair>
#include <QVector>
#include <QWidget>

class ElidingComboBox;
class ErrorLabel;
class QComboBox;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;
class QToolButton;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;  // remembers the temperatures
    /// What is wrong with the columns or temperatures, in red under the controls ("" hides it): said only in the
    /// status bar, it was missed beside the old table.
    void setProblem(const QString& text);
    QString problem() const;

    QTableWidget* table() const { return m_table; }
    /// Lists the run's checkpoints and the workspace's other runs; ticks the user set stay when the
    /// run is the same (checkpoints appear while it trains).
    void fillChoices(const QString& run, const QList<qint64>& steps);
    /// Ticks these steps of the run (nothing else) and sets the temperatures.
    void setChoices(const QString& run, const QList<qint64>& steps, const QVector<double>& temperatures);
    /// The ticked (run, checkpoint) columns and the temperatures; an empty string when both are usable,
    /// else what to fix.
    QString selection(QVector<QPair<QString, QString>>& columns, QVector<double>& temperatures) const;
    /// Temperatures as written in the field: separated by commas, semicolons or spaces, each a number in the
    /// interface's way or with a decimal point. Where the decimal mark is a comma ("0,5; 1,0", "0,5 1,0"), a
    /// comma between digits is that mark and a list separator is a comma followed by a space ("0,5, 1,0").
    /// Empty with *bad set to the first part that is no number.
    static QVector<double> parseTemperatures(const QString& text, QString* bad);
    /// Temperatures as the field shows them (the interface's decimal mark, a separator that is not it).
    static QString temperaturesText(const QVector<double>& temperatures);
    /// Empties the table and labels its rows for a new comparison.
    void begin(int columns, const QVector<double>& temperatures);
    void setCell(int row, int column, const QString& header, const QString& text);
    /// The judge run's folder, "" for none.
    QString judgeRun() const;
    void setJudgeRun(const QString& run);
    /// A cell's perplexity under the judge (NaN with the problem when it could not be scored).
    void setJudged(int row, int column, double perplexity, const QString& precision, const QString& problem);
    /// Roles of a cell: its generated text alone, and the judge's perplexity (when scored).
    static constexpr int TextRole = 0x0100 + 10;
    static constexpr int JudgeRole = 0x0100 + 11;
    /// Whether a comparison has filled the table (Export Markdown has something to write).
    bool hasResults() const;
    QString markdown(const QString& prompt) const;
    void setBusy(bool busy);
    /// The controls' column shown or folded away (the tool button above the table does the same): a
    /// comparison whose columns would be narrower than ~20 characters folds it, as at 1280x720 and 150% text
    /// three checkpoints' texts had 75 px each beside it.
    void setControlsShown(bool shown);
    bool controlsShown() const;

signals:
    void compareClicked();
    void exportClicked();

private:
    void fillJudges(const QStringList& runs);  // (none) and these runs (languageModelRuns()), keeping the choice
    /// The workspace's runs but translation (encoder-decoder) runs.
    static QStringList languageModelRuns();
    QListWidget* m_ckList;
    QLineEdit* m_temps;
    ErrorLabel* m_problem;
    ElidingComboBox* m_judge;
    QString m_tableJudge;  // the judge of the comparison in the table
    QString m_run;         // the run whose checkpoints are offered, and whose comparison the table holds
    QPushButton* m_compareBtn;
    QTableWidget* m_table;
    QWidget* m_side;      // the controls' column
    QToolButton* m_fold;  // shows or folds it
};
