// The Sampling panel's "Compare checkpoints" tab: which columns (checkpoints of the run, or the best of
// other runs) and which temperatures (rows) to compare, and the table the worker fills cell by cell,
// exportable as Markdown. It holds no model: the panel sends the request and routes the cells here.
#pragma once
#include <QPair>
#include <QVector>
#include <QWidget>

class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;  // remembers the temperatures

    QTableWidget* table() const { return m_table; }
    /// Lists the run's checkpoints and the workspace's other runs; ticks the user set stay when the
    /// run is the same (checkpoints appear while it trains).
    void fillChoices(const QString& run, const QList<qint64>& steps);
    /// Ticks these steps of the run (nothing else) and sets the temperatures.
    void setChoices(const QString& run, const QList<qint64>& steps, const QVector<double>& temperatures);
    /// The ticked (run, checkpoint) columns and the temperatures; an empty string when both are usable,
    /// else what to fix.
    QString selection(QVector<QPair<QString, QString>>& columns, QVector<double>& temperatures) const;
    /// Empties the table and labels its rows for a new comparison.
    void begin(int columns, const QVector<double>& temperatures);
    void setCell(int row, int column, const QString& header, const QString& text);
    QString markdown(const QString& prompt) const;
    void setBusy(bool busy);

signals:
    void compareClicked();
    void exportClicked();

private:
    QListWidget* m_ckList;
    QLineEdit* m_temps;
    QPushButton* m_compareBtn;
    QTableWidget* m_table;
};
