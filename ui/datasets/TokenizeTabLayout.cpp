#include "ui/datasets/TokenizeTab.h"
#include "ui/datasets/TokenizerKindLabel.h"

#include "ui/widgets/BesideOrStacked.h"
#include "ui/widgets/ColumnScroll.h"
#include "ui/widgets/TabTitles.h"
#include "ui/widgets/TextScale.h"
#include "ui/widgets/TokenDisplay.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolTip>
#include <QVBoxLayout>

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

bool fixedVocabulary(const QString& kind) {
    return kind == "char" || kind == "byte";
}
}  // namespace

// The tab is its options on the left (the two tokenizers, reuse, documents, split and name, the
// buttons and the statistics) and the inspector on the right; the last choices come back from QSettings.
TokenizeTab::TokenizeTab(QWidget* parent) : QWidget(parent) {
    makeTokenizerChoices();
    QPushButton* chooseFrom = makeOptions();
    QGridLayout* buttons = makeButtons();
    layOut(chooseFrom, buttons);
    restoreChoices();
}

// Tokenizer A and the one to compare with: the kind and the vocabulary size of each.
void TokenizeTab::makeTokenizerChoices() {
    for (int which : {0, 1}) {
        auto* kind = m_kind[which] = new QComboBox;
        for (const auto& name : twb::choice_names<twb::TokenizerKind>())
            kind->addItem(tokenizerKindLabel(name), q(name));
        // Not as wide as "sentencepiece unigram" at least: the options column left the inspector no room
        kind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        kind->setMinimumContentsLength(10);
        auto* size = m_vocabSize[which] = new QSpinBox;
        size->setRange(16, 65000);
        size->setValue(2000);
        // characters and bytes have a fixed vocabulary: the size box applies to words, BPE and unigram
        connect(kind, &QComboBox::currentIndexChanged, size,
                [kind, size] { size->setEnabled(!fixedVocabulary(kind->currentData().toString())); });
    }
    m_kind[0]->setObjectName("tokenizer");
    m_vocabSize[0]->setToolTip(tr("Target vocabulary for words/BPE/unigram (characters and bytes ignore it)"));
    m_vocabSize[0]->setEnabled(false);  // characters are the default
    m_kind[1]->setCurrentIndex(m_kind[1]->findData("bpe"));
}

// Validation share, split, the tokenizer to reuse (returns its "Choose…" button), documents, name.
QPushButton* TokenizeTab::makeOptions() {
    m_valFraction = new QDoubleSpinBox;
    m_valFraction->setObjectName("valFraction");
    m_valFraction->setRange(0.0, 0.5);
    m_valFraction->setSingleStep(0.01);
    m_split = new QComboBox;
    m_split->setObjectName("split");
    m_split->addItem(tr("tail (as nanoGPT)"), "tail");
    m_split->addItem(tr("shuffled documents"), "shuffle");
    m_split->setToolTip(
        tr("tail: the last part of the text is held out for validation, as nanoGPT does; "
           "shuffled documents: whole documents drawn at random (tick Keep documents, or "
           "give records)"));
    // the long item does not set the form's width: the views beside it keep room for their tab names
    m_split->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_split->setMinimumContentsLength(16);
    // Finetuning data must mean what the pretrained model learned: encode with its tokenizer.
    m_tokenizerFrom = new QLineEdit;
    m_tokenizerFrom->setObjectName("tokenizerFrom");
    m_tokenizerFrom->setPlaceholderText(tr("train tokenizer A"));
    m_tokenizerFrom->setClearButtonEnabled(true);
    m_tokenizerFrom->setToolTip(
        tr("Encode with the tokenizer of this prepared dataset or run instead of training "
           "one (twb prepare --tokenizer-from): for finetuning data"));
    auto* chooseFrom = new QPushButton(tr("Choose…"));  // short: "Use the tokenizer of…" took the field's room
    chooseFrom->setObjectName("chooseTokenizerFrom");
    chooseFrom->setToolTip(tr("Use the tokenizer of a prepared dataset or a run: choose its folder"));
    connect(chooseFrom, &QPushButton::clicked, this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("A prepared dataset or a run"), m_tokenizerFrom->text());
        if (!dir.isEmpty())
            m_tokenizerFrom->setText(dir);
    });
    connect(m_tokenizerFrom, &QLineEdit::textChanged, this, [this](const QString& t) {
        m_kind[0]->setEnabled(t.trimmed().isEmpty());
        m_vocabSize[0]->setEnabled(t.trimmed().isEmpty() && !fixedVocabulary(m_kind[0]->currentData().toString()));
    });
    m_documents = new QCheckBox(tr("Keep documents"));
    m_documents->setObjectName("documents");
    m_documents->setToolTip(
        tr("Each record, jsonl/csv row, line pair or paragraph becomes one document, one sequence "
           "<bos> … <eos>, for training with sequences = documents (twb prepare --documents); needs a "
           "tokenizer with <bos>/<eos>: not characters"));
    m_name = new QLineEdit;
    m_name->setObjectName("datasetName");
    m_name->setPlaceholderText(tr("dataset name"));
    return chooseFrom;
}

