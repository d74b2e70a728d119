#include "ui/datasets/ParallelTab.h"
#include "ui/Workspace.h"
#include "ui/datasets/TokenizerChoice.h"

#include "twb/choices.h"
#include "twb/errors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace {
std::string path(const QLineEdit* e) {
    return e->text().trimmed().toStdString();
}
QString lengths(const twb::SideLengths& l) {
    return QObject::tr("mean %1, max %2 tokens").arg(QLocale().toString(l.mean, 'f', 1)).arg(l.max);
}
}  // namespace

ParallelTab::ParallelTab(QWidget* parent) : QWidget(parent) {
    auto* files = buildFiles();
    auto* prep = buildPreparation();
    m_result = new QLabel;
    m_result->setObjectName("parallelResult");
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* right = new QVBoxLayout;
    right->addWidget(prep);
    right->addWidget(m_result);
    right->addStretch();
    auto* row = new QHBoxLayout(this);
    auto* left = new QVBoxLayout;
    left->addWidget(files);
    left->addStretch();
    row->addLayout(left, 1);
    row->addLayout(right, 1);

    connect(m_mode, &QComboBox::currentIndexChanged, this, &ParallelTab::updateMode);
    connect(m_source, &QLineEdit::textChanged, this, [this](const QString& t) {
        if (m_name->text().isEmpty() || m_name->property("auto").toBool()) {  // named after the file until typed
            m_name->setText(QFileInfo(t).completeBaseName());
            m_name->setProperty("auto", true);
        }
    });
    connect(m_name, &QLineEdit::textEdited, this, [this] { m_name->setProperty("auto", false); });
    connect(m_mode, &QComboBox::currentIndexChanged, this, &ParallelTab::filesChanged);
    for (QLineEdit* file :
         {m_source, m_target, m_pairs, m_valSource, m_valTarget, m_valPairs, m_testSource, m_testTarget, m_testPairs})
        connect(file, &QLineEdit::textChanged, this, &ParallelTab::filesChanged);
    m_mode->setCurrentIndex(QSettings().value("parallel/mode", 0).toInt() == 1 ? 1 : 0);
    updateMode();
    fitFields();
}

void ParallelTab::fitFields() {
    // Each field's least width is what it must show; a row whose field cannot have it beside the label puts
    // the field under it (the forms wrap long rows)
    for (QLineEdit* file :
         {m_source, m_target, m_pairs, m_valSource, m_valTarget, m_valPairs, m_testSource, m_testTarget, m_testPairs})
        file->setMinimumWidth(file->fontMetrics().averageCharWidth() * 22);  // a file's name, not just its start
    for (QLineEdit* e : {m_sourceLang, m_targetLang, m_name}) {  // the placeholder whole ("e.g.…" at 175%)
        const QFontMetrics fm = e->fontMetrics();
        e->setMinimumWidth(fm.horizontalAdvance(e->placeholderText()) + fm.averageCharWidth() * 3);
    }
    m_mode->setMinimumContentsLength(static_cast<int>(m_mode->itemText(0).size()));  // "Two line-aligned fil"
}

void ParallelTab::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange)
        fitFields();
}

QGroupBox* ParallelTab::buildFiles() {
    auto* files = new QGroupBox(tr("Pairs"));
    auto* ff = new QFormLayout(files);
    // A file's field under its label where the column is narrow (150% text and more): beside the label it
    // was 150 px, a path's end out of sight
    ff->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_mode = new QComboBox;
    m_mode->setObjectName("parallelMode");
    m_mode->addItem(tr("Two line-aligned files"), "files");
    m_mode->addItem(tr("One TSV file, two columns"), "tsv");
    m_mode->setToolTip(
        tr("Line N of the source file translates line N of the target file; or one tab-separated "
           "file with the two languages in two of its columns (Tatoeba: English, Bokmål, attribution)"));
    m_mode->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);  // its length: fitFields()
    ff->addRow(tr("Pairs from"), m_mode);
    auto filesRow = [this, ff](const QString& name, const QString& label, const QString& tip) {
        QLineEdit* e = addFile(ff, name, label, tip);
        m_filesRows.emplace_back(ff, e->parentWidget());
        return e;
    };
    auto pairsRow = [this, ff](const QString& name, const QString& label, const QString& tip) {
        QLineEdit* e = addFile(ff, name, label, tip);
        m_pairsRows.emplace_back(ff, e->parentWidget());
        return e;
    };
    m_source = filesRow("sourceFile", tr("Source file"), tr("The training sentences in the source language"));
    m_target = filesRow("targetFile", tr("Target file"), tr("Their translations, line by line"));
    m_pairs = pairsRow("pairsFile", tr("TSV file"), tr("One pair per line, tab-separated columns"));
    addColumns(ff);
    const QString official =
        tr("Optional: the corpus's official split. Without it the share below is held out of "
           "the training pairs");
    m_valSource = filesRow("valSourceFile", tr("Validation source"), official);
    m_valTarget = filesRow("valTargetFile", tr("Validation target"), official);
    m_valPairs = pairsRow("valPairsFile", tr("Validation TSV"), official);
    m_testSource = filesRow("testSourceFile", tr("Test source"), official);
    m_testTarget = filesRow("testTargetFile", tr("Test target"), official);
    m_testPairs = pairsRow("testPairsFile", tr("Test TSV"), official);
    alignLabels(ff);
    return files;
}

