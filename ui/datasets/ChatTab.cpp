#include "ui/datasets/ChatTab.h"
#include "ui/Workspace.h"
#include "ui/datasets/TokenizerChoice.h"

#include "twb/errors.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

namespace {
/// A line edit and a Browse button in one row.
QWidget* withBrowse(QLineEdit* edit, QToolButton* browse) {
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    browse->setText(QObject::tr("Browse…"));
    row->addWidget(edit, 1);
    row->addWidget(browse);
    return box;
}

/// The files of the files field: separated by ";".
QStringList filesOf(const QLineEdit* e) {
    QStringList files;
    for (const QString& f : e->text().split(';'))
        if (!f.trimmed().isEmpty())
            files << f.trimmed();
    return files;
}
}  // namespace

ChatTab::ChatTab(QWidget* parent) : QWidget(parent) {
    buildForm();
    updateTokenizerRows();
}

void ChatTab::buildForm() {
    auto* form = new QFormLayout;
    m_files = new QLineEdit;
    m_files->setObjectName("chatFiles");
    m_files->setClearButtonEnabled(true);
    m_files->setPlaceholderText(tr("JSON-lines files, separated by ;"));
    m_files->setToolTip(
        tr("One record per line: Alpaca's {\"instruction\", \"input\", \"output\"}, self-instruct's seed tasks "
           "{\"instruction\", \"instances\": [{\"input\", \"output\"}, ...]}, or {\"messages\": [{\"role\", "
           "\"content\"}, ...]}"));
    auto* filesBrowse = new QToolButton;
    form->addRow(tr("Instruction data"), withBrowse(m_files, filesBrowse));
    connect(filesBrowse, &QToolButton::clicked, this, &ChatTab::browseFiles);

    addTokenizerRows(form);

    m_system = new QLineEdit;
    m_system->setObjectName("chatSystem");
    m_system->setPlaceholderText(tr("none"));
    m_system->setToolTip(tr("A system turn put before every conversation that has none"));
    form->addRow(tr("System turn"), m_system);
    m_val = new QDoubleSpinBox;
    m_val->setObjectName("chatValFraction");
    m_val->setRange(0, 0.5);
    m_val->setSingleStep(0.01);
    m_val->setDecimals(3);
    m_val->setValue(0.1);
    m_val->setToolTip(tr("Share of the conversations held out for validation"));
    form->addRow(tr("Held out: validation"), m_val);
    m_name = new QLineEdit;
    m_name->setObjectName("chatName");
    m_name->setPlaceholderText(tr("e.g. alpaca-seed"));
    form->addRow(tr("Dataset name"), m_name);
    auto* prepare = new QPushButton(tr("Prepare chat data"));
    prepare->setObjectName("prepareChat");
    prepare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    prepare->setToolTip(tr("Render, tokenize and write the chat dataset (Ctrl+Return); as twb prepare --chat"));
    form->addRow(QString(), prepare);
    connect(prepare, &QPushButton::clicked, this, &ChatTab::prepareClicked);

    auto* help = new QLabel(
        tr("Each conversation is rendered with the chat template (twb-chat-1: <code>&lt;|user|&gt;</code>, "
           "<code>&lt;|assistant|&gt;</code> and <code>&lt;|system|&gt;</code> headers, each turn ended by the "
           "tokenizer's end of sequence) and the loss falls on the assistant's replies only. Train on it, or "
           "finetune a run with the same tokenizer, then talk to the model in the Sampling console's Chat tab."));
    help->setWordWrap(true);
    m_result = new QLabel;
    m_result->setObjectName("chatResult");
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_finetune = new QPushButton;
    m_finetune->setObjectName("chatFinetune");
    m_finetune->setToolTip(tr("Open the Training panel with a new run initialised from that run, on this dataset"));
    m_finetune->hide();
    connect(m_finetune, &QPushButton::clicked, this, [this] { emit finetuneClicked(m_finetuneRun, m_finetuneData); });
    auto* finetuneRow = new QHBoxLayout;
    finetuneRow->addWidget(m_finetune);
    finetuneRow->addStretch(1);
    auto* col = new QVBoxLayout(this);
    col->addLayout(form);
    col->addWidget(help);
    col->addWidget(m_result);
    col->addLayout(finetuneRow);
    col->addStretch(1);
}

void ChatTab::addTokenizerRows(QFormLayout* form) {
    m_source = new QComboBox;
    m_source->setObjectName("chatTokenizerSource");
    m_source->addItem(tr("train one on the conversations"), "train");
    m_source->addItem(tr("take a run's or a dataset's (to finetune that run)"), "from");
    form->addRow(tr("Tokenizer"), m_source);
    m_tokenizer =
        new TokenizerChoice("chat", "chat", "byte", 0, 500,
                            tr("Vocabulary size, specials included (bpe, unigram, word, bytebpe); byte ignores it"));
    form->addRow(tr("Kind, vocabulary"), m_tokenizer);
    m_from = new QLineEdit;
    m_from->setObjectName("chatTokenizerFrom");
    m_from->setPlaceholderText(tr("a run or prepared dataset folder"));
    m_from->setToolTip(
        tr("Encode with this run's or dataset's tokenizer, then finetune that run on the data "
           "(Run → Initialise from run…): an imported GPT-2, say"));
    m_fromBrowse = new QToolButton;
    form->addRow(tr("Tokenizer of"), withBrowse(m_from, m_fromBrowse));
    connect(m_fromBrowse, &QToolButton::clicked, this, &ChatTab::browseFrom);
    connect(m_source, &QComboBox::currentIndexChanged, this, &ChatTab::updateTokenizerRows);
}

