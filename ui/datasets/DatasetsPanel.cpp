#include "ui/datasets/DatasetsPanel.h"

#include "twb/errors.h"
#include "ui/Workspace.h"
#include "ui/datasets/CatalogueTab.h"
#include "ui/datasets/ImportTab.h"
#include "ui/datasets/ParallelTab.h"
#include "ui/datasets/PreparedDatasets.h"
#include "ui/datasets/SyntheticTab.h"
#include "ui/widgets/ErrorLabel.h"

#include <QApplication>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

/// Runs on a worker thread: the engine's inspection, in the panel's terms.
DatasetJob inspect(const twb::PrepareOptions& o, const twb::PrepareProgressFn& progress, int which) {
    DatasetJob job;
    job.which = which;
    TokenizerAnalysis& a = job.analysis;
    a.label = TokenizeTab::label(o.tokenizer);
    try {
        const auto r = twb::inspect_tokenization(o, progress);
        a.stats = r.stats;
        a.trainTokens = r.train_tokens;
        a.valTokens = r.val_tokens;
        a.counts = r.counts;
        for (const auto& t : r.token_texts)
            a.tokenTexts << q(t);
        a.previewIds = r.preview_ids;
    } catch (const twb::Cancelled&) {
        job.error = QObject::tr("Tokenizing cancelled; nothing was written.");
    } catch (const std::exception& e) {
        job.error = q(e.what());
    }
    return job;
}

/// Runs on a worker thread: prepare_parallel.
DatasetJob prepareParallelJob(const twb::ParallelPrepareOptions& o, const twb::PrepareProgressFn& progress) {
    DatasetJob job;
    job.which = -3;
    try {
        job.parallel = twb::prepare_parallel(o, progress);
        job.dir = q(o.out.string());
    } catch (const twb::Cancelled&) {
        job.error = QObject::tr("Preparing cancelled; nothing was written.");
    } catch (const std::exception& e) {
        job.error = q(e.what());
    }
    return job;
}

/// Runs on a worker thread: prepare_dataset.
DatasetJob prepareJob(const twb::PrepareOptions& o, const twb::PrepareProgressFn& progress) {
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
}
}  // namespace

DatasetsPanel::DatasetsPanel(QWidget* parent) : PanelBase(parent) {
    setAcceptDrops(true);
    m_import = new ImportTab;
    m_tokenize = new TokenizeTab;
    m_catalogue = new CatalogueTab;
    m_synthetic = new SyntheticTab;
    m_parallel = new ParallelTab;
    m_prepared = new PreparedDatasets;
    m_tabs = new QTabWidget;
    m_tabs->addTab(m_import, tr("Import && clean"));
    m_tabs->addTab(m_tokenize, tr("Tokenize && prepare"));
    m_tabs->addTab(m_catalogue, tr("Catalogue"));
    m_tabs->addTab(m_synthetic, tr("Synthetic tasks"));
    m_tabs->addTab(m_parallel, tr("Translation pairs"));

    m_progress = new QProgressBar;
    m_progress->setObjectName("jobProgress");
    m_stage = new QLabel;
    m_cancel = new QPushButton(tr("Cancel"));
    auto* jobRow = new QHBoxLayout;
    jobRow->addWidget(m_stage);
    jobRow->addWidget(m_progress, 1);
    jobRow->addWidget(m_cancel);
    auto* body = new QHBoxLayout;
    body->addWidget(m_prepared);
    body->addWidget(m_tabs, 1);
    auto* col = new QVBoxLayout(this);
    col->addLayout(body, 1);
    col->addWidget(errorLabel());
    col->addLayout(jobRow);

    connectTabs();
    connect(m_cancel, &QPushButton::clicked, this, &DatasetsPanel::cancel);
    connect(&m_jobWatch, &QFutureWatcher<DatasetJob>::finished, this, [this] { jobDone(m_jobWatch.result()); });
    m_catalogue->select(QString());
    setBusy(false);
}