void ParallelTab::addColumns(QFormLayout* ff) {
    auto column = [](const QString& name, int value) {
        auto* c = new QSpinBox;
        c->setObjectName(name);
        c->setRange(0, 99);
        c->setValue(value);
        c->setToolTip(QObject::tr("0-based column index, as twb prepare --source-column/--target-column"));
        return c;
    };
    m_sourceColumn = column("sourceColumn", 0);
    m_targetColumn = column("targetColumn", 1);
    auto* columns = new QWidget;
    auto* cr = new QHBoxLayout(columns);
    cr->setContentsMargins(0, 0, 0, 0);
    cr->addWidget(new QLabel(tr("source")));
    cr->addWidget(m_sourceColumn);
    cr->addWidget(new QLabel(tr("target")));
    cr->addWidget(m_targetColumn);
    cr->addWidget(new QLabel(tr("(0-based)")));
    cr->addStretch();
    ff->addRow(tr("Columns"), columns);
    m_pairsRows.emplace_back(ff, columns);
}

void ParallelTab::alignLabels(QFormLayout* ff) {
    int labelWidth = 0;
    for (int r = 0; r < ff->rowCount(); ++r)
        if (auto* item = ff->itemAt(r, QFormLayout::LabelRole); item && item->widget())
            labelWidth = std::max(labelWidth, item->widget()->sizeHint().width());
    for (int r = 0; r < ff->rowCount(); ++r)
        if (auto* item = ff->itemAt(r, QFormLayout::LabelRole); item && item->widget())
            item->widget()->setMinimumWidth(labelWidth);
}

QGroupBox* ParallelTab::buildPreparation() {
    auto* prep = new QGroupBox(tr("Preparation"));
    auto* pf = new QFormLayout(prep);
    pf->setRowWrapPolicy(QFormLayout::WrapLongRows);  // the languages and the name under their labels at 175%
    m_sourceLang = new QLineEdit(QSettings().value("parallel/sourceLang").toString());
    m_targetLang = new QLineEdit(QSettings().value("parallel/targetLang").toString());
    m_sourceLang->setObjectName("sourceLang");
    m_targetLang->setObjectName("targetLang");
    m_sourceLang->setPlaceholderText(tr("e.g. de"));
    m_targetLang->setPlaceholderText(tr("e.g. en"));
    auto* langs = new QWidget;
    auto* lr = new QHBoxLayout(langs);
    lr->setContentsMargins(0, 0, 0, 0);
    lr->addWidget(m_sourceLang);
    lr->addWidget(new QLabel(QStringLiteral("→")));
    lr->addWidget(m_targetLang);
    pf->addRow(tr("Languages"), langs);
    m_tokenizer = new TokenizerChoice("parallel", "parallel", "bpe", 8000, 1000,
                                      tr("Vocabulary size, specials included (bpe, unigram, word); byte ignores it"));
    m_tokenizer->kindBox()->setToolTip(tr("One vocabulary, trained on both sides of the training pairs"));
    pf->addRow(tr("Tokenizer"), m_tokenizer);  // the size box beside it says "vocabulary" in its tooltip
    addFilters(pf);
    return prep;
}

