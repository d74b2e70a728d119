#include "ui/DatasetsPanel.h"

#include "engine/data/corpus.h"
#include "engine/data/download_utils.h"
#include "engine/data/errors.h"
#include "engine/data/synthetic.h"
#include "engine/data/text_utils.h"
#include "ui/Downloader.h"
#include "ui/ErrorLabel.h"
#include "ui/TextDiff.h"
#include "ui/TokenDisplay.h"
#include "ui/Workspace.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString human_bytes(uint64_t b) {
    if (b >= 1000000)
        return QStringLiteral("%1 MB").arg(b / 1e6, 0, 'f', 1);
    if (b >= 1000)
        return QStringLiteral("%1 kB").arg(b / 1e3, 0, 'f', 0);
    return QStringLiteral("%1 B").arg(b);
}

/// "lines" -> "line", "documents" -> "document".
QString singular(const QString& unit) {
    return unit.endsWith('s') ? unit.chopped(1) : unit;
}

const char* kCleanLabels[][2] = {{"nfkc", "Unicode NFKC (ligatures, full-width → plain)"},
                                 {"whitespace", "Normalise whitespace (CRLF, runs of spaces, trailing)"},
                                 {"ascii", "Transliterate to ASCII (“café” → \"cafe\")"},
                                 {"strip", "Strip characters outside printable ASCII"},
                                 {"gutenberg", "Drop Project Gutenberg header/footer"},
                                 {"lowercase", "Lowercase"},
                                 {"drop-empty", "Drop empty lines"},
                                 {"dedupe", "Drop duplicate lines"}};
}  // namespace