// Tokenize, Compare and Prepare, connected to their slots.
QGridLayout* TokenizeTab::makeButtons() {
    auto* tokenizeBtn = new QPushButton(tr("Tokenize && inspect"));
    tokenizeBtn->setObjectName("tokenize");
    auto* compareBtn = new QPushButton(tr("Compare"));
    compareBtn->setToolTip(tr("Tokenize the same text with the second tokenizer and show both side by side"));
    auto* prepareBtn = new QPushButton(tr("Prepare dataset"));
    prepareBtn->setObjectName("prepare");
    prepareBtn->setToolTip(
        tr("Write train.bin, val.bin, the tokenizer and meta.json into the workspace, as twb prepare does"));
    // Two rows: in one, at 150% text in Bokmål, they made the options column wider than the tab has room for
    auto* buttons = new QGridLayout;
    buttons->addWidget(tokenizeBtn, 0, 0);
    buttons->addWidget(compareBtn, 0, 1);
    buttons->addWidget(prepareBtn, 1, 0, 1, 2);
    connect(tokenizeBtn, &QPushButton::clicked, this, &TokenizeTab::tokenizeClicked);
    connect(compareBtn, &QPushButton::clicked, this, &TokenizeTab::compareClicked);
    connect(prepareBtn, &QPushButton::clicked, this, &TokenizeTab::prepareClicked);
    return buttons;
}

void TokenizeTab::layOut(QPushButton* chooseFrom, QGridLayout* buttons) {
    m_stats = new QLabel(tr("Tokenize to see statistics."));
    m_stats->setObjectName("stats");
    m_stats->setWordWrap(true);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    // A field under its label where the column is narrow (150% text): the inspector beside keeps its room
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    const QString rowNames[] = {tr("Tokenizer"), tr("Compare with")};
    for (int which : {0, 1}) {
        auto* row = new QHBoxLayout;
        row->addWidget(m_kind[which], 1);
        row->addWidget(m_vocabSize[which]);
        form->addRow(rowNames[which], row);
    }
    auto* fromRow = new QHBoxLayout;
    fitReuseField();
    fromRow->addWidget(m_tokenizerFrom, 1);
    fromRow->addWidget(chooseFrom);
    form->addRow(tr("Or reuse"), fromRow);
    form->addRow(QString(), m_documents);
    form->addRow(tr("Validation share"), m_valFraction);
    form->addRow(tr("Split"), m_split);
    form->addRow(tr("Name"), m_name);
    // The options scroll, never narrower than they need: at 150% text in Bokmål the inspector took their
    // room and the buttons read "eniser og insp" and "largjør dataset".
    auto* leftColumn = new QWidget;
    auto* left = new QVBoxLayout(leftColumn);
    left->setContentsMargins(0, 0, 0, 0);
    left->addLayout(form);
    left->addLayout(buttons);
    left->addWidget(m_stats);
    left->addStretch(1);
    auto* leftScroll = new ColumnScroll(leftColumn);
    leftScroll->setFrameShape(QFrame::NoFrame);
    m_options = leftScroll;
    m_options->setObjectName("tokenizeOptions");
    m_inspector = buildInspector();
    m_inspector->setObjectName("tokenizeInspector");
    m_columns = new QBoxLayout(QBoxLayout::LeftToRight, this);
    // The options as wide as they like (their labels beside the fields), the inspector the rest; short of
    // room the options narrow to their least, fields under their labels
    m_columns->addWidget(m_options, 0);
    m_columns->addWidget(m_inspector, 1);
}

