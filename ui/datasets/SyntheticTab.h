// The Datasets panel's "Synthetic tasks" tab: the engine's built-in tasks (addition, copy, reverse,
// sort) from a seed, written into the workspace as a text file for the Import tab to take up; and
// synthetic instructions (reverse, sort, upper, copy as instruction/output records), written as JSON
// lines for the Chat data tab.
#pragma once
#include <QWidget>

class QCheckBox;
class QComboBox;
class QSpinBox;

class SyntheticTab : public QWidget {
    Q_OBJECT
public:
    explicit SyntheticTab(QWidget* parent = nullptr);

public slots:
    /// Writes the task to WORKSPACE/synthetic/NAME.txt; its path, or empty (and errorChanged) on failure.
    QString generate();

signals:
    /// A task file was written: import it under this dataset name.
    void generated(const QString& path, const QString& name, int examples);
    /// Instruction records were written (JSON lines): prepare them as chat data under this name.
    void instructionsGenerated(const QString& path, const QString& name, int examples);
    void errorChanged(const QString& text);

private:
    QComboBox* m_task;
    QSpinBox* m_examples;
    QSpinBox* m_digits;
    QCheckBox* m_reversed;
    QSpinBox* m_minLen;
    QSpinBox* m_maxLen;
    QSpinBox* m_seed;
};