DatasetsPanel::DatasetsPanel(QWidget* parent) : QWidget(parent) {
    setAcceptDrops(true);
    QSettings st;
    // ---- Import & clean
    m_sources = new QListWidget;
    m_sources->setObjectName("sources");
    m_sources->setTextElideMode(Qt::ElideLeft);  // the file name matters most
    m_sources->setToolTip(tr("Files and folders to read (drop them here). Parallel: source file, then target file."));
    auto* addFiles = new QPushButton(tr("Add files…"));
    auto* addFolder = new QPushButton(tr("Add folder…"));
    auto* remove = new QPushButton(tr("Remove"));
    m_format = new QComboBox;
    m_format->setObjectName("format");
    m_format->addItem(tr("Plain text"), "text");
    m_format->addItem(tr("JSON lines (one field)"), "jsonl");
    m_format->addItem(tr("CSV (one column)"), "csv");
    m_format->addItem(tr("TSV (one column)"), "tsv");
    m_format->addItem(tr("Parallel pair (source, target)"), "parallel");
    m_format->addItem(tr("Records with a separator line"), "records");
    m_field = new QLineEdit("text");
    m_column = new QLineEdit;
    m_column->setPlaceholderText(tr("name or 0-based index"));
    m_separator = new QLineEdit("%");
    auto* fmtForm = new QFormLayout;
    fmtForm->addRow(tr("Format"), m_format);
    fmtForm->addRow(tr("JSON field"), m_field);
    fmtForm->addRow(tr("Column"), m_column);
    fmtForm->addRow(tr("Record separator"), m_separator);
    auto* cleanBox = new QGroupBox(tr("Cleaning"));
    auto* cleanCol = new QVBoxLayout(cleanBox);
    for (const auto& c : kCleanLabels) {
        auto* cb = new QCheckBox(tr(c[1]));
        cb->setObjectName(QStringLiteral("clean-%1").arg(c[0]));
        m_clean.emplace_back(c[0], cb);
        cleanCol->addWidget(cb);
        connect(cb, &QCheckBox::toggled, this, &DatasetsPanel::schedulePreview);
    }
    m_before = new QTextBrowser;
    m_after = new QTextBrowser;
    m_before->setPlaceholderText(tr("Raw text of the first documents"));
    m_after->setPlaceholderText(tr("The same after cleaning"));
    m_previewInfo = new QLabel(tr("Add text files to see a preview."));
    m_previewInfo->setWordWrap(true);
    auto* srcBtns = new QHBoxLayout;
    srcBtns->addWidget(addFiles);
    srcBtns->addWidget(addFolder);
    srcBtns->addWidget(remove);
    auto* importLeft = new QVBoxLayout;
    auto* dropHint = new QLabel(tr("Sources: drop files or folders here, or add them below"));
    dropHint->setWordWrap(true);
    importLeft->addWidget(dropHint);
    importLeft->addWidget(m_sources, 1);
    importLeft->addLayout(srcBtns);
    importLeft->addLayout(fmtForm);
    importLeft->addWidget(cleanBox);
    auto* previews = new QSplitter(Qt::Horizontal);
    auto* bw = new QWidget;
    auto* bc = new QVBoxLayout(bw);
    bc->setContentsMargins(0, 0, 0, 0);
    bc->addWidget(new QLabel(tr("Before (changed or removed in red)")));
    bc->addWidget(m_before);
    auto* aw = new QWidget;
    auto* ac = new QVBoxLayout(aw);
    ac->setContentsMargins(0, 0, 0, 0);
    ac->addWidget(new QLabel(tr("After (changed in green)")));
    ac->addWidget(m_after);
    previews->addWidget(bw);
    previews->addWidget(aw);
    auto* importTab = new QWidget;
    auto* importRow = new QHBoxLayout(importTab);
    importRow->addLayout(importLeft, 2);
    auto* importRight = new QVBoxLayout;
    importRight->addWidget(previews, 1);
    importRight->addWidget(m_previewInfo);
    importRow->addLayout(importRight, 5);

    // ---- Tokenize & inspect & prepare
    auto kinds = [](QComboBox* c) {
        c->addItem(tr("characters"), "char");
        c->addItem(tr("bytes"), "byte");
        c->addItem(tr("words"), "word");
        c->addItem(tr("sentencepiece BPE"), "bpe");
        c->addItem(tr("sentencepiece unigram"), "unigram");
    };
    m_tokKind = new QComboBox;
    m_tokKind->setObjectName("tokenizer");
    // characters and bytes have a fixed vocabulary: the size box applies to words, BPE and unigram
    auto sizeFollowsKind = [](QComboBox* kind, QSpinBox* size) {
        connect(kind, &QComboBox::currentIndexChanged, size, [kind, size] {
            const QString k = kind->currentData().toString();
            size->setEnabled(k != "char" && k != "byte");
        });
    };
    kinds(m_tokKind);
    m_vocabSize = new QSpinBox;
    m_vocabSize->setRange(16, 65000);
    m_vocabSize->setValue(2000);
    m_vocabSize->setToolTip(tr("Target vocabulary for words/BPE/unigram (characters and bytes ignore it)"));
    m_tokKindB = new QComboBox;
    kinds(m_tokKindB);
    m_tokKindB->setCurrentIndex(3);
    m_vocabSizeB = new QSpinBox;
    m_vocabSizeB->setRange(16, 65000);
    m_vocabSizeB->setValue(2000);
    sizeFollowsKind(m_tokKind, m_vocabSize);
    sizeFollowsKind(m_tokKindB, m_vocabSizeB);
    m_vocabSize->setEnabled(false);  // characters are the default
    m_valFraction = new QDoubleSpinBox;
    m_valFraction->setRange(0.0, 0.5);
    m_valFraction->setSingleStep(0.01);
    m_valFraction->setValue(0.1);
    m_split = new QComboBox;
    m_split->addItem(tr("tail (last part of the text, as nanoGPT)"), "tail");
    m_split->addItem(tr("shuffled documents"), "shuffle");
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
    auto* tokForm = new QFormLayout;
    auto* tA = new QHBoxLayout;
    tA->addWidget(m_tokKind, 1);
    tA->addWidget(m_vocabSize);
    tokForm->addRow(tr("Tokenizer"), tA);
    auto* tB = new QHBoxLayout;
    tB->addWidget(m_tokKindB, 1);
    tB->addWidget(m_vocabSizeB);
    tokForm->addRow(tr("Compare with"), tB);
    tokForm->addRow(tr("Validation share"), m_valFraction);
    tokForm->addRow(tr("Split"), m_split);
    tokForm->addRow(tr("Name"), m_name);
    auto* tokBtns = new QHBoxLayout;
    tokBtns->addWidget(tokenizeBtn);
    tokBtns->addWidget(compareBtn);
    tokBtns->addWidget(prepareBtn);
    m_stats = new QLabel(tr("Tokenize to see statistics."));
    m_stats->setObjectName("stats");
    m_stats->setWordWrap(true);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
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
    auto* inspectTabs = new QTabWidget;
    inspectTabs->addTab(m_tokPreview, tr("Tokenized preview"));
    auto* vocabW = new QWidget;
    auto* vocabC = new QVBoxLayout(vocabW);
    vocabC->addWidget(m_vocabSearch);
    vocabC->addWidget(m_vocab);
    inspectTabs->addTab(vocabW, tr("Vocabulary"));
    inspectTabs->addTab(m_compareTable, tr("A against B"));
    auto* tokTab = new QWidget;
    auto* tokRow = new QHBoxLayout(tokTab);
    auto* tokLeft = new QVBoxLayout;
    tokLeft->addLayout(tokForm);
    tokLeft->addLayout(tokBtns);
    tokLeft->addWidget(m_stats);
    tokLeft->addStretch(1);
    tokRow->addLayout(tokLeft, 2);
    auto* tokRight = new QSplitter(Qt::Vertical);
    tokRight->addWidget(m_hist);
    tokRight->addWidget(inspectTabs);
    tokRow->addWidget(tokRight, 5);

    // ---- Catalogue
    m_catalogue = new QTableWidget(0, 4);
    m_catalogue->setObjectName("catalogue");
    m_catalogue->setHorizontalHeaderLabels({tr("dataset"), tr("size"), tr("licence"), tr("status")});
    m_catalogue->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_catalogue->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_catalogue->horizontalHeader()->setSectionResizeMode(3, QHeaderView::ResizeToContents);
    m_catalogue->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_catalogue->setSelectionMode(QAbstractItemView::SingleSelection);
    m_catalogue->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_catInfo = new QLabel;
    m_catInfo->setWordWrap(true);
    m_catInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_dlProgress = new QProgressBar;
    m_dlProgress->setObjectName("downloadProgress");
    m_dlButton = new QPushButton(tr("Download"));
    m_dlCancel = new QPushButton(tr("Cancel"));
    m_dlCancel->setEnabled(false);
    auto* useBtn = new QPushButton(tr("Use for import"));
    useBtn->setToolTip(tr("Take this corpus's files, format and suggested tokenizer into Import and Tokenize"));
    auto* catBtns = new QHBoxLayout;
    catBtns->addWidget(m_dlButton);
    catBtns->addWidget(m_dlCancel);
    catBtns->addWidget(m_dlProgress, 1);
    catBtns->addWidget(useBtn);
    auto* catTab = new QWidget;
    auto* catCol = new QVBoxLayout(catTab);
    catCol->addWidget(m_catalogue, 1);
    catCol->addWidget(m_catInfo);
    catCol->addLayout(catBtns);
    m_downloader = new Downloader(this);

    // ---- Synthetic
    m_synTask = new QComboBox;
    m_synTask->setObjectName("syntheticTask");
    for (const auto& t : twb::synthetic_tasks())
        m_synTask->addItem(q(t));
    m_synExamples = new QSpinBox;
    m_synExamples->setRange(1, 10000000);
    m_synExamples->setValue(20000);
    m_synDigits = new QSpinBox;
    m_synDigits->setRange(1, 18);
    m_synDigits->setValue(3);
    m_synReversed = new QCheckBox(tr("write numbers least significant digit first"));
    m_synReversed->setToolTip(tr("Lets a left-to-right model produce the carry before the digit that needs it"));
    m_synMinLen = new QSpinBox;
    m_synMinLen->setRange(1, 200);
    m_synMinLen->setValue(4);
    m_synMaxLen = new QSpinBox;
    m_synMaxLen->setRange(1, 200);
    m_synMaxLen->setValue(10);
    m_synSeed = new QSpinBox;
    m_synSeed->setRange(0, 2147483647);
    m_synSeed->setValue(1);
    auto* synBtn = new QPushButton(tr("Generate and import"));
    // digits belong to addition, sequence lengths to copy/reverse/sort
    auto synFields = [this] {
        const bool add = m_synTask->currentText() == "addition";
        m_synDigits->setEnabled(add);
        m_synReversed->setEnabled(add);
        m_synMinLen->setEnabled(!add);
        m_synMaxLen->setEnabled(!add);
    };
    connect(m_synTask, &QComboBox::currentIndexChanged, this, synFields);
    synFields();
    auto* synForm = new QFormLayout;
    synForm->addRow(tr("Task"), m_synTask);
    synForm->addRow(tr("Examples"), m_synExamples);
    synForm->addRow(tr("Digits (addition)"), m_synDigits);
    synForm->addRow(QString(), m_synReversed);
    synForm->addRow(tr("Shortest sequence"), m_synMinLen);
    synForm->addRow(tr("Longest sequence"), m_synMaxLen);
    synForm->addRow(tr("Seed"), m_synSeed);
    synForm->addRow(QString(), synBtn);
    auto* synTab = new QWidget;
    auto* synCol = new QVBoxLayout(synTab);
    synCol->addLayout(synForm);
    auto* synHelp =
        new QLabel(tr("One example per line, e.g. addition <code>123+456=579</code>, reversed "
                      "<code>321+654=9750</code>; copy <code>cabd&gt;cabd</code>; reverse "
                      "<code>cabd&gt;dbac</code>; sort <code>cabd&gt;abcd</code>. Tokenize with "
                      "characters; the attention patterns of a model trained on them are easy to read."));
    synHelp->setWordWrap(true);
    synCol->addWidget(synHelp);
    synCol->addStretch(1);

    // ---- Prepared datasets (left)
    m_prepared = new QListWidget;
    m_prepared->setObjectName("prepared");
    m_preparedInfo = new QLabel;
    m_preparedInfo->setWordWrap(true);
    auto* useTrain = new QPushButton(tr("Train on it"));
    auto* del = new QPushButton(tr("Delete"));
    auto* prepBox = new QGroupBox(tr("Prepared datasets"));
    auto* prepCol = new QVBoxLayout(prepBox);
    prepCol->addWidget(m_prepared, 1);
    prepCol->addWidget(m_preparedInfo);
    auto* prepBtns = new QHBoxLayout;
    prepBtns->addWidget(useTrain);
    prepBtns->addWidget(del);
    prepCol->addLayout(prepBtns);
    prepBox->setMaximumWidth(260);

    m_tabs = new QTabWidget;
    m_tabs->addTab(importTab, tr("Import && clean"));
    m_tabs->addTab(tokTab, tr("Tokenize && prepare"));
    m_tabs->addTab(catTab, tr("Catalogue"));
    m_tabs->addTab(synTab, tr("Synthetic tasks"));

    m_progress = new QProgressBar;
    m_progress->setObjectName("jobProgress");
    m_stage = new QLabel;
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setEnabled(false);
    m_error = new ErrorLabel;
    auto* jobRow = new QHBoxLayout;
    jobRow->addWidget(m_stage);
    jobRow->addWidget(m_progress, 1);
    jobRow->addWidget(m_cancel);

    auto* body = new QHBoxLayout;
    body->addWidget(prepBox);
    body->addWidget(m_tabs, 1);
    auto* col = new QVBoxLayout(this);
    col->addLayout(body, 1);
    col->addWidget(m_error);
    col->addLayout(jobRow);

    // ---- Wiring
    connect(addFiles, &QPushButton::clicked, this, [this] {
        const auto files =
            QFileDialog::getOpenFileNames(this, tr("Add text files"), QSettings().value("lastImportDir").toString());
        if (!files.isEmpty())
            QSettings().setValue("lastImportDir", QFileInfo(files.first()).absolutePath());
        addSources(files);
    });
    connect(addFolder, &QPushButton::clicked, this, [this] {
        const auto d = QFileDialog::getExistingDirectory(this, tr("Add a folder of text files"),
                                                         QSettings().value("lastImportDir").toString());
        if (!d.isEmpty())
            QSettings().setValue("lastImportDir", d);
        if (!d.isEmpty())
            addSources({d});
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(m_sources->selectedItems());
        schedulePreview();
    });
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        updateFormatFields();
        schedulePreview();
    });
    for (auto* e : {m_field, m_column, m_separator})
        connect(e, &QLineEdit::editingFinished, this, &DatasetsPanel::schedulePreview);
    connect(tokenizeBtn, &QPushButton::clicked, this, &DatasetsPanel::tokenize);
    connect(compareBtn, &QPushButton::clicked, this, &DatasetsPanel::compare);
    connect(prepareBtn, &QPushButton::clicked, this, &DatasetsPanel::prepare);
    connect(m_cancel, &QPushButton::clicked, this, &DatasetsPanel::cancel);
    connect(m_vocabSearch, &QLineEdit::textChanged, this, &DatasetsPanel::filterVocab);
    connect(m_tokPreview, &QTextBrowser::highlighted, this, [this](const QUrl& u) {
        const int id = u.toString().section(':', 1).toInt();
        if (u.isEmpty() || id >= m_a.tokenTexts.size())
            return QToolTip::hideText();
        QToolTip::showText(QCursor::pos(), tr("id %1 “%2” · seen %3 times")
                                               .arg(id)
                                               .arg(visibleToken(m_a.tokenTexts[id]))
                                               .arg(id < static_cast<int>(m_a.counts.size()) ? m_a.counts[id] : 0));
    });
    connect(m_prepared, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* it) {
        if (!it)
            return m_preparedInfo->clear();
        try {
            const auto d = twb::open_prepared(it->data(Qt::UserRole).toString().toStdString());
            m_preparedInfo->setText(tr("%1 tokenizer, vocabulary %2<br>train %3 tokens, val %4<br>%5 characters/token")
                                        .arg(q(d.tokenizer_kind))
                                        .arg(d.vocab_size)
                                        .arg(d.train_tokens)
                                        .arg(d.val_tokens)
                                        .arg(d.chars_per_token, 0, 'f', 3));
        } catch (const std::exception& e) {
            m_preparedInfo->setText(q(e.what()));
        }
    });
    connect(useTrain, &QPushButton::clicked, this, [this] {
        if (auto* it = m_prepared->currentItem())
            emit useForTraining(it->data(Qt::UserRole).toString());
    });
    connect(del, &QPushButton::clicked, this, [this] {
        if (auto* it = m_prepared->currentItem())
            deletePrepared(it->data(Qt::UserRole).toString());
    });
    connect(m_catalogue, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row < 0 || row >= static_cast<int>(m_entries.size()))
            return;
        const auto& e = m_entries[static_cast<size_t>(row)];
        QString files;
        for (const auto& f : e.files)
            files += QStringLiteral("<br>%1 (%2) — <code>%3</code>").arg(q(f.path), human_bytes(f.bytes), q(f.url));
        m_catInfo->setText(
            tr("<b>%1</b>: %2<br>Licence: %3. Suggested: %4 tokenizer%5, %6 model.%7<br>Cached in %8")
                .arg(q(e.title), q(e.description).toHtmlEscaped(), q(e.licence).toHtmlEscaped(), q(e.tokenizer))
                .arg(e.vocab_size ? tr(" (%1)").arg(e.vocab_size) : QString(), q(e.model_preset), files,
                     e.files.empty() ? q(e.local_path) : Downloader::cacheDir(q(e.name))));
        m_dlButton->setEnabled(!e.files.empty());
    });
    connect(m_dlButton, &QPushButton::clicked, this, &DatasetsPanel::download);
    connect(m_dlCancel, &QPushButton::clicked, m_downloader, &Downloader::cancel);
    connect(useBtn, &QPushButton::clicked, this, &DatasetsPanel::useCatalogueEntry);
    connect(m_downloader, &Downloader::progress, this, [this](qint64 done, qint64 total, const QString& file) {
        m_dlProgress->setMaximum(total > 0 ? 1000 : 0);
        if (total > 0)
            m_dlProgress->setValue(static_cast<int>(1000.0 * done / total));
        const double s = m_dlClock.elapsed() / 1000.0;
        const double rate = s > 0 ? done / s : 0;
        m_dlProgress->setFormat(total > 0 && rate > 0 ? tr("%1 · %2 of %3 · %4 s left")
                                                            .arg(file, human_bytes(done), human_bytes(total))
                                                            .arg(qRound((total - done) / rate))
                                                      : file);
    });
    connect(m_downloader, &Downloader::finished, this, [this](const QString& dir) {
        m_dlButton->setEnabled(true);
        m_dlCancel->setEnabled(false);
        m_dlProgress->setFormat(tr("downloaded and checked"));
        emit statusMessage(tr("Downloaded into %1").arg(dir));
        const int row = m_catalogue->currentRow();
        selectCatalogue(QString());  // refresh statuses
        m_catalogue->setCurrentCell(row, 0);
    });
    connect(m_downloader, &Downloader::failed, this, [this](const QString& e) {
        m_dlButton->setEnabled(true);
        m_dlCancel->setEnabled(false);
        m_dlProgress->setFormat(tr("failed"));
        showError(e);
    });
    connect(synBtn, &QPushButton::clicked, this, &DatasetsPanel::generateSynthetic);
    connect(&m_previewWatch, &QFutureWatcher<CleaningPreviewResult>::finished, this, [this] {
        const auto r = m_previewWatch.result();
        m_previewPending = false;
        if (!r.error.isEmpty()) {
            m_before->clear();
            m_after->clear();
            m_previewAfterText.clear();
            m_previewInfo->setText(r.error);
            return showError(r.error);
        }
        m_error->clear();
        m_before->setHtml(r.diff.beforeHtml);
        m_after->setHtml(r.diff.afterHtml);
        m_previewAfterText = r.after;
        m_previewChanged = r.diff.charsChanged;
        m_previewInfo->setText(r.info);
    });
    connect(&m_jobWatch, &QFutureWatcher<DatasetJob>::finished, this, [this] {
        const DatasetJob job = m_jobWatch.result();
        setBusy(false);
        if (!job.error.isEmpty())
            return showError(job.error);
        if (job.which >= 0) {
            (job.which ? m_b : m_a) = job.analysis;
            return showAnalysis(job.which);
        }
        refreshPrepared();
        emit statusMessage(tr("Prepared %1").arg(job.dir));
        emit datasetPrepared(job.dir);
    });
    connect(&m_statusWatch, &QFutureWatcher<QStringList>::finished, this, [this] {
        const QStringList st = m_statusWatch.result();
        for (int r = 0; r < st.size() && r < m_catalogue->rowCount(); ++r)
            m_catalogue->item(r, 3)->setText(st[r]);
    });
    m_previewTimer.setSingleShot(true);
    m_previewTimer.setInterval(300);
    connect(&m_previewTimer, &QTimer::timeout, this, &DatasetsPanel::refreshPreview);
    updateFormatFields();
    refreshPrepared();
    selectCatalogue(QString());
    setBusy(false);
    setTokenizer(st.value("datasets/tokenizer", "char").toString(), st.value("datasets/vocab", 2000).toInt());
    setCompareTokenizer(st.value("datasets/compareTokenizer", "bpe").toString(),
                        st.value("datasets/compareVocab", 2000).toInt());
    m_valFraction->setValue(st.value("datasets/valFraction", 0.1).toDouble());
}