bool TokenizeTab::optionsBesideInspector() const {
    return m_columns->direction() == QBoxLayout::LeftToRight;
}

void TokenizeTab::fitReuseField() {
    // Room for a folder's name: squeezed beside "Or reuse" and Choose… it read "tra…" at 150% text; the
    // form puts the row under its label instead
    m_tokenizerFrom->setMinimumWidth(m_tokenizerFrom->fontMetrics().averageCharWidth() * 12);
    // So for the dataset's name, beside "Validation share"'s long label: "dataset na…" at 175%
    const QFontMetrics name = m_name->fontMetrics();
    m_name->setMinimumWidth(std::max(name.averageCharWidth() * 16,
                                     name.horizontalAdvance(m_name->placeholderText()) + name.averageCharWidth() * 3));
}

void TokenizeTab::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange)
        fitReuseField();
}

void TokenizeTab::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    auto least = [](const QWidget* w) { return std::max(w->minimumWidth(), w->minimumSizeHint().width()); };
    // Beside the inspector, the options take at most two fifths of the width (more, and at 150% text the
    // histogram's legend no longer fitted its plot), or their least
    const auto direction = besideOrStacked(m_columns, width());
    m_options->setMaximumWidth(direction == QBoxLayout::LeftToRight ? std::max(least(m_options), width() * 2 / 5)
                                                                    : QWIDGETSIZE_MAX);
    if (direction != m_columns->direction()) {
        m_columns->setDirection(direction);
        m_columns->setStretch(0, direction == QBoxLayout::LeftToRight ? 0 : 1);  // stacked: as tall as each other
    }
}

void TokenizeTab::restoreChoices() {
    QSettings st;
    setTokenizer(0, st.value("datasets/tokenizer", "char").toString(), st.value("datasets/vocab", 2000).toInt());
    setTokenizer(1, st.value("datasets/compareTokenizer", "bpe").toString(),
                 st.value("datasets/compareVocab", 2000).toInt());
    m_valFraction->setValue(st.value("datasets/valFraction", 0.1).toDouble());
    m_documents->setChecked(st.value("datasets/documents", false).toBool());
}

