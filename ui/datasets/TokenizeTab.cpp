#include "ui/datasets/TokenizeTab.h"

#include "ui/widgets/TokenDisplay.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
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

/// "lines" -> "line", "documents" -> "document".
QString singular(const QString& unit) {
    return unit.endsWith('s') ? unit.chopped(1) : unit;
}

/// How the tokenizer kinds read in the combo box; the spellings come from the engine.
QString kindLabel(twb::TokenizerKind k) {
    switch (k) {
        case twb::TokenizerKind::Char:
            return QObject::tr("characters");
        case twb::TokenizerKind::Byte:
            return QObject::tr("bytes");
        case twb::TokenizerKind::Word:
            return QObject::tr("words");
        case twb::TokenizerKind::Bpe:
            return QObject::tr("sentencepiece BPE");
        case twb::TokenizerKind::Unigram:
            return QObject::tr("sentencepiece unigram");
        case twb::TokenizerKind::ByteBpe:
            return QObject::tr("byte-level BPE");
    }
    return {};
}

bool fixedVocabulary(const QString& kind) {
    return kind == "char" || kind == "byte";
}
}  // namespace

TokenizeTab::TokenizeTab(QWidget* parent) : QWidget(parent) {
    QSettings st;
    for (int which : {0, 1}) {
        auto* kind = m_kind[which] = new QComboBox;
        for (const auto& name : twb::choice_names<twb::TokenizerKind>())
            kind->addItem(kindLabel(twb::parse_choice<twb::TokenizerKind>(name, "tokenizer")), q(name));
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
    m_valFraction = new QDoubleSpinBox;
    m_valFraction->setRange(0.0, 0.5);
    m_valFraction->setSingleStep(0.01);
    m_split = new QComboBox;
    m_split->addItem(tr("tail (last part of the text, as nanoGPT)"), "tail");
    m_split->addItem(tr("shuffled documents"), "shuffle");
    // Finetuning data must mean what the pretrained model learned: encode with its tokenizer.
    m_tokenizerFrom = new QLineEdit;
    m_tokenizerFrom->setObjectName("tokenizerFrom");
    m_tokenizerFrom->setPlaceholderText(tr("train tokenizer A"));
    m_tokenizerFrom->setClearButtonEnabled(true);
    m_tokenizerFrom->setToolTip(
        tr("Encode with the tokenizer of this prepared dataset or run instead of training "
           "one (twb prepare --tokenizer-from): for finetuning data"));
    auto* chooseFrom = new QPushButton(tr("Use the tokenizer of…"));
    chooseFrom->setObjectName("chooseTokenizerFrom");
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
    m_documents = new QCheckBox(tr("Keep documents (each one sequence: <bos> … <eos>)"));
    m_documents->setObjectName("documents");
    m_documents->setToolTip(
        tr("Each record, jsonl/csv row, line pair or paragraph becomes one document, for "
           "training with sequences = documents (twb prepare --documents); needs a "
           "tokenizer with <bos>/<eos>: not characters"));
    m_name = new QLineEdit;
    m_name->setObjectName("datasetName");
    m_name->setPlaceholderText(tr("dataset name"));
    auto* tokenizeBtn = new QPushButton(tr("Tokenize && inspect"));
    tokenizeBtn->setObjectName("tokenize");
    auto* compareBtn = new QPushButton(tr("Compare"));
    compareBtn->setToolTip(tr("Tokenize the same text with the second tokenizer and show both side by side"));
    auto* prepareBtn = new QPushButton(tr("Prepare dataset"));
    prepareBtn->setObjectName("prepare");
    prepareBtn->setToolTip(
        tr("Write train.bin, val.bin, the tokenizer and meta.json into the workspace, as twb prepare does"));
    m_stats = new QLabel(tr("Tokenize to see statistics."));
    m_stats->setObjectName("stats");
    m_stats->setWordWrap(true);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    const QString rowNames[] = {tr("Tokenizer"), tr("Compare with")};
    for (int which : {0, 1}) {
        auto* row = new QHBoxLayout;
        row->addWidget(m_kind[which], 1);
        row->addWidget(m_vocabSize[which]);
        form->addRow(rowNames[which], row);
    }
    auto* fromRow = new QHBoxLayout;
    fromRow->addWidget(m_tokenizerFrom, 1);
    fromRow->addWidget(chooseFrom);
    form->addRow(tr("Or reuse"), fromRow);
    form->addRow(QString(), m_documents);
    form->addRow(tr("Validation share"), m_valFraction);
    form->addRow(tr("Split"), m_split);
    form->addRow(tr("Name"), m_name);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(tokenizeBtn);
    buttons->addWidget(compareBtn);
    buttons->addWidget(prepareBtn);
    auto* left = new QVBoxLayout;
    left->addLayout(form);
    left->addLayout(buttons);
    left->addWidget(m_stats);
    left->addStretch(1);
    auto* row = new QHBoxLayout(this);
    row->addLayout(left, 2);
    row->addWidget(buildInspector(), 5);

    connect(tokenizeBtn, &QPushButton::clicked, this, &TokenizeTab::tokenizeClicked);
    connect(compareBtn, &QPushButton::clicked, this, &TokenizeTab::compareClicked);
    connect(prepareBtn, &QPushButton::clicked, this, &TokenizeTab::prepareClicked);

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
    m_compareTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* tabs = new QTabWidget;
    tabs->addTab(m_tokPreview, tr("Tokenized preview"));
    auto* vocabW = new QWidget;
    auto* vocabC = new QVBoxLayout(vocabW);
    vocabC->addWidget(m_vocabSearch);
    vocabC->addWidget(m_vocab);
    tabs->addTab(vocabW, tr("Vocabulary"));
    tabs->addTab(m_compareTable, tr("A against B"));
    tabs->addTab(buildMerges(), tr("Merges"));
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_hist);
    split->addWidget(tabs);

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

QString TokenizeTab::mergesSource() const {
    return m_mergesSource->text().trimmed();
}
void TokenizeTab::setMergesSource(const QString& dir) {
    m_mergesSource->setText(dir);
}
QString TokenizeTab::mergesSample() const {
    return m_mergesSample->text();
}

void TokenizeTab::setMerges(const twb::BpeMergeInspection& r) {
    auto tokens = [](const std::vector<std::string>& ts) {
        QString h;
        const char* colours[] = {"#dbe8ff", "#ffe6c7"};
        for (size_t i = 0; i < ts.size(); ++i) {
            const QString shown = tokenHtml(q(ts[i]));
            h += QStringLiteral("<span style=\"background-color:%1\">%2</span>")
                     .arg(colours[i % 2], shown.isEmpty() ? QStringLiteral("∅") : shown);
        }
        return h;
    };
    auto merges = [](const std::vector<twb::BpeMerge>& list) {
        QString h;
        for (const auto& m : list)
            h += QStringLiteral("<tr><td align=right>%1</td><td>%2 + %3 → <b>%4</b></td><td>id %5</td></tr>")
                     .arg(m.rank)
                     .arg(tokenHtml(q(m.left)), tokenHtml(q(m.right)), tokenHtml(q(m.merged)))
                     .arg(m.id);
        return h;
    };
    QString html = QStringLiteral("<div style=\"font-family:monospace\">");
    html += tr("<p>%1 merges</p>").arg(r.merges);
    html += tr("<p><b>First merges</b></p><table>%1</table>").arg(merges(r.first));
    html += tr("<p><b>Last merges</b></p><table>%1</table>").arg(merges(r.last));
    html += tr("<p><b>The sample, step by step</b></p><table><tr><td>bytes</td><td>%1</td></tr>").arg(tokens(r.start));
    for (const auto& st : r.steps)
        html += QStringLiteral("<tr><td align=right>%1</td><td>%2</td></tr>").arg(st.merge.rank).arg(tokens(st.tokens));
    m_merges->setHtml(html + "</table></div>");
}

TokenizeTab::~TokenizeTab() {
    QSettings st;
    st.setValue("datasets/mergesSource", m_mergesSource->text());
    st.setValue("datasets/mergesSample", m_mergesSample->text());
    st.setValue("datasets/tokenizer", m_kind[0]->currentData());
    st.setValue("datasets/vocab", m_vocabSize[0]->value());
    st.setValue("datasets/compareTokenizer", m_kind[1]->currentData());
    st.setValue("datasets/compareVocab", m_vocabSize[1]->value());
    st.setValue("datasets/valFraction", m_valFraction->value());
    st.setValue("datasets/documents", m_documents->isChecked());
}

twb::TokenizerSpec TokenizeTab::tokenizerSpec(int which) const {
    twb::TokenizerSpec t;
    const QString kind = m_kind[which]->currentData().toString();
    t.kind = twb::parse_choice<twb::TokenizerKind>(kind.toStdString(), "tokenizer");
    t.vocab_size = fixedVocabulary(kind) ? 0 : m_vocabSize[which]->value();
    return t;
}

QString TokenizeTab::label(const twb::TokenizerSpec& spec) {
    return q(twb::to_string(spec.kind)) + (spec.vocab_size ? QStringLiteral(" %1").arg(spec.vocab_size) : QString());
}

void TokenizeTab::setTokenizer(int which, const QString& kind, int vocab) {
    m_kind[which]->setCurrentIndex(std::max(0, m_kind[which]->findData(kind)));
    if (vocab > 0)
        m_vocabSize[which]->setValue(vocab);
}
QString TokenizeTab::datasetName() const {
    return m_name->text();
}
void TokenizeTab::setDatasetName(const QString& name) {
    m_name->setText(name);
}
double TokenizeTab::valFraction() const {
    return m_valFraction->value();
}
void TokenizeTab::setValFraction(double f) {
    m_valFraction->setValue(f);
}
QString TokenizeTab::split() const {
    return m_split->currentData().toString();
}

QString TokenizeTab::tokenizerFrom() const {
    return m_tokenizerFrom->text().trimmed();
}
void TokenizeTab::setTokenizerFrom(const QString& dir) {
    m_tokenizerFrom->setText(dir);
}
bool TokenizeTab::documents() const {
    return m_documents->isChecked();
}
void TokenizeTab::setDocuments(bool on) {
    m_documents->setChecked(on);
}

void TokenizeTab::setAnalysis(int which, const TokenizerAnalysis& analysis) {
    (which ? m_b : m_a) = analysis;
    if (which == 0) {
        showStats();
        renderTokenPreview();
        showVocabulary();
    }
    showHistogram(which);
    if (m_a.stats.tokens && m_b.stats.tokens)
        showCompare();
}

void TokenizeTab::showStats() {
    const auto& s = m_a.stats;
    QString top;
    for (size_t i = 0; i < std::min<size_t>(12, s.top_tokens.size()); ++i)
        top += QStringLiteral("“%1” ").arg(visibleToken(q(s.top_tokens[i].text)).toHtmlEscaped());
    m_stats->setText(tr("<b>%1</b><br>%2 characters → %3 tokens<br>%4 characters per token<br>vocabulary %5 "
                        "(%6 used)<br>unknown %7%<br>train %8 · val %9 tokens<br>%10 per %11: mean %12, max %13"
                        "<br>most frequent: %14")
                         .arg(m_a.label)
                         .arg(s.characters)
                         .arg(s.tokens)
                         .arg(s.chars_per_token, 0, 'f', 3)
                         .arg(s.vocab_size)
                         .arg(s.vocab_used)
                         .arg(100 * s.unk_rate, 0, 'f', 3)
                         .arg(m_a.trainTokens)
                         .arg(m_a.valTokens)
                         .arg(tr("tokens"), singular(q(s.length_unit)))
                         .arg(s.length_mean, 0, 'f', 1)
                         .arg(s.length_max)
                         .arg(top));
}

void TokenizeTab::showVocabulary() {
    m_vocab->setSortingEnabled(false);
    m_vocab->setRowCount(m_a.tokenTexts.size());
    for (int i = 0; i < m_a.tokenTexts.size(); ++i) {
        m_vocab->setItem(i, 0, new QTableWidgetItem(visibleToken(m_a.tokenTexts[i])));
        auto* id = new QTableWidgetItem;
        id->setData(Qt::DisplayRole, i);
        m_vocab->setItem(i, 1, id);
        auto* c = new QTableWidgetItem;
        c->setData(Qt::DisplayRole, static_cast<qulonglong>(m_a.counts[static_cast<size_t>(i)]));
        m_vocab->setItem(i, 2, c);
    }
    m_vocab->horizontalHeader()->setSortIndicator(1, Qt::AscendingOrder);  // by id, as the tokenizer numbers
    m_vocab->setSortingEnabled(true);
    filterVocab(m_vocabSearch->text());
}

void TokenizeTab::showHistogram(int which) {
    // One histogram per tokenizer: a new analysis replaces its own bars and keeps the other's.
    const auto& a = which ? m_b : m_a;
    const auto& s = a.stats;
    if (m_bars[which])
        m_hist->removePlottable(m_bars[which]);
    auto* bars = m_bars[which] = new QCPBars(m_hist->xAxis, m_hist->yAxis);
    bars->setName(which ? tr("B: %1").arg(a.label) : tr("A: %1").arg(a.label));
    bars->setPen(Qt::NoPen);
    bars->setBrush(which ? QColor(230, 120, 30, 120) : QColor(40, 90, 200, 150));
    for (size_t i = 0; i + 1 < s.length_bin_edges.size() && i < s.length_counts.size(); ++i) {
        const double lo = s.length_bin_edges[i], hi = s.length_bin_edges[i + 1];
        bars->addData((lo + hi) / 2, static_cast<double>(s.length_counts[i]));
        bars->setWidth(std::max(1.0, hi - lo));
    }
    m_hist->xAxis->setLabel(tr("tokens per %1").arg(singular(q(s.length_unit))));
    m_hist->legend->setVisible(true);
    m_hist->rescaleAxes();
    m_hist->replot();
}

void TokenizeTab::showCompare() {
    struct Row {
        QString name;
        std::function<QString(const TokenizerAnalysis&)> f;
    };
    const std::vector<Row> rows = {
        {tr("tokenizer"), [](auto& a) { return a.label; }},
        {tr("tokens"), [](auto& a) { return QString::number(a.stats.tokens); }},
        {tr("tokens per character"),
         [](auto& a) { return QString::number(a.stats.tokens / std::max(1.0, double(a.stats.characters)), 'f', 4); }},
        {tr("characters per token"), [](auto& a) { return QString::number(a.stats.chars_per_token, 'f', 3); }},
        {tr("vocabulary"), [](auto& a) { return QString::number(a.stats.vocab_size); }},
        {tr("vocabulary used"), [](auto& a) { return QString::number(a.stats.vocab_used); }},
        {tr("unknown rate"), [](auto& a) { return QString::number(100 * a.stats.unk_rate, 'f', 3) + "%"; }},
        {tr("mean sequence length"), [](auto& a) { return QString::number(a.stats.length_mean, 'f', 1); }},
        {tr("longest sequence"), [](auto& a) { return QString::number(a.stats.length_max); }},
    };
    m_compareTable->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        m_compareTable->setItem(r, 0, new QTableWidgetItem(rows[r].name));
        m_compareTable->setItem(r, 1, new QTableWidgetItem(rows[r].f(m_a)));
        m_compareTable->setItem(r, 2, new QTableWidgetItem(rows[r].f(m_b)));
    }
}

void TokenizeTab::renderTokenPreview() {
    QString html = QStringLiteral("<div style=\"white-space:pre-wrap;font-family:monospace\">");
    const char* colours[] = {"#dbe8ff", "#ffe6c7"};
    for (size_t i = 0; i < m_a.previewIds.size(); ++i) {
        const int id = m_a.previewIds[i];
        const QString t = id < m_a.tokenTexts.size() ? m_a.tokenTexts[id] : QString();
        const QString shown = tokenHtml(t);
        html += QStringLiteral("<a href=\"id:%1\" style=\"text-decoration:none;color:#000;background-color:%2\">%3</a>")
                    .arg(id)
                    .arg(colours[i % 2], shown.isEmpty() ? QStringLiteral("∅") : shown);
    }
    m_tokPreview->setHtml(html + "</div>");
}

void TokenizeTab::filterVocab(const QString& text) {
    for (int r = 0; r < m_vocab->rowCount(); ++r)
        m_vocab->setRowHidden(r, !text.isEmpty() && !m_vocab->item(r, 0)->text().contains(text, Qt::CaseInsensitive));
}
