#include "ui/widgets/ImportDialog.h"

#include "twb/model_exchange.h"
#include "ui/Workspace.h"
#include "ui/jobs/JobsService.h"
#include "ui/widgets/ErrorLabel.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace {
/// What the import made, in the words of `twb import`'s line.
QString summaryOf(const twb::HfImportResult& r) {
    const twb::RunConfig& c = r.config;
    const bool translation = c.model_kind == twb::ModelKind::EncoderDecoder;
    const QString layers =
        translation ? QString("%1+%2").arg(c.encoder_layers()).arg(c.decoder_layers()) : QString::number(c.n_layer);
    return ImportDialog::tr("%1: %2 layers × %3 heads × %4 channels, vocabulary %5, %6 parameters (%7 weights, %8)")
        .arg(translation ? ImportDialog::tr("a translation model") : ImportDialog::tr("a language model"), layers)
        .arg(c.n_head)
        .arg(c.n_embd)
        .arg(c.vocab_size)
        .arg(QLocale().toString(static_cast<qlonglong>(r.parameters)), QString::fromStdString(r.source_dtype),
             QString::fromStdString(r.tokenizer_files));
}

/// `base`, or base-2, base-3, ... : the first name no run folder has yet.
QString unusedRunName(const QString& base) {
    const QDir runs(Workspace::runsDir());
    QString name = base;
    for (int i = 2; runs.exists(name); ++i)
        name = QString("%1-%2").arg(base).arg(i);
    return name;
}
}  // namespace

ImportDialog::ImportDialog(JobsService* jobs, QWidget* parent)
    : JobDialog(parent), m_jobs(jobs ? jobs : new JobsService(this)) {
    setWindowTitle(tr("Import model"));
    build();
    connect(m_browse, &QPushButton::clicked, this, &ImportDialog::browse);
    connect(m_import, &QPushButton::clicked, this, &ImportDialog::startImport);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_folder, &QLineEdit::editingFinished, this, [this] {
        if (m_name->text().trimmed().isEmpty())
            setFolder(m_folder->text().trimmed());
    });
}

ImportDialog::~ImportDialog() = default;