void ParallelTab::addFilters(QFormLayout* pf) {
    auto fraction = [](const QString& name, double v, const QString& tip) {
        auto* f = new QDoubleSpinBox;
        f->setObjectName(name);
        f->setRange(0, 0.5);
        f->setSingleStep(0.01);
        f->setDecimals(3);
        f->setValue(v);
        f->setToolTip(tip);
        return f;
    };
    m_valFraction = fraction("parallelValFraction", 0.05,
                             tr("Share of the training pairs held out for validation when no validation file is "
                                "given"));
    m_testFraction = fraction("parallelTestFraction", 0.0,
                              tr("Share of the training pairs held out for test when no test file is given"));
    pf->addRow(tr("Held out: validation"), m_valFraction);
    pf->addRow(tr("Held out: test"), m_testFraction);
    m_maxTokens = new QSpinBox;
    m_maxTokens->setObjectName("maxTokens");
    m_maxTokens->setRange(0, 100000);
    m_maxTokens->setSpecialValueText(tr("keep all"));
    m_maxTokens->setToolTip(tr("Drop training pairs with a side longer than this many tokens (they are counted)"));
    pf->addRow(tr("Max tokens per side"), m_maxTokens);
    m_maxRatio = new QDoubleSpinBox;
    m_maxRatio->setObjectName("maxLengthRatio");
    m_maxRatio->setRange(0, 100);
    m_maxRatio->setSingleStep(0.5);
    m_maxRatio->setDecimals(1);
    m_maxRatio->setSpecialValueText(tr("keep all"));
    m_maxRatio->setToolTip(
        tr("Drop training pairs whose longer side has more than this many times the tokens of "
           "the shorter (misaligned pairs; they are counted)"));
    pf->addRow(tr("Max length ratio"), m_maxRatio);
    m_separateVocab = new QCheckBox(tr("One vocabulary per language"));
    m_separateVocab->setObjectName("separateVocab");
    m_separateVocab->setToolTip(
        tr("Train a tokenizer on each side alone (the encoder gets its own embedding); "
           "unticked: one vocabulary shared by both sides, as the paper"));
    m_separateVocab->setChecked(QSettings().value("parallel/separateVocab", false).toBool());
    pf->addRow(m_separateVocab);  // across the form: beside a label its text was cut at 150% ("Ett vokabular pe")
    m_name = new QLineEdit;
    m_name->setObjectName("parallelName");
    m_name->setPlaceholderText(tr("e.g. multi30k-de-en"));
    pf->addRow(tr("Dataset name"), m_name);
    auto* prepare = new QPushButton(tr("Prepare pairs"));
    prepare->setObjectName("preparePairs");
    prepare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    prepare->setToolTip(tr("Tokenize and write the parallel dataset (Ctrl+Return); as twb prepare --source/--target"));
    pf->addRow(QString(), prepare);
    connect(prepare, &QPushButton::clicked, this, &ParallelTab::prepareClicked);
}

ParallelTab::~ParallelTab() {
    QSettings s;
    s.setValue("parallel/mode", m_mode->currentIndex());
    s.setValue("parallel/separateVocab", m_separateVocab->isChecked());
    s.setValue("parallel/sourceLang", m_sourceLang->text());
    s.setValue("parallel/targetLang", m_targetLang->text());
}

QLineEdit* ParallelTab::addFile(QFormLayout* f, const QString& name, const QString& label, const QString& tip) {
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    auto* e = new QLineEdit;
    e->setObjectName(name);
    e->setToolTip(tip);
    e->setClearButtonEnabled(true);
    auto* browse = new QToolButton;  // "…", as the run pickers': "Browse…" six times left the fields 60 px at 150%
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Browse…"));
    browse->setAccessibleName(tr("Browse…"));
    row->addWidget(e, 1);
    row->addWidget(browse);
    connect(browse, &QToolButton::clicked, this, [this, e, label] {
        QSettings s;
        const QString file = QFileDialog::getOpenFileName(this, label, s.value("parallel/lastDir").toString());
        if (file.isEmpty())
            return;
        s.setValue("parallel/lastDir", QFileInfo(file).absolutePath());
        e->setText(file);
    });
    f->addRow(label, box);
    return e;
}

void ParallelTab::updateMode() {
    const bool tsv = m_mode->currentData().toString() == "tsv";
    for (auto& [form, w] : m_filesRows)
        form->setRowVisible(w, !tsv);
    for (auto& [form, w] : m_pairsRows)
        form->setRowVisible(w, tsv);
}