DatasetsPanel::~DatasetsPanel() {
    if (m_cancelFlag)
        *m_cancelFlag = true;
    m_downloader->cancel();
    m_jobWatch.waitForFinished();
    m_previewWatch.waitForFinished();
    m_statusWatch.waitForFinished();
    QDir(Workspace::root() + "/.staging").removeRecursively();  // the inspections' scratch datasets
    QSettings st;
    st.setValue("datasets/tokenizer", m_tokKind->currentData());
    st.setValue("datasets/vocab", m_vocabSize->value());
    st.setValue("datasets/compareTokenizer", m_tokKindB->currentData());
    st.setValue("datasets/compareVocab", m_vocabSizeB->value());
    st.setValue("datasets/valFraction", m_valFraction->value());
}

// ---------------------------------------------------------------- import

void DatasetsPanel::addSources(const QStringList& paths) {
    for (const QString& p : paths) {
        if (p.isEmpty())
            continue;
        const QString abs = QFileInfo(p).absoluteFilePath();
        if (m_sources->findItems(abs, Qt::MatchExactly).isEmpty()) {
            m_sources->addItem(abs);
            m_sources->item(m_sources->count() - 1)->setToolTip(abs);
        }
    }
    if (m_name->text().isEmpty() && m_sources->count() > 0)
        m_name->setText(QFileInfo(m_sources->item(0)->text()).completeBaseName());
    schedulePreview();
}