void DatasetsPanel::connectTabs() {
    auto show = [this](const QString& e) { showError(e); };
    connect(m_import, &ImportTab::errorChanged, this, show);
    connect(m_catalogue, &CatalogueTab::errorChanged, this, show);
    connect(m_synthetic, &SyntheticTab::errorChanged, this, show);
    connect(m_prepared, &PreparedDatasets::errorChanged, this, show);
    connect(m_catalogue, &CatalogueTab::statusMessage, this, &PanelBase::statusMessage);
    connect(m_prepared, &PreparedDatasets::useForTraining, this, &DatasetsPanel::useForTraining);
    connect(m_import, &ImportTab::sourcesChanged, this, [this] {
        // The first file names the dataset until the user names it.
        if (m_tokenize->datasetName().isEmpty() && !sources().isEmpty())
            m_tokenize->setDatasetName(QFileInfo(sources().first()).completeBaseName());
    });
    connect(m_tokenize, &TokenizeTab::tokenizeClicked, this, &DatasetsPanel::tokenize);
    connect(m_tokenize, &TokenizeTab::compareClicked, this, &DatasetsPanel::compare);
    connect(m_tokenize, &TokenizeTab::prepareClicked, this, &DatasetsPanel::prepare);
    connect(m_parallel, &ParallelTab::prepareClicked, this, &DatasetsPanel::prepareParallel);
    connect(m_tokenize, &TokenizeTab::mergesClicked, this, &DatasetsPanel::showMerges);
    connect(m_catalogue, &CatalogueTab::useClicked, this, &DatasetsPanel::useCatalogueEntry);
    connect(m_synthetic, &SyntheticTab::generated, this, [this](const QString& path, const QString& name, int n) {
        m_import->clearSources();
        setFormat("text");
        setTokenizer("char");
        setDatasetName(name);
        addSources({path});
        m_tabs->setCurrentIndex(0);
        emit statusMessage(tr("Wrote %1 examples to %2").arg(n).arg(path));
    });
}

DatasetsPanel::~DatasetsPanel() {
    if (m_cancelFlag)
        *m_cancelFlag = true;
    m_jobWatch.waitForFinished();
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
    QString name = m_tokenize->datasetName().trimmed();
    name.replace(QRegularExpression("[^A-Za-z0-9._-]+"), "-");
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
        m_progress->setRange(0, 0);
    } else {
        m_stage->clear();
        m_progress->setRange(0, 1);
        m_progress->setValue(1);
        m_progress->setFormat(QString());
    }
}

void DatasetsPanel::cancel() {
    if (m_cancelFlag)
        *m_cancelFlag = true;
}

void DatasetsPanel::tokenize() {
    runAnalysis(0);
}
void DatasetsPanel::compare() {
    runAnalysis(1);
}

bool DatasetsPanel::jobOptions(twb::PrepareOptions& o) {
    if (isBusy())
        return false;
    if (sources().isEmpty()) {
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

void DatasetsPanel::startJob(const QString& what) {
    clearError();
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_stage->setText(what);
    setBusy(true);
}

twb::PrepareProgressFn DatasetsPanel::progressFn() {
    QPointer<DatasetsPanel> self(this);
    // Called on the job's thread: hand the figures to the UI thread, answer with the cancel flag.
    return [self, cancel = m_cancelFlag](const std::string& stage, uint64_t done, uint64_t total) {
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
    o.tokenizer = m_tokenize->tokenizerSpec(which);
    startJob(which ? tr("Tokenizing with B…") : tr("Tokenizing…"));
    m_jobWatch.setFuture(QtConcurrent::run(inspect, o, progressFn(), which));
}

void DatasetsPanel::showMerges() {
    if (isBusy())
        return;
    const QString dir = m_tokenize->mergesSource();
    if (dir.isEmpty())
        return showError(tr("Choose a prepared bytebpe dataset or a run to show its merges."));
    startJob(tr("Reading merges…"));
    m_jobWatch.setFuture(QtConcurrent::run([dir, sample = m_tokenize->mergesSample().toStdString()] {
        DatasetJob job;
        job.which = -2;
        try {
            job.merges = twb::inspect_merges(dir.toStdString(), sample, 12);
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
    startJob(tr("Preparing…"));
    m_jobWatch.setFuture(QtConcurrent::run(prepareJob, o, progressFn()));
}

void DatasetsPanel::prepareParallel() {
    if (isBusy())
        return;
    twb::ParallelPrepareOptions o;
    try {
        o = m_parallel->options(Workspace::datasetsDir());
    } catch (const std::exception& e) {
        return showError(q(e.what()));
    }
    if (std::filesystem::exists(o.out)) {
        if (QMessageBox::question(this, tr("Replace dataset"),
                                  tr("A dataset named %1 exists. Replace it?").arg(q(o.out.filename().string()))) !=
            QMessageBox::Yes)
            return;
        o.overwrite = true;
    }
    startJob(tr("Preparing pairs…"));
    m_jobWatch.setFuture(QtConcurrent::run(prepareParallelJob, o, progressFn()));
}

void DatasetsPanel::jobDone(const DatasetJob& job) {
    setBusy(false);
    if (!job.error.isEmpty())
        return showError(job.error);
    if (job.which >= 0)
        return m_tokenize->setAnalysis(job.which, job.analysis);
    if (job.which == -2)
        return m_tokenize->setMerges(job.merges);
    if (job.which == -3)
        m_parallel->setResult(job.parallel);
    refreshPrepared();
    if (job.which == -1 && m_tokenize->tokenizerSpec(0).kind == twb::TokenizerKind::ByteBpe &&
        m_tokenize->tokenizerFrom().isEmpty())
        m_tokenize->setMergesSource(job.dir);  // the merge view follows the newest bytebpe dataset
    emit statusMessage(tr("Prepared %1").arg(job.dir));
    emit datasetPrepared(job.dir);
}