void ImportDialog::build() {
    auto* what =
        new QLabel(tr("A model in the Hugging Face layout becomes a run of this workspace: a GPT-2-family "
                      "folder (config.json, model.safetensors, vocab.json + merges.txt or tokenizer.json) "
                      "a language model, a Marian translation model (opus-mt: config.json, "
                      "model.safetensors, source.spm, target.spm, vocab.json) a translation model. "
                      "A folder exported here as safetensors + config.json comes back as the model it was. "
                      "Only safetensors weights are read."));
    what->setWordWrap(true);
    m_folder = new QLineEdit;
    m_folder->setObjectName("importFolder");
    m_folder->setPlaceholderText(tr("a folder with config.json and model.safetensors"));
    m_browse = new QPushButton(tr("Browse…"));
    m_name = new QLineEdit;
    m_name->setObjectName("importName");
    m_progress = new QProgressBar;
    m_progress->setRange(0, 0);  // busy: the engine reports stages, not fractions
    m_progress->setVisible(false);
    m_status = new QLabel;
    m_status->setObjectName("importStatus");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error = new ErrorLabel;
    m_import = new QPushButton(tr("&Import"));
    m_import->setObjectName("importButton");
    m_import->setDefault(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_buttons->addButton(m_import, QDialogButtonBox::AcceptRole);

    auto* folder = new QHBoxLayout;
    folder->addWidget(m_folder, 1);
    folder->addWidget(m_browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Hugging Face folder"), folder);
    form->addRow(tr("Run name"), m_name);
    auto* v = new QVBoxLayout(this);
    v->addWidget(what);
    v->addLayout(form);
    v->addWidget(m_progress);
    v->addWidget(m_status);
    v->addWidget(m_error);
    v->addWidget(m_buttons);
    resize(640, sizeHint().height());
}

QString ImportDialog::status() const {
    return m_status->text();
}

QString ImportDialog::error() const {
    return m_error->error();
}

void ImportDialog::setFolder(const QString& dir) {
    m_folder->setText(QDir::toNativeSeparators(dir));
    const QString base = QFileInfo(QDir::cleanPath(dir)).fileName();
    if (!base.isEmpty())
        m_name->setText(unusedRunName(base));
}

QString ImportDialog::runFolder() const {
    return QDir(Workspace::runsDir()).filePath(m_name->text().trimmed());
}

void ImportDialog::browse() {
    const QString start =
        m_folder->text().isEmpty() ? QSettings().value("import/dir", QDir::homePath()).toString() : m_folder->text();
    const QString d = QFileDialog::getExistingDirectory(this, tr("Hugging Face model folder"), start);
    if (!d.isEmpty())
        setFolder(d);
}

QString ImportDialog::blocker() const {
    const QString dir = m_folder->text().trimmed(), name = m_name->text().trimmed();
    if (dir.isEmpty())
        return tr("Choose the model's folder (Browse…).");
    if (!QFileInfo(dir).isDir())
        return tr("%1 is not a folder; choose the folder that holds config.json.").arg(dir);
    if (name.isEmpty() || name == "." || name == ".." || name.contains('/') || name.contains('\\'))
        return tr("Give the run a name without slashes.");
    const QDir out(runFolder());
    if (out.exists() && !out.isEmpty())
        return tr("A run named %1 exists already; choose another name.").arg(name);
    return QString();
}

void ImportDialog::startImport() {
    if (isBusy())
        return;
    m_error->clear();
    m_status->clear();
    if (const QString why = blocker(); !why.isEmpty())
        return showError(why);
    const QString dir = QDir::cleanPath(m_folder->text().trimmed()), name = m_name->text().trimmed();
    const QString run = runFolder();
    QSettings().setValue("import/dir", QFileInfo(dir).path());
    if (!QDir().mkpath(Workspace::runsDir()))
        return showError(tr("Cannot create the runs folder %1.").arg(Workspace::runsDir()));
    setBusy(true);
    m_status->setText(tr("Importing %1 as %2…").arg(QDir::toNativeSeparators(dir), name));
    growToFit();
    Job* job = m_jobs->run(
        tr("Importing %1").arg(name),
        [dir, run, name](JobContext& ctx) {
            const auto r = twb::import_hf(
                dir.toStdString(), run.toStdString(), name.toStdString(),
                [&ctx](const std::string& stage) { ctx.setProgress(-1, QString::fromStdString(stage)); });
            return summaryOf(r);
        },
        this, [this, run](const QString& summary) { importEnded(run, summary, QString()); },
        [this, run](const QString& error) { importEnded(run, QString(), error); });
    connect(job, &Job::progressed, this, [this](double, const QString& stage) {
        if (isBusy() && !stage.isEmpty())
            m_status->setText(stage);  // one line: the height set for "Importing…" holds it
    });
    // The engine's import takes no cancel (it writes a temporary folder renamed at the end).
    job->setCancellable(false);
}

void ImportDialog::importEnded(const QString& run, const QString& summary, const QString& error) {
    if (!isBusy())
        return;
    setBusy(false);
    if (error.isEmpty()) {
        m_status->setText(tr("Imported %1 into %2").arg(summary, QDir::toNativeSeparators(run)));
        growToFit();
        emit imported(run);
    } else {
        m_status->clear();  // "Importing … as …" did not happen
        showError(error);
        emit failed(error);
    }
}

void ImportDialog::showError(const QString& error) {
    m_error->setText(error);
    growToFit();
}

void ImportDialog::setBusy(bool busy) {
    setJobRunning(busy);
    m_progress->setVisible(busy);
    m_import->setEnabled(!busy);
    m_browse->setEnabled(!busy);
    m_folder->setEnabled(!busy);
    m_name->setEnabled(!busy);
}
