#include "ui/datasets/ImportTab.h"

#include "ui/jobs/JobsService.h"
#include "ui/widgets/BesideOrStacked.h"
#include "ui/widgets/ColumnScroll.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

const char* kCleanLabels[][2] = {
    {"nfkc", QT_TRANSLATE_NOOP("ImportTab", "Unicode NFKC (ligatures, full-width → plain)")},
    {"whitespace", QT_TRANSLATE_NOOP("ImportTab", "Normalise whitespace (CRLF, runs of spaces, trailing)")},
    {"ascii", QT_TRANSLATE_NOOP("ImportTab", "Transliterate to ASCII (“café” → \"cafe\")")},
    {"strip", QT_TRANSLATE_NOOP("ImportTab", "Strip characters outside printable ASCII")},
    {"gutenberg", QT_TRANSLATE_NOOP("ImportTab", "Drop Project Gutenberg header/footer")},
    {"lowercase", QT_TRANSLATE_NOOP("ImportTab", "Lowercase")},
    {"drop-empty", QT_TRANSLATE_NOOP("ImportTab", "Drop empty lines")},
    {"dedupe", QT_TRANSLATE_NOOP("ImportTab", "Drop duplicate lines")}};

/// A captioned text view for one side of the preview.
QWidget* captioned(const QString& caption, QWidget* view) {
    auto* w = new QWidget;
    auto* c = new QVBoxLayout(w);
    c->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(caption);
    c->addWidget(label);
    c->addWidget(view, 1);
    return w;
}

/// Runs on a worker thread: the engine's preview and its diff.
CleaningPreviewResult computePreview(const twb::CorpusSpec& corpus, const twb::CleaningOptions& cleaning) {
    CleaningPreviewResult r;
    try {
        const auto p = twb::preview_cleaning(corpus, cleaning);
        const QString before = q(p.before);
        r.after = q(p.after);
        r.diff = diff_texts(before, r.after);
        QStringList per;
        for (const auto& [opt, n] : p.per_option)  // code points removed (negative: added)
            per << QStringLiteral("%1 %2%3").arg(q(opt)).arg(n >= 0 ? "−" : "+").arg(std::abs(n));
        r.info = QObject::tr(
                     "Preview of the first %1 characters: %2 lines changed, %3 removed, %4 characters "
                     "changed, %5 characters %6%7")
                     .arg(QLocale().toString(before.size()))
                     .arg(p.lines_changed)  // the engine's counts, as meta.json will report them
                     .arg(p.lines_removed)
                     .arg(QLocale().toString(r.diff.charsChanged))
                     .arg(QLocale().toString(static_cast<qlonglong>(std::abs(p.chars_removed))))
                     .arg(p.chars_removed >= 0 ? QObject::tr("fewer") : QObject::tr("more"))
                     .arg(per.isEmpty() ? QString() : " (" + per.join(", ") + ")");
    } catch (const std::exception& e) {
        r.error = q(e.what());
    }
    return r;
}
}  // namespace