void DatasetsPanel::clearSources() {
    m_sources->clear();
    schedulePreview();
}

QStringList DatasetsPanel::sources() const {
    QStringList out;
    for (int i = 0; i < m_sources->count(); ++i)
        out << m_sources->item(i)->text();
    return out;
}

void DatasetsPanel::setFormat(const QString& f) {
    m_format->setCurrentIndex(std::max(0, m_format->findData(f)));
}
void DatasetsPanel::setCleaning(const QString& option, bool on) {
    for (auto& [name, cb] : m_clean)
        if (q(name) == option)
            cb->setChecked(on);
}
void DatasetsPanel::setTokenizer(const QString& kind, int vocab) {
    m_tokKind->setCurrentIndex(std::max(0, m_tokKind->findData(kind)));
    if (vocab > 0)
        m_vocabSize->setValue(vocab);
}
void DatasetsPanel::setCompareTokenizer(const QString& kind, int vocab) {
    m_tokKindB->setCurrentIndex(std::max(0, m_tokKindB->findData(kind)));
    if (vocab > 0)
        m_vocabSizeB->setValue(vocab);
}
void DatasetsPanel::setDatasetName(const QString& name) {
    m_name->setText(name);
}
void DatasetsPanel::setValFraction(double f) {
    m_valFraction->setValue(f);
}

