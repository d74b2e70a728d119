#include "ui/datasets/DatasetsPanel.h"
#include "ui/widgets/ConfirmDelete.h"

#include "twb/errors.h"
#include "ui/Workspace.h"
#include "ui/datasets/CatalogueTab.h"
#include "ui/datasets/ChatTab.h"
#include "ui/datasets/DatasetPreparation.h"
#include "ui/datasets/ImportTab.h"
#include "ui/datasets/ParallelTab.h"
#include "ui/datasets/PreparedDatasets.h"
#include "ui/datasets/SyntheticTab.h"
#include "ui/jobs/JobsService.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/TabTitles.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

/// The folder a tokenizer was taken from when it is a run (its config.json), else "" (a dataset, none).
QString runOf(const std::filesystem::path& dir) {
    const QString d = q(dir.string());
    return !d.isEmpty() && QFileInfo::exists(d + "/config.json") ? QDir::cleanPath(d) : QString();
}

}  // namespace

DatasetsPanel::DatasetsPanel(JobsService* jobs, QWidget* parent) : PanelBase(jobs, parent) {
    setAcceptDrops(true);
    m_import = new ImportTab(this->jobs());
    m_tokenize = new TokenizeTab;
    m_catalogue = new CatalogueTab(this->jobs());
    m_synthetic = new SyntheticTab;
    m_parallel = new ParallelTab;
    m_chat = new ChatTab;
    m_prepared = new PreparedDatasets;
    m_tabs = new QTabWidget;
    m_tabs->addTab(m_import, tr("Import && clean"));
    m_tabs->addTab(m_tokenize, tr("Tokenize && prepare"));
    m_tabs->addTab(m_catalogue, tr("Catalogue"));
    m_tabs->addTab(m_synthetic, tr("Synthetic tasks"));
    m_tabs->addTab(m_parallel, tr("Translation pairs"));
    m_tabs->addTab(m_chat, tr("Chat data"));
    fitTabTitles(m_tabs, {tr("Import"), tr("Tokenize"), QString(), tr("Synthetic"), tr("Pairs"), tr("Chat")});

    m_progress = new QProgressBar;
    m_progress->setObjectName("jobProgress");
    m_stage = new QLabel;
    m_cancel = new QPushButton(tr("Cancel"));
    auto* jobRow = new QHBoxLayout;
    jobRow->addWidget(m_stage);
    jobRow->addWidget(m_progress, 1);
    jobRow->addWidget(m_cancel);
    // The error under the tabs, beside the prepared list: shown, it takes its room from the tab, and the
    // list's Train on it and Delete stay where they were (under the whole body, it moved them 14-34 px)
    auto* right = new QVBoxLayout;
    right->addWidget(m_tabs, 1);
    right->addWidget(errorLabel());
    auto* body = new QHBoxLayout;
    body->addWidget(m_prepared);
    body->addLayout(right, 1);
    auto* col = new QVBoxLayout(this);
    col->addLayout(body, 1);
    col->addLayout(jobRow);
    // An error speaks of the tab it came from: another tab chosen, it goes (a chat-data refusal stood
    // under the panel minutes later)
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (!isBusy())  // back on Import, its sources' refusal returns (its preview points at "the message in red")
            showError(m_tabs->currentWidget() == m_import ? m_sourcesError : QString());
    });

    connectTabs();
    connect(m_cancel, &QPushButton::clicked, this, &DatasetsPanel::cancel);
    m_catalogue->select(QString());
    setBusy(false);
}