ImportTab::ImportTab(JobsService* jobs, QWidget* parent) : QWidget(parent), m_jobs(jobs) {
    m_sources = new QListWidget;
    m_sources->setObjectName("sources");
    m_sources->setTextElideMode(Qt::ElideLeft);  // the file name matters most
    m_sources->setToolTip(tr("Files and folders to read (drop them here). Parallel: source file, then target file."));
    auto* addFiles = new QPushButton(tr("Add files…"));
    auto* addFolder = new QPushButton(tr("Add folder…"));
    auto* remove = new QPushButton(tr("Remove"));
    remove->setObjectName("removeSources");
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
    m_replaceInvalid = new QCheckBox(tr("Replace invalid bytes with U+FFFD"));
    m_replaceInvalid->setObjectName("replaceInvalid");
    m_replaceInvalid->setToolTip(
        tr("A file that is not valid UTF-8 is refused, naming the first bad byte; with this, each bad byte "
           "becomes the replacement character � and the dataset's meta.json counts them. Converting the "
           "file (iconv -f latin1 -t utf-8) keeps its letters instead."));
    fmtForm->addRow(QString(), m_replaceInvalid);
    auto* cleanBox = new QGroupBox(tr("Cleaning"));
    auto* cleanCol = new QVBoxLayout(cleanBox);
    for (const auto& c : kCleanLabels) {
        auto* cb = new QCheckBox(tr(c[1]));
        cb->setObjectName(QStringLiteral("clean-%1").arg(c[0]));
        cb->setToolTip(cb->text());  // whole, where a narrow window or a larger text size cuts it
        m_clean.emplace_back(c[0], cb);
        cleanCol->addWidget(cb);
        connect(cb, &QCheckBox::toggled, this, &ImportTab::schedulePreview);
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
    auto* leftColumn = new QWidget;
    auto* left = new QVBoxLayout(leftColumn);
    left->setContentsMargins(0, 0, 0, 0);
    // The list keeps its height and the column's spare room is at its foot: an error line under the tabs
    // takes its room from there, or the column scrolls, and no control moves. (The list had the stretch:
    // the refusal of a file that is not UTF-8 moved the checkbox it names up by its own height.)
    fitSourcesHeight();
    left->addWidget(m_sources);
    left->addLayout(srcBtns);
    left->addLayout(fmtForm);
    left->addWidget(cleanBox);
    left->addStretch(1);
    auto* previews = m_previews = new QSplitter(Qt::Horizontal);
    previews->setObjectName("importPreview");
    // Short captions, one line each, and the colours' key once above them: "Before (changed or removed in
    // red)" wrapped where "After (changed in green)" did not, and the two sides started a line apart.
    previews->addWidget(captioned(tr("Before"), m_before));
    previews->addWidget(captioned(tr("After"), m_after));
    auto* key = new QLabel(tr("Changes and removals in red, what they become in green."));
    key->setWordWrap(true);
    // The two sides scroll together (by proportion: removed lines make the after side shorter).
    for (auto [from, to] : {std::pair{m_before, m_after}, std::pair{m_after, m_before}})
        connect(from->verticalScrollBar(), &QScrollBar::valueChanged, to, [from, to](int v) {
            const QScrollBar *a = from->verticalScrollBar(), *b = to->verticalScrollBar();
            if (a->maximum() > 0 && !b->isSliderDown() && !to->property("syncing").toBool()) {
                from->setProperty("syncing", true);
                to->verticalScrollBar()->setValue(
                    static_cast<int>(static_cast<double>(v) / a->maximum() * b->maximum() + 0.5));
                from->setProperty("syncing", false);
            }
        });
    auto* right = new QVBoxLayout;
    right->addWidget(key);
    right->addWidget(previews, 1);
    right->addWidget(m_previewInfo);
    auto* row = m_columns = new QBoxLayout(QBoxLayout::LeftToRight, this);
    // The controls scroll (at 150% text the cleaning options ran into each other); the hint stands above
    // them, as a wrapped label in the scrolled column would keep the list at its preferred height.
    auto* dropHint = new QLabel(tr("Sources: drop files or folders here, or add them below"));
    dropHint->setWordWrap(true);
    auto* leftScroll = new ColumnScroll(leftColumn);
    leftScroll->setObjectName("importControls");
    leftScroll->setFrameShape(QFrame::NoFrame);
    auto* leftSide = new QVBoxLayout;
    leftSide->addWidget(dropHint);
    leftSide->addWidget(leftScroll, 1);
    row->addLayout(leftSide, 2);
    row->addLayout(right, 5);

    connectControls(addFiles, addFolder, remove);
}

bool ImportTab::previewBesideControls() const {
    return m_columns->direction() == QBoxLayout::LeftToRight;
}

Qt::Orientation ImportTab::previewOrientation() const {
    return m_previews->orientation();
}

void ImportTab::fitSourcesHeight() {
    // Six files' lines: the column fits 1280x720 unscrolled down to its cleaning options (Qt's own list
    // height, 192 px, pushed them under the fold).
    const int frame = 2 * m_sources->frameWidth();
    m_sources->setFixedHeight(6 * m_sources->fontMetrics().lineSpacing() + frame + 4);
}

void ImportTab::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange)  // View → Text size
        fitSourcesHeight();
}

void ImportTab::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    const auto direction = besideOrStacked(m_columns, width());
    if (direction != m_columns->direction()) {
        m_columns->setDirection(direction);
        m_columns->setStretch(0, direction == QBoxLayout::LeftToRight ? 2 : 1);
        m_columns->setStretch(1, direction == QBoxLayout::LeftToRight ? 5 : 0);
    }
    // Stacked under the controls the sides have the tab's width (the splitter's own is the old layout's)
    const QMargins m = m_columns->contentsMargins();
    const int sidesWidth = direction == QBoxLayout::LeftToRight ? m_previews->width() : width() - m.left() - m.right();
    const int side = 30 * fontMetrics().averageCharWidth();
    const Qt::Orientation o = sidesWidth >= 2 * side + m_previews->handleWidth() ? Qt::Horizontal : Qt::Vertical;
    if (o != m_previews->orientation())
        m_previews->setOrientation(o);
    // Stacked, each side four lines of text and the controls the rest: at their own height the sides took
    // half the tab, the cleaning options out of sight
    const int caption = m_previews->widget(0)->layout()->itemAt(0)->sizeHint().height();
    const int sides = (o == Qt::Horizontal ? 1 : 2) *
                      (4 * m_before->fontMetrics().lineSpacing() + 2 * m_before->frameWidth() + caption);
    m_previews->setMaximumHeight(direction == QBoxLayout::LeftToRight ? QWIDGETSIZE_MAX : sides);
}