void DatasetsPanel::updateFormatFields() {
    const QString f = m_format->currentData().toString();
    m_field->setEnabled(f == "jsonl");
    m_column->setEnabled(f == "csv" || f == "tsv");
    m_separator->setEnabled(f == "records");
}

void DatasetsPanel::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls())
        e->acceptProposedAction();
}

void DatasetsPanel::dropEvent(QDropEvent* e) {
    QStringList paths;
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile())
            paths << u.toLocalFile();
    addSources(paths);
    m_tabs->setCurrentIndex(0);
}

twb::TokenizerSpec DatasetsPanel::tokenizerSpec(int which) const {
    twb::TokenizerSpec t;
    t.kind = (which ? m_tokKindB : m_tokKind)->currentData().toString().toStdString();
    t.vocab_size = (which ? m_vocabSizeB : m_vocabSize)->value();
    if (t.kind == "char" || t.kind == "byte")
        t.vocab_size = 0;
    return t;
}

twb::PrepareOptions DatasetsPanel::options() const {
    twb::PrepareOptions o;
    for (const QString& s : sources())
        o.corpus.inputs.push_back(s.toStdString());
    o.corpus.format = twb::parse_input_format(m_format->currentData().toString().toStdString());
    o.corpus.field = m_field->text().toStdString();
    o.corpus.column = m_column->text().toStdString();
    o.corpus.record_separator = m_separator->text().toStdString();
    for (const auto& [name, cb] : m_clean)
        if (cb->isChecked())
            o.cleaning.enable(name);
    o.tokenizer = tokenizerSpec(0);
    o.val_fraction = m_valFraction->value();
    o.split = m_split->currentData().toString().toStdString();
    QString name = m_name->text().trimmed();
    name.replace(QRegularExpression("[^A-Za-z0-9._-]+"), "-");
    o.out = (Workspace::datasetsDir() + "/" + (name.isEmpty() ? QStringLiteral("dataset") : name)).toStdString();
    return o;
}