void ChatTab::updateTokenizerRows() {
    const bool from = m_source->currentData().toString() == "from";
    m_tokenizer->setEnabled(!from);
    m_from->setEnabled(from);
    m_fromBrowse->setEnabled(from);
}

void ChatTab::browseFiles() {
    QSettings s;
    const QStringList files =
        QFileDialog::getOpenFileNames(this, tr("Instruction data"), s.value("chat/lastDir").toString(),
                                      tr("JSON lines (*.jsonl *.json);;All files (*)"));
    if (files.isEmpty())
        return;
    s.setValue("chat/lastDir", QFileInfo(files.first()).absolutePath());
    setFiles(files);
}

void ChatTab::browseFrom() {
    const QString d = QFileDialog::getExistingDirectory(this, tr("Run or dataset whose tokenizer to use"),
                                                        m_from->text().isEmpty() ? QDir::homePath() : m_from->text());
    if (!d.isEmpty())
        setTokenizerFrom(d);
}

void ChatTab::setFiles(const QStringList& files) {
    m_files->setText(files.join("; "));
    if (m_name->text().isEmpty() && !files.isEmpty())
        m_name->setText(QFileInfo(files.first()).completeBaseName());
}

void ChatTab::setTokenizer(const QString& kind, int vocab) {
    m_source->setCurrentIndex(m_source->findData("train"));
    m_tokenizer->set(kind, vocab);
}

void ChatTab::setTokenizerFrom(const QString& dir) {
    m_from->setText(dir);
    m_source->setCurrentIndex(m_source->findData(dir.isEmpty() ? "train" : "from"));
}

void ChatTab::setSystem(const QString& text) {
    m_system->setText(text);
}

void ChatTab::setDatasetName(const QString& name) {
    m_name->setText(name);
}

twb::ChatPrepareOptions ChatTab::options(const QString& datasetsDir) const {
    twb::ChatPrepareOptions o;
    for (const QString& f : filesOf(m_files))
        o.inputs.push_back(f.toStdString());
    if (o.inputs.empty())
        throw twb::ConfigError(tr("choose the instruction data (JSON lines) first").toStdString());
    if (m_source->currentData().toString() == "from") {
        o.tokenizer_from = m_from->text().trimmed().toStdString();
        if (o.tokenizer_from.empty())
            throw twb::ConfigError(tr("choose the run or dataset whose tokenizer to use").toStdString());
    } else {
        o.tokenizer = m_tokenizer->spec();
    }
    o.system = m_system->text().trimmed().toStdString();
    o.val_fraction = m_val->value();
    QString name = Workspace::folderName(m_name->text());
    if (name.isEmpty())
        throw twb::ConfigError(tr("name the dataset first").toStdString());
    o.out = (datasetsDir + "/" + name).toStdString();
    return o;
}

QString ChatTab::finetuneRun() const {
    return m_finetune->isHidden() ? QString() : m_finetuneRun;
}

void ChatTab::setResult(const twb::ChatPrepareResult& r, const QString& run) {
    m_finetuneRun = run;
    m_finetuneData = QString::fromStdString(r.dir.string());
    m_finetune->setText(tr("Finetune %1 on it…").arg(QFileInfo(run).fileName()));
    m_finetune->setVisible(!run.isEmpty());
    const QLocale l;
    QString text =
        tr("<b>Prepared</b> %1 (chat, template %2, vocabulary %3)<br>conversations: train %4, validation %5; "
           "the longest %6 tokens<br>train %7 tokens, %8 of them in replies (trained); validation %9 tokens")
            .arg(QDir::toNativeSeparators(QString::fromStdString(r.dir.string())).toHtmlEscaped(), twb::kChatTemplate)
            .arg(r.vocab_size)
            .arg(l.toString(static_cast<qulonglong>(r.train_conversations)),
                 l.toString(static_cast<qulonglong>(r.val_conversations)),
                 l.toString(static_cast<qulonglong>(r.longest)), l.toString(static_cast<qulonglong>(r.train_tokens)),
                 l.toString(static_cast<qulonglong>(r.train_trained_tokens)),
                 l.toString(static_cast<qulonglong>(r.val_tokens)));
    for (const auto& w : r.warnings)
        text += "<br>" + tr("warning: %1").arg(QString::fromStdString(w).toHtmlEscaped());
    m_result->setText(text);
}

void ChatTab::clearResult() {
    m_result->clear();
}

QString ChatTab::resultText() const {
    return m_result->text();
}