twb::ParallelPrepareOptions ParallelTab::options(const QString& datasetsDir) const {
    twb::ParallelPrepareOptions o;
    if (m_mode->currentData().toString() == "tsv") {
        o.pairs = path(m_pairs);
        o.source_column = m_sourceColumn->value();
        o.target_column = m_targetColumn->value();
        o.val_pairs = path(m_valPairs);
        o.test_pairs = path(m_testPairs);
        if (o.pairs.empty())
            throw twb::ConfigError(tr("choose the TSV file of pairs first").toStdString());
    } else {
        o.source = path(m_source);
        o.target = path(m_target);
        o.val_source = path(m_valSource);
        o.val_target = path(m_valTarget);
        o.test_source = path(m_testSource);
        o.test_target = path(m_testTarget);
        if (o.source.empty() || o.target.empty())
            throw twb::ConfigError(tr("Choose both the source and the target file first.").toStdString());
        if (o.val_source.empty() != o.val_target.empty())
            throw twb::ConfigError(tr("give both validation files (source and target), or neither").toStdString());
        if (o.test_source.empty() != o.test_target.empty())
            throw twb::ConfigError(tr("give both test files (source and target), or neither").toStdString());
    }
    o.source_lang = m_sourceLang->text().trimmed().toStdString();
    o.target_lang = m_targetLang->text().trimmed().toStdString();
    o.tokenizer = m_tokenizer->spec();
    o.val_fraction = m_valFraction->value();
    o.test_fraction = m_testFraction->value();
    o.max_tokens = m_maxTokens->value();
    o.max_length_ratio = m_maxRatio->value() >= 1 ? m_maxRatio->value() : 0.0;
    o.separate_vocab = m_separateVocab->isChecked();
    QString name = Workspace::folderName(m_name->text());
    if (name.isEmpty())
        throw twb::ConfigError(tr("name the dataset first").toStdString());
    o.out = (datasetsDir + "/" + name).toStdString();
    return o;
}

void ParallelTab::setFiles(const QString& source, const QString& target) {
    m_mode->setCurrentIndex(m_mode->findData("files"));
    m_source->setText(source);
    m_target->setText(target);
}
void ParallelTab::setPairsFile(const QString& tsv, int sourceColumn, int targetColumn) {
    m_mode->setCurrentIndex(m_mode->findData("tsv"));
    m_pairs->setText(tsv);
    m_sourceColumn->setValue(sourceColumn);
    m_targetColumn->setValue(targetColumn);
}
void ParallelTab::setValidationFiles(const QString& source, const QString& target) {
    m_valSource->setText(source);
    m_valTarget->setText(target);
}
void ParallelTab::setTestFiles(const QString& source, const QString& target) {
    m_testSource->setText(source);
    m_testTarget->setText(target);
}
void ParallelTab::setLanguages(const QString& source, const QString& target) {
    m_sourceLang->setText(source);
    m_targetLang->setText(target);
}
void ParallelTab::setTokenizer(const QString& kind, int vocab) {
    m_tokenizer->set(kind, vocab);
}
void ParallelTab::setDatasetName(const QString& name) {
    m_name->setText(name);
    m_name->setProperty("auto", false);
}
void ParallelTab::setFractions(double val, double test) {
    m_valFraction->setValue(val);
    m_testFraction->setValue(test);
}

void ParallelTab::setResult(const twb::ParallelPrepareResult& r) {
    const QLocale loc;
    auto n = [&](uint64_t v) { return loc.toString(static_cast<qulonglong>(v)); };
    QString text =
        tr("<b>%1</b>: train %2, validation %3, test %4 pairs; ")
            .arg(QString::fromStdString(r.dir.filename().string()).toHtmlEscaped(), n(r.train_pairs), n(r.val_pairs),
                 n(r.test_pairs)) +
        (r.source_vocab_size > 0 ? tr("vocabularies: source %1, target %2").arg(r.source_vocab_size).arg(r.vocab_size)
                                 : tr("one vocabulary of %1").arg(r.vocab_size));
    if (r.dropped_long)
        text += tr("<br>%1 training pairs dropped: a side over the token limit").arg(n(r.dropped_long));
    if (r.dropped_ratio)
        text += tr("<br>%1 training pairs dropped: sides over the length ratio").arg(n(r.dropped_ratio));
    text += tr("<br>source: %1<br>target: %2<br>%3 s")
                .arg(lengths(r.source_lengths), lengths(r.target_lengths))
                .arg(QLocale().toString(r.seconds, 'f', 1));
    m_result->setText(text);
}

void ParallelTab::clearResult() {
    m_result->clear();
}

QString ParallelTab::resultText() const {
    return m_result->text();
}