void DatasetsPanel::schedulePreview() {
    m_previewPending = true;
    m_previewTimer.start();
}

void DatasetsPanel::refreshPreview() {
    if (m_previewWatch.isRunning())
        return schedulePreview();  // one at a time; the newest settings win
    if (m_sources->count() == 0) {
        m_previewPending = false;
        m_before->clear();
        m_after->clear();
        m_previewInfo->setText(tr("Add text files to see a preview."));
        return;
    }
    twb::PrepareOptions o;
    try {
        o = options();
    } catch (const std::exception& e) {
        m_previewPending = false;
        return showError(q(e.what()));
    }
    m_previewPending = true;
    m_previewWatch.setFuture(QtConcurrent::run([o] {
        CleaningPreviewResult r;
        try {
            const auto p = twb::preview_cleaning(o.corpus, o.cleaning);
            const QString before = q(p.before);
            r.after = q(p.after);
            r.diff = diff_texts(before, r.after);
            QStringList per;
            for (const auto& [opt, n] : p.per_option)  // code points removed (negative: added)
                per << QStringLiteral("%1 %2%3").arg(q(opt)).arg(n >= 0 ? "−" : "+").arg(std::abs(n));
            r.info = QObject::tr(
                         "Preview of the first %1 characters: %2 lines changed, %3 removed, %4 characters "
                         "changed, %5 characters %6%7")
                         .arg(before.size())
                         .arg(r.diff.linesChanged)
                         .arg(r.diff.linesRemoved)
                         .arg(r.diff.charsChanged)
                         .arg(std::abs(p.chars_removed))
                         .arg(p.chars_removed >= 0 ? QObject::tr("fewer") : QObject::tr("more"))
                         .arg(per.isEmpty() ? QString() : " (" + per.join(", ") + ")");
        } catch (const std::exception& e) {
            r.error = q(e.what());
        }
        return r;
    }));
}

// ---------------------------------------------------------------- jobs

std::shared_ptr<std::atomic<bool>> DatasetsPanel::newCancel() {
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    return m_cancelFlag;
}

void DatasetsPanel::setBusy(bool busy, const QString& what) {
    m_busy = busy;
    m_cancel->setEnabled(busy);
    m_stage->setText(busy ? what : QString());
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (busy) {
        m_jobClock.start();
        m_progress->setRange(0, 0);
    } else {
        m_progress->setRange(0, 1);
        m_progress->setValue(1);
        m_progress->setFormat(QString());
    }
}

void DatasetsPanel::cancel() {
    if (m_cancelFlag)
        *m_cancelFlag = true;
}

void DatasetsPanel::showError(const QString& text) {
    m_error->setText(text);
    emit statusMessage(text);
}

void DatasetsPanel::tokenize() {
    runAnalysis(0);
}
void DatasetsPanel::compare() {
    runAnalysis(1);
}

bool DatasetsPanel::jobOptions(twb::PrepareOptions& o) {
    if (m_busy)
        return false;
    if (m_sources->count() == 0) {
        showError(tr("Add text files first (Import tab, or drop them on the panel)."));
        return false;
    }
    try {
        o = options();
        return true;
    } catch (const std::exception& e) {
        showError(q(e.what()));
        return false;
    }
}

twb::PrepareProgressFn DatasetsPanel::progressFn(std::shared_ptr<std::atomic<bool>> cancel) {
    QPointer<DatasetsPanel> self(this);
    // Called on the job's thread: hand the figures to the UI thread, answer with the cancel flag.
    return [self, cancel](const std::string& stage, uint64_t done, uint64_t total) {
        QMetaObject::invokeMethod(
            qApp,
            [self, st = q(stage), done, total] {
                if (self)
                    self->showProgress(st, done, total);
            },
            Qt::QueuedConnection);
        return !*cancel;
    };
}

void DatasetsPanel::showProgress(const QString& stage, uint64_t done, uint64_t total) {
    m_stage->setText(stage);
    m_progress->setRange(0, total ? 1000 : 0);  // no total (tokenizer training): a busy bar
    if (!total)
        return;
    const double f = static_cast<double>(done) / static_cast<double>(total);
    const double s = m_jobClock.elapsed() / 1000.0;
    m_progress->setValue(static_cast<int>(1000 * f));
    m_progress->setFormat(f > 0.02 ? tr("%p% · %1 s left").arg(qRound(s / f - s)) : QStringLiteral("%p%"));
}

