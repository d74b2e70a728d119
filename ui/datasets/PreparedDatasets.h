// The prepared datasets of the workspace (the Datasets panel's left column): what each holds (tokenizer,
// vocabulary, tokens), "Train on it" and Delete.
#pragma once
#include <QGroupBox>

class QLabel;
class QListWidget;

class PreparedDatasets : public QGroupBox {
    Q_OBJECT
public:
    explicit PreparedDatasets(QWidget* parent = nullptr);
    QListWidget* list() const { return m_list; }

public slots:
    void refresh();
    /// Deletes a prepared dataset folder (asks first unless confirm is false).
    bool deletePrepared(const QString& dir, bool confirm = true);

signals:
    void useForTraining(const QString& dir);
    void errorChanged(const QString& text);

private:
    void showInfo(const QString& dir);

    QListWidget* m_list;
    QLabel* m_info;
};