void DatasetsPanel::connectTabs() {
    auto show = [this](const QString& e) { showError(e); };
    connect(m_import, &ImportTab::errorChanged, this, [this](const QString& e) {
        const QString before = m_sourcesError;
        m_sourcesError = ImportTab::inPanelTerms(e);  // Prepare and Tokenize refuse while the sources do not read
        // A preview that reads clears the sources' own error, never another's: a failed Prepare or Show
        // merges went on to vanish when a preview scheduled before it came back.
        if (!m_sourcesError.isEmpty() || lastError() == before)
            showError(m_sourcesError);
    });
    connect(m_catalogue, &CatalogueTab::errorChanged, this, show);
    connect(m_synthetic, &SyntheticTab::errorChanged, this, show);
    connect(m_prepared, &PreparedDatasets::errorChanged, this, show);
    connect(m_catalogue, &CatalogueTab::statusMessage, this, &PanelBase::statusMessage);
    connect(m_prepared, &PreparedDatasets::useForTraining, this, &DatasetsPanel::useForTraining);
    connect(m_import, &ImportTab::sourcesChanged, this, [this] {
        m_tokenize->clearAnalysis();  // its figures were of the sources before
        // The first file names the dataset until the user names it (a name it gave follows the list).
        const QString name = m_tokenize->datasetName();
        if (name.isEmpty() || name == m_suggestedName) {
            m_suggestedName = sources().isEmpty() ? QString() : QFileInfo(sources().first()).completeBaseName();
            m_tokenize->setDatasetName(m_suggestedName);
        }
    });
    connect(m_tokenize, &TokenizeTab::tokenizeClicked, this, &DatasetsPanel::tokenize);
    connect(m_tokenize, &TokenizeTab::compareClicked, this, &DatasetsPanel::compare);
    connect(m_tokenize, &TokenizeTab::prepareClicked, this, &DatasetsPanel::prepare);
    connect(m_parallel, &ParallelTab::prepareClicked, this, &DatasetsPanel::prepareParallel);
    // "Choose both the source and the target file first." stayed after both were chosen, or the mode was changed
    connect(m_parallel, &ParallelTab::filesChanged, this, [this] {
        if (!isBusy() && m_tabs->currentWidget() == m_parallel)
            showError({});
    });
    connect(m_chat, &ChatTab::prepareClicked, this, &DatasetsPanel::prepareChat);
    connect(m_chat, &ChatTab::finetuneClicked, this, &DatasetsPanel::finetuneRequested);
    connect(m_tokenize, &TokenizeTab::mergesClicked, this, &DatasetsPanel::showMerges);
    connect(m_catalogue, &CatalogueTab::useClicked, this, &DatasetsPanel::useCatalogueEntry);
    connect(m_synthetic, &SyntheticTab::generated, this, [this](const QString& path, const QString& name, int n) {
        m_import->clearSources();
        setFormat("text");
        setTokenizer("char");
        setDatasetName(name);
        addSources({path});
        m_tabs->setCurrentIndex(0);
        emit statusMessage(tr("Wrote %1 examples to %2").arg(QLocale().toString(n), path));  // "20,000"
    });
    connect(m_synthetic, &SyntheticTab::instructionsGenerated, this,
            [this](const QString& path, const QString& name, int n) {
                m_chat->setFiles({path});
                m_chat->setDatasetName(name);
                m_tabs->setCurrentWidget(m_chat);
                emit statusMessage(tr("Wrote %1 instructions to %2").arg(QLocale().toString(n), path));
            });
}

DatasetsPanel::~DatasetsPanel() {
    cancel();  // the job's result has nobody to go to
}

// ---------------------------------------------------------------- driving the tabs

