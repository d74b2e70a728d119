// The Sampling panel's "History" tab: every generation recorded in the run's samples.jsonl (by this
// console or by `twb sample`), newest first; the selected one's prompt and outputs, a button to reuse
// its prompt, and plain-text export. Reading the file is the worker's (the engine's samples_history.h).
#pragma once
#include "twb/samples_history.h"

#include <QWidget>
#include <vector>

class QListWidget;
class QPlainTextEdit;

class HistoryView : public QWidget {
    Q_OBJECT
public:
    explicit HistoryView(QWidget* parent = nullptr);
    void setRecords(const std::vector<twb::SampleRecord>& records);
    QListWidget* list() const { return m_list; }

signals:
    void usePrompt(const QString& prompt);
    void failed(const QString& error);

private:
    QListWidget* m_list;
    QPlainTextEdit* m_text;
    std::vector<twb::SampleRecord> m_records;
};