void DatasetsPanel::runAnalysis(int which) {
    twb::PrepareOptions o;
    if (!jobOptions(o))
        return;
    o.tokenizer = tokenizerSpec(which);
    o.out = (Workspace::root() + "/.staging/analysis-" + QString::number(which)).toStdString();
    o.overwrite = true;
    m_error->clear();
    auto cancel = newCancel();
    setBusy(true, which ? tr("Tokenizing with B…") : tr("Tokenizing…"));
    const auto progress = progressFn(cancel);
    m_jobWatch.setFuture(QtConcurrent::run([o, progress, which] {
        DatasetJob job;
        job.which = which;
        TokenizerAnalysis& a = job.analysis;
        a.label = q(o.tokenizer.kind) +
                  (o.tokenizer.vocab_size ? QStringLiteral(" %1").arg(o.tokenizer.vocab_size) : QString());
        try {
            const auto res = twb::prepare_dataset(o, progress);
            a.stats = res.stats;
            a.trainTokens = res.train_tokens;
            a.valTokens = res.val_tokens;
            const auto tok = twb::load_tokenizer(o.out);
            for (int i = 0; i < tok->vocab_size(); ++i)
                a.tokenTexts << q(tok->token_text(i));
            a.counts.assign(static_cast<size_t>(tok->vocab_size()), 0);
            const auto d = twb::open_prepared(o.out);
            for (const char* split : {"train.bin", "val.bin"}) {
                twb::TokenFile f(d.dir / split, d.dtype);
                for (uint64_t i = 0; i < f.size(); ++i)
                    ++a.counts[static_cast<size_t>(f.at(i))];
                if (std::string(split) == "train.bin")
                    for (uint64_t i = 0; i < std::min<uint64_t>(f.size(), 600); ++i)
                        a.previewIds.push_back(f.at(i));
            }
        } catch (const twb::Cancelled&) {
            job.error = QObject::tr("Tokenizing cancelled; nothing was written.");
        } catch (const std::exception& e) {
            job.error = q(e.what());
        }
        return job;
    }));
}

void DatasetsPanel::prepare() {
    twb::PrepareOptions o;
    if (!jobOptions(o))
        return;
    if (std::filesystem::exists(o.out)) {
        if (QMessageBox::question(this, tr("Replace dataset"),
                                  tr("A dataset named %1 exists. Replace it?").arg(q(o.out.filename().string()))) !=
            QMessageBox::Yes)
            return;
        o.overwrite = true;
    }
    m_error->clear();
    auto cancel = newCancel();
    setBusy(true, tr("Preparing…"));
    const auto progress = progressFn(cancel);
    m_jobWatch.setFuture(QtConcurrent::run([o, progress] {
        DatasetJob job;
        try {
            twb::prepare_dataset(o, progress);
            job.dir = q(o.out.string());
        } catch (const twb::Cancelled&) {
            job.error = QObject::tr("Preparing cancelled; nothing was written.");
        } catch (const std::exception& e) {
            job.error = q(e.what());
        }
        return job;
    }));
}

// ---------------------------------------------------------------- inspection

void DatasetsPanel::showAnalysis(int which) {
    const auto& a = which ? m_b : m_a;
    const auto& s = a.stats;
    if (which == 0) {
        QString top;
        for (size_t i = 0; i < std::min<size_t>(12, s.top_tokens.size()); ++i)
            top += QStringLiteral("“%1” ").arg(visibleToken(q(s.top_tokens[i].text)).toHtmlEscaped());
        m_stats->setText(tr("<b>%1</b><br>%2 characters → %3 tokens<br>%4 characters per token<br>vocabulary %5 "
                            "(%6 used)<br>unknown %7%<br>train %8 · val %9 tokens<br>%10 per %11: mean %12, max %13"
                            "<br>most frequent: %14")
                             .arg(a.label)
                             .arg(s.characters)
                             .arg(s.tokens)
                             .arg(s.chars_per_token, 0, 'f', 3)
                             .arg(s.vocab_size)
                             .arg(s.vocab_used)
                             .arg(100 * s.unk_rate, 0, 'f', 3)
                             .arg(a.trainTokens)
                             .arg(a.valTokens)
                             .arg(tr("tokens"), singular(q(s.length_unit)))
                             .arg(s.length_mean, 0, 'f', 1)
                             .arg(s.length_max)
                             .arg(top));
        renderTokenPreview();
        m_vocab->setSortingEnabled(false);
        m_vocab->setRowCount(a.tokenTexts.size());
        for (int i = 0; i < a.tokenTexts.size(); ++i) {
            m_vocab->setItem(i, 0, new QTableWidgetItem(visibleToken(a.tokenTexts[i])));
            auto* id = new QTableWidgetItem;
            id->setData(Qt::DisplayRole, i);
            m_vocab->setItem(i, 1, id);
            auto* c = new QTableWidgetItem;
            c->setData(Qt::DisplayRole, static_cast<qulonglong>(a.counts[static_cast<size_t>(i)]));
            m_vocab->setItem(i, 2, c);
        }
        m_vocab->setSortingEnabled(true);
        filterVocab(m_vocabSearch->text());
    }
    // One histogram per tokenizer: a new analysis replaces its own bars and keeps the other's.
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
    if (m_a.stats.tokens && m_b.stats.tokens)
        showCompare();
}