void DatasetsPanel::addSources(const QStringList& paths) {
    m_import->addSources(paths);
}
void DatasetsPanel::clearSources() {
    m_import->clearSources();
}
QStringList DatasetsPanel::sources() const {
    return m_import->sources();
}
void DatasetsPanel::setFormat(const QString& f) {
    m_import->setFormat(f);
}
void DatasetsPanel::setCleaning(const QString& option, bool on) {
    m_import->setCleaning(option, on);
}
void DatasetsPanel::setTokenizer(const QString& kind, int vocab) {
    m_tokenize->setTokenizer(0, kind, vocab);
}
void DatasetsPanel::setCompareTokenizer(const QString& kind, int vocab) {
    m_tokenize->setTokenizer(1, kind, vocab);
}
void DatasetsPanel::setDatasetName(const QString& name) {
    m_tokenize->setDatasetName(name);
}
QString DatasetsPanel::datasetName() const {
    return m_tokenize->datasetName();
}
void DatasetsPanel::setValFraction(double f) {
    m_tokenize->setValFraction(f);
}
bool DatasetsPanel::previewPending() const {
    return m_import->previewPending();
}
QString DatasetsPanel::previewAfter() const {
    return m_import->previewAfter();
}
int DatasetsPanel::previewChangedChars() const {
    return m_import->previewChangedChars();
}
void DatasetsPanel::refreshPreview() {
    m_import->refreshPreview();
}
const TokenizerAnalysis& DatasetsPanel::analysis(int which) const {
    return m_tokenize->analysis(which);
}
QTableWidget* DatasetsPanel::compareTable() const {
    return m_tokenize->compareTable();
}
QTableWidget* DatasetsPanel::vocabTable() const {
    return m_tokenize->vocabTable();
}
QCustomPlot* DatasetsPanel::histogram() const {
    return m_tokenize->histogram();
}
QListWidget* DatasetsPanel::preparedList() const {
    return m_prepared->list();
}
void DatasetsPanel::refreshPrepared() {
    m_prepared->refresh();
}
bool DatasetsPanel::deletePrepared(const QString& dir, bool confirm) {
    return m_prepared->deletePrepared(dir, confirm);
}
QString DatasetsPanel::catalogueStatus() const {
    return m_catalogue->status();
}
QStringList DatasetsPanel::catalogueNames() const {
    return m_catalogue->names();
}
void DatasetsPanel::selectCatalogue(const QString& name) {
    m_catalogue->select(name);
}
void DatasetsPanel::download() {
    m_catalogue->download();
}
QString DatasetsPanel::generateSynthetic() {
    return m_synthetic->generate();
}

bool DatasetsPanel::useCatalogueEntry() {
    const auto preset = m_catalogue->chosenPreset();
    if (!preset)
        return false;
    if (preset->pairs) {  // translation pairs: the Translation pairs tab, official splits and all
        const auto& o = *preset->pairs;
        if (o.pairs.empty())
            m_parallel->setFiles(q(o.source), q(o.target));
        else
            m_parallel->setPairsFile(q(o.pairs), o.source_column, o.target_column);
        m_parallel->setValidationFiles(q(o.val_source), q(o.val_target));
        m_parallel->setTestFiles(q(o.test_source), q(o.test_target));
        m_parallel->setLanguages(q(o.source_lang), q(o.target_lang));
        m_parallel->setTokenizer(q(twb::to_string(o.tokenizer.kind)), o.tokenizer.vocab_size);
        m_parallel->setFractions(o.val_fraction, o.test_fraction);
        m_parallel->setDatasetName(preset->name);
        m_tabs->setCurrentWidget(m_parallel);
        return true;
    }
    const auto& o = preset->options;
    m_import->clearSources();
    QStringList inputs;
    for (const auto& in : o.corpus.inputs)
        inputs << q(in);
    setFormat(q(twb::to_string(o.corpus.format)));
    m_import->setRecordSeparator(q(o.corpus.record_separator));
    setTokenizer(q(twb::to_string(o.tokenizer.kind)), o.tokenizer.vocab_size);
    setDatasetName(preset->name);
    addSources(inputs);
    m_tabs->setCurrentIndex(0);
    return true;
}