QWidget* TokenizeTab::buildInspector() {
    m_hist = new QCustomPlot;
    m_hist->setMinimumHeight(160);
    m_hist->xAxis->setLabel(tr("tokens per line / document"));
    m_hist->yAxis->setLabel(tr("count"));
    m_hist->legend->setVisible(false);  // shown once there is a histogram
    // The legend's text as small as the other plots' (it was the interface's own size, and at 150% text its
    // entries were wider than the plot beside the options)
    m_hist->legend->setFont(TextScale::sized(m_hist->font(), 8));
    m_hist->installEventFilter(this);
    m_tokPreview = new QTextBrowser;
    m_tokPreview->setOpenLinks(false);
    m_tokPreview->setPlaceholderText(
        tr("The first tokens of the training split, boundaries in alternating colours; hover for ids"));
    m_vocabSearch = new QLineEdit;
    m_vocabSearch->setObjectName("vocabularySearch");
    m_vocabSearch->setPlaceholderText(tr("search the vocabulary"));
    m_vocab = new QTableWidget(0, 3);
    m_vocab->setObjectName("vocabulary");
    m_vocab->setHorizontalHeaderLabels({tr("token"), tr("id"), tr("count")});
    m_vocab->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_vocab->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_vocab->setSortingEnabled(true);
    m_compareTable = new QTableWidget(0, 3);
    m_compareTable->setObjectName("compareTokenizers");
    m_compareTable->setHorizontalHeaderLabels({tr("measure"), tr("A"), tr("B")});
    m_compareTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // the measures' names whole (a third of the width cut "mean sequence length" at 150%)
    m_compareTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_compareTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Four short names that fit the column at 1280 px (Merges sat behind the strip's scroll arrows), the
    // whole name in each tab's tooltip
    auto* tabs = new QTabWidget;
    tabs->setObjectName("tokenizeViews");
    tabs->setUsesScrollButtons(false);
    tabs->setElideMode(Qt::ElideRight);
    tabs->addTab(m_tokPreview, tr("Tokens"));
    tabs->setTabToolTip(0, tr("Tokenized preview: the first tokens of the training split"));
    auto* vocabW = new QWidget;
    auto* vocabC = new QVBoxLayout(vocabW);
    vocabC->addWidget(m_vocabSearch);
    vocabC->addWidget(m_vocab);
    tabs->addTab(vocabW, tr("Vocabulary"));
    tabs->addTab(m_compareTable, tr("A vs B"));
    tabs->setTabToolTip(2, tr("Tokenizer A against tokenizer B (Compare)"));
    tabs->addTab(buildMerges(), tr("Merges"));
    tabs->setTabToolTip(3, tr("A BPE tokenizer's merges, and a sample merged step by step"));
    // Short titles where the whole ones do not fit (150% text in Bokmål: "Toke…", "A m…", "Sammenslåin…")
    fitTabTitles(tabs, {QString(), tr("Vocab", "short tab title"), tr("A/B", "short tab title"),
                        tr("Merges", "short tab title")});
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_hist);
    split->addWidget(tabs);
    // The histogram two parts in five of the height, not its 160-pixel least: at 150% text its legend, two
    // lines an entry in a narrow plot, was taller than the bars' area.
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({200, 300});  // in that ratio from the start (a splitter weighs the sizes given)

    connect(m_vocabSearch, &QLineEdit::textChanged, this, &TokenizeTab::filterVocab);
    connect(m_tokPreview, &QTextBrowser::highlighted, this, [this](const QUrl& u) {
        const int id = u.toString().section(':', 1).toInt();
        if (u.isEmpty() || id >= m_a.tokenTexts.size())
            return QToolTip::hideText();
        QToolTip::showText(QCursor::pos(), tr("id %1 “%2” · seen %3 times")
                                               .arg(id)
                                               .arg(visibleToken(m_a.tokenTexts[id]))
                                               .arg(id < static_cast<int>(m_a.counts.size()) ? m_a.counts[id] : 0));
    });
    return split;
}

QWidget* TokenizeTab::buildMerges() {
    QSettings st;
    m_mergesSource = new QLineEdit(st.value("datasets/mergesSource").toString());
    m_mergesSource->setObjectName("mergesSource");
    m_mergesSource->setPlaceholderText(tr("a prepared bytebpe dataset or a run"));
    auto* choose = new QPushButton(tr("Choose…"));
    connect(choose, &QPushButton::clicked, this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("A bytebpe dataset or run"), m_mergesSource->text());
        if (!dir.isEmpty())
            m_mergesSource->setText(dir);
    });
    m_mergesSample = new QLineEdit(st.value("datasets/mergesSample", tr("The quick brown fox")).toString());
    m_mergesSample->setObjectName("mergesSample");
    m_mergesSample->setToolTip(tr("Text to merge step by step"));
    auto* show = new QPushButton(tr("Show merges"));
    show->setObjectName("showMerges");
    show->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    show->setToolTip(tr("The first and last merges, and the sample merged from its bytes (Ctrl+M)"));
    connect(show, &QPushButton::clicked, this, &TokenizeTab::mergesClicked);
    connect(m_mergesSample, &QLineEdit::returnPressed, this, &TokenizeTab::mergesClicked);
    m_merges = new QTextBrowser;
    m_merges->setObjectName("merges");
    m_merges->setPlaceholderText(tr("Byte-level BPE only: its merge list and how a sample text is merged"));
    auto* w = new QWidget;
    auto* form = new QFormLayout;
    auto* srcRow = new QHBoxLayout;
    srcRow->addWidget(m_mergesSource, 1);
    srcRow->addWidget(choose);
    form->addRow(tr("Tokenizer of"), srcRow);
    auto* sampleRow = new QHBoxLayout;
    sampleRow->addWidget(m_mergesSample, 1);
    sampleRow->addWidget(show);
    form->addRow(tr("Sample"), sampleRow);
    auto* col = new QVBoxLayout(w);
    col->addLayout(form);
    col->addWidget(m_merges, 1);
    return w;
}