void ImportTab::connectControls(QPushButton* addFiles, QPushButton* addFolder, QPushButton* remove) {
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
        if (d.isEmpty())
            return;
        QSettings().setValue("lastImportDir", d);
        addSources({d});
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(m_sources->selectedItems());
        emit sourcesChanged();
        schedulePreview();
    });
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        updateFormatFields();
        schedulePreview();
    });
    for (auto* e : {m_field, m_column, m_separator})
        connect(e, &QLineEdit::editingFinished, this, &ImportTab::schedulePreview);
    connect(m_replaceInvalid, &QCheckBox::toggled, this, &ImportTab::schedulePreview);
    m_previewTimer.setSingleShot(true);
    m_previewTimer.setInterval(300);
    connect(&m_previewTimer, &QTimer::timeout, this, &ImportTab::refreshPreview);
    updateFormatFields();
}

ImportTab::~ImportTab() {
    if (m_previewJob)
        m_previewJob->cancel();  // its result has nowhere to go
}

void ImportTab::addSources(const QStringList& paths) {
    for (const QString& p : paths) {
        if (p.isEmpty())
            continue;
        const QString abs = QFileInfo(p).absoluteFilePath();
        if (m_sources->findItems(abs, Qt::MatchExactly).isEmpty()) {
            m_sources->addItem(abs);
            m_sources->item(m_sources->count() - 1)->setToolTip(abs);
        }
    }
    emit sourcesChanged();
    schedulePreview();
}

void ImportTab::clearSources() {
    m_sources->clear();
    emit sourcesChanged();
    schedulePreview();
}

QStringList ImportTab::sources() const {
    QStringList out;
    for (int i = 0; i < m_sources->count(); ++i)
        out << m_sources->item(i)->text();
    return out;
}

void ImportTab::setFormat(const QString& f) {
    m_format->setCurrentIndex(std::max(0, m_format->findData(f)));
}
void ImportTab::setRecordSeparator(const QString& separator) {
    m_separator->setText(separator);
}
void ImportTab::setCleaning(const QString& option, bool on) {
    for (auto& [name, cb] : m_clean)
        if (q(name) == option)
            cb->setChecked(on);
}

void ImportTab::updateFormatFields() {
    const QString f = m_format->currentData().toString();
    m_field->setEnabled(f == "jsonl");
    m_column->setEnabled(f == "csv" || f == "tsv");
    m_separator->setEnabled(f == "records");
}

twb::CorpusSpec ImportTab::corpus() const {
    twb::CorpusSpec c;
    for (const QString& s : sources())
        c.inputs.push_back(s.toStdString());
    c.format = twb::parse_input_format(m_format->currentData().toString().toStdString());
    c.field = m_field->text().toStdString();
    c.column = m_column->text().toStdString();
    c.record_separator = m_separator->text().toStdString();
    c.replace_invalid_utf8 = m_replaceInvalid->isChecked();
    return c;
}

QString ImportTab::inPanelTerms(const QString& engineError) {
    QString e = engineError;
    return e.replace("twb prepare --replace-invalid-utf8",
                     tr("tick “Replace invalid bytes with U+FFFD” under the Import tab's format"));
}

twb::CleaningOptions ImportTab::cleaning() const {
    twb::CleaningOptions o;
    for (const auto& [name, cb] : m_clean)
        if (cb->isChecked())
            o.enable(name);
    return o;
}

void ImportTab::schedulePreview() {
    m_previewPending = true;
    m_previewTimer.start();
}

void ImportTab::refreshPreview() {
    if (isRunning(m_previewJob))
        return schedulePreview();  // one at a time; the newest settings win
    if (m_sources->count() == 0) {
        m_previewPending = false;
        m_before->clear();
        m_after->clear();
        m_previewInfo->setText(tr("Add text files to see a preview."));
        emit errorChanged({});  // a removed file's error went with it
        return;
    }
    twb::CorpusSpec c;
    twb::CleaningOptions o;
    try {
        c = corpus();
        o = cleaning();
    } catch (const std::exception& e) {
        m_previewPending = false;
        emit errorChanged(q(e.what()));
        return;
    }
    m_previewPending = true;
    // Quiet (no title): a preview per edit would flicker in the status bar.
    m_previewJob = m_jobs->run(
        QString(), [c, o](JobContext&) { return computePreview(c, o); }, this,
        [this](const CleaningPreviewResult& r) { showPreview(r); },
        [this](const QString& e) {
            CleaningPreviewResult r;
            r.error = e;
            showPreview(r);
        });
}

void ImportTab::showPreview(const CleaningPreviewResult& r) {
    m_previewPending = false;
    if (!r.error.isEmpty()) {
        m_before->clear();
        m_after->clear();
        m_previewAfterText.clear();
        m_previewInfo->setText(tr("No preview: the message in red says why."));  // not the same text twice
        emit errorChanged(r.error);
        return;
    }
    emit errorChanged({});
    m_before->setHtml(r.diff.beforeHtml);
    m_after->setHtml(r.diff.afterHtml);
    m_previewAfterText = r.after;
    m_previewChanged = r.diff.charsChanged;
    m_previewInfo->setText(r.info);
}
