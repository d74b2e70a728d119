// The Datasets panel's "Chat data" tab: instruction data for a chat finetune, as `twb prepare --chat`
// makes it (twb/chat.h): JSON-lines files of Alpaca records, self-instruct seed tasks or message lists;
// the tokenizer trained on the rendered conversations, or taken from a run or a dataset (to finetune an
// imported GPT-2 or a run of the workspace on them); an optional system turn; the held-out share and the
// name; after preparing, the conversation and token counts, and, when the tokenizer was a run's, a button
// that sets up the finetune of that run on the data. It gathers options and shows results; the panel
// runs prepare_chat off the UI thread.
#pragma once
#include "twb/chat.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QToolButton;
class TokenizerChoice;

class ChatTab : public QWidget {
    Q_OBJECT
public:
    explicit ChatTab(QWidget* parent = nullptr);

    /// The options prepare_chat takes, written to datasetsDir/NAME. Throws twb::ConfigError naming what is
    /// missing (no file, no run or dataset to take the tokenizer from, no name).
    twb::ChatPrepareOptions options(const QString& datasetsDir) const;

    // Driving the tab (tests).
    void setFiles(const QStringList& files);
    void setTokenizer(const QString& kind, int vocab);
    /// Takes the tokenizer of this run or dataset folder instead of training one ("" trains one).
    void setTokenizerFrom(const QString& dir);
    void setSystem(const QString& text);
    void setDatasetName(const QString& name);
    /// Shows what a finished preparation made; `run`: the run whose tokenizer it used ("" for none),
    /// offered for finetuning on it.
    void setResult(const twb::ChatPrepareResult& r, const QString& run = {});
    QString resultText() const;
    /// Forgets the last dataset's summary (a new preparation starts: it is no word on that one).
    void clearResult();
    /// The run the Finetune button starts from ("" while it is hidden).
    QString finetuneRun() const;

signals:
    void prepareClicked();
    /// Finetune `run` on the chat dataset `dataset` (the Finetune button).
    void finetuneClicked(const QString& run, const QString& dataset);

private:
    void buildForm();
    /// Where the tokenizer comes from, its kind and size, or the run or dataset it is taken from.
    void addTokenizerRows(QFormLayout* form);
    /// The tokenizer's rows: its kind and size when one is trained, the folder when it is taken.
    void updateTokenizerRows();
    void browseFiles();
    void browseFrom();

    QLineEdit* m_files;
    QComboBox* m_source;  // train a tokenizer, or take a run's or dataset's
    TokenizerChoice* m_tokenizer;
    QLineEdit* m_from;
    QToolButton* m_fromBrowse;
    QLineEdit* m_system;
    QDoubleSpinBox* m_val;
    QLineEdit* m_name;
    QLabel* m_result;
    QPushButton* m_finetune;
    QString m_finetuneRun, m_finetuneData;
};