void DatasetsPanel::showCompare() {
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

void DatasetsPanel::renderTokenPreview() {
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

void DatasetsPanel::filterVocab(const QString& text) {
    for (int r = 0; r < m_vocab->rowCount(); ++r)
        m_vocab->setRowHidden(r, !text.isEmpty() && !m_vocab->item(r, 0)->text().contains(text, Qt::CaseInsensitive));
}

// ---------------------------------------------------------------- prepared datasets

void DatasetsPanel::refreshPrepared() {
    m_prepared->clear();
    for (const QString& d : Workspace::datasets()) {
        auto* it = new QListWidgetItem(QFileInfo(d).fileName());
        it->setData(Qt::UserRole, d);
        m_prepared->addItem(it);
    }
}

bool DatasetsPanel::deletePrepared(const QString& dir, bool confirm) {
    if (!QFileInfo::exists(dir + "/meta.json")) {
        showError(tr("%1 is not a prepared dataset; nothing deleted.").arg(dir));
        return false;
    }
    if (confirm &&
        QMessageBox::question(this, tr("Delete dataset"),
                              tr("Delete %1 and its token files? Runs trained on it keep their own tokenizer "
                                 "copy and still sample, but cannot continue training.")
                                  .arg(dir)) != QMessageBox::Yes)
        return false;
    const bool ok = QDir(dir).removeRecursively();
    if (!ok)
        showError(tr("Could not delete all of %1; check permissions.").arg(dir));
    refreshPrepared();
    return ok;
}

// ---------------------------------------------------------------- catalogue

void DatasetsPanel::selectCatalogue(const QString& name) {
    if (name.isEmpty() || m_entries.empty()) {
        try {
            m_entries = twb::load_catalogue();
        } catch (const std::exception& e) {
            m_entries.clear();
            showError(q(e.what()));
        }
        m_catalogue->setRowCount(static_cast<int>(m_entries.size()));
        for (int r = 0; r < static_cast<int>(m_entries.size()); ++r) {
            const auto& e = m_entries[static_cast<size_t>(r)];
            const bool local = e.files.empty();
            m_catalogue->setItem(r, 0, new QTableWidgetItem(q(e.title)));
            m_catalogue->setItem(r, 1, new QTableWidgetItem(local ? tr("local") : human_bytes(e.total_bytes())));
            m_catalogue->setItem(r, 2, new QTableWidgetItem(q(e.licence)));
            m_catalogue->setItem(r, 3, new QTableWidgetItem(tr("checking…")));
        }
        // Whether cached files are intact means hashing them: off the UI thread.
        const auto entries = m_entries;
        m_statusWatch.setFuture(QtConcurrent::run([entries] {
            QStringList statuses;
            for (const auto& e : entries) {
                if (e.files.empty())
                    statuses << (QFileInfo::exists(q(e.local_path)) ? QObject::tr("installed")
                                                                    : QObject::tr("missing"));
                else
                    statuses << (twb::entry_cached(Downloader::cacheDir(q(e.name)).toStdString(), e)
                                     ? QObject::tr("downloaded")
                                     : QObject::tr("not downloaded"));
            }
            return statuses;
        }));
    }
    for (int r = 0; r < static_cast<int>(m_entries.size()); ++r)
        if (q(m_entries[static_cast<size_t>(r)].name) == name)
            m_catalogue->setCurrentCell(r, 0);
}

QStringList DatasetsPanel::catalogueNames() const {
    QStringList out;
    for (const auto& e : m_entries)
        out << q(e.name);
    return out;
}

QString DatasetsPanel::catalogueStatus() const {
    const int r = m_catalogue->currentRow();
    return r >= 0 && m_catalogue->item(r, 3) ? m_catalogue->item(r, 3)->text() : QString();
}

void DatasetsPanel::download() {
    const int r = m_catalogue->currentRow();
    if (r < 0 || r >= static_cast<int>(m_entries.size()))
        return showError(tr("Choose a dataset in the catalogue first."));
    if (m_downloader->isRunning())
        return;
    const auto& e = m_entries[static_cast<size_t>(r)];
    m_error->clear();
    m_dlButton->setEnabled(false);
    m_dlCancel->setEnabled(true);
    m_dlProgress->setValue(0);
    m_dlClock.start();
    m_downloader->start(e, Downloader::cacheDir(q(e.name)));
}

bool DatasetsPanel::useCatalogueEntry() {
    const int r = m_catalogue->currentRow();
    if (r < 0 || r >= static_cast<int>(m_entries.size())) {
        showError(tr("Choose a dataset in the catalogue first."));
        return false;
    }
    const auto& e = m_entries[static_cast<size_t>(r)];
    try {
        const auto o =
            twb::preset_options(e.name, {},
                                e.files.empty() ? std::filesystem::path()
                                                : std::filesystem::path(Downloader::cacheDir(q(e.name)).toStdString()));
        m_sources->clear();
        for (const auto& in : o.corpus.inputs)
            m_sources->addItem(q(in));
        setFormat(q(twb::to_string(o.corpus.format)));
        m_separator->setText(q(o.corpus.record_separator));
        setTokenizer(q(o.tokenizer.kind), o.tokenizer.vocab_size);
        m_name->setText(q(e.name));
        m_tabs->setCurrentIndex(0);
        schedulePreview();
        return true;
    } catch (const std::exception& ex) {
        showError(q(ex.what()));
        return false;
    }
}

// ---------------------------------------------------------------- synthetic

QString DatasetsPanel::generateSynthetic() {
    twb::SyntheticSpec s;
    s.task = m_synTask->currentText().toStdString();
    s.examples = m_synExamples->value();
    s.digits = m_synDigits->value();
    s.reversed_digits = m_synReversed->isChecked();
    s.min_length = m_synMinLen->value();
    s.max_length = m_synMaxLen->value();
    s.seed = static_cast<uint64_t>(m_synSeed->value());
    try {
        const std::string text = twb::generate_synthetic(s);
        const QString name =
            QStringLiteral("%1%2-%3-seed%4")
                .arg(q(s.task))
                .arg(s.task == "addition" ? QStringLiteral("%1d%2").arg(s.digits).arg(s.reversed_digits ? "r" : "")
                                          : QString())
                .arg(s.examples)
                .arg(s.seed);
        const QString path = Workspace::root() + "/synthetic/" + name + ".txt";
        QDir().mkpath(QFileInfo(path).absolutePath());
        twb::write_file_atomic(path.toStdString(), text);
        m_sources->clear();
        setFormat("text");
        setTokenizer("char");
        m_name->setText(name);
        addSources({path});
        m_tabs->setCurrentIndex(0);
        emit statusMessage(tr("Wrote %1 examples to %2").arg(s.examples).arg(path));
        return path;
    } catch (const std::exception& e) {
        showError(q(e.what()));
        return {};
    }
}

QString DatasetsPanel::lastError() const {
    return m_error->error();
}