twb::PrepareOptions DatasetsPanel::options() const {
    twb::PrepareOptions o;
    o.corpus = m_import->corpus();
    o.cleaning = m_import->cleaning();
    o.tokenizer = m_tokenize->tokenizerSpec(0);
    o.val_fraction = m_tokenize->valFraction();
    o.split = m_tokenize->split().toStdString();
    o.tokenizer_from = m_tokenize->tokenizerFrom().toStdString();
    o.documents = m_tokenize->documents();
    QString name = Workspace::folderName(m_tokenize->datasetName());
    o.out = (Workspace::datasetsDir() + "/" + (name.isEmpty() ? QStringLiteral("dataset") : name)).toStdString();
    return o;
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

// ---------------------------------------------------------------- jobs

void DatasetsPanel::busyChanged(bool busy) {
    m_cancel->setEnabled(busy);
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (busy) {
        m_jobClock.start();
        m_clockStage.clear();
        m_progress->setRange(0, 0);
    } else {
        m_stage->clear();
        m_progress->setRange(0, 1);
        m_progress->setValue(1);
        m_progress->setFormat(QString());
    }
}

void DatasetsPanel::cancel() {
    if (m_job)
        m_job->cancel();
}

void DatasetsPanel::tokenize() {
    runAnalysis(0);
}
void DatasetsPanel::compare() {
    // Pressed before A was tokenized it showed B's bars alone, no figure of A nor a word why: both then
    runAnalysis(m_tokenize->analysis(0).stats.tokens ? 1 : 2);
}

bool DatasetsPanel::jobOptions(twb::PrepareOptions& o) {
    if (isBusy())
        return false;
    if (sources().isEmpty()) {
        showError(tr("Add text files first (Import tab, or drop them on the panel)."));
        return false;
    }
    if (!m_sourcesError.isEmpty()) {  // said already, but a button that seemed to do nothing said no more
        showError(tr("Nothing to tokenize or prepare until the sources read as text: %1").arg(m_sourcesError));
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

void DatasetsPanel::watchJob(Job* job, const QString& what, const QString& cancelText) {
    clearError();
    m_job = job;
    job->setCancelText(cancelText);
    m_stage->setText(what);
    setBusy(true);
    connect(job, &Job::progressed, this, &DatasetsPanel::showProgress);
    connect(job, &Job::ended, this, [this] { setBusy(false); });
}

bool DatasetsPanel::confirmReplace(const std::filesystem::path& out) {
    return !std::filesystem::exists(out) ||
           confirmDelete(this, tr("Replace dataset"),
                         tr("A dataset named %1 exists. Replace it?").arg(q(out.filename().string())), tr("Replace"));
}

void DatasetsPanel::showProgress(double f, const QString& stage) {
    m_stage->setText(stage);
    m_progress->setRange(0, f >= 0 ? 1000 : 0);  // no total (tokenizer training): a busy bar
    if (f < 0)
        return;
    if (stage != m_clockStage) {  // "writing" at 10% after a minute of "tokenizer" had a minute's pace
        m_clockStage = stage;
        m_jobClock.restart();
    }
    const double s = m_jobClock.elapsed() / 1000.0;
    m_progress->setValue(static_cast<int>(1000 * f));
    m_progress->setFormat(f > 0.02 ? tr("%p% · %1 s left").arg(qRound(s / f - s)) : QStringLiteral("%p%"));
}

void DatasetsPanel::runAnalysis(int which) {
    twb::PrepareOptions o;
    if (!jobOptions(o))
        return;
    // The tokenizers to run, each with the slot its figures go to: A, B, or A then B
    std::vector<std::pair<int, twb::PrepareOptions>> runs;
    for (int slot : which == 2 ? std::vector<int>{0, 1} : std::vector<int>{which}) {
        runs.emplace_back(slot, o);
        runs.back().second.tokenizer = m_tokenize->tokenizerSpec(slot);
    }
    auto fail = [this](const QString& e) {
        // the figures shown were another tokenizer's: beside this one's error they read as its (bpe 9999's under
        // "Vocabulary size too high (60000)")
        m_tokenize->clearAnalysis();
        showError(ImportTab::inPanelTerms(e));
    };
    Job* job = jobs()->run(
        tr("Tokenizing"),
        [runs](JobContext& ctx) {
            std::vector<std::pair<int, TokenizerAnalysis>> r;
            for (const auto& [slot, options] : runs)
                r.emplace_back(slot, DatasetPreparation::inspect(options, ctx));
            return r;
        },
        this,
        [this](const std::vector<std::pair<int, TokenizerAnalysis>>& r) {
            for (const auto& [slot, analysis] : r)
                m_tokenize->setAnalysis(slot, analysis);
        },
        fail);
    watchJob(job,
             which == 1 ? tr("Tokenizing with B…")
             : which    ? tr("Tokenizing with A and B…")
                        : tr("Tokenizing…"),
             tr("Tokenizing cancelled; nothing was written."));
}

void DatasetsPanel::showMerges() {
    if (isBusy())
        return;
    const QString dir = m_tokenize->mergesSource();
    if (dir.isEmpty())
        return showError(tr("Choose a prepared bytebpe dataset or a run to show its merges."));
    auto work = [dir, sample = m_tokenize->mergesSample().toStdString()](JobContext&) {
        return twb::inspect_merges(dir.toStdString(), sample, 12);
    };
    Job* job = jobs()->run(
        tr("Reading merges"), work, this, [this](const twb::BpeMergeInspection& m) { m_tokenize->setMerges(m); },
        [this](const QString& e) { showError(e); });
    watchJob(job, tr("Reading merges…"));
}

void DatasetsPanel::prepare() {
    twb::PrepareOptions o;
    if (!jobOptions(o) || !confirmReplace(o.out))
        return;
    o.overwrite = std::filesystem::exists(o.out);
    const bool bytebpe = o.tokenizer.kind == twb::TokenizerKind::ByteBpe && o.tokenizer_from.empty();
    Job* job = jobs()->run(
        tr("Preparing %1").arg(q(o.out.filename().string())),
        [o](JobContext& ctx) { return DatasetPreparation::prepare(o, ctx); }, this,
        [this, bytebpe](const DatasetPreparation::Prepared& p) {
            if (p.analysis.stats.tokens > 0)
                m_tokenize->setAnalysis(0, p.analysis);
            prepared(p.dir, bytebpe);
            if (!p.warnings.isEmpty())  // prepared, but the user should know (the error line, not a dialog)
                showError(tr("Prepared %1, with a warning: %2").arg(p.dir, p.warnings.join("; ")));
        },
        [this](const QString& e) { showError(ImportTab::inPanelTerms(e)); });
    watchJob(job, tr("Preparing…"), tr("Preparing cancelled; nothing was written."));
}

template <class GetOptions, class Prepare, class Shown>
void DatasetsPanel::prepareFromTab(const QString& title, const QString& stage, GetOptions getOptions, Prepare prepare,
                                   Shown shown) {
    if (isBusy())
        return;
    decltype(getOptions()) o;
    try {
        o = getOptions();
    } catch (const std::exception& e) {
        return showError(q(e.what()));
    }
    if (!confirmReplace(o.out))
        return;
    o.overwrite = std::filesystem::exists(o.out);
    const QString dir = q(o.out.string());
    Job* job = jobs()->run(
        title.arg(q(o.out.filename().string())), [o, prepare](JobContext& ctx) { return prepare(o, ctx); }, this,
        [this, dir, o, shown](const auto& result) {
            shown(result, o);
            prepared(dir, false);
        },
        [this](const QString& e) { showError(e); });
    // (translate with its context: lupdate does not see this template as a DatasetsPanel member)
    watchJob(job, stage, QCoreApplication::translate("DatasetsPanel", "Preparing cancelled; nothing was written."));
}

void DatasetsPanel::prepareParallel() {
    m_parallel->clearResult();  // the last dataset's summary stood beside this one's error
    prepareFromTab(
        tr("Preparing pairs %1"), tr("Preparing pairs…"),
        [this] { return m_parallel->options(Workspace::datasetsDir()); }, DatasetPreparation::prepareParallel,
        [this](const twb::ParallelPrepareResult& r, const twb::ParallelPrepareOptions&) { m_parallel->setResult(r); });
}

void DatasetsPanel::prepareChat() {
    m_chat->clearResult();
    prepareFromTab(
        tr("Preparing chat data %1"), tr("Preparing chat data…"),
        [this] { return m_chat->options(Workspace::datasetsDir()); }, DatasetPreparation::prepareChat,
        [this](const twb::ChatPrepareResult& r, const twb::ChatPrepareOptions& o) {
            m_chat->setResult(r, runOf(o.tokenizer_from));
        });
}

void DatasetsPanel::prepared(const QString& dir, bool bytebpe) {
    refreshPrepared();
    // Chosen in the list: its figures under it and Train on it at hand (nothing was chosen, the button off)
    for (int i = 0; i < preparedList()->count(); ++i)
        if (preparedList()->item(i)->data(Qt::UserRole).toString() == dir)
            preparedList()->setCurrentRow(i);
    if (bytebpe)
        m_tokenize->setMergesSource(dir);  // the merge view follows the newest bytebpe dataset
    emit statusMessage(tr("Prepared %1").arg(dir));
    emit datasetPrepared(dir);
}
